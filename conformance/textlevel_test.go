package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// optOutTarget is the Go implementation with a hello that opts out of the
// text level.
type optOutTarget struct{ Target }

func (o optOutTarget) Info() PortInfo {
	no := false
	return PortInfo{Name: "shy", Language: "Go", Version: "0", TextLevel: &no}
}

// scriptTarget is a LineTarget whose reply to every raw line is made by
// answer, from the seq and the line.
type scriptTarget struct {
	seq    int64
	answer func(seq int64, line []byte) string
}

func (s *scriptTarget) Info() PortInfo              { return PortInfo{Name: "script", Language: "Go", Version: "0"} }
func (s *scriptTarget) Call([]byte) ([]byte, error) { return nil, fmt.Errorf("no calls") }
func (s *scriptTarget) Hello() (PortInfo, error)    { return s.Info(), nil }
func (s *scriptTarget) CallLine(build func(int64) []byte) ([]byte, error) {
	s.seq++
	return []byte(s.answer(s.seq, build(s.seq))), nil
}

func mustTextCases(t *testing.T) []*TextCase { return must(t, TextCases) }

// TestTextLevel checks how the runner judges the text level's answers.
func TestTextLevel(t *testing.T) {
	text := mustTextCases(t)
	refused, badValue := 0, 0
	for _, c := range text {
		if c.Refused() {
			refused++
		}
		if bytes.Equal(c.Expect(), []byte(`{"error":"INVALID_ARGUMENT_VALUE"}`)) {
			badValue++
		}
	}
	tests := []struct {
		name       string
		target     Target
		wantPassed int
		summary    string
		reason     string
	}{
		{"in-process", GoTarget("t"), len(text), fmt.Sprintf("21 passed, 0 failed; text level %d/%d", len(text), len(text)),
			"an in-process target gets the text level through Serve, whose text layer is catalog.ParseJSON"},
		{"opted out", optOutTarget{GoTarget("t")}, 0, "21 passed, 0 failed; text level: opted out",
			"a hello with text_level false opts out, and the report says so"},
		{"error lines", &scriptTarget{answer: func(seq int64, line []byte) string {
			return `{"type":"error","seq":null,"message":"no"}`
		}}, refused, "", "an error line is a refusal: right for the lines to refuse, a FAIL for the others"},
		{"INVALID_JSON", &scriptTarget{answer: func(seq int64, line []byte) string {
			return fmt.Sprintf(`{"type":"reply","seq":%d,"outcome":{"error":"INVALID_JSON","detail":"x"}}`, seq)
		}}, refused, "", "INVALID_JSON with the seq is a refusal too"},
		{"everything read", &scriptTarget{answer: func(seq int64, line []byte) string {
			return fmt.Sprintf(`{"type":"reply","seq":%d,"outcome":{"error":"INVALID_ARGUMENT_VALUE"}}`, seq)
		}}, badValue, "", "a port that reads every line fails every refusal; INVALID_ARGUMENT_VALUE is right for the lines that expect it"},
	}
	for _, tt := range tests {
		r := &Runner{Target: tt.target}
		rep := &Report{Tally: Tally{Cases: []*CaseResult{}}}
		if _, ok := tt.target.(*scriptTarget); !ok {
			rep = r.RunCases(mustCases(t))
		}
		r.RunText(rep, text)
		if rep.Text == nil {
			t.Fatalf("%s: no text level in the report", tt.name)
		}
		if rep.Text.Passed != tt.wantPassed {
			var b bytes.Buffer
			rep.WriteText(&b)
			t.Errorf("%s: %d text cases passed, want %d (%s)\n%s", tt.name, rep.Text.Passed, tt.wantPassed, tt.reason, b.String())
		}
		if tt.summary != "" && rep.Summary() != tt.summary {
			t.Errorf("%s: summary %q, want %q (%s)", tt.name, rep.Summary(), tt.summary, tt.reason)
		}
		for _, c := range rep.Text.Cases {
			if c.Status != Pass && c.Status != Fail {
				t.Errorf("%s: %s is %s (%s), want PASS or FAIL", tt.name, c.ID, c.Status, c.Message)
			}
		}
	}
}

// TestTextLevelReports checks that every report format shows the text
// level, and an opted-out one as such, never as passed.
func TestTextLevelReports(t *testing.T) {
	text := mustTextCases(t)
	r := &Runner{Target: optOutTarget{GoTarget("t")}}
	rep := r.RunCases(mustCases(t))
	r.RunText(rep, text)
	if !rep.OK() || !rep.Text.OptedOut || rep.Text.Passed != 0 {
		t.Errorf("opted out: OK %v, opted out %v, passed %d; want OK, opted out, 0 passed", rep.OK(), rep.Text.OptedOut, rep.Text.Passed)
	}
	var text1, js, junit bytes.Buffer
	rep.WriteText(&text1)
	rep.WriteJSON(&js)
	rep.WriteJUnit(&junit)
	for _, tt := range []struct{ out, want, reason string }{
		{text1.String(), "text level: opted out", "the text report says so"},
		{text1.String(), "\n21 passed, 0 failed; text level: opted out\n", "and so does its last line"},
		{js.String(), `"opted_out": true`, "the JSON report says so"},
		{junit.String(), `<testcase name="text" classname="conformance.text"`, "JUnit has one testcase for it"},
		{junit.String(), `<skipped type="SKIP" message="text level: opted out">`, "skipped, never passed"},
	} {
		if !strings.Contains(tt.out, tt.want) {
			t.Errorf("report lacks %q (%s):\n%s", tt.want, tt.reason, tt.out)
		}
	}

	// A failing text case shows its line, with invalid bytes made visible.
	wrong := &scriptTarget{answer: func(seq int64, line []byte) string {
		return fmt.Sprintf(`{"type":"reply","seq":%d,"outcome":{"result":[]}}`, seq)
	}}
	r = &Runner{Target: wrong}
	rep = &Report{Tally: Tally{Cases: []*CaseResult{}}}
	r.RunText(rep, text)
	var b, x bytes.Buffer
	rep.WriteText(&b)
	rep.WriteJUnit(&x)
	for _, want := range []string{
		"FAIL    text.utf8.ff: outcome differs\n",
		`    line: {"type":"call","seq":`,
		`"format":"<0xff>"}}}`,
		"    line: <U+FEFF>{\"type\":\"call\"",
		"0 passed, 0 failed; text level 0/",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
	if !strings.Contains(x.String(), `classname="conformance.text"`) || !strings.Contains(x.String(), "line: ") {
		t.Errorf("JUnit report lacks the text cases:\n%s", x.String())
	}
}

// TestOrderOnlyDiff checks that a check failing only by member order names
// the object's path and both orders.
func TestOrderOnlyDiff(t *testing.T) {
	reverse := func(call, o *node) *node {
		res, ok := o.lookup("result")
		if !ok || res.kind != kArray {
			return o
		}
		for _, d := range res.items {
			schema, _ := d.lookup("inputSchema")
			props, _ := schema.lookup("properties")
			if props == nil {
				continue
			}
			for i, j := 0, len(props.keys)-1; i < j; i, j = i+1, j-1 {
				props.keys[i], props.keys[j] = props.keys[j], props.keys[i]
				props.vals[i], props.vals[j] = props.vals[j], props.vals[i]
			}
		}
		return o
	}
	rep := (&Runner{Target: bugTarget{outcome: reverse}, Run: mustRegexp(t, `^discover\.name\.exact$`)}).RunCases(mustCases(t))
	chk := rep.Cases[0].Checks[0]
	want := "member order differs at $.result[0].inputSchema.properties (the order of this object's members is part of the contract):\n" +
		`- ["query", "match_case", "limit"]` + "\n" + `+ ["limit", "match_case", "query"]` + "\n"
	if chk.Status != Fail || chk.Diff != want {
		t.Errorf("check 0: %s with diff\n%s\nwant FAIL with diff\n%s", chk.Status, chk.Diff, want)
	}
	// With a value wrong too, the diff of values comes first and the order
	// after it.
	got := orderDiffs(mustParse(`{"catalog":[{"fields":{"a":1,"b":2}}],"x":1}`), mustParse(`{"catalog":[{"fields":{"b":2,"a":1}}],"x":2}`))
	if !strings.HasPrefix(got, "member order differs at $.catalog[0].fields ") {
		t.Errorf("orderDiffs of a catalog = %q, want the path $.catalog[0].fields", got)
	}
	if got := orderDiffs(mustParse(`{"arguments":{"a":1,"b":2}}`), mustParse(`{"arguments":{"b":2,"a":1}}`)); got != "" {
		t.Errorf("orderDiffs of unordered arguments = %q, want none", got)
	}
}

// TestPortCallLine checks CallLine on a real port process: an error line is
// an answer that leaves the port running, and a reply with a wrong seq is an
// ERROR that restarts it.
func TestPortCallLine(t *testing.T) {
	p := fakeCommand(t, "error-line", 2)
	defer p.Close()
	call := func(seq int64) []byte {
		return fmt.Appendf(nil, `{"type":"call","seq":%d,"call":%s}`, seq, discoverAll)
	}
	line, err := p.CallLine(call)
	if err != nil || string(line) != `{"type":"reply","seq":1,"outcome":{"result":[]}}` {
		t.Fatalf("first CallLine = %s, %v, want a reply to seq 1", line, err)
	}
	proc := p.proc
	line, err = p.CallLine(call)
	if err != nil || !strings.HasPrefix(string(line), `{"type":"error","seq":2,`) {
		t.Fatalf("second CallLine = %s, %v, want the error line", line, err)
	}
	if p.proc != proc {
		t.Errorf("the port was restarted after an error line")
	}
	if line, err := p.CallLine(call); err != nil || !strings.HasPrefix(string(line), `{"type":"reply","seq":3,`) {
		t.Errorf("third CallLine = %s, %v, want a reply to seq 3", line, err)
	}
	if _, err := p.CallLine(func(seq int64) []byte { return call(seq + 1) }); err == nil || !strings.Contains(err.Error(), "reply has seq 5, want 4") {
		t.Errorf("a reply to another seq: %v, want an ERROR naming both seqs", err)
	}
	if p.proc != nil {
		t.Errorf("the port still runs after a reply with a wrong seq")
	}
}
