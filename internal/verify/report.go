package verify

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for people: the archive, then one line per
// step with its outcome, then every error of a failed step on its own line,
// then the verdict.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "archive  %s", r.Archive)
	if r.SHA256 != "" {
		fmt.Fprintf(&b, " (%d bytes, sha256 %s)", r.Size, r.SHA256)
	}
	b.WriteString("\n")
	for i, s := range r.Steps {
		fmt.Fprintf(&b, "%d %-8s %-7s %s\n", i+1, s.Step, s.Status, s.Summary)
		if len(s.Errors) > 1 || len(s.Errors) == 1 && s.Status == Failed {
			for _, e := range s.Errors {
				fmt.Fprintf(&b, "    [%s] %s\n", e.Code, e.Error())
			}
		}
	}
	if r.Kept != "" {
		fmt.Fprintf(&b, "kept     extracted tree left in %s\n", r.Kept)
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
