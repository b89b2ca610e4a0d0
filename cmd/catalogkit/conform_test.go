package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
)

// TestMain lets the test binary stand in for catalogkit: run with
// CATALOGKIT_TEST_AS_MAIN=1 it is catalogkit, so transcripts can start
// "${CATALOGKIT} port" as a real child process without building anything.
func TestMain(m *testing.M) {
	if os.Getenv("CATALOGKIT_TEST_EMPTY_PORT") == "1" {
		// A wrong port: every call "succeeds" with an empty list.
		info := conformance.PortInfo{Name: "empty", Language: "Go", Version: "0"}
		if err := conformance.Serve(os.Stdin, os.Stdout, emptyTarget{}, info); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv("CATALOGKIT_TEST_AS_MAIN") == "1" {
		os.Args[0] = "catalogkit" // as the transcripts show it, not the test binary's path
		os.Exit(Main())
	}
	exe, err := os.Executable()
	if err == nil {
		os.Setenv("CATALOGKIT", exe)
		os.Setenv("CATALOGKIT_TEST_AS_MAIN", "1") // inherited by children only
	}
	os.Exit(m.Run())
}

type emptyTarget struct{}

func (emptyTarget) Info() conformance.PortInfo  { return conformance.PortInfo{} }
func (emptyTarget) Call([]byte) ([]byte, error) { return []byte(`{"result":[]}`), nil }

// TestConformWrongPort runs catalogkit conform against a port that answers
// every call with an empty list: every case must fail, with a line diff
// (-want +got), and the exit status must be 1.
func TestConformWrongPort(t *testing.T) {
	if testing.Short() {
		t.Skip("a wrong port through every level, 32 MiB lines included: make test runs it")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("CATALOGKIT_TEST_EMPTY_PORT", "1") // for the child only: TestMain has run
	var stdout, stderr strings.Builder
	// The default call timeout grows with the line: a 32 MiB line gets
	// 37 s, which a loaded machine does not reach for a port that answers.
	code := run([]string{"conform", "--", exe}, strings.NewReader(""), &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Errorf("exit status %d, want 1\nstderr: %s", code, stderr.String())
	}
	for _, want := range []string{
		"port: empty 0 (Go)\n",
		"FAIL    discover.name.unknown: checks 0, 1, 2, 3, 4, 5, 6, 7, 8: outcome differs\n",
		"    (-want +got):\n",
		"        -   \"error\": \"TOOL_NOT_AVAILABLE_IN_FAMILY\"\n",
		"        +   \"result\": []\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// The empty port is served by conformance.Serve, whose text layer
	// refuses what it must; the lines it must read get [] and fail.
	text, err := conformance.TextCases()
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, c := range text {
		if c.Refused() {
			refused++
		}
	}
	protocol, err := conformance.ProtocolCases()
	if err != nil {
		t.Fatal(err)
	}
	// The protocol level's rules are Serve's; only the cases with a line
	// whose call needs the contract's answer (or the target's own
	// not_implemented) fail, and the summary counts exactly those.
	needsContract := []string{
		"absent.discover.no-catalog", "absent.discover.no-family", "absent.validate.no-arguments", "absent.validate.no-catalog",
		"call.unknown-op", "line-limit.at", "line-limit.at-with-cr", "mutate-and-repeat.discover-with-arguments", "mutate-and-repeat.inner-error",
		"line-limit.pipelined", "seq.repeated", "state.canonical-equivalence", "state.effect", "state.field-order", "state.field-type", "state.hash-collision",
		"state.mutate-empty-required", "state.true-after-one",
	}
	for _, id := range needsContract {
		if !strings.Contains(out, "FAIL    protocol."+id+": ") {
			t.Errorf("output lacks the failure of protocol.%s, whose call needs the contract's answer", id)
		}
	}
	format2, err := conformance.Format2Cases()
	if err != nil {
		t.Fatal(err)
	}
	// Every format 2 case needs a format-2 catalog read: the empty port
	// fails them all.
	last := fmt.Sprintf("\n0 passed, 21 failed; format 2 level 0/%d; text level %d/%d; protocol level %d/%d\n", len(format2), refused, len(text), len(protocol)-len(needsContract), len(protocol))
	if !strings.HasSuffix(out, last) {
		t.Errorf("output ends with %q, want the line %q", out[max(0, len(out)-80):], last)
	}
	if !strings.Contains(out, "FAIL    text.number.big-integer: outcome differs\n") {
		t.Errorf("output lacks the text case the empty port fails")
	}
}

// BenchmarkStdio runs all 21 cases over stdin/stdout against one
// long-lived port process per sub-benchmark: catalogkit port (built in the
// setup) and, when conformance/ports/python/catalog_port.py exists, the
// Python port. Besides the mean (ns/op) it reports the median wall time of
// one run of the suite, ms-median/suite.
func BenchmarkStdio(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	cases, err := conformance.Cases()
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "catalogkit")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CATALOGKIT_TEST_AS_MAIN=")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	ports := []struct {
		name    string
		command []string
		needs   string // a file that must exist
	}{
		{"go", []string{bin, "port"}, bin},
		{"python", []string{"python3", filepath.Join(root, "conformance", "ports", "python", "catalog_port.py")},
			filepath.Join(root, "conformance", "ports", "python", "catalog_port.py")},
	}
	for _, p := range ports {
		b.Run(p.name, func(b *testing.B) {
			if _, err := os.Stat(p.needs); err != nil {
				b.Skipf("no port: %v", err)
			}
			if _, err := exec.LookPath(p.command[0]); err != nil {
				b.Skipf("no %s: %v", p.command[0], err)
			}
			port := &conformance.Port{Command: p.command, Env: append(os.Environ(), "CATALOGKIT_TEST_AS_MAIN=")}
			defer port.Close()
			runner := &conformance.Runner{Target: port}
			if rep := runner.RunCases(cases); !rep.OK() || rep.Passed != len(cases) {
				b.Fatalf("warm-up run: %s", rep.Summary()) // also starts the port
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				rep := runner.RunCases(cases)
				times = append(times, time.Since(start))
				if !rep.OK() || rep.Passed != len(cases) {
					b.Fatalf("run: %s", rep.Summary())
				}
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median/suite")
		})
	}
}
