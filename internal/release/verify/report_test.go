package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
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

// TestJSONReportEscapes checks that the JSON report escapes what the text
// report escapes: C1 controls and bidirectional formatting characters in an
// entry name an archive controls are \u escapes, and the document still
// decodes to the very name.
func TestJSONReportEscapes(t *testing.T) {
	hostile := "catalogkit-0.1.0/a\u202etxt.go\u0085\u009b31m\u2066"
	rep := &Report{Archive: "a.zip", Steps: []*StepResult{{
		Step: StepExtract, Status: Failed, Requested: true, Summary: "bad name",
		Errors: []*archive.Error{archive.Errorf(archive.CodeIO, hostile, "bad name")},
	}}}
	var b strings.Builder
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range out {
		if r != '\n' && termsafe.Unsafe(r) {
			t.Fatalf("the JSON report holds raw %+q:\n%s", r, out)
		}
	}
	var back struct {
		Steps []struct {
			Errors []struct {
				Entry string `json:"entry"`
			} `json:"errors"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("the JSON report does not decode: %v\n%s", err, out)
	}
	if got := back.Steps[0].Errors[0].Entry; got != hostile {
		t.Errorf("entry decodes to %q, want %q", got, hostile)
	}
}
