package fuzz

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
)

// A Target is an implementation under test that can be closed: a
// [*conformance.Port].
type Target interface {
	conformance.Target
	Close() error
}

// Options configure a fuzzing run.
type Options struct {
	// Calls is how many calls to generate: calls 0 to Calls-1 of Seed.
	Calls int
	Seed  uint64
	// Jobs is how many targets run calls at once (at least 1).
	Jobs int
	// NewTarget starts one target; it is called once per job, and once
	// more to shrink. The run closes every target it starts.
	NewTarget func() Target
	// Reference gives the expected outcomes; nil means [Reference].
	Reference conformance.Target
	// Diff shows a disagreement's (-want +got); nil means
	// [conformance.LineDiff].
	Diff conformance.DiffFunc
	// MaxCounterexamples bounds how many disagreements are shrunk: the
	// first (lowest call number) of each kind. Zero means 5.
	MaxCounterexamples int
	// StopAtFirst ends the run at the first disagreement (the one with the
	// lowest call number, whatever the number of jobs).
	StopAtFirst bool
	// ShrinkBudget bounds the calls one shrink makes; zero means 5000.
	ShrinkBudget int
	// SequenceBudget bounds how many targets the shrink of one sequence
	// (a disagreement that needs the calls before it) starts; zero means
	// 300.
	SequenceBudget int
	// Progress, if not nil, is called about every interval with the
	// counts so far, from its own goroutine, and once at the end.
	Progress func(Progress)
}

// Progress is how far a run is.
type Progress struct {
	Done, Total, Disagreements int
	Elapsed                    time.Duration
	// Final is set on the last report, when the run stops calling.
	Final bool
}

// A Result is the outcome of a run.
type Result struct {
	Port PortInfo
	// Calls is how many calls were compared.
	Calls int
	// Skipped counts the calls the target answered not_implemented.
	Skipped int
	// Disagreements counts the calls whose outcomes differ.
	Disagreements int
	// Stateful counts the disagreements tried after the run that did not
	// happen again when the call was made alone, to a freshly started
	// target: the target keeps state from one call to the next. Each is
	// shrunk to a sequence case; up to 3 are tried for each kind.
	Stateful int
	// Counterexamples are the shrunk disagreements, by call number.
	Counterexamples []*Counterexample
	Elapsed         time.Duration
	// Unshrunk, when ctx ended the run, are the disagreements found by
	// then, by call number, none of them shrunk: call Index of the seed is
	// the same call in every run, so a run of Index+1 calls finds it again.
	Unshrunk []Found
}

// A Found is a call whose outcomes differ, before shrinking.
type Found struct {
	Index int    // the call's number in the run
	Kind  string // how the outcomes differ, as in [Counterexample]
}

// PortInfo is what the target said about itself.
type PortInfo = conformance.PortInfo

// A Counterexample is one disagreement, shrunk.
type Counterexample struct {
	// ID is the case id: fuzz.seed-S.call-I.
	ID string
	// Index is the call's number in the run, and Seed the run's seed.
	Index int
	Seed  uint64
	// Kind says how the outcomes differ: "want error INVALID_LABEL, got a
	// result".
	Kind string
	// Original and Call are the call's JSON text before and after
	// shrinking; Tries is how many calls the shrink made (for a sequence,
	// how many times it started a target).
	Original, Call []byte
	Tries          int
	// line is the mutation of the message line around Call, if any: the
	// counterexample is then a text case; corner the protocol corner whose
	// line carried it.
	line   *lineMutation
	corner *corner
	// Want is the reference's outcome and Check the port's, judged.
	Want  []byte
	want  outcome
	Check *conformance.CheckResult
	// steps, for a disagreement that needs the calls before it (the
	// target keeps state between calls), is the shortest run of calls
	// found that makes it happen on one freshly started target, Call's
	// sample last; wants are their expected outcomes.
	steps []sample
	wants []outcome
	// History, for a sequence, is how many calls the port's process had
	// been sent when it disagreed, that call included.
	History int
}

// Run generates the calls, sends each to a target and to the reference,
// and shrinks the first disagreement of each kind. It returns an error only
// when it could not run: a target that cannot start (a fatal
// [*conformance.TransportError]), or ctx ended; then the Result says how
// far the run got and what it had found (Calls, Disagreements, Unshrunk).
//
// A port gets several lines in flight (see [conformance.Port.SendLine]); when
// one gets no reply (a crash, a timeout, a reply that is not one), the
// lines sent after it are sent again, one at a time, to the restarted
// port, so that each outcome is the port's answer to that line. A
// disagreement that does not happen again when its call is made alone to a
// fresh target is still one: it is shrunk to the shortest run of calls
// that makes it happen again on one fresh target, a sequence case.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.NewTarget == nil {
		return nil, ErrNoTarget
	}
	if opts.Jobs < 1 {
		opts.Jobs = 1
	}
	if opts.Reference == nil {
		opts.Reference = Reference("")
	}
	if opts.MaxCounterexamples <= 0 {
		opts.MaxCounterexamples = 5
	}
	if opts.ShrinkBudget <= 0 {
		opts.ShrinkBudget = 5000
	}
	if opts.SequenceBudget <= 0 {
		opts.SequenceBudget = 300
	}
	start := time.Now()
	r := &run{opts: opts}
	r.limit.Store(int64(opts.Calls))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.ctx, r.cancel = ctx, cancel
	stopProgress := progressLoop(opts, &r.done, func() int { r.mu.Lock(); defer r.mu.Unlock(); return len(r.found) }, start)

	// Every job starts its own target; the first one shrinks afterwards.
	jobs := make([]*job, opts.Jobs)
	defer func() {
		for _, j := range jobs {
			j.t.Close()
		}
	}()
	for n := range jobs {
		jobs[n] = &job{t: opts.NewTarget(), first: n == 0, twin: -1}
	}
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p, ok := j.t.(pipeliner); ok {
				r.pipelined(ctx, j, p)
			} else {
				r.oneAtATime(ctx, j)
			}
		}()
	}
	wg.Wait()
	stopProgress()
	if r.fatal != nil {
		return nil, r.fatal
	}
	found := r.found
	slices.SortFunc(found, func(a, b finding) int { return a.index - b.index })
	interrupted := func(err error) (*Result, error) {
		res := &Result{Port: r.info, Calls: int(r.done.Load()), Skipped: int(r.skipped.Load()), Disagreements: len(found), Elapsed: time.Since(start)}
		for _, f := range found {
			res.Unshrunk = append(res.Unshrunk, Found{Index: f.index, Kind: f.kind})
		}
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return interrupted(err)
	}
	if opts.StopAtFirst && len(found) > 1 {
		found = found[:1]
	}
	res := &Result{Port: r.info, Calls: int(r.done.Load()), Skipped: int(r.skipped.Load()), Disagreements: len(found)}
	if opts.StopAtFirst && len(found) == 1 {
		res.Calls = found[0].index + 1 // the calls after it do not count
	}
	if len(found) == 0 {
		res.Elapsed = time.Since(start)
		return res, nil
	}
	t := jobs[0].t
	kinds := map[string]int{} // attempts per kind; -1 once it has a counterexample
	var shrunk [][]byte
	for _, f := range found {
		if kinds[f.kind] < 0 || kinds[f.kind] == maxAttempts || len(res.Counterexamples) == opts.MaxCounterexamples {
			continue
		}
		var cx *Counterexample
		var err error
		if s := generate(opts.Seed, f.index); reproduces(opts, []sample{s}, f.kind) {
			cx, err = shrinkOne(ctx, opts, t, f)
		} else {
			res.Stateful++
			cx, err = shrinkSequence(ctx, opts, f)
		}
		if err != nil {
			if ctx.Err() != nil {
				return interrupted(err)
			}
			return nil, err
		}
		kinds[f.kind]++
		if cx == nil {
			continue // the run of calls did not make it happen again
		}
		kinds[f.kind] = -1
		key := cx.Call
		if cx.steps != nil {
			key = cx.sequenceKey()
		}
		if slices.ContainsFunc(shrunk, func(b []byte) bool { return string(b) == string(key) }) {
			continue // another kind shrank to the same call
		}
		shrunk = append(shrunk, key)
		res.Counterexamples = append(res.Counterexamples, cx)
	}
	if res.Port.Name == "" {
		res.Port = t.Info()
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// A run is the state the jobs of [Run] share.
type run struct {
	opts                Options
	next, done, skipped atomic.Int64
	limit               atomic.Int64 // no call at or above it is started
	ctx                 context.Context
	cancel              func()
	mu                  sync.Mutex
	found               []finding
	fatal               error
	info                PortInfo
}

// A job is one target and what was sent to its running process.
type job struct {
	t     Target
	first bool
	// history is the calls sent to the target's process since it started,
	// in order: the run of calls a sequence case shrinks.
	history []int
	twin    int // the twin claimed with the call before it, or -1
}

// claim returns the next call for job j to make, or -1 when there is none.
// A job that claims a twin's base claims the twin with it (see twin.go): the
// twin goes to the same process, right after its base.
func (r *run) claim(ctx context.Context, j *job) int {
	if ctx.Err() != nil {
		return -1
	}
	i := j.twin
	j.twin = -1
	for i < 0 {
		n := r.next.Load()
		step := int64(1)
		if isTwinBase(r.opts.Seed, int(n)) {
			step = 2
		}
		if r.next.CompareAndSwap(n, n+step) {
			i = int(n)
			if step == 2 {
				j.twin = i + 1
			}
		}
	}
	if int64(i) >= r.limit.Load() {
		return -1
	}
	return i
}

// judge compares one outcome, records a disagreement, and reports whether
// the job must stop (a fatal transport error).
func (r *run) judge(j *job, i int, s sample, want, got outcome) bool {
	if got.err != nil && r.ctx.Err() != nil {
		// The run was ended (a signal aborts every port): the call got no
		// answer because of that, not because of the port.
		return true
	}
	if got.err != nil && got.err.Fatal {
		r.mu.Lock()
		if r.fatal == nil {
			r.fatal = got.err
		}
		r.mu.Unlock()
		r.cancel()
		return true
	}
	j.history = append(j.history, i)
	if got.err != nil && !isErrorLine(got.err) {
		defer func() { j.history = nil }() // the port was stopped: the next call starts it again
	}
	if int64(i) >= r.limit.Load() {
		return false // after the first disagreement, with StopAtFirst
	}
	if j.first && r.info.Name == "" {
		r.mu.Lock()
		r.info = j.t.Info()
		r.mu.Unlock()
	}
	v, _ := compare(want, got, r.opts.Diff)
	switch v {
	case skip:
		r.skipped.Add(1)
	case disagree:
		f := finding{index: i, kind: kindOf(want, got)}
		r.mu.Lock()
		if len(r.found) < maxHistories {
			f.history = slices.Clone(j.history)
		}
		r.found = append(r.found, f)
		r.mu.Unlock()
		if r.opts.StopAtFirst {
			for l := r.limit.Load(); int64(i) < l && !r.limit.CompareAndSwap(l, int64(i)); l = r.limit.Load() {
			}
		}
	}
	r.done.Add(1)
	return false
}

// oneAtATime makes the calls one after the other: an in-process target.
func (r *run) oneAtATime(ctx context.Context, j *job) {
	for i := r.claim(ctx, j); i >= 0; i = r.claim(ctx, j) {
		s := generate(r.opts.Seed, i)
		call := s.call.appendJSON(nil)
		want := referenceOutcome(r.opts.Reference, s, call)
		if r.judge(j, i, s, want, sendSample(j.t, s, call)) {
			return
		}
	}
}

// pipelined keeps up to window lines in flight to a port, working out each
// expected outcome while the port answers.
func (r *run) pipelined(ctx context.Context, j *job, p pipeliner) {
	var q []*flight
	inFlight := 0
	alone := func(i int, s sample, call []byte) bool {
		for _, f := range q {
			if r.judge(j, f.index, f.s, f.want, f.finish(p)) {
				return true
			}
		}
		q, inFlight = q[:0], 0
		return r.judge(j, i, s, referenceOutcome(r.opts.Reference, s, call), sendSample(j.t, s, call))
	}
	more := true
	for {
		for more && len(q) < window && inFlight < windowBytes {
			i := r.claim(ctx, j)
			if i < 0 {
				more = false
				break
			}
			s := generate(r.opts.Seed, i)
			call := s.call.appendJSON(nil)
			if n := lineBytes(s, call); n > windowBytes || s.corner != nil && s.corner.ownSeq() && !s.corner.alone {
				if alone(i, s, call) {
					return
				}
				continue
			}
			f := start(p, i, s, call)
			f.want = referenceOutcome(r.opts.Reference, s, call)
			q = append(q, f)
			inFlight += lineBytes(s, call)
		}
		if len(q) == 0 {
			return
		}
		f := q[0]
		q = q[1:]
		inFlight -= lineBytes(f.s, f.call)
		got := f.finish(p)
		if r.judge(j, f.index, f.s, f.want, got) {
			return
		}
		if got.err != nil && !isErrorLine(got.err) {
			// The port is gone, and with it the lines sent after f: send
			// them again, one at a time, to the restarted port.
			rest := q
			q, inFlight = nil, 0
			for _, g := range rest {
				if r.judge(j, g.index, g.s, g.want, sendSample(j.t, g.s, g.call)) {
					return
				}
			}
		}
	}
}

type finding struct {
	index int
	kind  string
	// history is the calls the target's process had been sent, this one
	// last (kept for the first maxHistories disagreements).
	history []int
}

// maxHistories bounds how many disagreements keep the history of their
// process.
const maxHistories = 64

// kindOf names how two outcomes differ; the shrinker keeps it.
func kindOf(want, got outcome) string {
	w, g := want.kind(), got.kind()
	switch {
	case w == g && w == "a result":
		g = "a different result"
	case w == g:
		g = "a different outcome"
	}
	return "want " + w + ", got " + g
}

func shrinkOne(ctx context.Context, opts Options, t Target, f finding) (*Counterexample, error) {
	s := generate(opts.Seed, f.index)
	original := s.call
	var fatal error
	try := func(c *node) (want, got outcome) {
		call := c.appendJSON(nil)
		v := s
		v.call = c
		return referenceOutcome(opts.Reference, v, call), sendSample(t, v, call)
	}
	keep := func(c *node) bool {
		if ctx.Err() != nil || fatal != nil {
			return false
		}
		want, got := try(c)
		if got.err != nil && got.err.Fatal {
			fatal = got.err
			return false
		}
		v, _ := compare(want, got, opts.Diff)
		return v == disagree && kindOf(want, got) == f.kind
	}
	alone := func(c *node) bool {
		v := s
		v.call = c
		return reproduces(opts, []sample{v}, f.kind)
	}
	best, tries := original, 0
	if s.corner == nil || s.corner.hasCall {
		best, tries = shrink(original, keep, opts.ShrinkBudget)
	}
	if fatal == nil && ctx.Err() == nil && best != original && !alone(best) {
		// The target's state made a smaller call disagree: shrink again,
		// accepting only calls that disagree alone on a fresh target too.
		var more int
		best, more = shrink(original, func(c *node) bool { return keep(c) && alone(c) }, opts.ShrinkBudget)
		tries += more
	}
	if fatal != nil {
		return nil, fatal
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	want, got := try(best)
	_, check := compare(want, got, opts.Diff)
	if kindOf(want, got) != f.kind {
		// The port answered differently this time (a port with state, or
		// one that timed out under load): keep the call as it was found.
		best = original
		want, got = try(best)
		_, check = compare(want, got, opts.Diff)
	}
	s.call = best
	return f.counterexample(opts.Seed, original, s, tries, want, check), nil
}

// counterexample is f, found at original and shrunk in tries to last (the
// call that disagrees, or the last of a sequence's steps), with the
// reference's outcome and the judged check of the port's.
func (f finding) counterexample(seed uint64, original *node, last sample, tries int, want outcome, check *conformance.CheckResult) *Counterexample {
	return &Counterexample{
		ID:       fmt.Sprintf("fuzz.seed-%d.call-%d", seed, f.index),
		Index:    f.index,
		Seed:     seed,
		Kind:     f.kind,
		Original: original.appendJSON(nil),
		Call:     last.call.appendJSON(nil),
		Tries:    tries,
		line:     last.line,
		corner:   last.corner,
		Want:     want.text,
		want:     want,
		Check:    check,
	}
}

// LineOnly reports whether cx's line carries no generated call (a protocol
// corner of its own, a mutated line of the suite): its Call was never sent,
// and only its [Counterexample.Line] says what was.
func (cx *Counterexample) LineOnly() bool { return cx.corner != nil && !cx.corner.hasCall }

// Line returns the message line that carried the call, for seq 1, when the
// line itself was mutated (a byte order mark, data after the message, an
// invalid byte between its members, CR LF) or is a protocol corner; nil
// when the call was sent as it is.
func (cx *Counterexample) Line() []byte {
	if cx.line == nil && cx.corner == nil {
		return nil
	}
	return sample{line: cx.line, corner: cx.corner}.build(cx.Call, 1)
}

// Verifying a disagreement starts a target: at most maxAttempts calls of
// each kind are tried after the run.
const maxAttempts = 3

// reproduces reports whether the samples, sent in order to a freshly
// started target, make the last one disagree with the reference in the way
// kind says.
func reproduces(opts Options, steps []sample, kind string) bool {
	t := opts.NewTarget()
	defer t.Close()
	for n, s := range steps {
		call := s.call.appendJSON(nil)
		if n < len(steps)-1 {
			sendSample(t, s, call)
			continue
		}
		want, got := referenceOutcome(opts.Reference, s, call), sendSample(t, s, call)
		v, _ := compare(want, got, opts.Diff)
		return v == disagree && kindOf(want, got) == kind
	}
	return false
}

// progressLoop calls opts.Progress every 200ms until the returned stop is
// called, which reports once more.
func progressLoop(opts Options, done *atomic.Int64, disagreements func() int, start time.Time) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	report := func(final bool) {
		opts.Progress(Progress{Done: int(done.Load()), Total: opts.Calls, Disagreements: disagreements(), Elapsed: time.Since(start), Final: final})
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				report(false)
			case <-quit:
				return
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		report(true)
	}
}

// ErrNoTarget is returned by a run without a NewTarget.
var ErrNoTarget = errors.New("fuzz: no target")
