package fuzz

import (
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/catalogkit/conformance"
)

// A corner is a request line of one of the protocol's corners
// (PROTOCOL.md, "Every line gets one reply"): a line that is not a call to
// the port's next seq, or one whose reply is an error line. It is sent
// instead of the sample's call line; the call, when the corner carries
// one, sits where CALL is in its template.
//
// A corner whose seq is the runner's ({"seq": true} in a case file) or that
// has none is sent like any line, followed by a plain call (the probe), so
// that a port that answers nothing shows at once: the probe's reply comes
// first. A corner with a seq of its own (2^53 + 1, 40 digits) is sent alone,
// with [conformance.Port.Exchange], and its reply must echo that seq.
type corner struct {
	name string
	// before and after surround the call; template holds no call when
	// hasCall is false. With runnerSeq the seq goes between seqBefore and
	// before.
	seqBefore, before, after string
	hasCall, runnerSeq       bool
	// alone: the line's seq, if it has one, is its own, written in any
	// way (a mutated suite line): its reply is read whatever its seq, and
	// the seq judged; in flight with other lines, or alone with Exchange.
	alone bool
}

// corners are the protocol's corners the fuzzer sends; generate draws one
// for about 3 calls in 100.
var corners = []corner{
	{name: "empty line"},
	{name: "white space only", before: " \t \r"},
	{name: "a space", before: " "},
	{name: "a CR", before: "\r"},
	{name: "form feed only", before: "\f"},
	{name: "seq 2^53+1", before: `{"type":"call","seq":9007199254740993,"call":`, after: `}`, hasCall: true},
	{name: "seq of 40 digits", before: `{"type":"call","seq":` + strings.Repeat("9", 40) + `,"call":`, after: `}`, hasCall: true},
	{name: "seq 2^64+1", before: `{"type":"call","seq":18446744073709551617,"call":`, after: `}`, hasCall: true},
	{name: "seq 0", before: `{"type":"call","seq":0,"call":`, after: `}`, hasCall: true},
	{name: "negative seq", before: `{"type":"call","seq":-3,"call":`, after: `}`, hasCall: true},
	{name: "fractional seq", before: `{"type":"call","seq":1.5,"call":`, after: `}`, hasCall: true},
	{name: "seq 12.0", before: `{"type":"call","seq":12.0,"call":`, after: `}`, hasCall: true},
	{name: "seq 1e2", before: `{"type":"call","seq":1e2,"call":`, after: `}`, hasCall: true},
	{name: "string seq", before: `{"type":"call","seq":"12","call":`, after: `}`, hasCall: true},
	{name: "no seq", before: `{"type":"call","call":`, after: `}`, hasCall: true},
	{name: "second hello", before: `{"type":"hello","protocol":"` + conformance.Protocol + `"}`},
	{name: "second hello with a seq", seqBefore: `{"type":"hello","seq":`, before: `,"protocol":"` + conformance.Protocol + `"}`, runnerSeq: true},
	{name: "unknown type", seqBefore: `{"type":"ping","seq":`, before: `,"call":`, after: `}`, hasCall: true, runnerSeq: true},
	{name: "type not a string", seqBefore: `{"type":1,"seq":`, before: `,"call":`, after: `}`, hasCall: true, runnerSeq: true},
	{name: "no type", seqBefore: `{"seq":`, before: `,"call":`, after: `}`, hasCall: true, runnerSeq: true},
	{name: "call is an array", seqBefore: `{"type":"call","seq":`, before: `,"call":[`, after: `]}`, hasCall: true, runnerSeq: true},
	{name: "call is a string", seqBefore: `{"type":"call","seq":`, before: `,"call":"discover"}`, runnerSeq: true},
	{name: "call is null", seqBefore: `{"type":"call","seq":`, before: `,"call":null}`, runnerSeq: true},
	{name: "no call", seqBefore: `{"type":"call","seq":`, before: `}`, runnerSeq: true},
	{name: "op not a string", seqBefore: `{"type":"call","seq":`, before: `,"call":{"op":1,"catalog":[]}}`, runnerSeq: true},
	{name: "unknown op", seqBefore: `{"type":"call","seq":`, before: `,"call":{"op":"describe","catalog":[]}}`, runnerSeq: true},
	{name: "nested mutate_and_repeat", seqBefore: `{"type":"call","seq":`, before: `,"call":{"op":"mutate_and_repeat","call":{"op":"mutate_and_repeat","call":`, after: `}}}`, hasCall: true, runnerSeq: true},
	{name: "mutate_and_repeat of an unknown op", seqBefore: `{"type":"call","seq":`, before: `,"call":{"op":"mutate_and_repeat","call":{"op":"describe","catalog":[]}}}`, runnerSeq: true},
	{name: "mutate_and_repeat of a non-object", seqBefore: `{"type":"call","seq":`, before: `,"call":{"op":"mutate_and_repeat","call":[]}}`, runnerSeq: true},
	{name: "unknown type, seq 0", before: `{"type":"bye","seq":0}`},
	{name: "unknown type, seq 2^53+1", before: `{"type":"bye","seq":9007199254740993}`},
	{name: "refused, seq of 30 digits", before: `{"type":"call","seq":123456789012345678901234567890,"call":{},"call":{}}`},
	{name: "refused, seq 53.5", before: `{"type":"call","seq":53.5,"call":{},"call":{}}`},
	{name: "message is an array", before: `[`, after: `]`, hasCall: true},
	{name: "message is a string", before: `"call"`},
	{name: "message is null", before: `null`},
}

// ownSeq reports whether the corner's line holds a seq of its own, which
// its reply must echo: it is sent alone, with Exchange.
func (c *corner) ownSeq() bool {
	return c.alone || strings.Contains(c.before, `"seq":`) && !c.runnerSeq
}

// build returns the corner's line for call and seq.
func (c *corner) build(call []byte, seq int64) []byte {
	var b []byte
	if c.runnerSeq {
		b = append(b, c.seqBefore...)
		b = strconv.AppendInt(b, seq, 10)
	}
	b = append(b, c.before...)
	if c.hasCall {
		b = append(b, call...)
	}
	return append(b, c.after...)
}

// probeCall is the call sent after a corner: any port answers it.
var probeCall = []byte(`{"op":"discover","catalog":[],"family":"all"}`)

var referenceTarget = sync.OnceValue(func() conformance.Target { return Reference("reference") })

// replyOutcome reads a reply line (checked already) as an outcome that
// knows its seq: "runner" when it is the seq the runner gave the line
// (seq) and runnerSeq says the line carried it, else the literal ("null"
// for none).
func replyOutcome(line []byte, seq int64, runnerSeq bool) outcome {
	msg, err := conformance.SplitReply(line)
	if err != nil {
		return outcome{err: &conformance.TransportError{Status: conformance.Error, Message: err.Error()}}
	}
	s := msg.Seq
	if s == "" {
		s = "null"
	}
	if runnerSeq && s == strconv.FormatInt(seq, 10) {
		s = "runner"
	}
	if msg.Type == "error" {
		return outcome{err: &conformance.TransportError{Status: conformance.Error, Message: "port answered an error line: " + msg.Message}, seq: s}
	}
	if msg.Type != "reply" || msg.Outcome == nil {
		return outcome{err: &conformance.TransportError{Status: conformance.Error, Message: "line is neither a reply nor an error line: " + string(line)}, seq: s}
	}
	return outcome{text: msg.Outcome, seq: s}
}
