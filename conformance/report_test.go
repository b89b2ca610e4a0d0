package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
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
