// Package sysmem owns what a run may plan on of the machine's memory: what
// the kernel says it can give a new run, capped by the environment.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Available gives the bytes of memory the machine can give a new run
// (MemAvailable of /proc/meminfo), or 0 where it cannot tell. The
// environment variable TATETI_MEMORY (Cap) caps it, for a run that must
// leave room to others; a cap it cannot read caps nothing here, and
// commands refuse it before any work (Cap says why).
func Available() uint64 {
	avail := memAvailable()
	if n, set, err := Cap(); set && err == nil && (avail == 0 || n < avail) {
		return n
	}
	return avail
}

// memAvailable reads MemAvailable from /proc/meminfo.
func memAvailable() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}
