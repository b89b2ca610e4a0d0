package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"time"
)

// A DiffFunc returns a human-readable report of the differences between two
// JSON values, "" if there are none. Lines only in want start with "-",
// lines only in got with "+". Values are what encoding/json decodes into
// (map[string]any, []any, string, bool, nil) with numbers as json.Number
// holding their exact value. cmd/catalogkit plugs in go-cmp's cmp.Diff;
// [LineDiff] is the standard-library default.
type DiffFunc func(want, got any) string

// A Runner runs cases against a [Target].
type Runner struct {
	Target Target
	// Diff reports a failed check's differences; nil means [LineDiff].
	Diff DiffFunc
	// Run, if not nil, selects the cases whose id it matches.
	Run *regexp.Regexp
}

// A Report is the outcome of a run.
type Report struct {
	Port    PortInfo      `json:"port"`
	Cases   []*CaseResult `json:"cases"`
	Passed  int           `json:"passed"`
	Failed  int           `json:"failed"` // FAIL, ERROR, CRASH and TIMEOUT
	Skipped int           `json:"skipped"`
	// Fatal says why the run stopped early (the port could not be started,
	// or failed its handshake), "" if it did not.
	Fatal   string        `json:"fatal,omitempty"`
	Elapsed time.Duration `json:"-"`
}

// OK reports whether every case that ran passed and at least one ran.
func (r *Report) OK() bool { return r.Failed == 0 && r.Skipped == 0 && r.Passed > 0 }

// A CaseResult is the outcome of one case.
type CaseResult struct {
	ID     string         `json:"id"`
	Title  string         `json:"title"`
	Spec   string         `json:"spec"`
	Status Status         `json:"status"`
	Checks []*CheckResult `json:"checks"`
	// Message says why a case did not pass, in one line.
	Message string `json:"message,omitempty"`
	// Stderr is the tail of the port's stderr after an ERROR, CRASH or
	// TIMEOUT.
	Stderr string `json:"stderr,omitempty"`
	// NotRun reports an ERROR case whose calls were never sent: the port
	// could not be started, or failed its handshake.
	NotRun  bool          `json:"not_run,omitempty"`
	Elapsed time.Duration `json:"-"`
}

// A CheckResult is the outcome of one check of a case. A check that did not
// run (an earlier check of its case got no reply) is not listed.
type CheckResult struct {
	Index  int    `json:"index"`
	Note   string `json:"note,omitempty"`
	Status Status `json:"status"`
	// Call is the call as the case file writes it.
	Call json.RawMessage `json:"call"`
	// Want and Got are the expected and actual outcomes as JSON text; Got is
	// empty when there was no reply.
	Want json.RawMessage `json:"want"`
	Got  json.RawMessage `json:"got,omitempty"`
	// GotBytes is the length of an outcome too long to keep (over 64 KiB):
	// Got is then omitted.
	GotBytes int `json:"got_bytes,omitempty"`
	// Diff is the (-want +got) difference of a FAIL.
	Diff string `json:"diff,omitempty"`
	// Message says what happened when there was no reply, or why a check was
	// skipped.
	Message string `json:"message,omitempty"`
	// Detail is the detail the implementation gave with its error, if any.
	Detail string `json:"detail,omitempty"`
}

// RunCases runs the selected cases in order and reports every one of them. A
// fatal transport error (the port cannot start, or speaks another protocol
// version) reports that case and every later one as ERROR; otherwise each
// case is on its own.
func (r *Runner) RunCases(cases []*Case) *Report {
	diff := r.Diff
	if diff == nil {
		diff = LineDiff
	}
	start := time.Now()
	rep := &Report{Cases: []*CaseResult{}}
	var fatal *TransportError
	for _, c := range cases {
		if r.Run != nil && !r.Run.MatchString(c.ID) {
			continue
		}
		res := &CaseResult{ID: c.ID, Title: c.Title, Spec: c.Spec, Checks: []*CheckResult{}}
		if fatal != nil {
			res.Status, res.NotRun = Error, true
			res.Message = "not run: the port failed earlier (" + fatal.Message + ")"
		} else {
			caseStart := time.Now()
			if fatal = r.runCase(c, res, diff); fatal != nil {
				rep.Fatal = fatal.Message
			}
			res.Elapsed = time.Since(caseStart)
		}
		switch res.Status {
		case Pass:
			rep.Passed++
		case Skip:
			rep.Skipped++
		default:
			rep.Failed++
		}
		rep.Cases = append(rep.Cases, res)
	}
	rep.Port = r.Target.Info()
	rep.Elapsed = time.Since(start)
	return rep
}

// runCase runs the checks of one case into res and returns the transport
// error if it was fatal.
func (r *Runner) runCase(c *Case, res *CaseResult, diff DiffFunc) *TransportError {
	res.Status = Pass
	for i, chk := range c.Checks {
		cr := &CheckResult{Index: i, Note: chk.Note, Call: json.RawMessage(chk.Display()), Want: chk.Expect()}
		res.Checks = append(res.Checks, cr)
		out, err := safeCall(r.Target, chk.Call())
		if err != nil {
			var te *TransportError
			if !errors.As(err, &te) {
				te = &TransportError{Status: Error, Message: err.Error()}
			}
			res.Status, res.Stderr = te.Status, te.Stderr
			if te.Fatal {
				// The port could not be started: the call was never sent.
				res.Checks, res.Status, res.NotRun = res.Checks[:i], Error, true
				res.Message = "not run: " + te.Message
				return te
			}
			cr.Status, cr.Message = te.Status, te.Message
			res.Message = fmt.Sprintf("check %d: %s", i, te.Message)
			return nil
		}
		if len(out) <= keepLimit {
			cr.Got = slices.Clone(out) // not the port's whole line
		} else {
			cr.GotBytes = len(out)
		}
		r.judge(chk, cr, out, diff)
		if rank[cr.Status] > rank[res.Status] {
			res.Status = cr.Status
			res.Message = fmt.Sprintf("check %d: %s", i, cr.Message)
			switch cr.Status {
			case Fail:
				res.Message = fmt.Sprintf("check %d: outcome differs", i)
			case Skip:
				res.Message = fmt.Sprintf("check %d: not implemented: %s", i, cr.Message)
			}
		}
	}
	return nil
}

// rank orders the statuses of checks: a case reports its worst.
var rank = map[Status]int{Pass: 0, Skip: 1, Fail: 2, Error: 3}

// keepLimit is the longest outcome a report keeps (Got) and diffs value by
// value; a longer one is judged all the same, but the report shows only its
// length and its start.
const keepLimit = 64 << 10

// judge compares an outcome with the check's expectation. It reads the
// outcome as a tape and builds no tree of it unless it has to show a diff of
// a short one, so a long reply costs a few times its length.
func (r *Runner) judge(chk *Check, cr *CheckResult, out []byte, diff DiffFunc) {
	t, err := parseTape(out)
	var got tval
	if err == nil {
		got = t.root()
		err = checkOutcome(got)
	}
	if err != nil {
		cr.Status, cr.Got = Error, nil // Got must be JSON
		cr.Message = fmt.Sprintf("outcome is not valid: %v", err)
		return
	}
	if reason, ok := got.lookup("not_implemented"); ok {
		cr.Status, cr.Message = Skip, reason.str()
		return
	}
	if d, ok := got.lookup("detail"); ok {
		cr.Detail = d.str()
	}
	if equalOutcome(chk.expect, got) {
		cr.Status = Pass
		return
	}
	cr.Status = Fail
	if len(out) > keepLimit {
		cr.Diff = fmt.Sprintf("-%s\n+%s… (%d bytes in all, too long to diff)\n", chk.expect, out[:200], len(out))
		return
	}
	compared := newObject()
	for k, v := range got.members() {
		if !k.strEqual("detail") { // shown, never compared
			compared.set(k.str(), v.node())
		}
	}
	cr.Diff = diff(chk.expect.plain(), compared.plain())
	if cr.Diff == "" {
		// A DiffFunc that sees no difference must not turn a FAIL into a
		// silent pass: show both values.
		cr.Diff = fmt.Sprintf("-%s\n+%s\n", chk.expect, compared)
	}
}

// equalOutcome reports whether the outcome got is want, its detail aside.
func equalOutcome(want *node, got tval) bool {
	n := 0
	for k, v := range got.members() {
		if k.strEqual("detail") {
			continue
		}
		n++
		w, ok := want.lookup(k.str())
		if !ok || !equalTo(w, v, k.str()) {
			return false
		}
	}
	return n == len(want.keys)
}

// safeCall calls the target, turning a panic (a bug of an in-process
// implementation) into an ERROR: the runner never panics with it.
func safeCall(t Target, call []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, &TransportError{Status: Error, Message: fmt.Sprintf("implementation panicked: %v", p)}
		}
	}()
	return t.Call(call)
}
