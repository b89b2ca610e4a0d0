package verify

import (
	"fmt"
	"io"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// Status is the outcome of one step.
type Status string

const (
	Passed Status = "passed"
	Failed Status = "failed"
	NotRun Status = "not run"
)

// A StepResult is the outcome of one step.
type StepResult struct {
	Step      string           `json:"step"`
	Status    Status           `json:"status"`
	Requested bool             `json:"requested"` // false: not asked for (no expected hash, --no-exec)
	Summary   string           `json:"summary"`   // what passed, or why it did not run
	Errors    []*archive.Error `json:"errors,omitempty"`
	Seconds   float64          `json:"seconds"` // time the step took
}

// Code returns the code of the step's first error, or "".
func (s *StepResult) Code() archive.Code {
	if len(s.Errors) == 0 {
		return ""
	}
	return s.Errors[0].Code
}

// say adds a phrase to the step's summary.
func (s *StepResult) say(phrase string) {
	if phrase == "" {
		return
	}
	if s.Summary != "" {
		s.Summary += "; "
	}
	s.Summary += phrase
}

func (s *StepResult) fail(errs ...*archive.Error) {
	s.Status = Failed
	s.Errors = errs
	s.Summary = errs[0].Error()
	if len(errs) > 1 {
		s.Summary += fmt.Sprintf(" (and %d more)", len(errs)-1)
	}
}

// A Report is the outcome of [Verify].
type Report struct {
	Archive  string `json:"archive"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256,omitempty"`
	Version  string `json:"version,omitempty"`
	Files    int    `json:"files,omitempty"`
	TreeHash string `json:"tree_hash,omitempty"`
	Kept     string `json:"kept_dir,omitempty"`
	// Sandbox says whether the tests step ran the tests in the sandbox
	// and, if not, exactly why.
	Sandbox string `json:"sandbox,omitempty"`
	// Unkept says why the --keep tree was removed: a step up to the repack
	// failed.
	Unkept string `json:"kept_dir_removed,omitempty"`
	// SignedBy is the ID of the --key that signed SHA256SUMS, and Commit the
	// git commit its signed provenance names, when the hash step checked them.
	SignedBy string `json:"signed_by,omitempty"`
	Commit   string `json:"commit,omitempty"`
	// Rebuild is the hash step's rebuild of the archive from a git checkout, when
	// --rebuild asked for one.
	Rebuild *Rebuild      `json:"rebuild,omitempty"`
	Steps   []*StepResult `json:"steps"`
}

// OK reports whether every requested step passed.
func (r *Report) OK() bool {
	for _, s := range r.Steps {
		if s.Requested && s.Status != Passed || s.Status == Failed {
			return false
		}
	}
	return true
}

// Step returns the result of the named step.
func (r *Report) Step(name string) *StepResult {
	for _, s := range r.Steps {
		if s.Step == name {
			return s
		}
	}
	return nil
}

// FailedStep returns the first failed step, or nil.
func (r *Report) FailedStep() *StepResult {
	for _, s := range r.Steps {
		if s.Status == Failed {
			return s
		}
	}
	return nil
}

// WriteText writes the report for people: the archive, then one line per
// step with its outcome, then every error of a failed step on its own line,
// then the verdict. It is what a [TextStream] writes, all at once.
func (r *Report) WriteText(w io.Writer) error {
	t := TextStream(w)
	for _, s := range r.Steps {
		t(r, s)
	}
	return r.WriteVerdict(w)
}

// TextStream returns an Options.OnStep that writes the text report as the
// steps end: the archive line before the first step's line, then each
// step's line and errors. [Report.WriteVerdict] ends it.
func TextStream(w io.Writer) func(r *Report, s *StepResult) {
	n := 0
	return func(r *Report, s *StepResult) {
		var b strings.Builder
		if n == 0 {
			fmt.Fprintf(&b, "archive  %s", r.Archive)
			if r.SHA256 != "" {
				fmt.Fprintf(&b, " (%d bytes, sha256 %s)", r.Size, r.SHA256)
			}
			b.WriteString("\n")
		}
		n++
		fmt.Fprintf(&b, "%d %-8s %-7s %s\n", n, s.Step, s.Status, s.Summary)
		if len(s.Errors) > 1 || len(s.Errors) == 1 && s.Status == Failed {
			for _, e := range s.Errors {
				fmt.Fprintf(&b, "    [%s] %s\n", e.Code, e.Error())
			}
			if s.Step == StepHash && r.Rebuild != nil {
				r.Rebuild.writeDiff(&b)
			}
		}
		// An archive controls names, file contents in diffs and its tests'
		// output: none of its control characters reaches the terminal.
		io.WriteString(w, termsafe.PrintableLines(b.String()))
	}
}

// WriteJSON writes the report as indented JSON. Beyond what encoding/json
// escapes, it writes C1 control characters, DEL and bidirectional
// formatting characters as \u escapes ([termsafe.JSON]), so that the JSON,
// like the text report, is safe to print on a terminal.
func (r *Report) WriteJSON(w io.Writer) error { return termsafe.WriteJSON(w, r) }

// WriteVerdict writes the lines that end the text report: where the tree
// was kept, and the result.
func (r *Report) WriteVerdict(w io.Writer) error {
	var b strings.Builder
	if r.Kept != "" {
		fmt.Fprintf(&b, "kept     extracted tree left in %s\n", r.Kept)
	}
	if t := r.Step(StepTests); t != nil && t.Status == Failed && r.Sandbox != "" {
		fmt.Fprintf(&b, "sandbox  %s\n", r.Sandbox)
	}
	if r.Unkept != "" {
		fmt.Fprintf(&b, "kept     nothing: %s\n", r.Unkept)
	}
	if r.OK() {
		b.WriteString("result   ok: every requested step passed")
		var not []string
		for _, s := range r.Steps {
			if s.Status == NotRun {
				not = append(not, s.Step)
			}
		}
		if len(not) > 0 {
			fmt.Fprintf(&b, " (not run: %s)", strings.Join(not, ", "))
		}
		b.WriteString("\n")
	} else if f := r.FailedStep(); f != nil {
		fmt.Fprintf(&b, "result   failed at step %s [%s]\n", f.Step, f.Code())
	} else {
		b.WriteString("result   failed: a requested step did not run\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
