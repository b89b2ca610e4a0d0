package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

func mustProtocolCases(t *testing.T) []*ProtocolCase { return must(t, ProtocolCases) }

func mustFormat2Cases(t *testing.T) []*Case { return must(t, Format2Cases) }

// protocolOptOut is the Go implementation with a hello that opts out of
// the protocol level.
type protocolOptOut struct{ Target }

func (o protocolOptOut) Info() PortInfo {
	no := false
	return PortInfo{Name: "shy", Language: "Go", Version: "0", ProtocolLevel: &no}
}

// format2OptOut is the Go implementation with a hello that opts out of
// the format 2 level.
type format2OptOut struct{ Target }

func (o format2OptOut) Info() PortInfo {
	no := false
	return PortInfo{Name: "old", Language: "Go", Version: "0", Format2Level: &no}
}

// TestFormat2OptOut: a port whose hello opts out of the format 2 level is
// sent none of its cases and is reported so, in every format, never as
// passing; one that does not opt out and refuses format 2 fails the level.
func TestFormat2OptOut(t *testing.T) {
	cases, format2 := mustCases(t), mustFormat2Cases(t)
	r := &Runner{Target: format2OptOut{GoTarget("t")}}
	rep := r.RunCases(cases)
	r.RunFormat2(rep, format2)
	if want := "21 passed, 0 failed; format 2 level: opted out"; rep.Summary() != want || !rep.OK() || !rep.Format2.OptedOut || len(rep.Format2.Cases) != 0 {
		t.Errorf("summary %q (OK %v, %+v), want %q", rep.Summary(), rep.OK(), rep.Format2, want)
	}
	var text, js, junit bytes.Buffer
	rep.WriteText(&text)
	rep.WriteJSON(&js)
	rep.WriteJUnit(&junit)
	for _, tc := range []struct{ out, want string }{
		{text.String(), "format 2 level: opted out (the port's hello says \"format2_level\": false)"},
		{js.String(), "\"format2_level\": {\n    \"opted_out\": true,"},
		{junit.String(), `<skipped type="SKIP" message="format 2 level: opted out">`},
	} {
		if !strings.Contains(tc.out, tc.want) {
			t.Errorf("the report lacks %q:\n%s", tc.want, tc.out)
		}
	}
	// Without the opt-out, an implementation of format 1 alone refuses
	// every format-2 catalog as it refuses any object: the level fails.
	r = &Runner{Target: format1Only{GoTarget("t")}}
	rep = r.RunCases(cases)
	r.RunFormat2(rep, format2)
	if rep.OK() || rep.Format2 == nil || rep.Format2.Passed > 1 {
		t.Errorf("a port of format 1 alone: %s, want the format 2 level failed", rep.Summary())
	}
}

// format1Only answers every call on a catalog that is an object as format 1
// does: INVALID_CATALOG.
type format1Only struct{ Target }

func (f format1Only) Call(call []byte) ([]byte, error) {
	if bytes.Contains(call, []byte(`"catalog":{`)) {
		return []byte(`{"error":"INVALID_CATALOG"}`), nil
	}
	return f.Target.Call(call)
}

// TestProtocolLevel runs the protocol level in-process, through Serve: every
// case passes; and a port that opts out is reported so, never as passing.
func TestProtocolLevel(t *testing.T) {
	cases, text, protocol := mustCases(t), mustTextCases(t), mustProtocolCases(t)
	for _, tt := range []struct {
		name    string
		target  Target
		summary string
		reason  string
	}{
		{"in-process", GoTarget("t"), fmt.Sprintf("21 passed, 0 failed; text level %d/%d; protocol level %d/%d", len(text), len(text), len(protocol), len(protocol)),
			"Serve answers every line as PROTOCOL.md says"},
		{"opted out", protocolOptOut{GoTarget("t")}, fmt.Sprintf("21 passed, 0 failed; text level %d/%d; protocol level: opted out", len(text), len(text)),
			"a hello with protocol_level false opts out, and the report says so"},
	} {
		r := &Runner{Target: tt.target}
		rep := r.RunCases(cases)
		r.RunText(rep, text)
		r.RunProtocol(rep, protocol)
		if rep.Summary() != tt.summary || !rep.OK() {
			var b bytes.Buffer
			rep.WriteText(&b)
			t.Errorf("%s: summary %q (OK %v), want %q (%s)\n%s", tt.name, rep.Summary(), rep.OK(), tt.summary, tt.reason, b.String())
		}
	}
}

// scriptSession is a SessionTarget that answers every line with Serve's
// rules (one session state per session) and then lets bug change the
// reply; its fresh sessions answer the same way.
type scriptSession struct {
	bug     func(line, reply string) string
	sess    *session
	pending [][]byte
}

func newScriptSession(bug func(line, reply string) string) *scriptSession {
	return &scriptSession{bug: bug, sess: &session{target: GoTarget("t"), info: PortInfo{Name: "n", Language: "Go", Version: "v"}}}
}

func (s *scriptSession) Info() PortInfo              { return s.sess.info }
func (s *scriptSession) Call([]byte) ([]byte, error) { return nil, fmt.Errorf("no calls") }
func (s *scriptSession) Hello() (PortInfo, error)    { s.sess.greeted = true; return s.sess.info, nil }
func (s *scriptSession) CallLine(func(int64) []byte) ([]byte, error) {
	return nil, fmt.Errorf("no raw calls")
}

func (s *scriptSession) Send(b []byte) error {
	l := bytes.TrimSuffix(b, []byte("\n"))
	reply := string(s.sess.answer(l, len(l) > catalog.MaxInputBytes))
	s.pending = append(s.pending, []byte(s.bug(string(b), reply)))
	return nil
}

func (s *scriptSession) Next() ([]byte, error) {
	if len(s.pending) == 0 {
		return nil, &TransportError{Status: Timeout, Message: "no reply"}
	}
	l := s.pending[0]
	s.pending = s.pending[1:]
	return l, nil
}

func (s *scriptSession) Fresh() (FreshSession, error) { return newScriptSession(s.bug), nil }
func (s *scriptSession) CloseInput() error            { return nil }
func (s *scriptSession) Wait() error                  { return nil }
func (s *scriptSession) Abort()                       {}

// TestProtocolLevelCatches checks that the protocol level fails ports that
// break its rules: each wrong answer fails the cases aimed at it.
func TestProtocolLevelCatches(t *testing.T) {
	var protocol []*ProtocolCase
	for _, c := range mustProtocolCases(t) {
		if !strings.HasPrefix(c.ID, "protocol.line-limit.") { // slow, and no bug below is about them
			protocol = append(protocol, c)
		}
	}
	serve := newScriptSession
	tests := []struct {
		name   string
		target *scriptSession
		want   []string // ids that must fail, by prefix
		reason string
	}{
		{"float seq", serve(func(line, reply string) string {
			return strings.Replace(reply, `"seq":9007199254740993,`, `"seq":9007199254740992,`, 1)
		}), []string{"protocol.seq.max-safe-plus-one", "protocol.type.unknown.seq-max-safe-plus-one"}, "a seq passed through a float64 is echoed wrong"},
		{"silent on empty lines", serve(func(line, reply string) string {
			if strings.TrimSpace(line) == "" {
				return `{"type":"reply","seq":1,"outcome":{"result":[]}}`
			}
			return reply
		}), []string{"protocol.blank.", "protocol.last-line.blank-no-newline"}, "an empty line must get an error line"},
		{"echoes discover's arguments", serve(func(line, reply string) string {
			return strings.Replace(reply, `"arguments":null`, `"arguments":{"tab_id":1}`, 1)
		}), []string{"protocol.mutate-and-repeat.discover-with-arguments", "protocol.state.mutate-empty-required"}, "discover has no arguments to echo"},
	}
	for _, tt := range tests {
		rep := &Report{Tally: Tally{Cases: []*CaseResult{}}}
		(&Runner{Target: tt.target}).RunProtocol(rep, protocol)
		var failed []string
		for _, c := range rep.Protocol.Cases {
			if c.Status != Pass {
				failed = append(failed, c.ID)
			}
		}
		if len(failed) == 0 {
			t.Errorf("%s: no protocol case failed (%s)", tt.name, tt.reason)
		}
		for _, id := range failed {
			ok := false
			for _, w := range tt.want {
				ok = ok || strings.HasPrefix(id, w)
			}
			if !ok {
				t.Errorf("%s: %s failed, want only %v to (%s)", tt.name, id, tt.want, tt.reason)
			}
		}
	}
}
