package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/conformance/fuzz"
	"github.com/google/go-cmdtest"
)

// init lets the test binary, run as catalogkit (CATALOGKIT_TEST_AS_MAIN=1)
// with the single argument broken-port, be a port with one bug: it answers
// INVALID_ARGUMENT_VALUE where the contract says INVALID_ARGUMENT_KEYS. It
// runs before TestMain, so the transcripts of testdata/fuzz can fuzz it.
func init() {
	if os.Getenv("CATALOGKIT_TEST_AS_MAIN") == "1" && len(os.Args) == 2 && os.Args[1] == "broken-port" {
		info := conformance.PortInfo{Name: "broken-keys", Language: "Go", Version: "0"}
		if err := conformance.Serve(os.Stdin, os.Stdout, keysAsValuesTarget{conformance.GoTarget("0")}, info); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if found := os.Getenv(foundEnv); found != "" && os.Getenv("CATALOGKIT_TEST_AS_MAIN") == "1" {
		fuzzProgressHook = func(p fuzz.Progress) {
			if p.Disagreements > 0 {
				os.WriteFile(found, nil, 0o644)
			}
		}
	}
	if os.Getenv("CATALOGKIT_TEST_AS_MAIN") == "1" && len(os.Args) == 2 && os.Args[1] == "stateful-port" {
		info := conformance.PortInfo{Name: "sticky-duplicate", Language: "Go", Version: "0"}
		if err := conformance.Serve(os.Stdin, os.Stdout, &stickyDuplicateTarget{Target: conformance.GoTarget("0")}, info); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// stickyDuplicateTarget is a port with state between calls: once it has
// answered DUPLICATE_TOOL, it answers INVALID_CATALOG where a result is
// due. Every call alone is answered right.
type stickyDuplicateTarget struct {
	conformance.Target
	seenDuplicate bool
}

func (s *stickyDuplicateTarget) Call(call []byte) ([]byte, error) {
	out, err := s.Target.Call(call)
	if s.seenDuplicate && bytes.HasPrefix(out, []byte(`{"result"`)) {
		return []byte(`{"error":"INVALID_CATALOG"}`), err
	}
	s.seenDuplicate = s.seenDuplicate || bytes.Contains(out, []byte(`"DUPLICATE_TOOL"`))
	return out, err
}

type keysAsValuesTarget struct{ conformance.Target }

// foundEnv names a file the runner (the test binary as catalogkit) creates
// once its fuzz run has found a disagreement: its own event, whatever the
// pipelining of calls and the machine's speed.
const foundEnv = "CATALOGKIT_TEST_FOUND"

func (k keysAsValuesTarget) Call(call []byte) ([]byte, error) {
	out, err := k.Target.Call(call)
	return bytes.ReplaceAll(out, []byte(`"INVALID_ARGUMENT_KEYS"`), []byte(`"INVALID_ARGUMENT_VALUE"`)), err
}

// TestFuzzCLI runs the transcripts of testdata/fuzz: conform --fuzz and
// --cases. Each runs in a folder holding ./catalogkit, a link to this test
// binary standing in for catalogkit, so that the command a transcript
// prints (the re-run line names the port's command) is the same on every
// machine.
func TestFuzzCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("conform --fuzz against real port processes: make test runs it")
	}
	ts, err := cmdtest.Read(filepath.Join("testdata", "fuzz"))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ts.Setup = func(dir string) error { return os.Symlink(exe, filepath.Join(dir, "catalogkit")) }
	// The closing line's time and rate, fixed so that the transcripts
	// hold.
	elapsed := fuzzElapsed
	fuzzElapsed = func(*fuzz.Result) time.Duration { return 2 * time.Second }
	defer func() { fuzzElapsed = elapsed }()
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	ts.Run(t, *update)
}
