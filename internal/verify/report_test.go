package verify

import (
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/archive"
)

// TestTextReportEscapes checks that what an archive controls (names, its
// tests' output, text in a rebuild's diff) reaches the text report with its
// control characters escaped: no escape sequence can clear the screen or
// forge a line.
func TestTextReportEscapes(t *testing.T) {
	hostile := "\x1b[2J\x1b]0;pwned\x07\u202e\x9b31m"
	rep := &Report{Archive: "a.zip", Steps: []*StepResult{{
		Step: StepTests, Status: Failed, Requested: true, Summary: "case failed: " + hostile,
		Errors: []*archive.Error{archive.Errorf(CodeTestsFailed, "case "+hostile, "case failed: %s", hostile)},
	}}}
	var b strings.Builder
	rep.WriteText(&b)
	out := b.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b"} {
		if strings.Contains(out, bad) {
			t.Errorf("the report holds %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, `\x1b[2J`) {
		t.Errorf("the escape is not shown escaped:\n%s", out)
	}
}
