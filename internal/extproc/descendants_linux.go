package extproc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// subreaper makes this process the subreaper of its descendants, once: a
// descendant whose parent dies is then reparented here, not to init, and can
// be reaped here. Linux's PR_SET_CHILD_SUBREAPER.
var subreaper sync.Once

func becomeSubreaper() {
	subreaper.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// killMarked kills every process whose environment holds mark (a program's
// and every descendant's that kept the environment it was given, in its
// process group or out of it, setsid or not), but main, the program itself,
// which its own Wait reaps. Those that were reparented here are reaped. It
// goes on until none is left, as killing one may orphan others.
func killMarked(mark string, main int) {
	want := []byte(mark + "\x00")
	self := os.Getpid()
	for range 8 {
		found := false
		for _, pid := range processes() {
			if pid == self || pid == main || !hasEnv(pid, want) {
				continue
			}
			found = true
			_ = syscall.Kill(pid, syscall.SIGKILL)
			if parentOf(pid) == self {
				go func() { _, _ = unix.Wait4(pid, nil, 0, nil) }()
			}
		}
		if !found {
			return
		}
	}
}

// processes lists the ids of the processes in /proc.
func processes() []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// hasEnv reports whether the environment of process pid holds entry, a
// NAME=value followed by its NUL. A process that ended, or that this one
// may not read, holds nothing.
func hasEnv(pid int, entry []byte) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && (bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...)))
}

// parentOf gives the parent of process pid, 0 when it cannot be read.
func parentOf(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: fields start after
	// its last ')'. Then: state, ppid.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	fields := strings.Fields(string(rest))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}
