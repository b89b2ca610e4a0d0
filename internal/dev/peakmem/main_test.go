package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// allocEnv makes the test binary a child that holds 200 MiB for a second.
const allocEnv = "PEAKMEM_TEST_ALLOC"

func TestMain(m *testing.M) {
	if os.Getenv(allocEnv) != "" {
		b := make([]byte, 200<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1 // every page touched, so resident
		}
		time.Sleep(time.Second)
		os.Stdout.Write(b[:1])
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func TestPeakOfATree(t *testing.T) {
	if _, err := os.Stat("/proc/self/smaps_rollup"); err != nil {
		t.Skip("no /proc/self/smaps_rollup: peakmem needs Linux 4.14 or later")
	}
	t.Setenv(allocEnv, "1")
	var stderr bytes.Buffer
	// The child is a grandchild (through sh), so that the tree, not only
	// the direct child, is measured.
	code := run([]string{"-every", "20ms", "--", "sh", "-c", `"$0"; exit $?`, os.Args[0]}, &stderr)
	if code != 3 {
		t.Errorf("exit %d, want the command's own 3\n%s", code, stderr.String())
	}
	m := regexp.MustCompile(`^wall \S+, peak ([0-9.]+) GB \(Pss; RSS ([0-9.]+) GB\), \d+ CPUs, load .* before, .* after: sh -c`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("report %q: not the documented line", stderr.String())
	}
	pss, _ := strconv.ParseFloat(m[1], 64)
	// At least the grandchild's 200 MiB; at most that plus the test
	// binaries, and the race detector's shadow when the tests run with it.
	if pss < 0.2 || pss > 1.5 {
		t.Errorf("peak %.2f GB, want 0.21 GB or a little more (the grandchild's 200 MiB and the test binaries)", pss)
	}
}

func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(nil, &stderr); code != 2 {
		t.Errorf("no command: exit %d, want 2", code)
	}
	if code := run([]string{"--", "/nonexistent/x"}, &stderr); code != 3 {
		t.Errorf("a command that cannot start: exit %d, want 3", code)
	}
}
