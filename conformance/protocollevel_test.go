package conformance

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

func mustProtocolCases(t *testing.T) []*ProtocolCase { return must(t, ProtocolCases) }

// protocolOptOut is the Go implementation with a hello that opts out of
// the protocol level.
type protocolOptOut struct{ Target }

func (o protocolOptOut) Info() PortInfo {
	no := false
	return PortInfo{Name: "shy", Language: "Go", Version: "0", ProtocolLevel: &no}
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
