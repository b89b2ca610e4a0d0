// Package hostinfo describes the machine a benchmark or a measurement ran
// on, for the tables and reports that quote it: the CPU, the memory and the
// load, read from /proc where there is one.
package hostinfo

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes this computer without naming it: the CPU model, the
// number of CPUs and the memory.
func Machine() string {
	model := runtime.GOARCH
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.Join(strings.Fields(v), " ")
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
					mem = fmt.Sprintf(", %.0f GiB", kb/(1<<20))
				}
			}
		}
	}
	return fmt.Sprintf("%s (%d CPUs%s, %s/%s)", model, runtime.NumCPU(), mem, runtime.GOOS, runtime.GOARCH)
}

// Load is the load average over 1, 5 and 15 minutes, as /proc/loadavg says
// it ("0.52 0.61 0.70"), or "unknown" where there is none.
func Load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
