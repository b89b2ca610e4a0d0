package conformance

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteText writes the report for people: a line naming the implementation,
// one line per case ("PASS id", "FAIL id: title"), for each case that did
// not pass the failing call and its (-want +got) diff or what happened, and
// the final line "N passed, N failed" (", N skipped" when any were).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.Port.Name == "" {
		fmt.Fprintf(&b, "port: no handshake\n")
	} else {
		fmt.Fprintf(&b, "port: %s %s (%s)\n", r.Port.Name, r.Port.Version, r.Port.Language)
	}
	for _, c := range r.Cases {
		if c.Status == Pass {
			fmt.Fprintf(&b, "%-7s %s\n", c.Status, c.ID)
			continue
		}
		fmt.Fprintf(&b, "%-7s %s: %s\n", c.Status, c.ID, c.Message)
		for _, chk := range c.Checks {
			if chk.Status == Pass {
				continue
			}
			fmt.Fprintf(&b, "    check %d", chk.Index)
			if chk.Note != "" {
				fmt.Fprintf(&b, " (%s)", chk.Note)
			}
			fmt.Fprintf(&b, "\n    call: %s\n", chk.Call)
			switch {
			case chk.Diff != "":
				fmt.Fprintf(&b, "    (-want +got):\n%s", indent(chk.Diff, "        "))
				if chk.Detail != "" {
					fmt.Fprintf(&b, "    detail: %s\n", chk.Detail)
				}
			case chk.Message != "":
				fmt.Fprintf(&b, "    %s: %s\n", strings.ToLower(string(chk.Status)), chk.Message)
			}
		}
		if c.Stderr != "" {
			fmt.Fprintf(&b, "    stderr (tail):\n%s", indent(c.Stderr, "        "))
		}
	}
	r.Text.writeText(&b)
	fmt.Fprintf(&b, "%s\n", r.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// writeText writes the text level's part of the text report: a heading,
// then one line per text case, and for one that did not pass its line, the
// (-want +got) diff or what happened.
func (t *TextReport) writeText(b *strings.Builder) {
	switch {
	case t == nil:
		return
	case t.OptedOut:
		fmt.Fprintf(b, "text level: opted out (the port's hello says \"text_level\": false)\n")
		return
	}
	fmt.Fprintf(b, "text level:\n")
	for _, c := range t.Cases {
		if c.Status == Pass {
			fmt.Fprintf(b, "%-7s %s\n", c.Status, c.ID)
			continue
		}
		fmt.Fprintf(b, "%-7s %s: %s\n", c.Status, c.ID, c.Message)
		for _, chk := range c.Checks {
			if chk.Line != "" {
				fmt.Fprintf(b, "    line: %s\n", chk.Line)
			}
			switch {
			case chk.Diff != "":
				fmt.Fprintf(b, "    (-want +got):\n%s", indent(chk.Diff, "        "))
			case chk.Message != "":
				fmt.Fprintf(b, "    %s: %s\n", strings.ToLower(string(chk.Status)), chk.Message)
			}
		}
		if c.Stderr != "" {
			fmt.Fprintf(b, "    stderr (tail):\n%s", indent(c.Stderr, "        "))
		}
	}
}

// Summary returns the final line: "N passed, N failed", plus ", N skipped"
// when any case was skipped, then the text level apart: "; text level
// 17/17" (text cases passed of those run) or "; text level: opted out".
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
	if r.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", r.Skipped)
	}
	switch t := r.Text; {
	case t == nil:
	case t.OptedOut:
		s += "; text level: opted out"
	default:
		s += fmt.Sprintf("; text level %d/%d", t.Passed, len(t.Cases))
	}
	return s
}

func indent(text, prefix string) string {
	text = strings.TrimRight(text, "\n")
	return prefix + strings.ReplaceAll(text, "\n", "\n"+prefix) + "\n"
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteJUnit writes the report as JUnit XML, one testcase per case: FAIL as
// a failure, ERROR, CRASH and TIMEOUT as an error, SKIP as skipped.
func (r *Report) WriteJUnit(w io.Writer) error {
	type result struct {
		Type    string `xml:"type,attr"`
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string  `xml:"name,attr"`
		Classname string  `xml:"classname,attr"`
		Time      string  `xml:"time,attr"`
		Failure   *result `xml:"failure,omitempty"`
		Error     *result `xml:"error,omitempty"`
		Skipped   *result `xml:"skipped,omitempty"`
		SystemErr string  `xml:"system-err,omitempty"`
	}
	type testsuite struct {
		XMLName  xml.Name   `xml:"testsuite"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	suite := testsuite{Name: "catalogkit-conformance " + r.Port.Name, Time: seconds(r.Elapsed.Seconds())}
	cases, classes := r.Cases, []string{}
	for range r.Cases {
		classes = append(classes, "conformance")
	}
	if t := r.Text; t != nil {
		// The text level's cases are testcases of their own class; a text
		// level the port opted out of is one skipped testcase, never a pass.
		textCases := t.Cases
		if t.OptedOut {
			textCases = []*CaseResult{{ID: "text", Title: "the text level", Status: Skip, Message: "text level: opted out"}}
		}
		cases = append(slices.Clip(cases), textCases...)
		for range textCases {
			classes = append(classes, "conformance.text")
		}
	}
	suite.Tests = len(cases)
	for i, c := range cases {
		tc := testcase{Name: c.ID, Classname: classes[i], Time: seconds(c.Elapsed.Seconds()), SystemErr: c.Stderr}
		var detail strings.Builder
		for _, chk := range c.Checks {
			if chk.Status == Pass {
				continue
			}
			if chk.Line != "" {
				fmt.Fprintf(&detail, "%s\nline: %s\n", chk.Status, chk.Line)
			} else {
				fmt.Fprintf(&detail, "check %d: %s\ncall: %s\n", chk.Index, chk.Status, chk.Call)
			}
			if chk.Diff != "" {
				fmt.Fprintf(&detail, "(-want +got):\n%s", chk.Diff)
			} else if chk.Message != "" {
				fmt.Fprintf(&detail, "%s\n", chk.Message)
			}
		}
		res := &result{Type: string(c.Status), Message: c.Message, Text: detail.String()}
		switch c.Status {
		case Pass:
		case Fail:
			tc.Failure = res
			suite.Failures++
		case Skip:
			tc.Skipped = res
			suite.Skipped++
		default:
			tc.Error = res
			suite.Errors++
		}
		suite.Cases = append(suite.Cases, tc)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(suite); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
