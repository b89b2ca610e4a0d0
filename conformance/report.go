package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// WriteText writes the report for people: a line naming the implementation,
// one line per case ("PASS id", "FAIL id: title"), for each case that did
// not pass the rules it checks, the failing call and its (-want +got) diff
// or what happened, one
// line for the cases not run after the port failed, and the final line "N
// passed, N failed" (", N skipped" when any were). Everything a port
// controls (its name, stderr, messages, details) is escaped by [termsafe.Printable],
// so that nothing it sends reaches the terminal as a control sequence. A
// number longer than 600 bytes in a call, a diff, a message or a detail is
// cut in the middle as a text case's line is ([cutNumbers]).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.Port.Name == "" {
		fmt.Fprintf(&b, "port: no handshake\n")
	} else {
		fmt.Fprintf(&b, "port: %s %s (%s)\n", termsafe.Printable(r.Port.Name), termsafe.Printable(r.Port.Version), termsafe.Printable(r.Port.Language))
	}
	notRun := 0
	for _, c := range r.Cases {
		if c.NotRun {
			notRun++
			continue
		}
		if c.Status == Pass {
			fmt.Fprintf(&b, "%-7s %s\n", c.Status, c.ID)
			continue
		}
		fmt.Fprintf(&b, "%-7s %s: %s\n", c.Status, c.ID, termsafe.Printable(cutNumbers(c.Message)))
		writeRule(&b, c)
		for _, chk := range c.Checks {
			if chk.Status == Pass {
				continue
			}
			fmt.Fprintf(&b, "    check %d", chk.Index)
			if chk.Note != "" {
				fmt.Fprintf(&b, " (%s)", termsafe.Printable(chk.Note))
			}
			if chk.Call == nil && chk.Line != "" { // a line of a sequence case
				fmt.Fprintf(&b, "\n    line: %s\n", termsafe.Printable(cutNumbers(chk.Line)))
			} else {
				fmt.Fprintf(&b, "\n    call: %s\n", termsafe.Printable(cutNumbers(string(chk.Call))))
			}
			switch {
			case chk.Diff != "":
				fmt.Fprintf(&b, "    (-want +got):\n%s", indent(termsafe.PrintableLines(cutNumbers(chk.Diff)), "        "))
				if chk.Detail != "" {
					fmt.Fprintf(&b, "    detail: %s\n", termsafe.Printable(cutNumbers(chk.Detail)))
				}
			case chk.Message != "":
				fmt.Fprintf(&b, "    %s: %s\n", strings.ToLower(string(chk.Status)), termsafe.Printable(cutNumbers(chk.Message)))
			}
			if chk.Diff != "" && chk.Second != nil {
				fmt.Fprintf(&b, "    %s\n", termsafe.Printable(cutNumbers(chk.Message)))
			}
		}
		if c.Stderr != "" {
			fmt.Fprintf(&b, "    stderr (tail):\n%s", indent(termsafe.PrintableLines(c.Stderr), "        "))
		}
	}
	if notRun > 0 {
		// The reason is the run's error (Fatal), which the caller reports
		// once, where errors go.
		fmt.Fprintf(&b, "%-7s %d %s: the port failed\n", "NOT RUN", notRun, plural(notRun, "case"))
	}
	for _, l := range r.levels() {
		l.writeText(&b)
	}
	fmt.Fprintf(&b, "%s\n", r.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRule writes the rules a case that did not pass checks, as its file
// cites them, with the documents' paths from the repository's root ("rule:
// conformance/SPEC.md §7 V4 (keys)"), so that a porter reads the rule
// beside the failure.
func writeRule(b *strings.Builder, c *CaseResult) {
	if c.Spec != "" && !c.NotRun {
		fmt.Fprintf(b, "    rule: %s\n", docPaths.Replace(c.Spec))
	}
}

// docPaths gives the documents a case cites by name their paths.
var docPaths = strings.NewReplacer("SPEC.md", "conformance/SPEC.md", "PROTOCOL.md", "conformance/PROTOCOL.md")

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// writeText writes the text level's part of the text report: a heading,
// then one line per text case, and for one that did not pass its line, the
// (-want +got) diff or what happened.
func (l level) writeText(b *strings.Builder) {
	t := l.report
	switch {
	case t == nil:
		return
	case t.OptedOut:
		fmt.Fprintf(b, "%s level: opted out (the port's hello says \"%s\": false)\n", l.name, l.key)
		return
	}
	// The levels are hundreds of cases: only those that did not pass are
	// listed one by one.
	fmt.Fprintf(b, "%s level: %d of %d cases passed\n", l.name, t.Passed, len(t.Cases))
	for _, c := range t.Cases {
		if c.Status == Pass {
			continue
		}
		fmt.Fprintf(b, "%-7s %s: %s\n", c.Status, c.ID, termsafe.Printable(cutNumbers(c.Message)))
		writeRule(b, c)
		for _, chk := range c.Checks {
			if chk.Line != "" {
				fmt.Fprintf(b, "    line: %s\n", termsafe.Printable(chk.Line))
			}
			switch {
			case chk.Diff != "":
				fmt.Fprintf(b, "    (-want +got):\n%s", indent(termsafe.PrintableLines(cutNumbers(chk.Diff)), "        "))
			case chk.Message != "":
				fmt.Fprintf(b, "    %s: %s\n", strings.ToLower(string(chk.Status)), termsafe.Printable(cutNumbers(chk.Message)))
			}
		}
		if c.Stderr != "" {
			fmt.Fprintf(b, "    stderr (tail):\n%s", indent(termsafe.PrintableLines(c.Stderr), "        "))
		}
	}
}

// Summary returns the final line: "N passed, N failed", plus ", N skipped"
// when any case was skipped, then each level apart: "; text level P/T"
// (cases passed of those run) or "; text level: opted out", then the same
// for the protocol level.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
	if r.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", r.Skipped)
	}
	for _, l := range r.levels() {
		switch t := l.report; {
		case t == nil:
		case t.OptedOut:
			s += fmt.Sprintf("; %s level: opted out", l.name)
		default:
			s += fmt.Sprintf("; %s level %d/%d", l.name, t.Passed, len(t.Cases))
		}
	}
	return s
}

// A level is a set of cases reported apart from the contract's: the text
// level or the protocol level.
type level struct {
	name   string // "text", "protocol"
	key    string // the hello's member that opts out of it
	report *TextReport
}

// levels returns the report's levels, in the order they run.
func (r *Report) levels() []level {
	return []level{{"format 2", "format2_level", r.Format2}, {"text", "text_level", r.Text}, {"protocol", "protocol_level", r.Protocol}}
}

func indent(text, prefix string) string {
	text = strings.TrimRight(text, "\n")
	return prefix + strings.ReplaceAll(text, "\n", "\n"+prefix) + "\n"
}

// WriteJSON writes the report as one indented JSON object. Its text is
// safe on a terminal: besides the control characters JSON escapes, DEL, the
// C1 controls and the bidirectional formatting characters are written as
// \u escapes. Every number any standard JSON reader takes as written is
// kept byte for byte; any other (more than 15 significant digits, or out of
// a double's normal range, as a 5001-digit integer or 1e400) is written as
// {"$number": "LITERAL"}, a long literal cut in the middle
// ([portableNumbers]).
func (r *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(termsafe.JSON(portableNumbers(b.Bytes())))
	return err
}

// WriteJUnit writes the report as JUnit XML, one testcase per case: FAIL as
// a failure, ERROR, CRASH and TIMEOUT as an error, SKIP as skipped. Like
// [Report.WriteJSON], it writes DEL, C1 controls and bidirectional
// formatting characters as character references, and cuts long numbers as
// [Report.WriteText] does.
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
	suite := testsuite{Name: strings.TrimSpace("catalogkit-conformance " + r.Port.Name), Time: seconds(r.Elapsed.Seconds())}
	cases, classes := r.Cases, []string{}
	for range r.Cases {
		classes = append(classes, "conformance")
	}
	for _, l := range r.levels() {
		// A level's cases are testcases of their own class; a level the
		// port opted out of is one skipped testcase, never a pass.
		if l.report == nil {
			continue
		}
		levelCases := l.report.Cases
		if l.report.OptedOut {
			levelCases = []*CaseResult{{ID: l.name, Title: "the " + l.name + " level", Status: Skip, Message: l.name + " level: opted out"}}
		}
		cases = append(slices.Clip(cases), levelCases...)
		for range levelCases {
			classes = append(classes, "conformance."+strings.ReplaceAll(l.name, " ", ""))
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
				fmt.Fprintf(&detail, "check %d: %s\ncall: %s\n", chk.Index, chk.Status, cutNumbers(string(chk.Call)))
			}
			if chk.Diff != "" {
				fmt.Fprintf(&detail, "(-want +got):\n%s", cutNumbers(chk.Diff))
			} else if chk.Message != "" {
				fmt.Fprintf(&detail, "%s\n", cutNumbers(chk.Message))
			}
		}
		res := &result{Type: string(c.Status), Message: cutNumbers(c.Message), Text: detail.String()}
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
	b := bytes.NewBufferString(xml.Header)
	enc := xml.NewEncoder(b)
	enc.Indent("", "  ")
	if err := enc.Encode(suite); err != nil {
		return err
	}
	b.WriteString("\n")
	_, err := w.Write(termsafe.Escape(b.Bytes(), "&#x%X;"))
	return err
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
