package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/testlib/jsonshapes"
)

// memoryBudget is the documented bound on peak resident memory for an input
// of n bytes: 10 times the input plus 64 MiB.
func memoryBudget(n int) int64 { return 10*int64(n) + 64<<20 }

// launcherEnv makes the test binary a launcher: it runs the command in its
// arguments and writes the command's exit status and peak RSS to the file
// the variable names. Linux charges a process, as its peak RSS, the peak of
// the process it was forked from; the launcher is small, while the test
// process has held every input.
const launcherEnv = "CATALOGKIT_TEST_RSS_REPORT"

func init() {
	report := os.Getenv(launcherEnv)
	if report == "" {
		return
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), launcherEnv+"=")
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(100)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	line := fmt.Sprintf("%d %d\n", cmd.ProcessState.ExitCode(), peak)
	if err := os.WriteFile(report, []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(100)
	}
	os.Exit(0)
}

// peakRSS runs bin with args through the launcher and returns its exit
// status, peak resident set size in bytes, and output.
func peakRSS(t *testing.T, bin string, args ...string) (code int, peak int64, out []byte) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(os.Args[0], append([]string{bin}, args...)...)
	cmd.Env = append(os.Environ(), launcherEnv+"="+report, "GOMEMLIMIT=off", "GOGC=100")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("launcher: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscan(string(data), &code, &peak); err != nil {
		t.Fatalf("launcher report %q: %v", data, err)
	}
	return code, peak, out
}

// TestMemoryAtTheLimit runs validate on every shape of jsonshapes at the
// 32 MiB input limit, as the catalog and as the arguments, discover on two of
// them, and validate on valid arguments of that size that the result echoes,
// each in a child process, and checks its peak resident set size (from the
// kernel's rusage) against 10 times the input plus 64 MiB. The child runs
// with the default GOGC and no GOMEMLIMIT, as a user's would.
func TestMemoryAtTheLimit(t *testing.T) {
	size := catalog.MaxInputBytes
	if s := os.Getenv("CATALOGKIT_MEMORY_TEST_SIZE"); s != "" {
		size, _ = strconv.Atoi(s)
	}
	bin := buildCatalogkit(t)
	dir := t.TempDir()
	synthetic, err := filepath.Abs(filepath.Join("..", "..", "conformance", "synthetic-catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		name  string
		input int // bytes
		args  []string
	}
	var runs []run
	write := func(name string, data []byte) (string, int) {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return file, len(data)
	}
	for _, s := range jsonshapes.Shapes {
		file, n := write(s.Name+".json", s.Generate(size))
		runs = append(runs,
			run{s.Name + "/validate-arguments", n, []string{"validate", "--catalog", synthetic, "--name", "page.read", "--arguments", "@" + file}},
			run{s.Name + "/validate-catalog", n, []string{"validate", "--catalog", file, "--name", "page.read", "--arguments", "{}"}})
		// discover loads the catalog as validate does: two shapes suffice,
		// the worst array and the one object.
		if s.Name == "numbers" || s.Name == "keys" {
			runs = append(runs, run{s.Name + "/discover", n, []string{"discover", "--catalog", file, "--family", "all"}})
		}
	}
	// Valid arguments echoed in the result: an integer of any magnitude.
	prefix, suffix := `{"query":"a","limit":`, "}"
	echo, n := write("echo.json", []byte(prefix+strings.Repeat("1", size-len(prefix)-len(suffix))+suffix))
	runs = append(runs, run{"big-integer/validate-echo", n, []string{"validate", "--catalog", synthetic, "--name", "page.find", "--arguments", "@" + echo}})

	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			code, peak, out := peakRSS(t, bin, r.args...)
			if code != 0 && code != 1 {
				t.Fatalf("exit status %d, want 0 or 1 (a result or a contract error):\n%.2000s", code, out)
			}
			budget := memoryBudget(r.input)
			t.Logf("peak RSS %s for %s of input: %.2f bytes per input byte", mib(peak), mib(int64(r.input)), float64(peak)/float64(r.input))
			if peak > budget {
				t.Errorf("peak RSS %s for %s of input, over the budget of 10×input+64 MiB = %s", mib(peak), mib(int64(r.input)), mib(budget))
			}
		})
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
