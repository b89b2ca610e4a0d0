package main

import (
	"errors"
	"strings"
	"testing"
)

// fullWriter is an output that refuses every write, as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestReportWriteFails: a report that cannot be written, in each format
// of each command that writes one, ends the run with exit status 3 and
// says so, never exit 0 as if it had been read.
func TestReportWriteFails(t *testing.T) {
	zip, _ := release(t, releaseTree(t, 0))
	for _, args := range [][]string{
		{"diff", zip, zip},
		{"diff", "--json", zip, zip},
		{"conform", "--run", `^labels\.invalid$`},
		{"conform", "--run", `^labels\.invalid$`, "--format", "json"},
		{"conform", "--run", `^labels\.invalid$`, "--format", "junit"},
	} {
		var stderr strings.Builder
		code := run(args, strings.NewReader(""), fullWriter{}, &stderr)
		if code != exitCannotRun || !strings.Contains(stderr.String(), "failed to write the report: no space left on device") {
			t.Errorf("catalogkit %s to a full disk: exit %d, stderr %q; want 3 and 'failed to write the report'", strings.Join(args, " "), code, stderr.String())
		}
	}
}
