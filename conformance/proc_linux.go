package conformance

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2).
const prSetChildSubreaper = 36

// becomeSubreaper makes the runner a child subreaper: a process a port
// started that loses its parent (a grandchild in a new session, say) becomes
// the runner's child instead of init's, so the runner can reap it.
var becomeSubreaper = sync.OnceFunc(func() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
})

// endDescendants kills every process whose environment holds the port's
// marker, wherever it is (its group, another group, another session), and
// reaps those that became the runner's children, within about a second.
// leader, the port's own process, is left to its exec.Cmd to reap.
func endDescendants(marker string, leader int) {
	want := []byte(PortMarkerEnv + "=" + marker + "\x00")
	self := os.Getpid()
	killed := map[int]bool{}
	deadline := time.Now().Add(time.Second)
	for {
		found := false
		for _, pid := range processes() {
			if pid == self {
				continue
			}
			env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			if err != nil || !(bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...))) {
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
			found = true
			if pid != leader {
				killed[pid] = true
			}
		}
		for pid := range killed {
			if reap(pid) {
				delete(killed, pid)
			}
		}
		if !found && len(killed) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// reap waits for pid if it is a child that has ended, and reports whether
// pid is gone.
func reap(pid int) bool {
	var ws syscall.WaitStatus
	if got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid {
		return true
	}
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err != nil
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
// [PortMarkerEnv] from its environment became the runner's child when its
// parent died, the runner being a child subreaper.
func EndChildren() {
	self := os.Getpid()
	deadline := time.Now().Add(time.Second)
	for {
		children := 0
		for _, pid := range processes() {
			stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			if err != nil {
				continue
			}
			// "pid (comm) state ppid ...": comm may hold anything but its
			// last ')'.
			rest := stat[bytes.LastIndexByte(stat, ')')+1:]
			f := bytes.Fields(rest)
			if len(f) < 2 || string(f[1]) != strconv.Itoa(self) {
				continue
			}
			children++
			_ = syscall.Kill(pid, syscall.SIGKILL)
			reap(pid)
		}
		if children == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
