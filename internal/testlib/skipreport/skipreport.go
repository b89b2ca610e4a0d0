// Package skipreport lets a test say, in the normal output of 'make test',
// that it skipped something that matters.
//
// 'go test ./...' shows a passing package as one "ok" line: a t.Skip
// message, or a warning on stderr, shows only with -v. So a test that skips
// because a tool is missing (Chromium, python3) also calls [Report] with one
// line saying what was not tested and the one command that installs what is
// missing. Report appends the line to the file named by $CATALOGKIT_SKIP_REPORT
// ([Env]); the Makefile's test target sets it (through internal/dev/testrun) and
// prints every line as a WARNING when the run ends. Under CI=true such tests
// fail instead of skipping.
//
// The package imports only the standard library, so that the packages an
// extracted release re-runs offline may use it in their tests.
package skipreport

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// Env is the environment variable that names the skip report file.
const Env = "CATALOGKIT_SKIP_REPORT"

// Report writes line as a WARNING on stderr and, when $CATALOGKIT_SKIP_REPORT
// names a file, appends it to that file as one line. Lines from concurrent
// test binaries do not interleave: each is one append of a few hundred
// bytes.
func Report(line string) {
	fmt.Fprintf(os.Stderr, "WARNING: %s\n", line)
	name := os.Getenv(Env)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.WriteString(line + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "WARNING: cannot write the skip report %s: %v\n", name, err)
	}
}

// Tool returns the path of the command name, or, when it is not installed,
// fails t under CI=true (a missing tool there is a broken CI image, not a
// choice) and otherwise reports line (what did NOT run and how to install
// the tool) once per test binary and skips t.
func Tool(t testing.TB, name, line string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed, and CI=true: %s", name, line)
	}
	reported.Do(func() { Report(line) })
	t.Skip(line)
	return ""
}

// reported makes Tool report once per test binary, not once per test.
var reported sync.Once
