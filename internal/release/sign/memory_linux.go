package sign

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// memoryLimits returns what the address-space limit (ulimit -v) and the
// cgroup's memory.max leave this process, the limits that are set.
func memoryLimits() []memoryLimit {
	var out []memoryLimit
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err == nil && r.Cur != ^uint64(0) {
		if used := procStatusKB("VmSize"); used >= 0 {
			out = append(out, memoryLimit{"the address-space limit (ulimit -v " + strconv.FormatUint(r.Cur>>10, 10) + ")", int64(r.Cur) - used})
		}
	}
	if m := cgroupMemoryMax(); m >= 0 {
		if used := procStatusKB("VmRSS"); used >= 0 {
			out = append(out, memoryLimit{"the cgroup's memory.max (" + strconv.FormatInt(m>>20, 10) + " MiB)", m - used})
		}
	}
	return out
}

// procStatusKB returns a field of /proc/self/status in bytes, or -1.
func procStatusKB(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == field+":" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// cgroupMemoryMax returns the memory.max of this process's cgroup (v2), or
// -1 when it has none or it cannot be read.
func cgroupMemoryMax() int64 {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			m, err := os.ReadFile("/sys/fs/cgroup" + p + "/memory.max")
			if err != nil {
				return -1
			}
			n, err := strconv.ParseInt(strings.TrimSpace(string(m)), 10, 64)
			if err != nil { // "max"
				return -1
			}
			return n
		}
	}
	return -1
}
