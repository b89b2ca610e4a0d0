package fuzz

import (
	"bytes"
	"errors"

	"github.com/catalogkit/catalogkit/conformance"
)

// A pipeliner is a target that takes several lines in flight: a
// [*conformance.Port].
type pipeliner interface {
	SendLine(build func(seq int64) []byte) (int64, error)
	ReceiveReply(seq int64) ([]byte, error)
	ReceiveAny() ([]byte, error)
	Exchange(line []byte) ([]byte, error)
}

// The fuzzer keeps at most window lines, and at most windowBytes bytes of
// them, in flight to a port; a longer line goes alone. The replies to the
// lines in flight are at most a few times as long as they are, well within
// what the pipes between the runner and the port hold, so neither side
// ever waits for the other to read.
const (
	window      = 8
	windowBytes = 16 << 10
)

// reference returns the reference's outcome for a sample.
func referenceOutcome(ref conformance.Target, s sample, call []byte) outcome {
	if s.corner != nil {
		o := cornerOutcome(ref, s.corner, call)
		o.readable = s.corner.alone && readableSeq([]byte(s.corner.before))
		return o
	}
	o := send(ref, call, s.line)
	o.readable = s.line == nil || s.line.prefix == ""
	return o
}

// readableSeq reports whether line starts as PROTOCOL.md's rule 2 reads a
// refused line's seq: the exact bytes {"type":"call","seq":, a positive
// integer, and a comma.
func readableSeq(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte(`{"type":"call","seq":`))
	if !ok || len(rest) == 0 || rest[0] < '1' || rest[0] > '9' {
		return false
	}
	i := 0
	for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
		i++
	}
	return i < len(rest) && rest[i] == ','
}

// cornerOutcome returns what target, behind [conformance.Serve], answers
// to the corner's line after the hello, with seq 1: how an implementation
// in-process answers a protocol corner.
func cornerOutcome(t conformance.Target, c *corner, call []byte) outcome {
	if t == nil {
		t = referenceTarget()
	}
	in := []byte(`{"type":"hello","protocol":"` + conformance.Protocol + `"}` + "\n")
	in = append(append(in, c.build(call, 1)...), '\n')
	var out bytes.Buffer
	conformance.Serve(bytes.NewReader(in), &out, t, t.Info())
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	return replyOutcome(lines[len(lines)-1], 1, c.runnerSeq || !c.ownSeq())
}

// A flight is a line sent to a port whose reply has not been read.
type flight struct {
	index int
	s     sample
	call  []byte
	seq   int64
	probe int64 // the seq of the probe sent after a corner; 0 if none
	// own: the line's seq is its own, whatever it holds (a mutated suite
	// line): its reply is read with ReceiveAny, its seq judged.
	own  bool
	err  error // the line could not be sent
	want outcome
}

// start sends a sample's line (and, after a corner, the probe) to p.
func start(p pipeliner, index int, s sample, call []byte) *flight {
	f := &flight{index: index, s: s, call: call, own: s.corner != nil && s.corner.alone}
	f.seq, f.err = p.SendLine(func(seq int64) []byte { return s.build(call, seq) })
	if f.err == nil && s.corner != nil && !f.own {
		f.probe, _ = p.SendLine(func(seq int64) []byte { return (*lineMutation)(nil).build(probeCall, seq) })
	}
	return f
}

// finish reads the reply of a flight (and of its probe).
func (f *flight) finish(p pipeliner) outcome { return f.receive(p, f.s.corner != nil) }

// receive reads the reply to f.seq, then the probe's; keepSeq keeps the
// reply's seq in the outcome, for a line whose seq the caller judges (the
// transport checked every other).
func (f *flight) receive(p pipeliner, keepSeq bool) outcome {
	if f.err != nil {
		return failed(f.err)
	}
	if f.own {
		line, err := p.ReceiveAny()
		if err != nil {
			return failed(err)
		}
		return replyOutcome(line, 0, false)
	}
	line, err := p.ReceiveReply(f.seq)
	if f.probe != 0 {
		p.ReceiveReply(f.probe)
	}
	if err != nil {
		return failed(err)
	}
	o := replyOutcome(line, f.seq, true)
	if !keepSeq {
		o.seq = ""
	}
	return o
}

// failed is the outcome of a line that got no reply.
func failed(err error) outcome {
	var te *conformance.TransportError
	if !errors.As(err, &te) {
		te = &conformance.TransportError{Status: conformance.Error, Message: err.Error()}
	}
	return outcome{err: te}
}

// sendSample sends one sample to t and returns its outcome: to a port as
// the fuzzer sends it (a corner with its own seq alone, with Exchange), to
// an in-process target through [send], or behind [conformance.Serve] for
// a corner.
func sendSample(t conformance.Target, s sample, call []byte) outcome {
	p, ok := t.(pipeliner)
	switch {
	case ok && s.corner != nil && s.corner.ownSeq():
		line, err := p.Exchange(s.corner.build(call, 0))
		if err != nil {
			return failed(err)
		}
		return replyOutcome(line, 0, false)
	case ok:
		return start(p, 0, s, call).finish(p)
	case s.corner != nil:
		return cornerOutcome(t, s.corner, call)
	}
	return send(t, call, s.line)
}

// lineBytes estimates the length of a sample's line, for the window: its
// call and the message around it, or a corner's line of its own (a mutated
// suite line, up to two lines spliced).
func lineBytes(s sample, call []byte) int {
	if s.corner != nil && !s.corner.hasCall {
		return len(s.corner.seqBefore) + len(s.corner.before) + len(s.corner.after) + 64
	}
	return len(call) + 64
}
