package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
)

// Reference returns the built-in Go implementation as a [conformance.Target]
// that reads a call as a port receives it: inside the line
// {"type":"call","seq":N,"call":CALL}. The whole line is read strictly
// first, so a duplicate key anywhere in the call, a lone surrogate, invalid
// UTF-8 or nesting over the limit counted over the whole line (the message
// being depth 1) is INVALID_JSON; then the call goes to
// [conformance.GoTarget]. It is the expectation of every fuzzed call.
func Reference(version string) conformance.Target {
	return reference{conformance.GoTarget(version)}
}

type reference struct{ conformance.Target }

// invalidJSON is the outcome of a call the strict reader refuses.
var invalidJSON = []byte(`{"error":"INVALID_JSON"}`)

func (r reference) Call(call []byte) (out []byte, err error) {
	if !bytes.HasPrefix(call, []byte(`{"op":"`)) || bytes.Contains(call, []byte("mutate_and_repeat")) {
		if out, err, ok := innerCorner(call); ok {
			return out, err
		}
	}
	// The call is read strictly by GoTarget; only the depth differs when it
	// sits inside the message, one level down.
	if depth(call) >= catalog.MaxDepth {
		line := make([]byte, 0, len(call)+40)
		line = append(line, `{"type":"call","seq":1,"call":`...)
		line = append(append(line, call...), '}')
		if _, err := catalog.ParseJSON(line); err != nil {
			var ce *catalog.Error
			if errors.As(err, &ce) {
				detail, _ := json.Marshal(ce.Detail)
				return fmt.Appendf(nil, `{"error":"INVALID_JSON","detail":%s}`, detail), nil
			}
			return invalidJSON, nil
		}
	}
	return r.Target.Call(call)
}

// innerCorner answers a call a port does not make, as PROTOCOL.md's rules
// 9 and 10 say: a call with no string op gets an error line, and so does a
// mutate_and_repeat whose inner call that is not an object,
// has no string op or is itself mutate_and_repeat gets an error line; an
// inner op it does not know, not_implemented.
func innerCorner(call []byte) (out []byte, err error, ok bool) {
	v, perr := catalog.ParseJSON(call)
	if perr != nil {
		return nil, nil, false
	}
	errorLine := &conformance.TransportError{Status: conformance.Error, Message: "port answered an error line: no call to make"}
	op, _ := v.Lookup("op")
	if s, isStr := op.Str(); !isStr && v.Kind() == catalog.Object {
		return nil, errorLine, true // rule 9: a call with no string op
	} else if s != "mutate_and_repeat" {
		return nil, nil, false
	}
	inner, _ := v.Lookup("call")
	if inner.Kind() != catalog.Object {
		return nil, errorLine, true
	}
	iop, _ := inner.Lookup("op")
	switch s, isStr := iop.Str(); {
	case !isStr || s == "mutate_and_repeat":
		return nil, errorLine, true
	case s != "discover" && s != "validate_arguments":
		return []byte(`{"not_implemented":"unknown op inside mutate_and_repeat"}`), nil, true
	}
	return nil, nil, false
}

// depth returns the deepest nesting of arrays and objects in JSON text,
// brackets inside strings not counted; it reads malformed text too.
func depth(text []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// An outcome is what an implementation answered to one call: the OUTCOME
// text, or the transport error that stopped it.
type outcome struct {
	text []byte
	err  *conformance.TransportError
	// seq is the seq of the reply or error line, for a protocol corner
	// (see [corner]): "runner" for the seq the runner gave the line,
	// "null", or the literal the line itself held. It is "" for every other
	// line, whose reply's seq the transport checked.
	seq string
	// readable marks the reference's outcome of a line whose seq a port
	// can read even when it refuses the line (it starts with the runner's
	// {"type":"call","seq":N,): a refusal must then be the INVALID_JSON
	// reply with that seq, never an error line (PROTOCOL.md, rule 2).
	readable bool
}

// callTarget makes one call, turning a panic of an in-process target into
// an ERROR.
func callTarget(t conformance.Target, call []byte) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = outcome{err: &conformance.TransportError{Status: conformance.Error, Message: fmt.Sprintf("implementation panicked: %v", p)}}
		}
	}()
	out, err := t.Call(call)
	if err != nil {
		var te *conformance.TransportError
		if !errors.As(err, &te) {
			te = &conformance.TransportError{Status: conformance.Error, Message: err.Error()}
		}
		return outcome{err: te}
	}
	return outcome{text: out}
}

// send makes one call of a sample: as a call, or, when the sample has a line
// mutation, as the whole line. A target that takes lines (a
// [conformance.LineTarget], such as a port) gets the line as it is; any
// other (the reference, an in-process implementation) has its line read
// first by the strict reader of package catalog, as [Serve] reads it, and a
// line it refuses is INVALID_JSON.
func send(t conformance.Target, call []byte, line *lineMutation) outcome {
	if line == nil {
		return callTarget(t, call)
	}
	lt, ok := t.(conformance.LineTarget)
	if !ok {
		if _, err := catalog.ParseJSON(line.build(call, 1)); err != nil {
			var ce *catalog.Error
			if errors.As(err, &ce) {
				detail, _ := json.Marshal(ce.Detail)
				return outcome{text: fmt.Appendf(nil, `{"error":"INVALID_JSON","detail":%s}`, detail)}
			}
			return outcome{text: invalidJSON}
		}
		return callTarget(t, call)
	}
	reply, err := lt.CallLine(func(seq int64) []byte { return line.build(call, seq) })
	if err != nil {
		var te *conformance.TransportError
		if !errors.As(err, &te) {
			te = &conformance.TransportError{Status: conformance.Error, Message: err.Error()}
		}
		return outcome{err: te}
	}
	var msg struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Outcome json.RawMessage `json:"outcome"`
	}
	json.Unmarshal(reply, &msg) // CallLine checked it
	if msg.Type == "error" {
		return outcome{err: &conformance.TransportError{Status: conformance.Error, Message: "port answered an error line: " + msg.Message}}
	}
	return outcome{text: msg.Outcome}
}

// kind names an outcome's kind for people and for the shrinker, which keeps
// the kinds of both outcomes: "a result", "error CODE", "not_implemented",
// or the transport status ("CRASH: ...").
func (o outcome) kind() string {
	if o.seq != "" {
		return o.baseKind() + " with seq " + o.seq
	}
	return o.baseKind()
}

func (o outcome) baseKind() string {
	if o.err != nil {
		if isErrorLine(o.err) {
			return "an error line"
		}
		return string(o.err.Status)
	}
	if k := quickKind(o.text); k != "" {
		return k
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(o.text, &v) != nil {
		return "an invalid outcome"
	}
	if code, ok := v["error"]; ok {
		var s string
		json.Unmarshal(code, &s)
		return "error " + s
	}
	if _, ok := v["result"]; ok {
		return "a result"
	}
	if _, ok := v["not_implemented"]; ok {
		return "not_implemented"
	}
	return "an invalid outcome"
}

// quickKind returns baseKind's answer for an outcome written compactly with
// its first member first, as the reference writes every outcome and most
// ports do, without decoding it; "" for any other text. The outcomes it is
// given are valid JSON (the transport checked the port's; the reference's
// are its own), and an error's code comes before any other member.
func quickKind(text []byte) string {
	switch {
	case bytes.HasPrefix(text, []byte(`{"result":`)):
		return "a result"
	case bytes.HasPrefix(text, []byte(`{"not_implemented":`)):
		return "not_implemented"
	case bytes.HasPrefix(text, []byte(`{"error":"`)):
		code := text[len(`{"error":"`):]
		n := 0
		for n < len(code) && (code[n] >= 'A' && code[n] <= 'Z' || code[n] == '_') {
			n++
		}
		if n > 0 && n+1 < len(code) && code[n] == '"' && (code[n+1] == ',' || code[n+1] == '}') {
			return "error " + string(code[:n])
		}
	}
	return ""
}

// isErrorLine reports whether the port answered a {"type":"error"} line,
// which the protocol allows instead of an INVALID_JSON reply for a line the
// port's strict reader refuses.
func isErrorLine(te *conformance.TransportError) bool {
	return te.Status == conformance.Error && strings.HasPrefix(te.Message, "port answered an error line")
}

// A verdict is how one call's outcomes compare.
type verdict uint8

const (
	agree verdict = iota
	skip          // the port answered not_implemented
	disagree
)

// compare judges the port's outcome got against the reference's want, as
// the runner judges a check: a result by value, an error by its code. A
// refused line may be answered with an error line, unless its seq is
// readable.
func compare(wantOutcome, got outcome, diff conformance.DiffFunc) (verdict, *conformance.CheckResult) {
	want := wantOutcome.text
	if wantOutcome.err != nil {
		// The reference answered an error line (a protocol corner): so must
		// the port, with the same seq.
		want = []byte(`{"error_line":true}`)
		cr := &conformance.CheckResult{Status: conformance.Fail, Want: want, Got: got.text, Message: "want an error line with seq " + wantOutcome.seq + ", got " + got.kind()}
		if got.err != nil && isErrorLine(got.err) && got.seq == wantOutcome.seq {
			cr.Status = conformance.Pass
			return agree, cr
		}
		if got.err != nil && !isErrorLine(got.err) {
			cr.Status = got.err.Status
			cr.Message = got.err.Message
		}
		return disagree, cr
	}
	refused := (outcome{text: want}).baseKind() == "error INVALID_JSON"
	if got.err != nil {
		cr := &conformance.CheckResult{Status: got.err.Status, Want: want, Message: got.err.Message}
		if isErrorLine(got.err) && refused && !wantOutcome.readable && (got.seq == "" || got.seq == "null" || got.seq == wantOutcome.seq) {
			return agree, cr
		}
		if isErrorLine(got.err) && refused && wantOutcome.readable {
			cr.Message = readableRefusal + got.err.Message
		}
		return disagree, cr
	}
	if got.seq != wantOutcome.seq {
		return disagree, &conformance.CheckResult{Status: conformance.Fail, Want: want, Got: got.text,
			Message: fmt.Sprintf("the reply's seq is %s, want %s", got.seq, wantOutcome.seq)}
	}
	if (outcome{text: want}).baseKind() == "not_implemented" {
		// A protocol corner the reference does not implement (an unknown
		// op inside mutate_and_repeat): the port must say so too.
		cr := &conformance.CheckResult{Status: conformance.Pass, Want: want, Got: got.text}
		if got.baseKind() == "not_implemented" {
			return agree, cr
		}
		cr.Status, cr.Message = conformance.Fail, "want not_implemented, got "+got.kind()
		return disagree, cr
	}
	if bytes.Equal(want, got.text) {
		return agree, &conformance.CheckResult{Status: conformance.Pass, Want: want, Got: got.text}
	}
	cr, err := conformance.Judge(want, got.text, diff)
	if err != nil {
		// The reference's own outcome is not valid: a bug here, shown as a
		// disagreement rather than hidden.
		return disagree, &conformance.CheckResult{Status: conformance.Error, Want: want, Got: got.text, Message: err.Error()}
	}
	switch cr.Status {
	case conformance.Pass:
		return agree, cr
	case conformance.Skip:
		return skip, cr
	}
	return disagree, cr
}

// readableRefusal begins the message of a refused line whose seq was
// readable, answered with an error line: only the sequence case's judge
// holds a port to rule 2 there, as the text level takes any refusal.
const readableRefusal = `the line's seq is readable (it starts with {"type":"call","seq":N,), so its refusal is the reply {"error": "INVALID_JSON"} with that seq, not an error line: `

// Disagreement makes call to the reference and to target and says how
// their outcomes differ ("want error INVALID_LABEL, got a result"), or ""
// when they agree or target answered not_implemented.
func Disagreement(reference, target conformance.Target, call []byte) string {
	want, got := callTarget(reference, call), callTarget(target, call)
	if v, _ := compare(want, got, nil); v != disagree {
		return ""
	}
	return kindOf(want, got)
}
