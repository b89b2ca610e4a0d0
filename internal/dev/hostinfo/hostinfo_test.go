package hostinfo

import (
	"os"
	"regexp"
	"runtime"
	"strconv"
	"testing"
)

func TestMachine(t *testing.T) {
	m := Machine()
	want := regexp.MustCompile(`^.+ \(` + strconv.Itoa(runtime.NumCPU()) + ` CPUs(, [0-9]+ GiB)?, ` + runtime.GOOS + `/` + runtime.GOARCH + `\)$`)
	if !want.MatchString(m) {
		t.Errorf("Machine() = %q; want it to match %s", m, want)
	}
}

func TestLoad(t *testing.T) {
	l := Load()
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		if l != "unknown" {
			t.Errorf("Load() without /proc/loadavg = %q; want unknown", l)
		}
		return
	}
	if !regexp.MustCompile(`^[0-9.]+ [0-9.]+ [0-9.]+$`).MatchString(l) {
		t.Errorf("Load() = %q; want three load averages", l)
	}
}
