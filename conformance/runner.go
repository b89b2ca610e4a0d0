package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
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
	// Once sends every check once, with no second pass (see
	// [Runner.RunCases]): for a target whose answers are scripted by
	// position, such as the runner's own tests' fake ports.
	Once bool
}

// A Report is the outcome of a run.
type Report struct {
	Port PortInfo `json:"port"`
	Tally
	// Fatal says why the run stopped early (the port could not be started,
	// or failed its handshake), "" if it did not.
	Fatal string `json:"fatal,omitempty"`
	// Stopped is the transport error that stopped the run, whose message
	// Fatal is; nil if the run did not stop, or stopped otherwise.
	Stopped *TransportError `json:"-"`
	// Text is the outcome of the text level, reported apart from the
	// cases; nil if it was not run (no text case selected).
	Text *TextReport `json:"text_level,omitempty"`
	// Protocol is the outcome of the protocol level, reported apart too;
	// nil if it was not run.
	Protocol *TextReport `json:"protocol_level,omitempty"`
	// Format2 is the outcome of the format 2 level, reported apart too;
	// nil if it was not run.
	Format2 *TextReport   `json:"format2_level,omitempty"`
	Elapsed time.Duration `json:"-"`
}

// A TextReport is the outcome of the text level or of the protocol level:
// one [CaseResult] per case, or OptedOut when the port said "text_level":
// false (or "protocol_level": false) in its hello (then no case of the
// level ran, and none passed).
type TextReport struct {
	OptedOut bool `json:"opted_out"`
	Tally
}

// A Tally is the results of a list of cases, in the order they ran, and
// how many passed, failed and were skipped.
type Tally struct {
	Cases   []*CaseResult `json:"cases"`
	Passed  int           `json:"passed"`
	Failed  int           `json:"failed"` // FAIL, ERROR, CRASH and TIMEOUT
	Skipped int           `json:"skipped"`
}

// add appends res and counts it.
func (t *Tally) add(res *CaseResult) {
	switch res.Status {
	case Pass:
		t.Passed++
	case Skip:
		t.Skipped++
	default:
		t.Failed++
	}
	t.Cases = append(t.Cases, res)
}

// OK reports whether every case that ran passed, contract cases and text
// cases alike, and at least one ran. A text level the port opted out of
// neither passes nor fails.
func (r *Report) OK() bool {
	ran := r.Passed
	for _, l := range r.levels() {
		if t := l.report; t != nil && !t.OptedOut {
			if t.Failed > 0 || t.Skipped > 0 {
				return false
			}
			ran += t.Passed
		}
	}
	return r.Failed == 0 && r.Skipped == 0 && ran > 0
}

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
	// Call is the call as the case file writes it; a text case has none.
	Call json.RawMessage `json:"call,omitempty"`
	// Line is a text case's request line, as sent, for people: invalid
	// UTF-8 bytes and invisible characters are written as <0xff> and
	// <U+FEFF>.
	Line string `json:"line,omitempty"`
	// Want and Got are the expected and actual outcomes as JSON text; Got is
	// empty when there was no reply.
	Want json.RawMessage `json:"want"`
	Got  json.RawMessage `json:"got,omitempty"`
	// GotBytes is the length of an outcome too long to keep (over 64 KiB):
	// Got is then omitted.
	GotBytes int `json:"got_bytes,omitempty"`
	// Second is the outcome of the second pass when it differs from Got
	// (see [Runner.RunCases]).
	Second json.RawMessage `json:"second,omitempty"`
	// Diff is the (-want +got) difference of a FAIL.
	Diff string `json:"diff,omitempty"`
	// Message says what happened when there was no reply, or why a check was
	// skipped.
	Message string `json:"message,omitempty"`
	// Detail is the detail the implementation gave with its error, if any.
	Detail string `json:"detail,omitempty"`
	// secondPass marks a check failed by the second pass alone.
	secondPass bool
}

// RunCases runs the selected cases in order and reports every one of them. A
// fatal transport error (the port cannot start, or speaks another protocol
// version) reports that case and every later one as ERROR; otherwise each
// case is on its own. Then it sends every check again, in the reverse
// order, on the same target: a check whose second outcome differs from its
// first fails its case, so that a port that caches results by position,
// length or identity, or keeps state between calls, is caught.
func (r *Runner) RunCases(cases []*Case) *Report {
	diff := r.Diff
	if diff == nil {
		diff = LineDiff
	}
	start := time.Now()
	rep := &Report{Tally: Tally{Cases: []*CaseResult{}}}
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
				rep.Fatal, rep.Stopped = fatal.Message, fatal
			}
			res.Elapsed = time.Since(caseStart)
		}
		rep.add(res)
	}
	if fatal == nil && !r.Once {
		r.secondPass(cases, rep)
	}
	rep.Port = r.Target.Info()
	rep.Elapsed = time.Since(start)
	return rep
}

// secondPass sends every check of the cases that ran a second time, in the
// reverse order, on the target that has served them all, and compares each
// outcome with the first pass's: a port whose answer depends on what it
// answered before (a cache keyed by identity, length or position, state
// kept between calls) disagrees with itself. A disagreement, or a call that
// gets no outcome, fails the case, and its check says what each pass got.
// SPEC.md §1: an implementation holds no state between calls.
func (r *Runner) secondPass(cases []*Case, rep *Report) {
	byID := map[string]*Case{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	for i := len(rep.Cases) - 1; i >= 0; i-- {
		res := rep.Cases[i]
		c := byID[res.ID]
		if c == nil || res.NotRun || rank[res.Status] >= rank[Error] {
			continue
		}
		for j := len(res.Checks) - 1; j >= 0; j-- {
			cr := res.Checks[j]
			if cr.Got == nil {
				continue // too long to keep: the first pass judged it
			}
			out, err := safeCall(r.Target, c.Checks[cr.Index].Call())
			var why string
			switch {
			case err != nil:
				why = "got no outcome: " + err.Error()
				var te *TransportError
				if errors.As(err, &te) && te.Fatal {
					r.failSecond(rep, res, cr, why, nil)
					return
				}
			case !sameOutcome(cr.Got, out):
				why = "got another outcome"
			default:
				continue
			}
			r.failSecond(rep, res, cr, why, out)
		}
	}
}

// failSecond records a disagreement of the second pass in its check and
// case, and counts the case as failed.
func (r *Runner) failSecond(rep *Report, res *CaseResult, cr *CheckResult, why string, out []byte) {
	if len(out) <= keepLimit && out != nil {
		cr.Second = slices.Clone(out)
	}
	cr.Message = fmt.Sprintf("second pass (the cases again, in reverse order, on the same port): %s; the first pass got %s", why, shortJSON(cr.Got))
	if out != nil {
		cr.Message += ", the second " + shortJSON(out)
	}
	if cr.Status == Pass {
		cr.Status, cr.secondPass = Fail, true
	}
	switch res.Status {
	case Pass:
		rep.Passed--
		rep.Failed++
	case Skip:
		rep.Skipped--
		rep.Failed++
	}
	if rank[res.Status] < rank[Fail] {
		res.Status = Fail
	}
	res.Message = caseMessage(res.Checks)
}

// caseMessage returns a case's header message, which names every check
// that did not pass, grouped by what happened, in check order: "check 2:
// outcome differs", "checks 0, 4: outcome differs; check 7: not
// implemented: …".
func caseMessage(checks []*CheckResult) string {
	var reasons []string
	indexes := map[string][]string{}
	for _, cr := range checks {
		var why string
		switch {
		case cr.Status == Pass:
			continue
		case cr.secondPass:
			why = "the second pass disagrees with the first"
		case cr.Status == Fail:
			why = "outcome differs"
		case cr.Status == Skip:
			why = "not implemented: " + cr.Message
		default:
			why = cr.Message
		}
		if indexes[why] == nil {
			reasons = append(reasons, why)
		}
		indexes[why] = append(indexes[why], strconv.Itoa(cr.Index))
	}
	parts := make([]string, len(reasons))
	for i, why := range reasons {
		n := indexes[why]
		parts[i] = fmt.Sprintf("%s %s: %s", plural(len(n), "check"), strings.Join(n, ", "), why)
	}
	return strings.Join(parts, "; ")
}

// shortJSON returns a JSON text for a message, cut after 300 bytes.
func shortJSON(b []byte) string {
	const max = 300
	if len(b) <= max {
		return string(b)
	}
	return fmt.Sprintf("%s… (%d bytes)", termsafe.Cut(b, max), len(b))
}

// sameOutcome reports whether two outcomes are the same, details aside.
func sameOutcome(first, second []byte) bool {
	a, err := parseJSON(first)
	if err != nil {
		return false
	}
	t, err := parseTape(second)
	if err != nil || checkOutcome(t.root()) != nil {
		return false
	}
	want := newObject()
	for i, k := range a.keys {
		if k != "detail" {
			want.set(k, a.vals[i])
		}
	}
	return equalOutcome(want, t.root())
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
			te := noOutcome(err, cr, res)
			if te.Fatal {
				// The port could not be started: the call was never sent.
				res.Checks, res.Status, res.NotRun = res.Checks[:i], Error, true
				res.Message = "not run: " + te.Message
				return te
			}
			cr.Status, cr.Message = te.Status, te.Message
			res.Message = caseMessage(res.Checks)
			return nil
		}
		if len(out) <= keepLimit {
			cr.Got = slices.Clone(out) // not the port's whole line
		} else {
			cr.GotBytes = len(out)
		}
		r.judge(chk.expect, cr, out, diff)
		res.Status = worst(res.Status, cr.Status)
	}
	res.Message = caseMessage(res.Checks)
	return nil
}

// worst returns the worse of two statuses: a case reports its worst check's.
func worst(a, b Status) Status {
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// noOutcome records a call that got no outcome in its check and case, and
// returns the error as a [*TransportError] (ERROR if it was another error).
func noOutcome(err error, cr *CheckResult, res *CaseResult) *TransportError {
	var te *TransportError
	if !errors.As(err, &te) {
		te = &TransportError{Status: Error, Message: err.Error()}
	}
	cr.Status, cr.Message = te.Status, te.Message
	res.Status, res.Stderr = te.Status, te.Stderr
	return te
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
func (r *Runner) judge(expect *node, cr *CheckResult, out []byte, diff DiffFunc) {
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
	if equalOutcome(expect, got) {
		cr.Status = Pass
		return
	}
	cr.Status = Fail
	if len(out) > keepLimit {
		cr.Diff = fmt.Sprintf("-%s\n+%s… (%d bytes in all, too long to diff)\n", expect, out[:200], len(out))
		return
	}
	compared := newObject()
	for k, v := range got.members() {
		if !k.strEqual("detail") { // shown, never compared
			compared.set(k.str(), v.node())
		}
	}
	order := orderDiffs(expect, compared)
	if equalUnordered(expect, compared) {
		// Only member order differs, which a diff of values cannot show:
		// name each object and show both orders.
		cr.Diff = order
		return
	}
	cr.Diff = diff(expect.plain(), compared.plain())
	if cr.Diff == "" {
		// A DiffFunc that sees no difference must not turn a FAIL into a
		// silent pass: show both values.
		cr.Diff = fmt.Sprintf("-%s\n+%s\n", expect, compared)
	}
	cr.Diff += order
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
		if !ok || !equalTo(w, v, placeTop.member(k.str()), true) {
			return false
		}
	}
	return n == len(want.keys)
}

// safeCall calls the target, turning a panic (a bug of an in-process
// implementation) into an ERROR: the runner never panics with it.
func safeCall(t Target, call []byte) (out []byte, err error) {
	return safely(func() ([]byte, error) { return t.Call(call) })
}

// safely returns what call returns, or an ERROR if it panicked.
func safely(call func() ([]byte, error)) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, &TransportError{Status: Error, Message: fmt.Sprintf("implementation panicked: %v", p)}
		}
	}()
	return call()
}

// RunFormat2 runs the selected cases of the format 2 level (catalogs of
// SPEC.md §12) after the cases, on the same target and as [Runner.RunCases]
// runs cases, second pass included, and puts their outcome in rep.Format2
// (nil if none is selected). A port that said "format2_level": false in its
// hello is sent none: the level is reported as opted out. After a fatal
// transport error (here or in rep's cases) the level's cases are reported
// as ERROR, not run.
func (r *Runner) RunFormat2(rep *Report, cases []*Case) {
	var selected []*Case
	for _, c := range cases {
		if r.Run == nil || r.Run.MatchString(c.ID) {
			selected = append(selected, c)
		}
	}
	if len(selected) == 0 {
		return
	}
	lr := &TextReport{Tally: Tally{Cases: []*CaseResult{}}}
	rep.Format2 = lr
	if rep.Fatal == "" {
		// The hello says whether the port takes part; a port that has
		// served no case yet makes it now.
		info := r.Target.Info()
		if lt, ok := r.Target.(LineTarget); ok {
			var err error
			if info, err = lt.Hello(); err != nil {
				te := asTransport(err)
				rep.Fatal, rep.Stopped = te.Message, te
			}
		}
		if rep.Port.Name == "" {
			rep.Port = info
		}
		if rep.Fatal == "" && info.Format2Level != nil && !*info.Format2Level {
			lr.OptedOut = true
			return
		}
	}
	if rep.Fatal != "" {
		for _, c := range selected {
			lr.add(&CaseResult{ID: c.ID, Title: c.Title, Spec: c.Spec, Checks: []*CheckResult{}, Status: Error, NotRun: true,
				Message: "not run: the port failed earlier (" + rep.Fatal + ")"})
		}
		return
	}
	sub := r.RunCases(selected)
	lr.Tally = sub.Tally
	if sub.Fatal != "" {
		rep.Fatal, rep.Stopped = sub.Fatal, sub.Stopped
	}
}

// RunText runs the selected text cases in order, after the cases, and puts
// their outcome in rep.Text (nil if none is selected). Each case's line is
// sent as it is: to the target itself if it is a [LineTarget] (a [*Port]),
// else to the target behind [Serve], in-process ([Served]). A port that
// said "text_level": false in its hello is not sent any: the text level is
// reported as opted out. After a fatal transport error (here or in rep's
// cases) the remaining text cases are reported as ERROR, not run.
func (r *Runner) RunText(rep *Report, cases []*TextCase) {
	diff := r.Diff
	if diff == nil {
		diff = LineDiff
	}
	rep.Text = runLevel(r, rep, cases,
		func(info PortInfo) bool { return info.TextLevel != nil && !*info.TextLevel },
		func(c *TextCase, lt LineTarget, res *CaseResult) *TransportError {
			return r.runTextCase(c, lt, res, diff)
		})
}

// runLevel runs a level (the text or the protocol level): the cases that
// r.Run selects, in order, after the hello, each by run into a result of its
// own, on r.Target if it is a T (a [*Port] is), else on the target behind
// [Serve], in-process ([Served]). It returns the level's report: nil when no
// case is selected, opted out when the hello says so (optedOut), and after
// a fatal transport error (here or earlier in rep) every remaining case
// ERROR, not run.
func runLevel[C anyCase, T LineTarget](r *Runner, rep *Report, cases []C, optedOut func(PortInfo) bool, run func(c C, t T, res *CaseResult) *TransportError) *TextReport {
	var selected []C
	for _, c := range cases {
		if id, _, _ := c.head(); r.Run == nil || r.Run.MatchString(id) {
			selected = append(selected, c)
		}
	}
	if len(selected) == 0 {
		return nil
	}
	t, ok := r.Target.(T)
	if !ok {
		s := Served(r.Target)
		defer s.Close()
		t = any(s).(T)
	}
	lr := &TextReport{Tally: Tally{Cases: []*CaseResult{}}}
	fatal := rep.Fatal
	if fatal == "" {
		info, err := t.Hello()
		var te *TransportError
		switch {
		case errors.As(err, &te):
			fatal, rep.Stopped = te.Message, te
		case err != nil:
			fatal = err.Error()
		case optedOut(info):
			lr.OptedOut = true
			return lr
		}
		rep.Fatal = fatal
		if rep.Port.Name == "" {
			rep.Port = info
		}
	}
	for _, c := range selected {
		res := &CaseResult{Checks: []*CheckResult{}}
		res.ID, res.Title, res.Spec = c.head()
		if fatal != "" {
			res.Status = Error
			res.Message = "not run: the port failed earlier (" + fatal + ")"
		} else {
			start := time.Now()
			if te := run(c, t, res); te != nil && te.Fatal {
				fatal = te.Message
				rep.Fatal, rep.Stopped = fatal, te
			}
			res.Elapsed = time.Since(start)
		}
		lr.add(res)
	}
	return lr
}

// runTextCase sends a text case's line and judges the reply into res. It
// returns the transport error, if there was one.
func (r *Runner) runTextCase(c *TextCase, lt LineTarget, res *CaseResult, diff DiffFunc) *TransportError {
	cr := &CheckResult{Want: c.Expect()}
	res.Checks = append(res.Checks, cr)
	var sent []byte
	line, err := lt.CallLine(func(seq int64) []byte {
		sent = c.Line(seq)
		return sent
	})
	cr.Line = showLine(sent)
	if err != nil {
		te := noOutcome(err, cr, res)
		res.Message = te.Message
		return te
	}
	msg, _ := parseJSON(line) // CallLine checked it
	if t, _ := msg.lookup("type"); t.str == "error" {
		// The port refused the line as a whole: right when the text layer
		// must refuse it, wrong when the line must be read.
		m, _ := msg.lookup("message")
		cr.Got = json.RawMessage(line)
		if c.Refused() {
			cr.Status, res.Status = Pass, Pass
			return nil
		}
		cr.Status, res.Status = Fail, Fail
		cr.Message = fmt.Sprintf("the port refused the line with an error line (%q), want the outcome %s", m.str, c.Expect())
		res.Message = "the port refused a line it must read"
		return nil
	}
	outcome, _ := msg.lookup("outcome")
	out := outcome.appendJSON(nil)
	cr.Got = out
	r.judge(c.expect, cr, out, diff)
	res.Status = cr.Status
	switch cr.Status {
	case Fail:
		res.Message = "outcome differs"
	case Skip:
		res.Message = "not implemented: " + cr.Message
	case Error:
		res.Message = cr.Message
	}
	return nil
}

// showLine returns a request line for people: valid UTF-8 as it is, every
// byte of invalid UTF-8 as <0xff>, and characters that do not show (a byte
// order mark, control characters) as <U+FEFF>. A line that would show
// longer than 600 bytes is cut in the middle, " <... N bytes ...> " in
// place of the N bytes of the line between the characters that show as its
// first and last 300 or fewer: the work is the same for a line of 32 MiB as
// for one of a kilobyte.
func showLine(line []byte) string {
	const max, half = 600, 300
	whole, n := true, 0
	for i := 0; i < len(line); {
		size, shown := showRune(line[i:])
		if n += len(shown); n > max {
			whole = false
			break
		}
		i += size
	}
	if whole {
		return string(appendShown(nil, line))
	}
	head, n := 0, 0
	for {
		size, shown := showRune(line[head:])
		if n+len(shown) > half {
			break
		}
		head, n = head+size, n+len(shown)
	}
	tail, n := len(line), 0
	for {
		_, size := utf8.DecodeLastRune(line[:tail])
		_, shown := showRune(line[tail-size : tail])
		if n+len(shown) > half || tail-size < head {
			break
		}
		tail, n = tail-size, n+len(shown)
	}
	b := appendShown(nil, line[:head])
	b = fmt.Appendf(b, " <... %d bytes ...> ", tail-head)
	return string(appendShown(b, line[tail:]))
}

// showRune returns the size of the character line begins with and what it
// shows as in [showLine].
func showRune(line []byte) (size int, shown []byte) {
	r, size := utf8.DecodeRune(line)
	switch {
	case r == utf8.RuneError && size <= 1:
		return size, fmt.Appendf(nil, "<0x%02x>", line[0])
	case !unicode.IsPrint(r) && r != ' ':
		return size, fmt.Appendf(nil, "<U+%04X>", r)
	}
	return size, line[:size]
}

// appendShown appends line to b as [showLine] shows it, uncut.
func appendShown(b, line []byte) []byte {
	for i := 0; i < len(line); {
		size, shown := showRune(line[i:])
		b = append(b, shown...)
		i += size
	}
	return b
}
