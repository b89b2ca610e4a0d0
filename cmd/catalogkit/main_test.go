package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmdtest"
)

var update = flag.Bool("update", false, "update the .ct transcripts in testdata with the actual output")

// TestCLI runs the go-cmdtest transcripts in testdata/*.ct with catalogkit
// running in-process. ${ROOT} is the repository root and ${REPOCATALOG} the
// synthetic catalog in it; ${CATALOG} is a copy of that catalog in each
// transcript's own directory, which go-cmdtest prints as ${ROOTDIR}, so
// that no transcript shows where the repository happens to be.
func TestCLI(t *testing.T) {
	ts, err := cmdtest.Read("testdata")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOT", root)
	synthetic := filepath.Join(root, "conformance", "synthetic-catalog.json")
	data, err := os.ReadFile(synthetic)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("REPOCATALOG", synthetic)
	ts.Setup = func(dir string) error {
		copyPath := filepath.Join(dir, "synthetic-catalog.json")
		os.Setenv("CATALOG", copyPath) // restored by t.Setenv below
		return os.WriteFile(copyPath, data, 0o644)
	}
	t.Setenv("CATALOG", "")
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	ts.Run(t, *update)
}

// TestPanicExitsThree checks that a panic in a command is an internal error
// with exit status 3 and a message that says so, never a crash whose status
// could read as bad usage.
func TestPanicExitsThree(t *testing.T) {
	for _, interruptible := range []bool{false, true} {
		var stderr bytes.Buffer
		c := &cli{stdout: io.Discard, stderr: &stderr}
		boom := command{name: "boom", run: func(*cli, []string) int { panic("boom") }, interruptible: interruptible}
		var code int
		if interruptible {
			code = c.runInterruptible(boom, nil)
		} else {
			code = c.runRecovered(boom, nil)
		}
		if code != exitCannotRun {
			t.Errorf("interruptible=%v: exit status %d, want %d", interruptible, code, exitCannotRun)
		}
		if msg := stderr.String(); !strings.HasPrefix(msg, "catalogkit: error: internal error in boom: boom\n") || !strings.Contains(msg, "hint: this is a bug in catalogkit") {
			t.Errorf("interruptible=%v: message:\n%s", interruptible, msg)
		}
	}
}
