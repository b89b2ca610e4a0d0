package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
)

// maxSequence bounds the history a sequence is shrunk from.
const maxSequence = 20000

// shrinkSequence shrinks a disagreement that needs the calls before it:
// from the calls the target's process had been sent, it keeps the last one,
// cuts the calls before it to the shortest run that ends there, and removes
// the others, in halves, then quarters and so on down to one
// at a time (delta debugging), keeping each removal after which the run of
// calls, sent to a freshly started target, still ends in the same
// disagreement; then it shrinks each call as [shrink] does, the last one
// first, with the same test. It starts at most opts.SequenceBudget targets
// and returns nil when even the whole history does not make the
// disagreement happen again.
func shrinkSequence(ctx context.Context, opts Options, f finding) (*Counterexample, error) {
	if len(f.history) == 0 || len(f.history) > maxSequence {
		return nil, nil
	}
	steps := make([]sample, len(f.history))
	for k, i := range f.history {
		steps[k] = generate(opts.Seed, i)
	}
	original := steps[len(steps)-1].call
	tries := 0
	test := func(st []sample) bool {
		if tries >= opts.SequenceBudget || ctx.Err() != nil {
			return false
		}
		tries++
		return reproduces(opts, st, f.kind)
	}
	if !test(steps) {
		return nil, ctx.Err()
	}
	prefix, last := steps[:len(steps)-1], steps[len(steps)-1]
	// The state that matters is usually left by calls shortly before:
	// first the shortest run of the last calls that still does it (a binary
	// search, the whole prefix doing it and none not), then delta debugging
	// within it.
	for lo, hi := 0, len(prefix); hi-lo > 1; {
		mid := (lo + hi) / 2
		if test(append(slices.Clone(prefix[len(prefix)-mid:]), last)) {
			hi = mid
		} else {
			lo = mid
		}
		if lo+1 >= hi {
			prefix = prefix[len(prefix)-hi:]
		}
	}
	for n := 2; len(prefix) > 0 && tries < opts.SequenceBudget; {
		n = min(n, len(prefix))
		size := (len(prefix) + n - 1) / n
		reduced := false
		for from := 0; from < len(prefix); from += size {
			cand := append(slices.Clone(prefix[:from]), prefix[min(from+size, len(prefix)):]...)
			if test(append(slices.Clone(cand), last)) {
				prefix, reduced = cand, true
				n = max(n-1, 2)
				break
			}
		}
		if !reduced {
			if n == len(prefix) {
				break
			}
			n = min(2*n, len(prefix))
		}
	}
	steps = append(slices.Clone(prefix), last)
	// Each call gets an equal share of what is left of the budget, the
	// last one first.
	for k := len(steps) - 1; k >= 0 && tries < opts.SequenceBudget; k-- {
		if c := steps[k].corner; c != nil && !c.hasCall {
			continue
		}
		share := (opts.SequenceBudget - tries) / (k + 1)
		best, _ := shrink(steps[k].call, func(c *node) bool {
			st := slices.Clone(steps)
			st[k].call = c
			return test(st)
		}, max(share, 1))
		steps[k].call = best
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	wants := make([]outcome, len(steps))
	for k, s := range steps {
		wants[k] = referenceOutcome(opts.Reference, s, s.call.appendJSON(nil))
	}
	// Once more, for the report: the outcome the port gives the last call.
	t := opts.NewTarget()
	var got outcome
	for _, s := range steps {
		got = sendSample(t, s, s.call.appendJSON(nil))
	}
	t.Close()
	want := wants[len(wants)-1]
	_, check := compare(want, got, opts.Diff)
	last = steps[len(steps)-1]
	ce := f.counterexample(opts.Seed, original, last, tries, want, check)
	ce.steps, ce.wants, ce.History = steps, wants, len(f.history)
	return ce, nil
}

// Steps returns the lines of a sequence counterexample, in order, as sent
// to a fresh target with seqs from 1; nil for a counterexample of one call.
func (cx *Counterexample) Steps() [][]byte {
	if cx.steps == nil {
		return nil
	}
	lines := make([][]byte, len(cx.steps))
	for k, s := range cx.steps {
		lines[k] = s.build(s.call.appendJSON(nil), int64(k+1))
	}
	return lines
}

// sequenceKey tells sequences apart.
func (cx *Counterexample) sequenceKey() []byte { return bytes.Join(cx.Steps(), []byte("\n")) }

// lineParts splits a sample's line at the runner's seq: before it, after
// it, and whether the line holds it at all (a protocol corner may not).
func lineParts(s sample, call []byte) (before, after []byte, hasSeq bool) {
	if c := s.corner; c != nil {
		if !c.runnerSeq {
			return c.build(call, 0), nil, false
		}
		line := c.build(call, 0)
		return line[:len(c.seqBefore)], line[len(c.seqBefore)+1:], true
	}
	line := s.line.build(call, 0)
	i := bytes.Index(line, []byte(`"seq":0,`)) + len(`"seq":`)
	return line[:i], line[i+1:], true
}

// stepJSON writes one step of a sequence case: {"call", "expect"} for a
// call a case can hold, else {"line", "expect"} with the seq the reply
// must carry when it is not the runner's ("seq": null or an integer), and
// {"error_line": true} as the expectation of a line whose answer is an
// error line.
func stepJSON(s sample, want outcome) ([]byte, error) {
	call := s.call.appendJSON(nil)
	notImplemented := want.err == nil && want.baseKind() == "not_implemented"
	if want.err == nil && !notImplemented {
		expect, err := expectation(want.text)
		if err != nil {
			return nil, err
		}
		if s.line == nil && s.corner == nil && utf8.Valid(call) && !bytes.Contains(expect, []byte(`"INVALID_JSON"`)) {
			raw := fmt.Appendf(nil, `{"id":"fuzz.step","title":"t","spec":"SPEC.md §2","checks":[{"call":%s,"expect":%s}]}`, call, expect)
			if c, err := loadCase("fuzz.step.json", raw, nil); err == nil && sendsAsIs(c, call) {
				return fmt.Appendf(nil, `{"call":%s,"expect":%s}`, call, expect), nil
			}
		}
	}
	before, after, hasSeq := lineParts(s, call)
	var b bytes.Buffer
	b.WriteString(`{"line":[`)
	ps := pieces(before)
	if hasSeq {
		ps = append(ps, `{"seq":true}`)
	}
	ps = append(ps, pieces(after)...)
	b.WriteString(strings.Join(ps, ","))
	b.WriteString(`],"expect":`)
	switch {
	case want.err != nil:
		b.WriteString(`{"error_line":true}`)
	case notImplemented:
		b.WriteString(`{"not_implemented":true}`)
	default:
		expect, err := expectation(want.text)
		if err != nil {
			return nil, err
		}
		b.Write(expect)
	}
	switch want.seq {
	case "", "runner":
	default:
		fmt.Fprintf(&b, `,"seq":%s`, want.seq)
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// sequenceFile writes the sequence case of cx
// (conformance/sequence.schema.json).
func (cx *Counterexample) sequenceFile(title, note string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"id":%s,"title":%s,"spec":%s,"steps":[`, quote(cx.ID), quote(title+"; "+note), quote(sequenceSpec(cx)))
	steps, wants := cx.steps, cx.wants
	if steps == nil {
		steps, wants = []sample{{call: rawNode(cx.Call), line: cx.line, corner: cx.corner}}, []outcome{cx.want}
	}
	for k, s := range steps {
		if k > 0 {
			b.WriteByte(',')
		}
		step, err := stepJSON(s, wants[k])
		if err != nil {
			return nil, err
		}
		b.Write(step)
	}
	b.WriteString("]}")
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("failed to write the sequence case %s: %v", cx.ID, err)
	}
	out.WriteByte('\n')
	if _, err := parseSequence(cx.ID+".json", out.Bytes()); err != nil {
		return nil, fmt.Errorf("failed to write the sequence case %s: %v", cx.ID, err)
	}
	return out.Bytes(), nil
}

// sequenceSpec cites what a sequence case checks: the section of its last
// call, or PROTOCOL.md's rules for a protocol corner.
func sequenceSpec(cx *Counterexample) string {
	if cx.corner != nil {
		return conformance.Cite(textSection) + `; PROTOCOL.md "Every line gets one reply"`
	}
	if cx.line != nil {
		return conformance.Cite(textSection)
	}
	return conformance.Cite(specSection(cx.Call))
}

// rawNode holds JSON text as it is, as a node that writes it unchanged:
// the call of a counterexample of one call, whose nodes are not kept.
func rawNode(call []byte) *node { return &node{kind: kNumber, lit: string(call)} }

// A Sequence is a sequence case: calls and lines sent in order to one
// freshly started port, each with the outcome it must get
// (conformance/sequence.schema.json).
type Sequence struct {
	ID, Title, Spec string
	Steps           []SequenceStep
}

// A SequenceStep is one line of a sequence case.
type SequenceStep struct {
	// Call is the call of a call step, sent as {"type": "call", "seq": N,
	// "call": CALL}; nil for a line step.
	Call []byte
	// Before and After are a line step's bytes around the runner's seq;
	// HasSeq reports whether the line holds it (else the line is Before).
	Before, After []byte
	HasSeq        bool
	want          outcome
}

// Line returns the step's line for seq.
func (s *SequenceStep) Line(seq int64) []byte {
	if s.Call != nil {
		return (*lineMutation)(nil).build(s.Call, seq)
	}
	if !s.HasSeq {
		return s.Before
	}
	return fmt.Appendf(slices.Clone(s.Before), "%d%s", seq, s.After)
}

// parseSequence reads a sequence case file: the file is read strictly
// first (no duplicate key, no lone surrogate: what a port reads), then
// every step is checked.
func parseSequence(base string, data []byte) (*Sequence, error) {
	if _, err := catalog.ParseJSON(data); err != nil {
		return nil, fmt.Errorf("not valid JSON text: %v", err)
	}
	var file struct {
		ID, Title, Spec string
		Steps           []map[string]json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		return nil, err
	}
	if want := strings.TrimSuffix(base, ".json"); file.ID != want {
		return nil, fmt.Errorf("id %q does not match the file name", file.ID)
	}
	if file.Title == "" || !strings.HasPrefix(file.Spec, conformance.Cite("")) {
		return nil, errors.New(`a sequence case needs a "title" and a "spec" citing conformance/SPEC.md ("` + conformance.Cite("N") + `")`)
	}
	if len(file.Steps) == 0 {
		return nil, errors.New(`"steps" is empty`)
	}
	seq := &Sequence{ID: file.ID, Title: file.Title, Spec: file.Spec}
	for k, raw := range file.Steps {
		st, err := parseStep(raw)
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", k, err)
		}
		seq.Steps = append(seq.Steps, st)
	}
	return seq, nil
}

func parseStep(raw map[string]json.RawMessage) (SequenceStep, error) {
	var st SequenceStep
	for k := range raw {
		switch k {
		case "call", "line", "expect", "seq":
		default:
			return st, fmt.Errorf("unknown member %q", k)
		}
	}
	call, isCall := raw["call"]
	line, isLine := raw["line"]
	if isCall == isLine {
		return st, errors.New(`a step has exactly one of "call" and "line"`)
	}
	expect, ok := raw["expect"]
	if !ok {
		return st, errors.New(`a step needs an "expect"`)
	}
	var e map[string]json.RawMessage
	if err := json.Unmarshal(expect, &e); err != nil || len(e) != 1 {
		return st, fmt.Errorf(`"expect" is not {"result": ...}, {"error": CODE} or {"error_line": true}: %s`, expect)
	}
	switch {
	case e["result"] != nil:
		st.want = outcome{text: expect}
	case e["error"] != nil:
		var code string
		if json.Unmarshal(e["error"], &code) != nil || code == "" {
			return st, fmt.Errorf(`"expect": the error code is not a string: %s`, expect)
		}
		st.want = outcome{text: expect}
	case string(e["not_implemented"]) == "true":
		st.want = outcome{text: []byte(`{"not_implemented":"expected"}`)}
	case string(e["error_line"]) == "true" && isLine:
		st.want = outcome{err: &conformance.TransportError{Status: conformance.Error, Message: "port answered an error line: "}}
	default:
		return st, fmt.Errorf(`"expect" is not {"result": ...}, {"error": CODE} or, for a line, {"error_line": true}: %s`, expect)
	}
	if isCall {
		if _, ok := raw["seq"]; ok {
			return st, errors.New(`"seq" goes only with "line"`)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, call); err != nil || b.Len() == 0 || b.Bytes()[0] != '{' {
			return st, errors.New(`"call" is not an object`)
		}
		st.Call = b.Bytes()
		st.want.readable = true
		return st, nil
	}
	var ps []json.RawMessage
	if err := json.Unmarshal(line, &ps); err != nil {
		return st, errors.New(`"line" is not an array of pieces (an empty one for the empty line)`)
	}
	var text []byte
	for _, p := range ps {
		var s string
		var obj struct {
			Seq *bool
			Hex *string
		}
		switch {
		case json.Unmarshal(p, &s) == nil:
			text = append(text, s...)
		case json.Unmarshal(p, &obj) == nil && obj.Seq != nil && *obj.Seq && obj.Hex == nil:
			if st.HasSeq {
				return st, errors.New(`"line" holds {"seq": true} twice`)
			}
			st.HasSeq, st.Before, text = true, text, nil
		case json.Unmarshal(p, &obj) == nil && obj.Hex != nil && obj.Seq == nil:
			b, err := hexBytes(*obj.Hex)
			if err != nil {
				return st, err
			}
			text = append(text, b...)
		default:
			return st, fmt.Errorf(`"line": %s is not a string, {"hex": ...} or {"seq": true}`, p)
		}
	}
	if bytes.IndexByte(text, '\n') >= 0 || bytes.IndexByte(st.Before, '\n') >= 0 {
		return st, errors.New(`"line" holds a newline byte`)
	}
	if st.HasSeq {
		st.After = text
		st.want.seq = "runner"
		st.want.readable = string(st.Before) == `{"type":"call","seq":` && bytes.HasPrefix(st.After, []byte(","))
	} else {
		st.Before = text
		st.want.seq = "null"
		st.want.readable = readableSeq(text)
	}
	if s, ok := raw["seq"]; ok {
		lit := string(s)
		if lit != "null" && !isPositiveInteger(lit) {
			return st, fmt.Errorf(`"seq" is not null or a positive integer: %s`, s)
		}
		st.want.seq = lit
	}
	return st, nil
}

func isPositiveInteger(s string) bool {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func hexBytes(s string) ([]byte, error) {
	var out []byte
	s = strings.ReplaceAll(s, " ", "")
	if len(s)%2 != 0 {
		return nil, fmt.Errorf(`"hex": %q has an odd number of digits`, s)
	}
	for i := 0; i < len(s); i += 2 {
		var c byte
		if _, err := fmt.Sscanf(s[i:i+2], "%02x", &c); err != nil {
			return nil, fmt.Errorf(`"hex": %q is not hexadecimal`, s)
		}
		out = append(out, c)
	}
	return out, nil
}

// send sends the step to a target that takes lines, with seq as the
// runner's seq when the line has it. A line with a seq of its own is sent
// alone; any other is followed by a probe call, so that a port that
// answers nothing shows at once.
func (s *SequenceStep) send(p pipeliner) outcome {
	if !s.HasSeq && s.Call == nil && s.want.seq != "null" {
		line, err := p.Exchange(s.Before)
		if err != nil {
			return failed(err)
		}
		return replyOutcome(line, 0, false)
	}
	f := &flight{}
	f.seq, f.err = p.SendLine(s.Line)
	if f.err == nil && s.Call == nil {
		f.probe, _ = p.SendLine(func(seq int64) []byte { return (*lineMutation)(nil).build(probeCall, seq) })
	}
	return f.receive(p, s.Call == nil)
}

// RunSequence sends the steps of seq in order to target (freshly started
// by the caller) and judges each reply; the case passes when every step
// gets its expected outcome. An in-process target is spoken to behind
// [conformance.Serve], one session for the whole sequence.
func RunSequence(target conformance.Target, seq *Sequence, diff conformance.DiffFunc) *conformance.CaseResult {
	if diff == nil {
		diff = conformance.LineDiff
	}
	p, ok := target.(pipeliner)
	if !ok {
		s := newSession(target)
		defer s.Close()
		p = s
	}
	res := &conformance.CaseResult{ID: seq.ID, Title: seq.Title, Spec: seq.Spec, Status: conformance.Pass, Checks: []*conformance.CheckResult{}}
	for k := range seq.Steps {
		st := &seq.Steps[k]
		got := st.send(p)
		v, cr := compare(st.want, got, diff)
		cr.Index = k
		if st.Call != nil {
			cr.Call = st.Call
		} else {
			cr.Line = strings.ToValidUTF8(string(st.Line(0)), "\uFFFD")
		}
		switch v {
		case agree:
			cr.Status = conformance.Pass
		case skip:
			cr.Status = conformance.Skip
			if res.Status == conformance.Pass {
				res.Status, res.Message = conformance.Skip, "not implemented: "+cr.Message
			}
		default:
			if cr.Status == conformance.Pass || cr.Status == "" {
				cr.Status = conformance.Fail
			}
			if res.Status == conformance.Pass || res.Status == conformance.Skip {
				res.Status = cr.Status
				res.Message = fmt.Sprintf("step %d of %d: want %s, got %s", k+1, len(seq.Steps), st.want.kind(), got.kind())
			}
			if got.err != nil {
				res.Stderr = got.err.Stderr
			}
		}
		res.Checks = append(res.Checks, cr)
	}
	return res
}

// A session is an in-process target behind [conformance.Serve], as a
// pipeliner: one protocol session, its replies gathered as they come.
type session struct {
	w       *io.PipeWriter
	replies chan []byte
	done    chan struct{}
	seq     int64
}

func newSession(t conformance.Target) *session {
	r, w := io.Pipe()
	s := &session{w: w, replies: make(chan []byte, 1<<16), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		conformance.Serve(r, &lineWriter{out: s.replies}, t, t.Info())
	}()
	s.w.Write([]byte(`{"type":"hello","protocol":"` + conformance.Protocol + `"}` + "\n"))
	<-s.replies
	return s
}

// lineWriter sends each whole line Serve writes to a channel.
type lineWriter struct {
	out     chan<- []byte
	partial []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		l.out <- slices.Clone(l.partial[:i])
		l.partial = l.partial[i+1:]
	}
}

func (s *session) SendLine(build func(seq int64) []byte) (int64, error) {
	s.seq++
	_, err := s.w.Write(append(build(s.seq), '\n'))
	return s.seq, err
}

func (s *session) ReceiveReply(int64) ([]byte, error) { return <-s.replies, nil }
func (s *session) ReceiveAny() ([]byte, error)        { return <-s.replies, nil }

func (s *session) Exchange(line []byte) ([]byte, error) {
	if _, err := s.w.Write(append(slices.Clone(line), '\n')); err != nil {
		return nil, err
	}
	return <-s.replies, nil
}

func (s *session) Close() error {
	s.w.Close()
	<-s.done
	return nil
}
