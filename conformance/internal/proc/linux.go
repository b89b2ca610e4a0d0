//go:build linux

package proc

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Start starts a port's process in its own process group, as an ordinary
// process: not the first of a PID namespace of its own, where it would see
// its pid as 1 and so would every other port, and runtimes that name a file
// after their pid (the JVM's /tmp/hsperfdata_USER/PID) collide in a /tmp
// they share. What it leaves behind is ended by EndDescendants and, for a
// process that also cleared its environment, by EndChildren.
//
// It gets SIGKILL if the runner's thread that started it ends (the runner
// killed by a signal it cannot catch), so that a port that would wait on
// its input forever does not outlive the runner.
//
// It returns when the process started, in clock ticks since boot, for
// EndDescendants: no descendant of the port started before it.
func Start(cmd *exec.Cmd) (born uint64, err error) {
	SetGroup(cmd)
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	st, _ := statOf(cmd.Process.Pid) // a child not yet waited for: its stat is there
	return st.start, nil
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2).
const prSetChildSubreaper = 36

// BecomeSubreaper makes the runner a child subreaper: a process a port
// started that loses its parent (a grandchild in a new session, say) becomes
// the runner's child instead of init's, so the runner can reap it.
var BecomeSubreaper = sync.OnceFunc(func() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
})

// EndDescendants kills every process whose environment holds the port's
// marker, wherever it is (its group, another group, another session), and
// reaps those that became the runner's children, as well as every zombie
// child left of the port's process group (leader's), within sweepTime.
// leader, the port's own process, is left to its exec.Cmd to reap. Only
// the processes that started no earlier than born, the leader's start that
// Start returned, can be its descendants: only their environments are read,
// so that a sweep costs little however many other processes run.
func EndDescendants(marker string, leader int, born uint64) {
	want := []byte(MarkerEnv + "=" + marker + "\x00")
	self := os.Getpid()
	killed := map[int]bool{}
	sweep(sweepTime, func() (busy bool) {
		for _, pid := range processes() {
			st, ok := statOf(pid)
			if !ok || pid == self || pid == leader {
				continue
			}
			if st.pgrp == leader || killed[pid] {
				busy = true // still to die, or to reap
			}
			if st.state == 'Z' {
				if st.ppid == self && (st.pgrp == leader || killed[pid]) {
					reap(pid)
				}
				continue
			}
			if st.start < born {
				continue
			}
			env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			if err == nil && (bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...))) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				killed[pid], busy = true, true
			}
		}
		return busy
	})
}

// sweep runs once every 2 ms until it has found nothing to do quietSweeps
// times in a row, or for at most limit.
func sweep(limit time.Duration, once func() (busy bool)) {
	deadline := time.Now().Add(limit)
	for quiet := 0; quiet < quietSweeps && !time.Now().After(deadline); {
		if once() {
			quiet = 0
		} else {
			quiet++
		}
		if quiet < quietSweeps {
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// quietSweeps is how many sweeps in a row must find nothing before a sweep
// ends: a process that forks and exits in a loop can be missed by one
// reading of /proc (its child is born after the listing), not by several
// in a row, each of which kills what it finds.
const quietSweeps = 3

// sweepTime bounds one ending's sweeps: on a loaded machine a sweep of
// /proc can take longer than a generation of such a loop lives.
const sweepTime = 2 * time.Second

// reap waits for pid, a child that has ended.
func reap(pid int) {
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

type procStat struct {
	state      byte
	ppid, pgrp int
	start      uint64 // clock ticks since boot
}

// statOf reads a process's state, parent, group and start time from /proc.
func statOf(pid int) (procStat, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// "pid (comm) state ppid pgrp ...", the start time being the 22nd
	// field (proc_pid_stat(5)): comm may hold anything but its last ')'.
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	return procStat{state: f[0][0], ppid: ppid, pgrp: pgrp, start: start}, err1 == nil && err2 == nil && err3 == nil
}

// processes lists the process ids in /proc.
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

// EndChildren kills and reaps every child process of the calling process,
// within about a second; elsewhere than on Linux it does nothing. It is the
// last sweep of a program whose only children are ports (catalogkit conform
// calls it before it exits): a descendant of a port that removed
// [MarkerEnv] from its environment became the runner's child when its
// parent died, the runner being a child subreaper.
func EndChildren() {
	self := os.Getpid()
	sweep(time.Second, func() bool {
		children := 0
		for _, pid := range processes() {
			if st, ok := statOf(pid); ok && st.ppid == self {
				children++
				_ = syscall.Kill(pid, syscall.SIGKILL)
				reap(pid)
			}
		}
		return children > 0
	})
}
