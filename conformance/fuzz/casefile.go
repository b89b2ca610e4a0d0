package fuzz

import (
	"bytes"
	"encoding/base64"
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
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/conformance"
)

// A counterexample is written as a case file of the suite's format
// (conformance/case.schema.json), with the catalog inline, when it can be
// one. A call a case file cannot hold, because its text is what is wrong (a
// duplicate key, a lone surrogate, invalid UTF-8, nesting that a case file
// would push over the limit) or because it expects INVALID_JSON, which a
// case cannot expect, is written as a text case instead: the same id,
// title and spec, and "text_checks" whose call is the exact text, as a JSON
// string ("call_text") or, when it is not valid UTF-8, in base64
// ("call_base64").

// spec is the section every counterexample cites: the contract as a whole.
const spec = "SPEC.md §2"

// CaseFile returns the case file of cx, and whether it is a text case.
func (cx *Counterexample) CaseFile(port PortInfo) (data []byte, text bool, err error) {
	expect, err := expectation(cx.Want)
	if err != nil {
		return nil, false, err
	}
	name := port.Name
	if name == "" {
		name = "the port"
	}
	title := fmt.Sprintf("%s disagrees with catalogkit: %s", name, cx.Kind)
	note := fmt.Sprintf("found by catalogkit conform --fuzz --seed %d (call %d), shrunk from %d to %d bytes", cx.Seed, cx.Index, len(cx.Original), len(cx.Call))
	head := fmt.Sprintf(`{"id":%s,"title":%s,"spec":%s,`, quote(cx.ID), quote(title), quote(spec))
	var raw []byte
	if utf8.Valid(cx.Call) && !bytes.Contains(expect, []byte(`"INVALID_JSON"`)) {
		raw = fmt.Appendf(nil, `%s"checks":[{"note":%s,"call":%s,"expect":%s}]}`, head, quote(note), cx.Call, expect)
		var out bytes.Buffer
		if json.Indent(&out, raw, "", "  ") == nil {
			out.WriteByte('\n')
			if _, err := loadCase(cx.ID+".json", out.Bytes(), nil); err == nil {
				return out.Bytes(), false, nil
			}
		}
	}
	callKey, call := "call_text", quote(string(cx.Call))
	if !utf8.Valid(cx.Call) {
		callKey, call = "call_base64", quote(base64.StdEncoding.EncodeToString(cx.Call))
	}
	raw = fmt.Appendf(nil, `%s"text_checks":[{"note":%s,%q:%s,"expect":%s}]}`, head, quote(note), callKey, call, expect)
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, false, fmt.Errorf("failed to write the case %s: %v", cx.ID, err)
	}
	out.WriteByte('\n')
	return out.Bytes(), true, nil
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
		data, _, err := cx.CaseFile(port)
		if err != nil {
			return paths, err
		}
		path := filepath.Join(dir, cx.ID+".json")
		if err := writeFile(path, data); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// A Suite is a folder of case files: contract cases, which the
// conformance runner runs, and text cases.
type Suite struct {
	Cases []*conformance.Case
	Text  []*TextCase
}

// A TextCase is a case whose calls are exact JSON text.
type TextCase struct {
	ID, Title, Spec string
	Checks          []TextCheck
}

// A TextCheck is one call, as exact text, and its expected outcome.
type TextCheck struct {
	Note   string
	Call   []byte
	Expect []byte
}

// LoadDir reads every case file (*.json) in dir: the contract cases, which
// may refer to a synthetic-catalog.json in dir (or, if dir has none, to the
// suite's own), and text cases. A folder laid out as the suite is
// (cases/*.json beside synthetic-catalog.json) is read as the suite. Every
// error names the file.
func LoadDir(dir string) (*Suite, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	if st, err := os.Stat(filepath.Join(dir, "cases")); err == nil && st.IsDir() {
		cases, err := conformance.Load(os.DirFS(dir))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		return &Suite{Cases: cases}, nil
	}
	synthetic, err := os.ReadFile(filepath.Join(dir, conformance.CatalogFile))
	if errors.Is(err, fs.ErrNotExist) {
		synthetic, err = fs.ReadFile(conformance.Files, conformance.CatalogFile)
	}
	if err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	suite := &Suite{}
	ids := map[string]string{}
	for _, path := range names {
		base := filepath.Base(path)
		if base == conformance.CatalogFile {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var head map[string]json.RawMessage
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, fmt.Errorf("case file %s: not a JSON object: %v", path, err)
		}
		var id string
		if _, ok := head["text_checks"]; ok {
			tc, err := parseTextCase(data)
			if err != nil {
				return nil, fmt.Errorf("case file %s: %v", path, err)
			}
			suite.Text = append(suite.Text, tc)
			id = tc.ID
		} else {
			c, err := loadCase(base, data, synthetic)
			if err != nil {
				return nil, fmt.Errorf("case file %s: %v", path, err)
			}
			suite.Cases = append(suite.Cases, c)
			id = c.ID
		}
		if want := strings.TrimSuffix(base, ".json"); id != want {
			return nil, fmt.Errorf("case file %s: id %q does not match the file name", path, id)
		}
		if other, ok := ids[id]; ok {
			return nil, fmt.Errorf("case files %s and %s have the same id %q", other, path, id)
		}
		ids[id] = path
	}
	if len(suite.Cases)+len(suite.Text) == 0 {
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

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$`)

func parseTextCase(data []byte) (*TextCase, error) {
	var f struct {
		ID, Title, Spec string
		TextChecks      []struct {
			Note       string
			CallText   *string         `json:"call_text"`
			CallBase64 *string         `json:"call_base64"`
			Expect     json.RawMessage `json:"expect"`
		} `json:"text_checks"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	switch {
	case !idPattern.MatchString(f.ID):
		return nil, fmt.Errorf("id %q is not dotted lowercase words", f.ID)
	case f.Title == "" || f.Spec == "":
		return nil, fmt.Errorf(`"title" and "spec" must be non-empty strings`)
	case len(f.TextChecks) == 0:
		return nil, fmt.Errorf(`"text_checks" is not a non-empty array`)
	}
	tc := &TextCase{ID: f.ID, Title: f.Title, Spec: f.Spec}
	for i, c := range f.TextChecks {
		var call []byte
		switch {
		case c.CallText != nil && c.CallBase64 == nil:
			call = []byte(*c.CallText)
		case c.CallBase64 != nil && c.CallText == nil:
			var err error
			if call, err = base64.StdEncoding.DecodeString(*c.CallBase64); err != nil {
				return nil, fmt.Errorf("text_checks[%d]: call_base64: %v", i, err)
			}
		default:
			return nil, fmt.Errorf("text_checks[%d]: give exactly one of call_text and call_base64", i)
		}
		if bytes.ContainsAny(call, "\r\n") {
			return nil, fmt.Errorf("text_checks[%d]: the call holds a line break, which would end the protocol line", i)
		}
		kind := outcome{text: c.Expect}.kind()
		if _, err := conformance.Judge(c.Expect, c.Expect, nil); err != nil || kind != "a result" && !strings.HasPrefix(kind, "error ") {
			return nil, fmt.Errorf(`text_checks[%d]: "expect" is not {"result": VALUE} or {"error": CODE}`, i)
		}
		tc.Checks = append(tc.Checks, TextCheck{Note: c.Note, Call: call, Expect: c.Expect})
	}
	return tc, nil
}

// Select keeps the cases whose id re matches.
func (s *Suite) Select(re *regexp.Regexp) {
	s.Cases = slices.DeleteFunc(s.Cases, func(c *conformance.Case) bool { return !re.MatchString(c.ID) })
	s.Text = slices.DeleteFunc(s.Text, func(c *TextCase) bool { return !re.MatchString(c.ID) })
}

// RunSuite runs the suite's cases against target, contract cases with the
// conformance runner, then text cases, into one report.
func RunSuite(target conformance.Target, suite *Suite, diff conformance.DiffFunc) *conformance.Report {
	runner := &conformance.Runner{Target: target, Diff: diff}
	rep := runner.RunCases(suite.Cases)
	for _, tc := range suite.Text {
		res := &conformance.CaseResult{ID: tc.ID, Title: tc.Title, Spec: tc.Spec, Status: conformance.Pass}
		if rep.Fatal != "" {
			res.Status, res.Message = conformance.Error, "not run: the port failed earlier ("+rep.Fatal+")"
		}
		for i, chk := range tc.Checks {
			if res.Status != conformance.Pass {
				break
			}
			o := callTarget(target, chk.Call)
			v, cr := compare(chk.Expect, o, diff)
			cr.Index, cr.Note, cr.Call = i, chk.Note, json.RawMessage(quote(string(chk.Call)))
			if o.text != nil {
				cr.Got = o.text
			}
			res.Checks = append(res.Checks, cr)
			switch v {
			case agree:
				cr.Status = conformance.Pass
			case skip:
				res.Status, res.Message = conformance.Skip, fmt.Sprintf("check %d: not implemented: %s", i, cr.Message)
			default:
				res.Status, res.Message = cr.Status, fmt.Sprintf("check %d: outcome differs", i)
				if o.err != nil {
					res.Message, res.Stderr = fmt.Sprintf("check %d: %s", i, o.err.Message), o.err.Stderr
					if o.err.Fatal {
						rep.Fatal = o.err.Message
					}
				}
			}
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
	}
	slices.SortStableFunc(rep.Cases, func(a, b *conformance.CaseResult) int { return strings.Compare(a.ID, b.ID) })
	if rep.Port.Name == "" {
		rep.Port = target.Info()
	}
	return rep
}
