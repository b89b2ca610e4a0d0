package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/jsonshapes"
)

// memoryBudget is the documented bound on peak resident memory for an input
// of n bytes: 10 times the input plus 64 MiB.
func memoryBudget(n int) int64 { return 10*int64(n) + 64<<20 }

// TestMemoryAtTheLimit runs discover and validate on every shape of
// jsonshapes at the 32 MiB input limit, as the catalog and as the arguments,
// each in a child process, and checks its peak resident set size (from the
// kernel's rusage) against 10 times the input plus 64 MiB. The child runs
// with GOMEMLIMIT unset and the default GOGC, as a user's would.
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
	for _, s := range jsonshapes.Shapes {
		file := filepath.Join(dir, s.Name+".json")
		data := s.Generate(size)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		runs := []struct {
			name string
			args []string
		}{
			{"validate-arguments", []string{"validate", "--catalog", synthetic, "--name", "page.read", "--arguments", "@" + file}},
			{"validate-catalog", []string{"validate", "--catalog", file, "--name", "page.read", "--arguments", "{}"}},
			{"discover", []string{"discover", "--catalog", file, "--family", "all"}},
		}
		for _, r := range runs {
			t.Run(s.Name+"/"+r.name, func(t *testing.T) {
				cmd := exec.Command(bin, r.args...)
				cmd.Env = append(os.Environ(), "GOMEMLIMIT=off", "GOGC=100")
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					t.Fatal(err)
				}
				if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
					t.Fatalf("exit status %d, want 0 or 1 (a result or a contract error):\n%.2000s", code, out)
				}
				peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
				budget := memoryBudget(len(data))
				t.Logf("peak RSS %s for %s of input: %.2f bytes per input byte", mib(peak), mib(int64(len(data))), float64(peak)/float64(len(data)))
				if peak > budget {
					t.Errorf("peak RSS %s for %s of input, over the budget of 10×input+64 MiB = %s", mib(peak), mib(int64(len(data))), mib(budget))
				}
			})
		}
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
