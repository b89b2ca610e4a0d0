package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

// A ProtocolCase is one case of the protocol level: lines the runner sends
// byte for byte, each with the reply PROTOCOL.md gives it. A case runs on
// the session that served the other cases, or on a fresh session of its
// own (for what only the start or the end of a session can show: a call
// before the hello, a last line with no newline). A protocol case file is
// protocol/<id>.json; its id starts with "protocol.".
type ProtocolCase struct {
	ID    string
	Title string
	// Spec cites the rules of PROTOCOL.md the case checks.
	Spec string
	// Fresh: the case runs on a session of its own, which sends no hello
	// unless a line of the case does, and whose input the runner closes
	// after the last line: the port must then exit with status 0.
	Fresh bool
	// Pipelined: the runner writes every line before it reads the first
	// reply, so that the replies must come in the lines' order however
	// long each takes; otherwise it waits for each reply before the next
	// line.
	Pipelined bool
	Lines     []*ProtocolLine
}

// A ProtocolLine is one line of a protocol case and the reply it must get.
type ProtocolLine struct {
	pieces []linePiece // the line, without its ending
	end    string      // "\n", "\r\n" or "" (the last line of a fresh session)
	// expect is the wanted reply: kind is "reply" (seq, outcome), "error"
	// (seq, null if seq is "") or "hello". An outcome {"not_implemented":
	// true} stands for any not_implemented reason.
	kind    string
	seq     string // a positive integer literal, or "" for null
	outcome *node
}

// Bytes returns what the runner writes for the line, its ending included.
func (l *ProtocolLine) Bytes() []byte { return append(appendLine(nil, l.pieces, 0), l.end...) }

// Size returns the length of the line without its ending, a seq left out.
func (l *ProtocolLine) Size() int { return piecesSize(l.pieces) }

// Expect returns the wanted reply as the case file writes it.
func (l *ProtocolLine) Expect() []byte {
	seq := "null"
	if l.seq != "" {
		seq = l.seq
	}
	switch l.kind {
	case "reply":
		return fmt.Appendf(nil, `{"reply":%s,"seq":%s}`, l.outcome.appendJSON(nil), seq)
	case "hello":
		return []byte(`{"hello":true}`)
	}
	return fmt.Appendf(nil, `{%q:{"seq":%s}}`, l.kind, seq)
}

var protocolIDPattern = regexp.MustCompile(`^protocol(\.[a-z][a-z0-9-]*)+$`)

// LoadProtocol reads every protocol case in fsys (protocol/*.json) and
// returns them sorted by id. It checks what the runner relies on; the JSON
// Schema protocol-case.schema.json describes the format in full.
func LoadProtocol(fsys fs.FS) ([]*ProtocolCase, error) {
	return loadFiles(fsys, "protocol", "protocol case", parseProtocolCase)
}

// ProtocolCases returns the embedded protocol level, loaded with
// [LoadProtocol].
func ProtocolCases() ([]*ProtocolCase, error) { return LoadProtocol(Files) }

func parseProtocolCase(data []byte) (*ProtocolCase, error) {
	c := &ProtocolCase{}
	n, lines, err := protocolForm.read(data, &c.ID, &c.Title, &c.Spec)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(c.Spec, `PROTOCOL.md "`) {
		return nil, fmt.Errorf(`spec %q does not cite PROTOCOL.md "heading"`, c.Spec)
	}
	switch s, _ := n.lookup("session"); {
	case s.kind == kString && s.str == "shared":
	case s.kind == kString && s.str == "fresh":
		c.Fresh = true
	default:
		return nil, fmt.Errorf(`"session" is not "shared" or "fresh"`)
	}
	if p, ok := n.lookup("pipelined"); ok {
		if p.kind != kBool {
			return nil, fmt.Errorf(`"pipelined" is not a boolean`)
		}
		c.Pipelined = p.lit == "true"
	}
	for i, item := range lines {
		l, err := parseProtocolLine(item)
		if err != nil {
			return nil, fmt.Errorf("lines[%d]: %v", i, err)
		}
		if l.end == "" && (!c.Fresh || i != len(lines)-1) {
			return nil, fmt.Errorf(`lines[%d]: only the last line of a fresh session may have no line ending`, i)
		}
		c.Lines = append(c.Lines, l)
	}
	return c, nil
}

func parseProtocolLine(n *node) (*ProtocolLine, error) {
	if err := onlyKeys(n, "line", []string{"line", "expect"}, []string{"end"}); err != nil {
		return nil, err
	}
	l := &ProtocolLine{end: "\n"}
	if e, ok := n.lookup("end"); ok {
		if e.kind != kString || !slices.Contains([]string{"\n", "\r\n", ""}, e.str) {
			return nil, fmt.Errorf(`"end" is not "\n", "\r\n" or ""`)
		}
		l.end = e.str
	}
	pieces, _ := n.lookup("line")
	if pieces.kind != kArray {
		return nil, fmt.Errorf(`"line" is not an array of pieces`)
	}
	size := 0
	for i, p := range pieces.items {
		piece, err := parsePiece(p)
		if err != nil {
			return nil, fmt.Errorf("line[%d]: %v", i, err)
		}
		if piece.seq {
			return nil, fmt.Errorf(`line[%d]: a protocol line writes its seq itself, {"seq": true} is for text cases`, i)
		}
		if bytes.IndexByte(piece.bytes, '\n') >= 0 {
			return nil, fmt.Errorf("line[%d]: a line cannot hold a newline byte", i)
		}
		if size += piece.size(); size > MaxLine {
			return nil, fmt.Errorf("the line is longer than %d bytes", MaxLine)
		}
		l.pieces = append(l.pieces, piece)
	}
	e, _ := n.lookup("expect")
	if e == nil || e.kind != kObject || len(e.keys) == 0 {
		return nil, fmt.Errorf(`"expect" is not an object`)
	}
	l.kind = e.keys[0]
	var seq *node
	switch l.kind {
	case "reply":
		if err := onlyKeys(e, "reply expectation", []string{"reply", "seq"}, nil); err != nil {
			return nil, err
		}
		l.outcome, _ = e.lookup("reply")
		if l.outcome.kind != kObject {
			return nil, fmt.Errorf(`"reply" is not an outcome object`)
		}
		seq, _ = e.lookup("seq")
	case "error":
		if err := onlyKeys(e, l.kind+" expectation", []string{l.kind}, nil); err != nil {
			return nil, err
		}
		v, _ := e.lookup(l.kind)
		if err := onlyKeys(v, l.kind, []string{"seq"}, nil); err != nil {
			return nil, err
		}
		seq, _ = v.lookup("seq")
	case "hello":
		if err := onlyKeys(e, "hello expectation", []string{"hello"}, nil); err != nil {
			return nil, err
		}
		if h, _ := e.lookup("hello"); h.kind != kBool || h.lit != "true" {
			return nil, fmt.Errorf(`"hello" is not true`)
		}
		return l, nil
	default:
		return nil, fmt.Errorf(`"expect" is not {"reply": OUTCOME, "seq": N}, {"error": {"seq": N or null}} or {"hello": true}`)
	}
	switch {
	case seq.kind == kNull && l.kind != "reply":
	case seq.kind == kNumber && positiveInteger.MatchString(seq.lit):
		l.seq = seq.lit
	default:
		return nil, fmt.Errorf("seq %s is not a positive integer literal%s", seq, map[bool]string{true: "", false: " or null"}[l.kind == "reply"])
	}
	return l, nil
}

// RunProtocol runs the selected protocol cases in order, after the text
// level, and puts their outcome in rep.Protocol (nil if none is selected).
// A shared case runs on the target's own session (the one that served the
// other cases: a [*Port], or the target behind [Serve] in-process); a fresh
// case on a session of its own. A port that said "protocol_level": false in
// its hello is sent none, and the level is reported as opted out. After a
// fatal transport error the remaining cases are ERROR, not run.
func (r *Runner) RunProtocol(rep *Report, cases []*ProtocolCase) {
	rep.Protocol = runLevel(r, rep, cases,
		func(info PortInfo) bool { return info.ProtocolLevel != nil && !*info.ProtocolLevel },
		r.runProtocolCase)
}

// runProtocolCase sends a protocol case's lines, one at a time (or, for a
// pipelined case, all of them first), and judges each reply. The first
// line that does not get its reply ends the case.
func (r *Runner) runProtocolCase(c *ProtocolCase, st SessionTarget, res *CaseResult) *TransportError {
	var ls LineSession = st
	var fresh FreshSession
	if c.Fresh {
		f, err := st.Fresh()
		if err != nil {
			te := asTransport(err)
			res.Status, res.Message, res.Stderr = te.Status, "could not start a fresh session: "+te.Message, te.Stderr
			return nil // the port may start again for the next case
		}
		fresh, ls = f, f
		defer fresh.Abort()
	}
	send := func(l *ProtocolLine, b []byte) error {
		err := ls.Send(b)
		if err == nil && l.end == "" {
			err = fresh.CloseInput()
		}
		return err
	}
	var sent []error // a pipelined case's: each line's error, nil once sent
	if c.Pipelined {
		sent = make([]error, len(c.Lines))
		for i, l := range c.Lines {
			if sent[i] = send(l, l.Bytes()); sent[i] != nil {
				break // the lines after it are never read: the case ends at it
			}
		}
	}
	res.Status = Pass
	for i, l := range c.Lines {
		b := l.Bytes()
		cr := &CheckResult{Index: i, Line: showLine(b), Want: json.RawMessage(l.Expect())}
		res.Checks = append(res.Checks, cr)
		var err error
		if c.Pipelined {
			err = sent[i]
		} else {
			err = send(l, b)
		}
		var line []byte
		if err == nil {
			line, err = ls.Next()
		}
		if err != nil {
			te := noOutcome(err, cr, res)
			res.Message = fmt.Sprintf("line %d: %s", i+1, te.Message)
			return te
		}
		if len(line) <= keepLimit {
			cr.Got = slices.Clone(line)
		} else {
			cr.GotBytes = len(line)
		}
		if msg := judgeProtocolLine(l, line); msg != "" {
			cr.Status, cr.Message = Fail, msg
			if cr.Got != nil && !json.Valid(cr.Got) {
				cr.Got = nil
			}
			if res.Status == Pass {
				res.Status, res.Message = Fail, fmt.Sprintf("line %d: %s", i+1, msg)
			}
			if !c.Pipelined {
				return nil
			}
			continue // the lines after it are sent: their replies are read too
		}
		cr.Status = Pass
	}
	if res.Status != Pass {
		return nil
	}
	if fresh != nil {
		err := error(nil)
		if c.Lines[len(c.Lines)-1].end != "" {
			err = fresh.CloseInput()
		}
		if err == nil {
			err = fresh.Wait()
		}
		if err != nil {
			te := asTransport(err)
			res.Status, res.Message, res.Stderr = Fail, "at the end of its input: "+te.Message, te.Stderr
		}
	}
	return nil
}

func asTransport(err error) *TransportError {
	var te *TransportError
	if !errors.As(err, &te) {
		te = &TransportError{Status: Error, Message: err.Error()}
	}
	return te
}

// judgeProtocolLine returns "" if line is the reply l wants, else what is
// wrong with it.
func judgeProtocolLine(l *ProtocolLine, line []byte) string {
	t, err := parseTape(line)
	if err != nil {
		return unreadable("reply", err, line)
	}
	msg := t.root()
	typ, _ := msg.lookup("type")
	seqOf := func() (string, bool) {
		s, ok := msg.lookup("seq")
		if !ok {
			return "", false
		}
		if s.kind() == kNull {
			return "null", true
		}
		if s.kind() == kNumber {
			return string(s.literal()), true
		}
		return s.String(), true
	}
	want := l.seq
	if want == "" {
		want = "null"
	}
	isError := func() string {
		if !typ.strEqual("error") {
			return "not an error line"
		}
		if err := objectKeys(msg, "error line", []string{"type", "seq", "message"}, nil); err != nil {
			return err.Error()
		}
		if m, _ := msg.lookup("message"); m.kind() != kString {
			return "the error line's message is not a string"
		}
		return ""
	}
	switch l.kind {
	case "hello":
		if _, err := parseHello(line); err != nil {
			return fmt.Sprintf("want the hello reply: %v", err)
		}
		return ""
	case "error":
		if why := isError(); why != "" {
			return fmt.Sprintf("want an error line with seq %s, got %s (%s)", want, brief(line), why)
		}
		if s, _ := seqOf(); s != want {
			return fmt.Sprintf("want an error line with seq %s, got seq %s: %s", want, s, brief(line))
		}
		return ""
	}
	if !typ.strEqual("reply") {
		return fmt.Sprintf("want a reply with seq %s, got %s", want, brief(line))
	}
	if err := objectKeys(msg, "reply", []string{"type", "seq", "outcome"}, nil); err != nil {
		return fmt.Sprintf("%v: %s", err, brief(line))
	}
	if s, _ := seqOf(); s != want {
		return fmt.Sprintf("want a reply with seq %s (echoed exactly), got seq %s", want, s)
	}
	o, _ := msg.lookup("outcome")
	if err := checkOutcome(o); err != nil {
		return err.Error()
	}
	if _, ok := l.outcome.lookup("not_implemented"); ok {
		if r, ok := o.lookup("not_implemented"); !ok || r.kind() != kString {
			return fmt.Sprintf("want the outcome {\"not_implemented\": REASON}, got %s", brief(o.text()))
		}
		return ""
	}
	if !equalOutcome(l.outcome, o) {
		return fmt.Sprintf("want the outcome %s, got %s", l.outcome, brief(o.text()))
	}
	return ""
}
