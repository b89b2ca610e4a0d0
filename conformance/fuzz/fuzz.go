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
	// Stateful counts the disagreements that did not happen again when the
	// call was made alone, to a freshly started target: the target keeps
	// state from one call to the next. They are not shrunk (a case file
	// holds one call); up to 3 are tried for each kind of disagreement.
	Stateful int
	// Counterexamples are the shrunk disagreements, by call number.
	Counterexamples []*Counterexample
	Elapsed         time.Duration
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
	// shrinking; Tries is how many calls the shrink made.
	Original, Call []byte
	Tries          int
	// line is the mutation of the message line around Call, if any: the
	// counterexample is then a text case.
	line *lineMutation
	// Want is the reference's outcome and Check the port's, judged.
	Want  []byte
	Check *conformance.CheckResult
}

// Run generates the calls, sends each to a target and to the reference,
// and shrinks the first disagreement of each kind. It returns an error only
// when it could not run: a target that cannot start (a fatal
// [*conformance.TransportError]), or ctx ended.
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
	start := time.Now()
	var (
		next, done, skipped atomic.Int64
		verified, stateful  atomic.Int64
		limit               atomic.Int64 // no call at or above it is started
		mu                  sync.Mutex
		found               []finding
		fatal               error
		info                PortInfo
	)
	limit.Store(int64(opts.Calls))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopProgress := progressLoop(opts, &done, func() int { mu.Lock(); defer mu.Unlock(); return len(found) }, start)

	// Every job starts its own target; the first one shrinks afterwards.
	targets := make([]Target, opts.Jobs)
	defer func() {
		for _, t := range targets {
			t.Close()
		}
	}()
	for job := range targets {
		targets[job] = opts.NewTarget()
	}
	var wg sync.WaitGroup
	for job, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if int64(i) >= limit.Load() {
					return
				}
				s := generate(opts.Seed, i)
				call := s.call.appendJSON(nil)
				want := send(opts.Reference, call, s.line)
				got := send(t, call, s.line)
				if got.err != nil && got.err.Fatal {
					mu.Lock()
					if fatal == nil {
						fatal = got.err
					}
					mu.Unlock()
					cancel()
					return
				}
				if job == 0 && info.Name == "" {
					mu.Lock()
					info = t.Info()
					mu.Unlock()
				}
				v, _ := compare(want.text, got, opts.Diff)
				switch v {
				case skip:
					skipped.Add(1)
				case disagree:
					f := finding{index: i, kind: kindOf(want, got)}
					if opts.StopAtFirst && verified.Add(1) <= maxVerify && !reproduces(opts, call, s.line, f.kind) {
						stateful.Add(1) // not a disagreement to stop at
						break
					}
					mu.Lock()
					found = append(found, f)
					mu.Unlock()
					if opts.StopAtFirst {
						for l := limit.Load(); int64(i) < l && !limit.CompareAndSwap(l, int64(i)); l = limit.Load() {
						}
					}
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	stopProgress()
	if fatal != nil {
		return nil, fatal
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b finding) int { return a.index - b.index })
	if opts.StopAtFirst && len(found) > 1 {
		found = found[:1]
	}
	res := &Result{Port: info, Calls: int(done.Load()), Skipped: int(skipped.Load()), Disagreements: len(found)}
	if opts.StopAtFirst && len(found) == 1 {
		res.Calls = found[0].index + 1 // the calls after it do not count
	}
	if len(found) == 0 {
		res.Elapsed = time.Since(start)
		return res, nil
	}
	t := targets[0]
	kinds := map[string]int{} // attempts per kind; -1 once it has a counterexample
	var shrunk [][]byte
	for _, f := range found {
		if kinds[f.kind] < 0 || kinds[f.kind] == maxAttempts || len(res.Counterexamples) == opts.MaxCounterexamples {
			continue
		}
		if s := generate(opts.Seed, f.index); !opts.StopAtFirst && !reproduces(opts, s.call.appendJSON(nil), s.line, f.kind) {
			kinds[f.kind]++
			stateful.Add(1)
			continue
		}
		kinds[f.kind] = -1
		cx, err := shrinkOne(ctx, opts, t, f)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(shrunk, func(b []byte) bool { return string(b) == string(cx.Call) }) {
			continue // another kind shrank to the same call
		}
		shrunk = append(shrunk, cx.Call)
		res.Counterexamples = append(res.Counterexamples, cx)
	}
	if res.Port.Name == "" {
		res.Port = t.Info()
	}
	res.Stateful = int(stateful.Load())
	res.Elapsed = time.Since(start)
	return res, nil
}

type finding struct {
	index int
	kind  string
}

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
	original, line := s.call, s.line
	var fatal error
	keep := func(c *node) bool {
		if ctx.Err() != nil || fatal != nil {
			return false
		}
		call := c.appendJSON(nil)
		want := send(opts.Reference, call, line)
		got := send(t, call, line)
		if got.err != nil && got.err.Fatal {
			fatal = got.err
			return false
		}
		v, _ := compare(want.text, got, opts.Diff)
		return v == disagree && kindOf(want, got) == f.kind
	}
	best, tries := shrink(original, keep, opts.ShrinkBudget)
	if fatal == nil && ctx.Err() == nil && !reproduces(opts, best.appendJSON(nil), line, f.kind) {
		// The target's state made a smaller call disagree: shrink again,
		// accepting only calls that disagree alone on a fresh target too.
		var more int
		best, more = shrink(original, func(c *node) bool {
			return keep(c) && reproduces(opts, c.appendJSON(nil), line, f.kind)
		}, opts.ShrinkBudget)
		tries += more
	}
	if fatal != nil {
		return nil, fatal
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	call := best.appendJSON(nil)
	want := send(opts.Reference, call, line)
	got := send(t, call, line)
	_, check := compare(want.text, got, opts.Diff)
	if kindOf(want, got) != f.kind {
		// The port answered differently this time (a port with state, or
		// one that timed out under load): keep the call as it was found.
		call = original.appendJSON(nil)
		want = send(opts.Reference, call, line)
		got = send(t, call, line)
		_, check = compare(want.text, got, opts.Diff)
	}
	return &Counterexample{
		ID:       fmt.Sprintf("fuzz.seed-%d.call-%d", opts.Seed, f.index),
		Index:    f.index,
		Seed:     opts.Seed,
		Kind:     f.kind,
		Original: original.appendJSON(nil),
		Call:     call,
		Tries:    tries,
		line:     line,
		Want:     want.text,
		Check:    check,
	}, nil
}

// Line returns the message line that carried the call, for seq 1, when the
// line itself was mutated (a byte order mark, data after the message, an
// invalid byte between its members, CR LF); nil when the call was sent as
// it is.
func (cx *Counterexample) Line() []byte {
	if cx.line == nil {
		return nil
	}
	return cx.line.build(cx.Call, 1)
}

// Verifying a disagreement starts a target: a run verifies at most
// maxVerify disagreements while it runs (with StopAtFirst), and at most
// maxAttempts calls of each kind afterwards.
const (
	maxVerify   = 10
	maxAttempts = 3
)

// reproduces reports whether call, made alone to a freshly started target,
// disagrees with the reference in the way kind says.
func reproduces(opts Options, call []byte, line *lineMutation, kind string) bool {
	t := opts.NewTarget()
	defer t.Close()
	want := send(opts.Reference, call, line)
	got := send(t, call, line)
	v, _ := compare(want.text, got, opts.Diff)
	return v == disagree && kindOf(want, got) == kind
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
