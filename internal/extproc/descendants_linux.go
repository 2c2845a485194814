package extproc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

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
//
// A process part way through exec has no environment yet: Linux shows it
// empty until the new program's stack is laid out, after the parent that
// started it may already have gone. One that was reparented here and reads
// empty is looked at again a moment later, for up to execWait in all, so
// that a child started just before its parent's exit is not missed.
func killMarked(mark string, main int) {
	want := []byte(mark + "\x00")
	deadline := time.Now().Add(execWait)
	for kills := 0; kills < 8; {
		found, pending := killRound(want, os.Getpid(), main)
		switch {
		case found:
			kills++
		case pending && time.Now().Before(deadline):
			time.Sleep(20 * time.Millisecond)
		default:
			return
		}
	}
}

// execWait is how long killMarked looks again at a process reparented here
// that reads as part way through exec.
var execWait = time.Second

// killRound kills, once, every process but self and main whose environment
// holds want, and says whether it found any, and whether a process
// reparented to self read as part way through exec (pending).
func killRound(want []byte, self, main int) (found, pending bool) {
	for _, pid := range processes() {
		if pid == self || pid == main {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		switch {
		case err != nil: // ended, or not ours to read
		case len(env) == 0:
			state, parent := statOf(pid)
			pending = pending || (parent == self && state != 'Z')
		case holds(env, want):
			found = true
			_ = syscall.Kill(pid, syscall.SIGKILL)
			if _, parent := statOf(pid); parent == self {
				go func() { _, _ = unix.Wait4(pid, nil, 0, nil) }()
			}
		}
	}
	return found, pending
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

// holds reports whether env, a process's environment as /proc shows it,
// holds entry, a NAME=value followed by its NUL.
func holds(env, entry []byte) bool {
	return bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...))
}

// statOf gives the state of process pid (R, S, Z...) and its parent; 0
// and 0 when they cannot be read.
func statOf(pid int) (state byte, parent int) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	// The command name, in parentheses, may hold spaces: fields start after
	// its last ')'. Then: state, ppid.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	fields := strings.Fields(string(rest))
	if len(fields) < 2 || len(fields[0]) != 1 {
		return 0, 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return fields[0][0], ppid
}
