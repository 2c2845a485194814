package extproc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// memoryEvery is how often the memory of a program with a bound is read.
const memoryEvery = 50 * time.Millisecond

// groupMemory gives the resident memory, in bytes, of the processes of
// process group pgid: the program and the children it started in its group.
func groupMemory(pgid int) uint64 {
	var total uint64
	page := uint64(os.Getpagesize())
	for _, pid := range processes() {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// After the command name's last ')': state (3), ppid, pgrp (5), ...,
		// rss (24), counted from 1 as proc(5) does.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 22 {
			continue
		}
		if g, _ := strconv.Atoi(fields[2]); g != pgid {
			continue
		}
		rss, _ := strconv.ParseUint(fields[21], 10, 64)
		total += rss * page
	}
	return total
}

// watchMemory reads the memory of p's process group every memoryEvery
// until the program exits; past p.cfg.Memory it records the error and
// stops the program.
func (p *Proc) watchMemory() {
	if p.cfg.Memory == 0 {
		return
	}
	t := time.NewTicker(memoryEvery)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
			if used := groupMemory(p.cmd.Process.Pid); used > p.cfg.Memory {
				p.over.Store(&Error{What: overMemory(p.cfg.Memory), OverMemory: true})
				p.killAll()
				return
			}
		}
	}
}
