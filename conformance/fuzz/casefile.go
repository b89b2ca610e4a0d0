package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing/fstest"
	"unicode"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

// A counterexample is written as a case file of the suite's format
// (conformance/case.schema.json), with the catalog inline, when it can be
// one. A call a case file cannot hold, because its text is what is wrong (a
// duplicate key, a lone surrogate, invalid UTF-8, nesting that a case file
// would push over the limit), because it expects INVALID_JSON, which a case
// cannot expect, or because the line around it was mutated (a byte order
// mark, trailing data), is written as a text case of the text level
// (conformance/text.schema.json): its id is the case id after "text.", and
// its line is the exact message line, with the seq left to the runner.
//
// Each cites, with [conformance.Cite], the section of the contract
// (conformance/SPEC.md) its call tests: §6 discover, §7
// validate_arguments, §8.4 mutate_and_repeat (fresh values), §9 (errors)
// for a call without a known op, and §2 (JSON text) for a text case.

// specSection returns the section of conformance/SPEC.md a call tests.
func specSection(call []byte) string {
	var c struct {
		Op any `json:"op"`
	}
	json.Unmarshal(call, &c)
	switch c.Op {
	case "discover":
		return "6"
	case "validate_arguments":
		return "7"
	case "mutate_and_repeat":
		return "8.4"
	}
	return "9"
}

// textSection is the section every text case tests: JSON text.
const textSection = "2"

// IsSequence reports whether cx is written as a sequence case
// (conformance/sequence.schema.json): a disagreement that needs the calls
// before it, a protocol corner, a call the reference answers with an error
// line, or a refusal answered with an error line where the line's seq was
// readable: a line and a reply a text case cannot hold (the text level
// takes any refusal).
func (cx *Counterexample) IsSequence() bool {
	return cx.steps != nil || cx.corner != nil || cx.want.err != nil || cx.Check != nil && strings.HasPrefix(cx.Check.Message, readableRefusal)
}

// CaseFile returns the case file of cx, and whether it is a text case.
func (cx *Counterexample) CaseFile(port PortInfo) (data []byte, text bool, err error) {
	name := port.Name
	if name == "" {
		name = "the port"
	}
	title := fmt.Sprintf("%s disagrees with catalogkit: %s", name, cx.Kind)
	note := fmt.Sprintf("found by catalogkit conform --fuzz --seed %d (call %d), shrunk from %d to %d bytes", cx.Seed, cx.Index, len(cx.Original), len(cx.Call))
	switch {
	case cx.steps != nil:
		note = fmt.Sprintf("found by catalogkit conform --fuzz --seed %d (call %d, after %d calls to the same port process), shrunk to %d calls on a fresh port", cx.Seed, cx.Index, cx.History-1, len(cx.steps))
	case cx.LineOnly():
		note = fmt.Sprintf("found by catalogkit conform --fuzz --seed %d (call %d), a line of its own (%s)", cx.Seed, cx.Index, cx.corner.name)
	}
	if cx.IsSequence() {
		data, err := cx.sequenceFile(title, note)
		return data, false, err
	}
	expect, err := expectation(cx.Want)
	if err != nil {
		return nil, false, err
	}
	var raw []byte
	if cx.line == nil && utf8.Valid(cx.Call) && !bytes.Contains(expect, []byte(`"INVALID_JSON"`)) {
		raw = fmt.Appendf(nil, `{"id":%s,"title":%s,"spec":%s,"checks":[{"note":%s,"call":%s,"expect":%s}]}`,
			quote(cx.ID), quote(title), quote(conformance.Cite(specSection(cx.Call))), quote(note), cx.Call, expect)
		var out bytes.Buffer
		if json.Indent(&out, raw, "", "  ") == nil {
			out.WriteByte('\n')
			if c, err := loadCase(cx.ID+".json", out.Bytes(), nil); err == nil && sendsAsIs(c, cx.Call) {
				return out.Bytes(), false, nil
			}
		}
	}
	// The text case: its title says where it came from, as a text case has
	// no note.
	before, after, _ := lineParts(sample{line: cx.line}, cx.Call)
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"id\": %s,\n  \"title\": %s,\n  \"spec\": %s,\n  \"line\": [", quote(TextID(cx.ID)), quote(title+"; "+note), quote(conformance.Cite(textSection)))
	sep := "\n    "
	for _, p := range append(append(pieces(before), `{"seq": true}`), pieces(after)...) {
		b.WriteString(sep + p)
		sep = ",\n    "
	}
	fmt.Fprintf(&b, "\n  ],\n  \"expect\": %s\n}\n", expect)
	if _, err := loadText(TextID(cx.ID)+".json", b.Bytes()); err != nil {
		return nil, false, fmt.Errorf("failed to write the text case %s: %v", cx.ID, err)
	}
	return b.Bytes(), true, nil
}

// sendsAsIs reports whether the runner sends the one check of c as call,
// byte for byte: a case file cannot keep every spelling (an upper-case
// \u escape is one that the case loader writes anew), and a call the
// port must get as it is goes into a text case then.
func sendsAsIs(c *conformance.Case, call []byte) bool {
	return len(c.Checks) == 1 && bytes.Equal(c.Checks[0].Call(), call)
}

// TextID returns the id of the text case written for a counterexample.
func TextID(id string) string { return "text." + id }

// pieces writes bytes as pieces of a text case's line: runs of printable
// UTF-8 as strings, and every other run of bytes (invalid UTF-8, a byte
// order mark, control characters) as {"hex": ...}, so that the file shows
// what is sent.
func pieces(b []byte) []string {
	var out []string
	var hexRun []string
	str := []byte{}
	flush := func() {
		if len(str) > 0 {
			out = append(out, quote(string(str)))
			str = str[:0]
		}
		if len(hexRun) > 0 {
			out = append(out, fmt.Sprintf(`{"hex": %q}`, strings.Join(hexRun, " ")))
			hexRun = nil
		}
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		printable := (r != utf8.RuneError || size > 1) && (unicode.IsPrint(r) || r == ' ')
		if printable {
			if len(hexRun) > 0 {
				flush()
			}
			str = append(str, b[i:i+size]...)
		} else {
			if len(str) > 0 {
				flush()
			}
			for _, c := range b[i : i+size] {
				hexRun = append(hexRun, fmt.Sprintf("%02x", c))
			}
		}
		i += size
	}
	flush()
	return out
}

// expectation returns an outcome without its detail: what a case expects.
func expectation(outcome []byte) ([]byte, error) {
	var o map[string]json.RawMessage
	if err := json.Unmarshal(outcome, &o); err != nil {
		return nil, fmt.Errorf("reference outcome %s: %v", outcome, err)
	}
	if r, ok := o["result"]; ok {
		return fmt.Appendf(nil, `{"result":%s}`, r), nil
	}
	if c, ok := o["error"]; ok {
		return fmt.Appendf(nil, `{"error":%s}`, c), nil
	}
	return nil, fmt.Errorf("reference outcome %s is neither a result nor an error", outcome)
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// WriteCases writes the case file of each counterexample into dir,
// creating it if needed, and returns the paths written. Each file is
// written to a temporary name and renamed, so a file is whole or absent.
func WriteCases(dir string, port PortInfo, cxs []*Counterexample) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, cx := range cxs {
		data, text, err := cx.CaseFile(port)
		if err != nil {
			return paths, err
		}
		id := cx.ID
		if text && !cx.IsSequence() {
			id = TextID(id)
		}
		path := filepath.Join(dir, id+".json")
		if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// A Suite is a folder of case files: contract cases
// (conformance/case.schema.json) and text cases of the text level
// (conformance/text.schema.json).
type Suite struct {
	Cases     []*conformance.Case
	Text      []*conformance.TextCase
	Sequences []*Sequence
}

// LoadDir reads every case file (*.json) in dir, or the one file dir names, telling a text case (an
// object with "line") from a contract case (an object with "checks"): the
// contract cases may refer to a synthetic-catalog.json in dir (or, if dir
// has none, to the suite's own). A folder laid out as the suite is
// (cases/*.json beside synthetic-catalog.json, and text/*.json) is read as
// the suite. Every error names the file.
func LoadDir(dir string) (*Suite, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	if !st.IsDir() {
		names = []string{dir}
		dir = filepath.Dir(dir)
	}
	if st, err := os.Stat(filepath.Join(dir, "cases")); names == nil && err == nil && st.IsDir() {
		fsys := regfile.DirFS(dir, conformance.MaxCaseFileBytes)
		cases, err := conformance.Load(fsys)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		suite := &Suite{Cases: cases}
		if st, err := os.Stat(filepath.Join(dir, "text")); err == nil && st.IsDir() {
			if suite.Text, err = conformance.LoadText(fsys); err != nil {
				return nil, fmt.Errorf("%s: %v", dir, err)
			}
		}
		return suite, nil
	}
	synthetic, err := regfile.ReadFile(filepath.Join(dir, conformance.CatalogFile), conformance.MaxCaseFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		synthetic, err = fs.ReadFile(conformance.Files, conformance.CatalogFile)
	}
	if err != nil {
		return nil, err
	}
	if names == nil {
		if names, err = filepath.Glob(filepath.Join(dir, "*.json")); err != nil {
			return nil, err
		}
	}
	suite := &Suite{}
	ids := map[string]string{}
	for _, path := range names {
		base := filepath.Base(path)
		if base == conformance.CatalogFile {
			continue
		}
		data, err := regfile.ReadFile(path, conformance.MaxCaseFileBytes)
		if err != nil {
			return nil, err
		}
		var head map[string]json.RawMessage
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, fmt.Errorf("case file %s: not a JSON object: %v", path, err)
		}
		_, isText := head["line"]
		_, isCase := head["checks"]
		_, isSequence := head["steps"]
		var id string
		switch {
		case isSequence && !isText && !isCase:
			sq, err := parseSequence(base, data)
			if err != nil {
				return nil, fmt.Errorf("sequence case file %s: %v", path, err)
			}
			suite.Sequences = append(suite.Sequences, sq)
			id = sq.ID
		case isText && !isCase:
			tc, err := loadText(base, data)
			if err != nil {
				return nil, fmt.Errorf("text case file %s: %v", path, err)
			}
			suite.Text = append(suite.Text, tc)
			id = tc.ID
		case isCase && !isText:
			c, err := loadCase(base, data, synthetic)
			if err != nil {
				return nil, fmt.Errorf("case file %s: %v", path, err)
			}
			if want := strings.TrimSuffix(base, ".json"); c.ID != want {
				return nil, fmt.Errorf("case file %s: id %q does not match the file name", path, c.ID)
			}
			suite.Cases = append(suite.Cases, c)
			id = c.ID
		default:
			return nil, fmt.Errorf(`%s is not a case file (an object with "checks", conformance/case.schema.json), a text case file (an object with "line", conformance/text.schema.json) or a sequence case file (an object with "steps", conformance/sequence.schema.json)`, path)
		}
		if other, ok := ids[id]; ok {
			return nil, fmt.Errorf("case files %s and %s have the same id %q", other, path, id)
		}
		ids[id] = path
	}
	if suite.size() == 0 {
		return nil, fmt.Errorf("%s holds no case files (*.json)", dir)
	}
	return suite, nil
}

// loadCase reads one contract case with the suite's own loader.
func loadCase(base string, data, synthetic []byte) (*conformance.Case, error) {
	if synthetic == nil {
		synthetic, _ = fs.ReadFile(conformance.Files, conformance.CatalogFile)
	}
	fsys := fstest.MapFS{
		"cases/" + base:         {Data: data},
		conformance.CatalogFile: {Data: synthetic},
	}
	cases, err := conformance.Load(fsys)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), fmt.Sprintf("case file %q: ", "cases/"+base)))
	}
	return cases[0], nil
}

// loadText reads one text case with the text level's own loader, which
// also checks that its id matches the file name.
func loadText(base string, data []byte) (*conformance.TextCase, error) {
	cases, err := conformance.LoadText(fstest.MapFS{"text/" + base: {Data: data}})
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), fmt.Sprintf("text case file %q: ", "text/"+base)))
	}
	return cases[0], nil
}

func (s *Suite) size() int { return len(s.Cases) + len(s.Text) + len(s.Sequences) }

// Select keeps the cases whose id re matches.
func (s *Suite) Select(re *regexp.Regexp) {
	s.Cases = slices.DeleteFunc(s.Cases, func(c *conformance.Case) bool { return !re.MatchString(c.ID) })
	s.Text = slices.DeleteFunc(s.Text, func(c *conformance.TextCase) bool { return !re.MatchString(c.ID) })
	s.Sequences = slices.DeleteFunc(s.Sequences, func(c *Sequence) bool { return !re.MatchString(c.ID) })
}

// RunSuite runs the suite: the contract cases with the conformance runner,
// then the text cases as the text level, reported apart, on one target
// that newTarget starts; then each sequence case on a target of its own,
// freshly started, reported among the contract cases (and counted with
// them). It closes every target it starts that has a Close method.
func RunSuite(newTarget func() conformance.Target, suite *Suite, diff conformance.DiffFunc) *conformance.Report {
	target := newTarget()
	defer closeTarget(target)
	runner := &conformance.Runner{Target: target, Diff: diff}
	rep := runner.RunCases(suite.Cases)
	runner.RunText(rep, suite.Text)
	for k, sq := range suite.Sequences {
		t, fresh := target, len(suite.Cases)+len(suite.Text) > 0 || k > 0
		if fresh {
			t = newTarget()
		}
		res := RunSequence(t, sq, diff)
		if fresh {
			closeTarget(t)
		}
		switch res.Status {
		case conformance.Pass:
			rep.Passed++
		case conformance.Skip:
			rep.Skipped++
		default:
			rep.Failed++
		}
		rep.Cases = append(rep.Cases, res)
		if rep.Port.Name == "" {
			rep.Port = t.Info()
		}
	}
	if rep.Port.Name == "" {
		rep.Port = target.Info()
	}
	return rep
}

func closeTarget(t conformance.Target) {
	if c, ok := t.(interface{ Close() error }); ok {
		c.Close()
	}
}
