package conformance

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Protocol is the protocol version the runner speaks.
const Protocol = "catalogkit-conformance/1"

// Default timeouts of a [Port].
const (
	DefaultStartupTimeout = 10 * time.Second
	DefaultCallTimeout    = 5 * time.Second
)

// MaxLine is the longest line the runner reads from a port.
const MaxLine = 64 << 20

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
}

func (e *TransportError) Error() string { return strings.ToLower(string(e.Status)) + ": " + e.Message }

// A Port is a port started as a child process and spoken to over the
// protocol of PROTOCOL.md. It is a [Target]. It starts the process (and
// makes the handshake) at the first call, and again at the call after an
// ERROR, CRASH or TIMEOUT, which kill it. Close ends the last process.
type Port struct {
	// Command is the port's command line: the program and its arguments.
	Command []string
	// Dir is the port's working directory ("" for the runner's).
	Dir string
	// Env, if not nil, is the port's environment.
	Env []string
	// StartupTimeout bounds the wait for the handshake, CallTimeout the wait
	// for each reply. Zero means the default.
	StartupTimeout, CallTimeout time.Duration

	info PortInfo
	seq  int64
	proc *process
}

type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	lines  chan lineOrErr
	quit   chan struct{} // closed when the runner stops reading lines
	stdout *os.File
	stderr *tail
	done   chan struct{} // closed when the process has been waited for
	err    error         // Wait's error, valid after done
}

type lineOrErr struct {
	line []byte
	err  error
}

// Info returns what the port said in its last handshake.
func (p *Port) Info() PortInfo { return p.info }

// Call sends one call and returns the outcome of the port's reply.
func (p *Port) Call(call []byte) ([]byte, error) {
	if p.proc == nil {
		if err := p.start(); err != nil {
			return nil, err
		}
	}
	pr := p.proc
	// A line that came before the request is an answer to nothing.
	select {
	case l := <-pr.lines:
		if l.err == nil {
			return nil, p.fail(Error, fmt.Sprintf("port wrote a line before the request: %s", brief(l.line)))
		}
		return nil, p.fail(Crash, p.eofMessage("before the request", l.err))
	default:
	}
	p.seq++
	req := fmt.Appendf(nil, `{"type":"call","seq":%d,"call":%s}`+"\n", p.seq, call)
	if err := p.write(req); err != nil {
		return nil, p.fail(Crash, fmt.Sprintf("failed to write the request: %v", err))
	}
	line, terr := p.readLine(p.callTimeout(), "reply")
	if terr != nil {
		return nil, terr
	}
	msg, err := parseJSON(line)
	if err != nil {
		return nil, p.fail(Error, fmt.Sprintf("reply is not valid JSON (%v): %s", err, brief(line)))
	}
	if t, _ := msg.lookup("type"); t != nil && t.kind == kString && t.str == "error" {
		text, _ := msg.lookup("message")
		if text == nil || text.kind != kString {
			return nil, p.fail(Error, fmt.Sprintf("port answered an error line without a message: %s", brief(line)))
		}
		return nil, p.fail(Error, fmt.Sprintf("port answered an error line: %s", text.str))
	}
	if err := onlyKeys(msg, "reply", []string{"type", "seq", "outcome"}, nil); err != nil {
		return nil, p.fail(Error, fmt.Sprintf("%v: %s", err, brief(line)))
	}
	if t, _ := msg.lookup("type"); t.kind != kString || t.str != "reply" {
		return nil, p.fail(Error, fmt.Sprintf(`reply type is %s, want "reply": %s`, t, brief(line)))
	}
	if s, _ := msg.lookup("seq"); s.kind != kNumber || s.lit != strconv.FormatInt(p.seq, 10) {
		return nil, p.fail(Error, fmt.Sprintf("reply has seq %s, want %d", s, p.seq))
	}
	outcome, _ := msg.lookup("outcome")
	if err := checkOutcome(outcome); err != nil {
		return nil, p.fail(Error, err.Error())
	}
	return outcome.appendJSON(nil), nil
}

// checkOutcome checks an OUTCOME object's shape.
func checkOutcome(o *node) error {
	shape := fmt.Errorf("outcome %s is not exactly one of result, error (with an optional detail) or not_implemented", o)
	if o.kind != kObject || len(o.keys) == 0 {
		return shape
	}
	switch {
	case onlyKeys(o, "", []string{"result"}, nil) == nil:
		return nil
	case onlyKeys(o, "", []string{"not_implemented"}, nil) == nil:
		if r, _ := o.lookup("not_implemented"); r.kind != kString {
			return fmt.Errorf("not_implemented reason is not a string")
		}
		return nil
	case onlyKeys(o, "", []string{"error"}, []string{"detail"}) == nil:
		if e, _ := o.lookup("error"); e.kind != kString {
			return fmt.Errorf("error code is not a string")
		}
		if d, ok := o.lookup("detail"); ok && d.kind != kString {
			return fmt.Errorf("error detail is not a string")
		}
		return nil
	}
	return shape
}

// Close ends the port: it closes stdin, waits a moment for the port to exit,
// then kills it.
func (p *Port) Close() error {
	if p.proc == nil {
		return nil
	}
	pr := p.proc
	p.proc = nil
	pr.stdin.Close()
	select {
	case <-pr.done:
	case <-time.After(2 * time.Second):
		killGroup(pr.cmd)
		<-pr.done
	}
	close(pr.quit)
	pr.stdout.Close()
	if pr.err != nil {
		return fmt.Errorf("port exited after the run: %v", pr.err)
	}
	return nil
}

func (p *Port) callTimeout() time.Duration {
	if p.CallTimeout > 0 {
		return p.CallTimeout
	}
	return DefaultCallTimeout
}

func (p *Port) start() error {
	if len(p.Command) == 0 {
		return &TransportError{Status: Error, Message: "no port command", Fatal: true}
	}
	cmd := exec.Command(p.Command[0], p.Command[1:]...)
	cmd.Dir = p.Dir
	cmd.Env = p.Env
	setGroup(cmd)
	cmd.WaitDelay = time.Second // a grandchild holding stderr open cannot stall Wait
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return &TransportError{Status: Error, Message: err.Error(), Fatal: true}
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdinW.Close()
		return &TransportError{Status: Error, Message: err.Error(), Fatal: true}
	}
	pr := &process{cmd: cmd, stdin: stdinW, stdout: stdoutR, stderr: &tail{max: stderrTail},
		lines: make(chan lineOrErr, 1), quit: make(chan struct{}), done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, pr.stderr
	err = cmd.Start()
	stdinR.Close()
	stdoutW.Close()
	if err != nil {
		stdinW.Close()
		stdoutR.Close()
		return &TransportError{Status: Error, Message: fmt.Sprintf("failed to start the port %q: %v", strings.Join(p.Command, " "), err), Fatal: true}
	}
	go func() {
		pr.err = cmd.Wait()
		close(pr.done)
	}()
	go readLines(stdoutR, pr.lines, pr.quit)
	p.proc = pr

	hello := fmt.Appendf(nil, `{"type":"hello","protocol":%q}`+"\n", Protocol)
	if err := p.write(hello); err != nil {
		return p.fatal(p.fail(Crash, fmt.Sprintf("failed to write the hello: %v", err)))
	}
	timeout := p.StartupTimeout
	if timeout <= 0 {
		timeout = DefaultStartupTimeout
	}
	line, terr := p.readLine(timeout, "hello")
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

// fatal marks a failed handshake: the runner stops there.
func (p *Port) fatal(err *TransportError) error {
	err.Fatal = true
	err.Message = "handshake failed: " + err.Message
	return err
}

func parseHello(line []byte) (PortInfo, error) {
	msg, err := parseJSON(line)
	if err != nil {
		return PortInfo{}, fmt.Errorf("hello is not valid JSON (%v): %s", err, brief(line))
	}
	if t, _ := msg.lookup("type"); t == nil || t.kind != kString || t.str != "hello" {
		if t != nil && t.kind == kString && t.str == "error" {
			m, _ := msg.lookup("message")
			return PortInfo{}, fmt.Errorf("port answered the hello with an error line: %s", m)
		}
		return PortInfo{}, fmt.Errorf(`first line is not a hello: %s`, brief(line))
	}
	proto, _ := msg.lookup("protocol")
	if proto == nil || proto.kind != kString || proto.str != Protocol {
		got := "none"
		if proto != nil {
			got = proto.String()
		}
		return PortInfo{}, fmt.Errorf("protocol version mismatch: the runner speaks %q, the port answered %s", Protocol, got)
	}
	if err := onlyKeys(msg, "hello", []string{"type", "protocol", "port"}, nil); err != nil {
		return PortInfo{}, fmt.Errorf("%v: %s", err, brief(line))
	}
	port, _ := msg.lookup("port")
	var info PortInfo
	for _, f := range []struct {
		key string
		dst *string
	}{{"name", &info.Name}, {"language", &info.Language}, {"version", &info.Version}} {
		v, _ := port.lookup(f.key)
		if v == nil || v.kind != kString || v.str == "" {
			return PortInfo{}, fmt.Errorf("hello: port.%s is not a non-empty string: %s", f.key, brief(line))
		}
		*f.dst = v.str
	}
	if tl, ok := port.lookup("text_level"); ok {
		if tl.kind != kBool {
			return PortInfo{}, fmt.Errorf("hello: port.text_level is not a boolean: %s", brief(line))
		}
		takesPart := tl.lit == "true"
		info.TextLevel = &takesPart
	}
	return info, nil
}

func (p *Port) write(b []byte) error {
	pr := p.proc
	_ = pr.stdin.SetWriteDeadline(time.Now().Add(p.callTimeout()))
	_, err := pr.stdin.Write(b)
	return err
}

// readLine waits for the next line of the port's stdout.
func (p *Port) readLine(timeout time.Duration, what string) ([]byte, *TransportError) {
	pr := p.proc
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case l := <-pr.lines:
		if l.err != nil {
			if errors.Is(l.err, errLineTooLong) {
				return nil, p.fail(Error, fmt.Sprintf("%s line is longer than %d bytes", what, MaxLine))
			}
			return nil, p.fail(Crash, p.eofMessage("before its "+what, l.err))
		}
		return l.line, nil
	case <-timer.C:
		return nil, p.fail(Timeout, fmt.Sprintf("no %s within %v", what, timeout))
	}
}

func (p *Port) eofMessage(when string, err error) string {
	pr := p.proc
	select {
	case <-pr.done:
	case <-time.After(time.Second):
	}
	select {
	case <-pr.done:
		if pr.err != nil {
			return fmt.Sprintf("port exited %s (%v)", when, pr.err)
		}
		return fmt.Sprintf("port exited %s (exit status 0)", when)
	default:
	}
	if err == io.EOF {
		return fmt.Sprintf("port closed stdout %s", when)
	}
	return fmt.Sprintf("failed to read stdout %s: %v", when, err)
}

// fail kills the process (the next call starts a new one) and returns the
// error with the tail of stderr.
func (p *Port) fail(status Status, msg string) *TransportError {
	pr := p.proc
	p.proc = nil
	killGroup(pr.cmd)
	pr.stdin.Close()
	select {
	case <-pr.done:
	case <-time.After(2 * time.Second):
	}
	close(pr.quit)
	pr.stdout.Close()
	return &TransportError{Status: status, Message: msg, Stderr: pr.stderr.String()}
}

var errLineTooLong = errors.New("line too long")

func readLines(r io.Reader, out chan<- lineOrErr, quit <-chan struct{}) {
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
			line = append(line, chunk...)
			if len(line) > MaxLine {
				send(lineOrErr{err: errLineTooLong})
				return
			}
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
