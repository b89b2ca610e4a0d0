package conformance

import (
	"github.com/catalogkit/catalogkit/conformance/internal/proc"

	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Protocol is the protocol version the runner speaks.
const Protocol = "catalogkit-conformance/1"

// Default timeouts of a [Port]. The default call timeout grows with the
// work: DefaultCallTimeout, and CallTimeoutPerMiB for each MiB of the
// request lines the port was sent since its last reply, so that a port that
// reads a 32 MiB line on a slow or busy machine is not taken for one that
// does not answer.
const (
	DefaultStartupTimeout = 10 * time.Second
	DefaultCallTimeout    = 5 * time.Second
	CallTimeoutPerMiB     = time.Second
)

// MaxLine is the longest request line [Serve] reads.
const MaxLine = 64 << 20

// MaxCaseFileBytes is the largest case file, or synthetic catalog, read from
// a folder a user names (conform --cases): twice [MaxLine], room for a text
// case of the longest line. A larger file is refused before it is read.
const MaxCaseFileBytes = 2 * MaxLine

// ReplyMargin is how many times longer than the longest reply a correct
// port sends for the suite the runner's default reply limit is: room for a
// port that escapes every character ("\u00e9" is 6 bytes for 2), spaces its
// JSON out, or writes an error detail that quotes the call.
const ReplyMargin = 16

// MaxReplyLimit is the largest reply limit a [Port] accepts.
const MaxReplyLimit = 1 << 30

// DefaultMaxReply returns the default reply limit for cases: [ReplyMargin]
// times the longest reply line a correct port sends for them (the expected
// outcome in its reply envelope, or the call when that is longer, as an
// error detail may quote it), rounded up to a whole MiB. For the embedded
// suite it is 1 MiB.
func DefaultMaxReply(cases []*Case) int64 {
	const envelope = len(`{"type":"reply","seq":18446744073709551615,"outcome":}`)
	longest := 0
	for _, c := range cases {
		for _, chk := range c.Checks {
			longest = max(longest, envelope+len(chk.Expect()), envelope+len(chk.callJSON))
		}
	}
	const mib = 1 << 20
	return (int64(longest)*ReplyMargin + mib - 1) / mib * mib
}

// suiteMaxReply is DefaultMaxReply of the embedded suite.
var suiteMaxReply = sync.OnceValue(func() int64 {
	cases, err := Cases()
	if err != nil {
		return 1 << 20
	}
	return DefaultMaxReply(cases)
})

// stderrTail is how much of a port's stderr a report keeps.
const stderrTail = 4 << 10

// Status is the outcome of a case: PASS, FAIL, SKIP, ERROR, CRASH or TIMEOUT.
type Status string

// The statuses of a case, as PROTOCOL.md defines them.
const (
	Pass    Status = "PASS"
	Fail    Status = "FAIL"
	Skip    Status = "SKIP"
	Error   Status = "ERROR"
	Crash   Status = "CRASH"
	Timeout Status = "TIMEOUT"
)

// A TransportError is a call that got no outcome: the port answered
// something that is not a reply (ERROR), exited or closed stdout (CRASH), or
// did not answer in time (TIMEOUT).
type TransportError struct {
	Status  Status
	Message string
	// Stderr is the tail of the port's stderr when the error happened.
	Stderr string
	// Fatal reports whether no later call can succeed either (the port
	// cannot be started, or speaks another protocol version): the runner
	// stops and reports the remaining cases as not run.
	Fatal bool
	// NotStarted reports whether the port's process could not be started
	// at all (Fatal too): its command, not its answers, is what to fix.
	NotStarted bool
}

func (e *TransportError) Error() string { return strings.ToLower(string(e.Status)) + ": " + e.Message }

// A Port is a port started as a child process and spoken to over the
// protocol of PROTOCOL.md. It is a [Target]. It starts the process (and
// makes the handshake) at the first call, and again at the call after an
// ERROR, CRASH or TIMEOUT, which kill it. Close ends the last process.
//
// Every process of a port is an ordinary process in its own process group,
// with [PortMarkerEnv] in its environment and TMPDIR set to a folder of its
// own, removed when it ends. Whenever a process of the port ends
// (a timeout, a crash, a protocol error, Close), the runner kills its whole
// group and, on Linux, every process that still carries the marker, in
// whatever group or session it has moved to, sweeping /proc until several
// sweeps in a row find nothing; the runner makes itself a child subreaper
// (PR_SET_CHILD_SUBREAPER), so the orphans it kills are its children and it
// reaps them.
type Port struct {
	// Command is the port's command line: the program and its arguments.
	Command []string
	// Dir is the port's working directory ("" for the runner's).
	Dir string
	// Env, if not nil, is the port's environment.
	Env []string
	// StartupTimeout bounds the wait for the handshake, CallTimeout the wait
	// for each reply. Zero means the default (for CallTimeout, one that
	// grows with the lines sent: see [DefaultCallTimeout]).
	StartupTimeout, CallTimeout time.Duration
	// MaxReply is the longest line, in bytes, the runner reads from the
	// port; a longer one is an ERROR, read no further. Zero means
	// [DefaultMaxReply] of the embedded suite.
	MaxReply int64

	info     PortInfo
	seq      int64
	starts   int
	noHello  bool       // a fresh session of the protocol level: no handshake
	answered bool       // a fresh session has read its first line
	pending  int64      // bytes of request lines written since the last line read
	mu       sync.Mutex // guards proc and aborted against Abort
	proc     *process
	aborted  bool
}

type process struct {
	cmd        *exec.Cmd
	marker     string // the value of PortMarkerEnv
	born       uint64 // its start, for proc.EndDescendants
	tmp        string // its TMPDIR, removed when it ends
	stdin      *os.File
	lines      chan lineOrErr
	quit       chan struct{} // closed when the runner stops reading lines
	stdout     *os.File
	stderrPipe *os.File
	stderr     *tail
	stderrDone chan struct{} // closed when stderr is read to its end
	done       chan struct{} // closed when the process has been waited for
	err        error         // Wait's error, valid after done
}

// PortMarkerEnv is the environment variable the runner sets for a port's
// process, with a value unique to that process. The port's descendants
// inherit it: it is how the runner finds them at the end.
const PortMarkerEnv = proc.MarkerEnv

var markers atomic.Int64

type lineOrErr struct {
	line []byte
	err  error
}

// Info returns what the port said in its last handshake.
func (p *Port) Info() PortInfo { return p.info }

// Call sends one call and returns the outcome of the port's reply.
func (p *Port) Call(call []byte) ([]byte, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	p.seq++
	if err := p.request(fmt.Appendf(nil, `{"type":"call","seq":%d,"call":%s}`+"\n", p.seq, call)); err != nil {
		return nil, err
	}
	line, terr := p.readLine(p.callTimeout(), "reply")
	if terr != nil {
		return nil, terr
	}
	outcome, err := decodeReply(line, p.seq)
	if err != nil {
		return nil, p.fail(Error, err.Error())
	}
	return outcome, nil
}

// ready starts the port if it is not running and checks that it has not
// written a line nobody asked for: a line that came before the request is
// an answer to nothing.
func (p *Port) ready() error {
	if p.proc == nil {
		if err := p.start(); err != nil {
			return err
		}
	}
	pr := p.proc
	if pr == nil {
		return &TransportError{Status: Error, Message: "port stopped: the run was interrupted", Fatal: true}
	}
	select {
	case l := <-pr.lines:
		if l.err == nil {
			return p.fail(Error, fmt.Sprintf("port wrote a line before the request: %s", brief(l.line)))
		}
		return p.fail(Crash, p.eofMessage("before the request", l.err))
	default:
	}
	return nil
}

// request writes one request line, its newline included, to the port.
func (p *Port) request(req []byte) error {
	if terr := p.write(req, "request"); terr != nil {
		return terr
	}
	return nil
}

// decodeReply checks one reply line to the call numbered seq and returns
// the text of its outcome, as the port wrote it: a slice of line.
func decodeReply(line []byte, seq int64) ([]byte, error) {
	t, err := parseTape(line)
	if err != nil {
		return nil, errors.New(unreadable("reply", err, line))
	}
	msg := t.root()
	if typ, _ := msg.lookup("type"); typ.strEqual("error") {
		text, _ := msg.lookup("message")
		if text.t == nil || text.kind() != kString {
			return nil, fmt.Errorf("port answered an error line without a message: %s", brief(line))
		}
		return nil, fmt.Errorf("port answered an error line: %s", text.str())
	}
	if err := objectKeys(msg, "reply", []string{"type", "seq", "outcome"}, nil); err != nil {
		return nil, fmt.Errorf("%v: %s", err, brief(line))
	}
	if typ, _ := msg.lookup("type"); !typ.strEqual("reply") {
		return nil, fmt.Errorf(`reply type is %s, want "reply": %s`, shortText(typ), brief(line))
	}
	if s, _ := msg.lookup("seq"); s.kind() != kNumber || string(s.literal()) != strconv.FormatInt(seq, 10) {
		return nil, fmt.Errorf("reply has seq %s, want %d", shortText(s), seq)
	}
	outcome, _ := msg.lookup("outcome")
	if err := checkOutcome(outcome); err != nil {
		return nil, err
	}
	return outcome.text(), nil
}

// objectKeys is [onlyKeys] for a tape value.
func objectKeys(v tval, what string, required, optional []string) error {
	if v.t == nil || v.kind() != kObject {
		return fmt.Errorf("%s is not an object", what)
	}
	return checkKeys(what, v.keys(), required, optional)
}

// shortText returns a value's text as written, for a message: at most 200
// bytes of it.
func shortText(v tval) string {
	if v.t == nil {
		return "none"
	}
	const max = 200
	if t := v.text(); len(t) > max {
		return fmt.Sprintf("%s… (%d more bytes)", t[:max], len(t)-max)
	}
	return string(v.text())
}

// checkOutcome checks an OUTCOME object's shape.
func checkOutcome(o tval) error {
	shape := fmt.Errorf("outcome %s is not exactly one of result, error (with an optional detail) or not_implemented", shortText(o))
	if o.t == nil || o.kind() != kObject {
		return shape
	}
	keys := o.keys()
	switch {
	case len(keys) == 0:
		return shape
	case checkKeys("", keys, []string{"result"}, nil) == nil:
		return nil
	case checkKeys("", keys, []string{"not_implemented"}, nil) == nil:
		if r, _ := o.lookup("not_implemented"); r.kind() != kString {
			return fmt.Errorf("not_implemented reason is not a string")
		}
		return nil
	case checkKeys("", keys, []string{"error"}, []string{"detail"}) == nil:
		if e, _ := o.lookup("error"); e.kind() != kString {
			return fmt.Errorf("error code is not a string")
		}
		if d, ok := o.lookup("detail"); ok && d.kind() != kString {
			return fmt.Errorf("error detail is not a string")
		}
		return nil
	}
	return shape
}

// Close ends the port: it closes stdin and gives the port half a second to
// exit, then sends its process group SIGTERM and after another half second
// SIGKILL; then it kills every process the port left behind (see [Port]).
func (p *Port) Close() error {
	pr := p.take()
	if pr == nil {
		return nil
	}
	pr.stdin.Close()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		select {
		case <-pr.done:
		case <-time.After(500 * time.Millisecond):
			proc.SignalGroup(pr.cmd, sig)
		}
	}
	select {
	case <-pr.done:
	case <-time.After(2 * time.Second): // not even SIGKILL ended it
	}
	pr.end()
	if pr.err != nil {
		return fmt.Errorf("port exited after the run: %v", pr.err)
	}
	return nil
}

// Abort kills the port's running process and everything it started, and
// makes every later call fail at once: for a runner that was interrupted.
// Unlike the other methods, it may be called from any goroutine.
func (p *Port) Abort() {
	p.mu.Lock()
	p.aborted = true
	pr := p.proc
	p.mu.Unlock()
	if pr != nil {
		proc.SignalGroup(pr.cmd, syscall.SIGKILL)
		proc.EndDescendants(pr.marker, pr.cmd.Process.Pid, pr.born)
	}
}

// take detaches the running process from p.
func (p *Port) take() *process {
	p.mu.Lock()
	defer p.mu.Unlock()
	pr := p.proc
	p.proc = nil
	return pr
}

func (p *Port) callTimeout() time.Duration {
	if p.CallTimeout > 0 {
		return p.CallTimeout
	}
	return DefaultCallTimeout + time.Duration(p.pending>>20)*CallTimeoutPerMiB
}

// timeoutText says what the call timeout was and how to change it, for a
// TIMEOUT's message.
func (p *Port) timeoutText(timeout time.Duration) string {
	if p.CallTimeout > 0 {
		return fmt.Sprintf("%v (--call-timeout)", timeout)
	}
	return fmt.Sprintf("%v (the default: %v, and %v for each MiB of the %d bytes sent since the last reply; --call-timeout sets it)", timeout, DefaultCallTimeout, CallTimeoutPerMiB, p.pending)
}

func (p *Port) startupTimeout() time.Duration {
	if p.StartupTimeout > 0 {
		return p.StartupTimeout
	}
	return DefaultStartupTimeout
}

func (p *Port) maxReply() int64 {
	if p.MaxReply > 0 {
		return min(p.MaxReply, MaxReplyLimit)
	}
	return suiteMaxReply()
}

func (p *Port) start() error {
	if len(p.Command) == 0 {
		return &TransportError{Status: Error, Message: "no port command", Fatal: true}
	}
	cmd := exec.Command(p.Command[0], p.Command[1:]...)
	cmd.Dir = p.Dir
	p.starts++
	marker := fmt.Sprintf("%d.%d.%d", os.Getpid(), markers.Add(1), p.starts)
	env := p.Env
	if env == nil {
		env = os.Environ()
	}
	// A temporary folder of its own: runtimes and libraries that name
	// files after their pid or a fixed name in TMPDIR never meet another
	// port's, and what a port leaves there goes with it.
	tmp, err := os.MkdirTemp("", "catalogkit-port-")
	if err != nil {
		return &TransportError{Status: Error, Message: fmt.Sprintf("could not start the port: %v", err), Fatal: true, NotStarted: true}
	}
	cmd.Env = append(slices.Clip(env), PortMarkerEnv+"="+marker, "TMPDIR="+tmp)
	proc.BecomeSubreaper()
	var pipes [6]*os.File // stdin, stdout, stderr: read and write ends
	for i := 0; i < len(pipes); i += 2 {
		var err error
		if pipes[i], pipes[i+1], err = os.Pipe(); err != nil {
			for _, f := range pipes[:i] {
				f.Close()
			}
			os.RemoveAll(tmp)
			return &TransportError{Status: Error, Message: fmt.Sprintf("could not start the port: %v", err), Fatal: true, NotStarted: true}
		}
	}
	pr := &process{cmd: cmd, marker: marker, tmp: tmp, stdin: pipes[1], stdout: pipes[2], stderrPipe: pipes[4],
		stderr: &tail{max: stderrTail}, lines: make(chan lineOrErr, 1), quit: make(chan struct{}),
		stderrDone: make(chan struct{}), done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0], pipes[3], pipes[5]
	p.mu.Lock()
	aborted := p.aborted
	if !aborted {
		if pr.born, err = proc.Start(cmd); err == nil {
			p.proc = pr
		}
	}
	p.mu.Unlock()
	pipes[0].Close()
	pipes[3].Close()
	pipes[5].Close()
	if aborted || err != nil {
		pr.stdin.Close()
		pr.stdout.Close()
		pr.stderrPipe.Close()
		os.RemoveAll(tmp)
		if aborted {
			return &TransportError{Status: Error, Message: "port stopped: the run was interrupted", Fatal: true}
		}
		return &TransportError{Status: Error, Message: fmt.Sprintf("could not start the port %q: %v", strings.Join(p.Command, " "), unwrapStart(err)), Fatal: true, NotStarted: true}
	}
	go func() {
		pr.err = cmd.Wait()
		close(pr.done)
	}()
	go func() {
		io.Copy(pr.stderr, pr.stderrPipe)
		close(pr.stderrDone)
	}()
	go readLines(pr.stdout, pr.lines, pr.quit, p.maxReply())
	if p.noHello {
		return nil
	}

	hello := fmt.Appendf(nil, `{"type":"hello","protocol":%q}`+"\n", Protocol)
	if terr := p.write(hello, "hello"); terr != nil {
		return p.fatal(terr)
	}
	line, terr := p.readLine(p.startupTimeout(), "hello")
	if terr != nil {
		return p.fatal(terr)
	}
	info, err := parseHello(line)
	if err != nil {
		return p.fatal(p.fail(Error, err.Error()))
	}
	p.info = info
	return nil
}

// unwrapStart drops the *exec.Error or *fs.PathError wrapping of a start
// error, whose text repeats the command: "no such file or directory",
// "permission denied", "executable file not found in $PATH".
func unwrapStart(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// fatal marks a failed handshake: the runner stops there.
func (p *Port) fatal(err *TransportError) error {
	err.Fatal = true
	err.Message = "handshake failed: " + err.Message
	return err
}

func parseHello(line []byte) (PortInfo, error) {
	t, err := parseTape(line)
	if err != nil {
		return PortInfo{}, errors.New(unreadable("hello", err, line))
	}
	msg := t.root()
	if typ, _ := msg.lookup("type"); !typ.strEqual("hello") {
		if typ.strEqual("error") {
			m, _ := msg.lookup("message")
			return PortInfo{}, fmt.Errorf("port answered the hello with an error line: %s", shortText(m))
		}
		return PortInfo{}, fmt.Errorf(`first line is not a hello: %s`, brief(line))
	}
	if proto, _ := msg.lookup("protocol"); !proto.strEqual(Protocol) {
		return PortInfo{}, fmt.Errorf("protocol version mismatch: the runner speaks %q, the port answered %s", Protocol, shortText(proto))
	}
	if err := objectKeys(msg, "hello", []string{"type", "protocol", "port"}, nil); err != nil {
		return PortInfo{}, fmt.Errorf("%v: %s", err, brief(line))
	}
	port, _ := msg.lookup("port")
	if err := objectKeys(port, "hello: port", []string{"name", "language", "version"}, []string{"text_level", "protocol_level", "format2_level"}); err != nil {
		return PortInfo{}, fmt.Errorf("%v: %s", err, brief(line))
	}
	var info PortInfo
	for _, f := range []struct {
		key string
		dst *string
	}{{"name", &info.Name}, {"language", &info.Language}, {"version", &info.Version}} {
		v, _ := port.lookup(f.key)
		if v.t == nil || v.kind() != kString || v.strEqual("") {
			return PortInfo{}, fmt.Errorf("hello: port.%s is not a non-empty string: %s", f.key, brief(line))
		}
		*f.dst = v.str()
	}
	for _, level := range []struct {
		key string
		dst **bool
	}{{"text_level", &info.TextLevel}, {"protocol_level", &info.ProtocolLevel}, {"format2_level", &info.Format2Level}} {
		if tl, ok := port.lookup(level.key); ok {
			if tl.kind() != kBool {
				return PortInfo{}, fmt.Errorf("hello: port.%s is not a boolean: %s", level.key, brief(line))
			}
			takesPart := string(tl.literal()) == "true"
			*level.dst = &takesPart
		}
	}
	return info, nil
}

// write writes b, what the runner sends ("request", "hello"), to the port
// and stops the port if it cannot: a port that does not read it within the
// call timeout is a TIMEOUT, one whose input is closed a CRASH.
func (p *Port) write(b []byte, what string) *TransportError {
	pr := p.proc
	p.pending += int64(len(b))
	timeout := p.callTimeout()
	_ = pr.stdin.SetWriteDeadline(time.Now().Add(timeout))
	_, err := pr.stdin.Write(b)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return p.fail(Timeout, fmt.Sprintf("the port did not read the %s (%d bytes) within the call timeout of %s: a port must read each line as it comes", what, len(b), p.timeoutText(timeout)))
	}
	return p.fail(Crash, fmt.Sprintf("failed to write the %s: %v", what, err))
}

// exitGrace is how long the runner still waits for a line after the port's
// process has exited: what it wrote before exiting is in the pipe already.
const exitGrace = 250 * time.Millisecond

// readLine waits for the next line of the port's stdout. A port whose
// process has exited has crashed, even if a process it started still holds
// its stdout open.
func (p *Port) readLine(timeout time.Duration, what string) ([]byte, *TransportError) {
	pr := p.proc
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var grace <-chan time.Time
	done := pr.done
	for {
		select {
		case l := <-pr.lines:
			if l.err != nil {
				if errors.Is(l.err, errLineTooLong) {
					return nil, p.fail(Error, fmt.Sprintf("%s line is longer than the reply limit of %d bytes (read no further; see --max-reply)", what, p.maxReply()))
				}
				return nil, p.fail(Crash, p.eofMessage("before its "+what, l.err))
			}
			p.pending = 0
			return l.line, nil
		case <-done:
			done, grace = nil, time.After(exitGrace)
		case <-grace:
			return nil, p.fail(Crash, fmt.Sprintf("port exited before its %s (%s) while a process it started still held its stdout open", what, exitText(pr.err)))
		case <-timer.C:
			return nil, p.fail(Timeout, fmt.Sprintf("no %s within %s", what, p.timeoutText(timeout)))
		}
	}
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

func (p *Port) eofMessage(when string, err error) string {
	pr := p.proc
	select {
	case <-pr.done:
	case <-time.After(time.Second):
	}
	select {
	case <-pr.done:
		return fmt.Sprintf("port exited %s (%s)", when, exitText(pr.err))
	default:
	}
	if err == io.EOF {
		return fmt.Sprintf("port closed stdout %s", when)
	}
	return fmt.Sprintf("failed to read stdout %s: %v", when, err)
}

// fail kills the process and everything it started (the next call starts a
// new one) and returns the error with the tail of stderr.
func (p *Port) fail(status Status, msg string) *TransportError {
	pr := p.take()
	proc.SignalGroup(pr.cmd, syscall.SIGKILL)
	pr.stdin.Close()
	select {
	case <-pr.done:
	case <-time.After(2 * time.Second):
	}
	pr.end()
	return &TransportError{Status: status, Message: msg, Stderr: pr.stderr.String()}
}

// end kills what is left of the process's group and descendants, then
// stops reading its output.
func (pr *process) end() {
	proc.SignalGroup(pr.cmd, syscall.SIGKILL)
	proc.EndDescendants(pr.marker, pr.cmd.Process.Pid, pr.born)
	select {
	case <-pr.stderrDone:
	case <-time.After(500 * time.Millisecond): // held by a process out of reach
	}
	close(pr.quit)
	pr.stdin.Close()
	pr.stdout.Close()
	pr.stderrPipe.Close()
	os.RemoveAll(pr.tmp)
}

var errLineTooLong = errors.New("line too long")

// readLines sends each line of r to out, without its newline, until r ends
// or quit is closed. A line longer than limit is never read whole: readLines
// sends errLineTooLong and stops reading.
func readLines(r io.Reader, out chan<- lineOrErr, quit <-chan struct{}, limit int64) {
	br := bufio.NewReaderSize(r, 64<<10)
	send := func(l lineOrErr) bool {
		select {
		case out <- l:
			return true
		case <-quit:
			return false
		}
	}
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			if int64(len(line))+int64(len(bytes.TrimSuffix(chunk, []byte("\n")))) > limit {
				send(lineOrErr{err: errLineTooLong})
				return
			}
			line = append(grow(line, len(chunk)), chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				send(lineOrErr{err: err})
				return
			}
			break
		}
		if !send(lineOrErr{line: bytes.TrimSuffix(line, []byte("\n"))}) {
			return
		}
	}
}

// brief returns a line shortened for a message.
// unreadable says why line, which a port wrote where its what ("reply",
// "hello") was due, is not one: strict JSON text refused with err. A line
// that does not begin as a JSON object does is no broken reply but
// something else written on stdout (a log, a runtime's warning), and is
// reported as such, with the rule that stdout carries protocol messages
// only.
func unreadable(what string, err error, line []byte) string {
	if bytes.HasPrefix(line, []byte("\xef\xbb\xbf{")) {
		return fmt.Sprintf("%s begins with a byte order mark (EF BB BF), which a line of JSON text must not: write UTF-8 without one (in .NET, new UTF8Encoding(false)): %s", what, brief(line))
	}
	if t := bytes.TrimLeft(line, " \t\r"); len(t) == 0 || t[0] != '{' {
		return fmt.Sprintf("the port wrote a line that is not a %s on stdout: %s (stdout carries protocol messages only: logs, warnings and a runtime's own messages go to stderr)", what, brief(line))
	}
	return fmt.Sprintf("%s is not valid JSON (%v): %s", what, err, brief(line))
}

func brief(line []byte) string {
	const max = 200
	s := strconv.Quote(string(line))
	if len(line) > max {
		s = strconv.Quote(string(line[:max])) + fmt.Sprintf(" (%d more bytes)", len(line)-max)
	}
	return s
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += len(b)
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.total > len(t.buf) {
		return fmt.Sprintf("[... %d earlier bytes]\n%s", t.total-len(t.buf), t.buf)
	}
	return string(t.buf)
}
