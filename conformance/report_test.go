package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// hostileTarget is a port whose every word is made to act on a terminal:
// colours, a title change, a screen clear, NUL, CR, invalid UTF-8, a
// right-to-left override.
type hostileTarget struct{ info PortInfo }

const hostile = "\x1b[31mred\x00\r\x1b]0;owned\x07\xff\u202eevil\u0085"

func (h hostileTarget) Info() PortInfo { return h.info }

func (h hostileTarget) Call(call []byte) ([]byte, error) {
	c, _ := parseJSON(call)
	if op, _ := c.lookup("op"); op.str == "validate_arguments" {
		return nil, &TransportError{Status: Crash, Message: "port exited: " + hostile, Stderr: "first line\n" + hostile + "\n\tat frame\n"}
	}
	if fam, _ := c.lookup("family"); fam != nil && fam.str == "reading" {
		return append(catalog.AppendQuote([]byte(`{"not_implemented":`), strings.ToValidUTF8(hostile, "?")), '}'), nil
	}
	if fam, _ := c.lookup("family"); fam != nil && fam.str == "nope" {
		return []byte("{\"result\":\"raw \x1b in a string\"}"), nil // not JSON
	}
	return codeOutcome("NOT_THE_CODE", strings.ToValidUTF8(hostile, "?")), nil
}

// TestReportHostilePort checks that nothing a port controls reaches the
// terminal raw: the text report escapes it, the JSON and JUnit reports are
// valid and carry no control character but newlines.
func TestReportHostilePort(t *testing.T) {
	cases := mustCases(t)
	info := PortInfo{Name: hostile, Language: hostile, Version: hostile}
	rep := (&Runner{Target: hostileTarget{info}}).RunCases(cases)
	if rep.Passed == len(cases) {
		t.Fatalf("every case passed, want failures that carry the port's text")
	}
	var text, js, junit bytes.Buffer
	for _, w := range []func() error{
		func() error { return rep.WriteText(&text) },
		func() error { return rep.WriteJSON(&js) },
		func() error { return rep.WriteJUnit(&junit) },
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	for _, out := range []struct {
		name string
		text []byte
	}{{"text", text.Bytes()}, {"json", js.Bytes()}, {"junit", junit.Bytes()}} {
		if bad := unsafeByte(out.text); bad != "" {
			t.Errorf("%s report: %s", out.name, bad)
		}
	}
	escaped := `\x1b[31mred\x00\x0d\x1b]0;owned\x07\xff\u202eevil\u0085`
	for _, want := range []string{
		"port: " + escaped + " " + escaped + " (" + escaped + ")\n",      // name, version, language
		"    detail: " + strings.Replace(escaped, `\xff`, "?", 1) + "\n", // JSON text is valid UTF-8
		"port exited: " + escaped + "\n",
		"        first line\n        " + escaped + "\n        \tat frame\n", // stderr keeps its lines and tabs
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if !json.Valid(js.Bytes()) {
		t.Errorf("JSON report is not valid JSON")
	}
	if err := xml.Unmarshal(junit.Bytes(), new(struct{})); err != nil {
		t.Errorf("JUnit report is not valid XML: %v", err)
	}
}

// unsafeByte describes the first thing in out that could act on a terminal:
// a control character other than newline and tab, DEL, a C1 control, a
// bidirectional override, invalid UTF-8; "" if there is none.
func unsafeByte(out []byte) string {
	if !utf8.Valid(out) {
		return "invalid UTF-8"
	}
	for i, r := range string(out) {
		if r != '\n' && r != '\t' && termsafe.Unsafe(r) {
			return fmt.Sprintf("raw %+q at byte %d", r, i)
		}
	}
	return ""
}

// TestReportNoHandshake checks the reports of a port that never said hello:
// no empty port fields in JSON, no trailing space in the JUnit suite name,
// one line for the cases not run in the text report.
func TestReportNoHandshake(t *testing.T) {
	port := &Port{Command: []string{"/nonexistent/port"}}
	rep := (&Runner{Target: port}).RunCases(mustCases(t))
	var text, js, junit bytes.Buffer
	rep.WriteText(&text)
	rep.WriteJSON(&js)
	rep.WriteJUnit(&junit)
	if want := "port: no handshake\nNOT RUN 21 cases: the port failed\n0 passed, 21 failed\n"; text.String() != want {
		t.Errorf("text report = %q, want %q", text.String(), want)
	}
	var decoded struct {
		Port  map[string]any
		Fatal string
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	if len(decoded.Port) != 0 || !strings.Contains(decoded.Fatal, `could not start the port "/nonexistent/port": no such file or directory`) {
		t.Errorf("JSON report: port %v, fatal %q; want no port fields and the start error", decoded.Port, decoded.Fatal)
	}
	var suite struct {
		Name string `xml:"name,attr"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &suite); err != nil || suite.Name != "catalogkit-conformance" {
		t.Errorf("JUnit suite name %q (%v), want %q", suite.Name, err, "catalogkit-conformance")
	}
	if strings.Contains(junit.String(), "call:") {
		t.Errorf("JUnit report shows a call, but none was sent:\n%s", junit.String())
	}
}

// digits5001 is the text level's huge integer: 5001 digits, more than
// Python's json reads by default (4300).
var digits5001 = strings.Repeat("1234567890", 500) + "1"

// numberReport is a report whose calls, outcomes and diffs carry number
// literals no standard reader takes as written (5001 digits, 1e400,
// -1e-400, 2^53+1) beside ordinary ones and a string of 5001 digits, in a
// contract case and in a text level case.
func numberReport() *Report {
	ordinary := `{"a":1.0,"b":-0,"c":123,"d":1e2,"e":[0.5,-7E-3,{"f":"x"}]}`
	want := map[string]any{"result": map[string]any{"tab_id": json.Number(digits5001)}}
	got := map[string]any{"result": map[string]any{"tab_id": json.Number(digits5001 + "0")}}
	contract := &CaseResult{ID: "c", Status: Fail, Message: "outcome differs", Checks: []*CheckResult{{
		Status: Fail,
		Call:   json.RawMessage(`{"op":"validate_arguments","arguments":{"n":` + digits5001 + `,"s":"` + digits5001 + `","o":` + ordinary + `}}`),
		Want:   json.RawMessage(`{"result":{"big":1e400,"tiny":-1e-400,"exact":9007199254740993}}`),
		Got:    json.RawMessage(`{"result":` + ordinary + `}`),
		Second: json.RawMessage(`{"result":{"n":` + digits5001 + `}}`),
		Diff:   LineDiff(want, got),
	}}}
	text := &CaseResult{ID: "text.number.huge-integer", Status: Fail, Message: "the port refused a line it must read", Checks: []*CheckResult{{
		Status:  Fail,
		Line:    showLine([]byte(`{"n":` + digits5001 + `}`)),
		Want:    json.RawMessage(`{"result":{"tab_id":` + digits5001 + `}}`),
		Got:     json.RawMessage(`{"type":"error","message":"too long"}`),
		Message: fmt.Sprintf("the port refused the line with an error line (%q), want the outcome %s", "too long", `{"result":{"tab_id":`+digits5001+`}}`),
	}}}
	rep := &Report{Port: PortInfo{Name: "p"}, Text: &TextReport{}}
	rep.add(contract)
	rep.Text.add(text)
	return rep
}

// TestReportPortableNumbers checks that the JSON report reads with Go's
// encoding/json and Python's json module, keeps ordinary numbers byte for
// byte and writes the others as {"$number": ...}, and that the text and
// JUnit reports cut a 5001-digit number as a text case's line is cut.
func TestReportPortableNumbers(t *testing.T) {
	rep := numberReport()
	var text, js, junit bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}

	var anyDoc any
	if err := json.Unmarshal(js.Bytes(), &anyDoc); err != nil {
		t.Errorf("encoding/json cannot read the JSON report into any: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(js.Bytes()))
	dec.UseNumber() // json.Number is the literal as written
	var doc struct {
		Cases []struct {
			Checks []struct{ Call, Want, Got, Second map[string]any }
		}
		TextLevel struct {
			Cases []struct {
				Checks []struct{ Want map[string]any }
			}
		} `json:"text_level"`
	}
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	chk := doc.Cases[0].Checks[0]
	cut := digits5001[:300] + " <... 4401 bytes ...> " + digits5001[len(digits5001)-300:]
	big := map[string]any{"$number": cut}
	ordinary := map[string]any{"a": json.Number("1.0"), "b": json.Number("-0"), "c": json.Number("123"), "d": json.Number("1e2"),
		"e": []any{json.Number("0.5"), json.Number("-7E-3"), map[string]any{"f": "x"}}}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"call", chk.Call, map[string]any{"op": "validate_arguments", "arguments": map[string]any{"n": big, "s": digits5001, "o": ordinary}}},
		{"want", chk.Want, map[string]any{"result": map[string]any{"big": map[string]any{"$number": "1e400"}, "tiny": map[string]any{"$number": "-1e-400"}, "exact": map[string]any{"$number": "9007199254740993"}}}},
		{"got", chk.Got, map[string]any{"result": ordinary}},
		{"second", chk.Second, map[string]any{"result": map[string]any{"n": big}}},
		{"text level want", doc.TextLevel.Cases[0].Checks[0].Want, map[string]any{"result": map[string]any{"tab_id": big}}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("JSON report %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, lit := range []string{`"a": 1.0`, `"b": -0`, `"c": 123`, `"d": 1e2`, `-7E-3`} {
		if !bytes.Contains(js.Bytes(), []byte(lit)) {
			t.Errorf("JSON report lacks %s as written", lit)
		}
	}

	pythonReads(t, js.Bytes(), true)

	for _, out := range []struct {
		name string
		text string
	}{{"text", text.String()}, {"junit", strings.NewReplacer("&lt;", "<", "&gt;", ">").Replace(junit.String())}} {
		if strings.Contains(out.text, digits5001[:1000]) {
			t.Errorf("%s report holds the 5001-digit integer in full:\n%s", out.name, out.text)
		}
		// The diff's two lines, the call and the text case's message: each
		// cut as the line is.
		if n := strings.Count(out.text, " <... 4401 bytes ...> "); n < 4 {
			t.Errorf("%s report cuts %d 5001-digit numbers, want the diff's two, the call's and the message's:\n%s", out.name, n, out.text)
		}
	}
	if want := `want the outcome {"result":{"tab_id":` + cut + "}}\n"; !strings.Contains(text.String(), want) {
		t.Errorf("text report does not cut the expected value like the line, want %q in:\n%s", want, text.String())
	}
}

// TestReportRawNumbersRefused checks that what TestReportPortableNumbers
// guards against happens: without the rewrite, Python's json refuses the
// 5001-digit integer and encoding/json refuses 1e400.
func TestReportRawNumbersRefused(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"n":1e400}`), &v); err == nil {
		t.Errorf("encoding/json reads 1e400 into any, want an error")
	}
	pythonReads(t, []byte(`{"n":`+digits5001+`}`), false)
}

// pythonReads runs json.load of Python 3 on doc and checks that it
// succeeds (ok) or fails. It skips the test when python3 is not on PATH.
func pythonReads(t *testing.T, doc []byte, ok bool) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the report is not checked with Python's json module")
	}
	cmd := exec.Command(py, "-c", "import json,sys; json.load(sys.stdin)")
	cmd.Stdin = bytes.NewReader(doc)
	cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8")
	out, err := cmd.CombinedOutput()
	switch {
	case ok && err != nil:
		t.Errorf("Python's json refuses the document: %v\n%s", err, out)
	case !ok && err == nil:
		t.Errorf("Python's json reads the document, want it refused (a Python with no limit on integer digits, before 3.11?)")
	case !ok && !strings.Contains(string(out), "4300"):
		t.Errorf("Python's json refuses the document, but not for its 4300-digit limit:\n%s", out)
	}
}

// TestPortableNumber checks the rule that keeps a number literal in the
// JSON report as written.
func TestPortableNumber(t *testing.T) {
	for _, lit := range []string{"0", "-0", "0.0", "0e999999999999", "1.0", "123", "1e2", "-7E-3", "0.5",
		"999999999999999", "-123456789012345e-3", "100000000000000000000", "1.00000000000000000000",
		"1e307", "9.99999999999999e307", "1e-307", "0.1e-306", "-1E+307", "1e0000000000000000000000001"} {
		if !portableNumber([]byte(lit)) {
			t.Errorf("portableNumber(%s) = false, want true", lit)
		}
	}
	for _, lit := range []string{"1234567890123456", "9007199254740993", "1.7976931348623157e308", "1e308",
		"10e307", "1e400", "-1e-400", "1e-308", "0.01e-306", "1e99999999999999999999", "-1e-99999999999999999999",
		digits5001} {
		if portableNumber([]byte(lit)) {
			t.Errorf("portableNumber(%.40s) = true, want false", lit)
		}
	}
}

// TestNoCaseHasNumberMember checks what makes {"$number": ...} in a JSON
// report unambiguous for the kit's own values: no case file has that key.
func TestNoCaseHasNumberMember(t *testing.T) {
	files := 0
	for _, dir := range []string{"cases", "text", "protocol", "format2"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			files++
			b, err := os.ReadFile(path)
			if bytes.Contains(b, []byte(`"`+numberMember+`"`)) {
				t.Errorf("%s has a %q key", path, numberMember)
			}
			return err
		})
		if err != nil {
			t.Error(err)
		}
	}
	if files < 500 {
		t.Errorf("read %d case files, want the 21 cases and every level's", files)
	}
}

// TestShowLine checks showLine against a plain reading of its rule, on
// random lines of printable, multi-byte, invalid and control bytes: whole
// when it shows within 600 bytes; otherwise the longest whole-character
// prefix and suffix that show within 300 bytes each, and the count of the
// bytes between them. A 32 MiB line takes no longer than a short one
// (the rule never reads its middle).
func TestShowLine(t *testing.T) {
	pieces := [][]byte{[]byte("a"), []byte(" "), []byte("é"), []byte("한"), []byte("😀"), {0xff}, {0xe2, 0x82}, {0x80}, {0x00}, []byte("\t"), []byte("\ufeff"), {0xf0, 0x9f, 0x98}}
	shown := func(b []byte) string { return string(appendShown(nil, b)) }
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var line []byte
		for range rng.IntN(700) {
			line = append(line, pieces[rng.IntN(len(pieces))]...)
		}
		got := showLine(line)
		if whole := shown(line); len(whole) <= 600 {
			if got != whole {
				t.Fatalf("showLine(%q) = %q, want it whole: %q", line, got, whole)
			}
			continue
		}
		// The character boundaries, read from the front.
		var bounds []int
		for i := 0; i < len(line); {
			_, size := utf8.DecodeRune(line[i:])
			bounds = append(bounds, i)
			i += size
		}
		bounds = append(bounds, len(line))
		// What each character shows as, summed from either end.
		head, tail, n := 0, len(line), 0
		for k := 0; k+1 < len(bounds); k++ {
			if n += len(shown(line[bounds[k]:bounds[k+1]])); n > 300 {
				break
			}
			head = bounds[k+1]
		}
		n = 0
		for k := len(bounds) - 1; k > 0 && bounds[k-1] >= head; k-- {
			if n += len(shown(line[bounds[k-1]:bounds[k]])); n > 300 {
				break
			}
			tail = bounds[k-1]
		}
		want := shown(line[:head]) + fmt.Sprintf(" <... %d bytes ...> ", tail-head) + shown(line[tail:])
		if got != want {
			t.Fatalf("showLine(%q) =\n%q, want\n%q", line, got, want)
		}
	}
	big := bytes.Repeat([]byte{0xff}, 32<<20)
	want := strings.Repeat("<0xff>", 50) + fmt.Sprintf(" <... %d bytes ...> ", 32<<20-100) + strings.Repeat("<0xff>", 50)
	if got := showLine(big); got != want {
		t.Errorf("showLine of 32 MiB of 0xff = %.200q..., want %.200q...", got, want)
	}
}
