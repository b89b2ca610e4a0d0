package sandbox

import "syscall"

// rlimitNproc is RLIMIT_NPROC of setrlimit(2).
const rlimitNproc = 6

// hardProcs returns the caller's hard RLIMIT_NPROC: the sandbox cannot
// raise its limit above it.
func hardProcs() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(rlimitNproc, &r); err != nil || r.Max > 1<<30 {
		return 1 << 30
	}
	return int(r.Max)
}
