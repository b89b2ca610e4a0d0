package conformance

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// A LineTarget is a [Target] that also takes whole request lines, as the
// text level sends them: a [*Port], or a [*ServedTarget] for an in-process
// implementation.
type LineTarget interface {
	Target
	// Hello makes the handshake if it has not been made yet and returns what
	// the implementation said about itself.
	Hello() (PortInfo, error)
	// CallLine sends one request line and returns the reply line, without
	// its line ending. build makes the whole line, without the final
	// newline, for the seq it is given (the next seq of the session).
	//
	// The reply is either a reply to that seq ({"type": "reply"} with a
	// valid outcome) or an error line ({"type": "error"} whose seq is null
	// or that seq); anything else, no reply, or a reply that is not valid
	// JSON is a [*TransportError], as for Call.
	CallLine(build func(seq int64) []byte) ([]byte, error)
}

// Hello starts the port, if it is not running, and returns what it said in
// its handshake.
func (p *Port) Hello() (PortInfo, error) {
	if p.proc == nil {
		if err := p.start(); err != nil {
			return PortInfo{}, err
		}
	}
	return p.info, nil
}

// CallLine sends one raw request line to the port; see [LineTarget]. Unlike
// Call, it leaves the port running when it answers with an error line,
// which is the expected answer to some lines.
func (p *Port) CallLine(build func(seq int64) []byte) ([]byte, error) {
	seq, err := p.SendLine(build)
	if err != nil {
		return nil, err
	}
	return p.ReceiveReply(seq)
}

// send writes the request line build makes for seq.
func (p *Port) send(build func(seq int64) []byte, seq int64) error {
	req, err := requestLine(build, seq)
	if err != nil {
		return err
	}
	return p.request(req)
}

// requestLine builds a request line for seq and appends its newline.
func requestLine(build func(seq int64) []byte, seq int64) ([]byte, error) {
	line := build(seq)
	if bytes.IndexByte(line, '\n') >= 0 {
		return nil, fmt.Errorf("a request line cannot hold a newline byte")
	}
	return append(line[:len(line):len(line)], '\n'), nil
}

// checkReplyLine checks that line is a reply to seq or an error line (see
// [LineTarget]).
func checkReplyLine(line []byte, seq int64) error {
	_, err := replyParts(line, seq)
	return err
}

// A Reply is what a line a port wrote says, as [SplitReply] returns it.
type Reply struct {
	Type    string // "reply" or "error"
	Seq     string // the seq member's JSON text, "null" when it is null
	Message string // an error line's message
	Outcome []byte // a reply's outcome, as the port wrote it: a slice of the line
}

// SplitReply reads a line a port wrote as strict JSON text and returns its
// members without judging them (a missing member is empty; Type and Message
// only when they are strings): for the protocol's corners, whose replies
// the caller judges itself.
func SplitReply(line []byte) (Reply, error) {
	msg, err := readReplyLine(line)
	if err != nil {
		return Reply{}, err
	}
	var r Reply
	if msg.kind() != kObject {
		return r, nil
	}
	if v, ok := msg.lookup("type"); ok && v.kind() == kString {
		r.Type = v.str()
	}
	if v, ok := msg.lookup("seq"); ok {
		r.Seq = string(v.text())
	}
	if v, ok := msg.lookup("message"); ok && v.kind() == kString {
		r.Message = v.str()
	}
	if v, ok := msg.lookup("outcome"); ok {
		r.Outcome = v.text()
	}
	return r, nil
}

// readReplyLine reads a line a port wrote as strict JSON text, for
// SplitReply and replyParts.
func readReplyLine(line []byte) (tval, error) {
	t, err := parseTape(line)
	if err != nil {
		return tval{}, errors.New(unreadable("reply", err, line))
	}
	return t.root(), nil
}

// replyParts reads one line a port wrote in answer to the request
// numbered seq, as the runner reads it, in one strict read: a reply with
// that seq and a valid outcome, or an error line whose seq is null or that
// seq.
func replyParts(line []byte, seq int64) (Reply, error) {
	msg, err := readReplyLine(line)
	if err != nil {
		return Reply{}, err
	}
	want := strconv.FormatInt(seq, 10)
	var typ tval
	if msg.kind() == kObject {
		typ, _ = msg.lookup("type")
	}
	switch {
	case typ.strEqual("error"):
		if err := objectKeys(msg, "error line", []string{"type", "seq", "message"}, nil); err != nil {
			return Reply{}, fmt.Errorf("%v: %s", err, brief(line))
		}
		s, _ := msg.lookup("seq")
		if s.kind() != kNull && (s.kind() != kNumber || string(s.literal()) != want) {
			return Reply{}, fmt.Errorf("error line has seq %s, want %s or null", s, want)
		}
		m, _ := msg.lookup("message")
		if m.kind() != kString {
			return Reply{}, fmt.Errorf("error line's message is not a string: %s", brief(line))
		}
		return Reply{Type: "error", Seq: string(s.literal()), Message: m.str()}, nil
	case typ.strEqual("reply"):
		if err := objectKeys(msg, "reply", []string{"type", "seq", "outcome"}, nil); err != nil {
			return Reply{}, fmt.Errorf("%v: %s", err, brief(line))
		}
		s, _ := msg.lookup("seq")
		if s.kind() != kNumber || string(s.literal()) != want {
			return Reply{}, fmt.Errorf("reply has seq %s, want %s", s, want)
		}
		outcome, _ := msg.lookup("outcome")
		if err := checkOutcome(outcome); err != nil {
			return Reply{}, err
		}
		return Reply{Type: "reply", Seq: want, Outcome: outcome.text()}, nil
	}
	return Reply{}, fmt.Errorf(`line is neither a reply nor an error line: %s`, brief(line))
}

// A ServedTarget is an in-process [Target] behind [Serve], spoken to over a
// pipe: every call, and every raw line of the text level, goes through
// Serve's JSON text layer and protocol rules, exactly as it would reach
// catalogkit port. It is how the runner gives an in-process implementation,
// which has no text layer of its own over lines, the text level.
type ServedTarget struct {
	target Target
	req    *io.PipeWriter
	replyR *replyPipe
	reply  *bufio.Reader
	done   chan error // Serve's result
	info   PortInfo
	seq    int64
	hello  bool
	err    error // the first transport error: the pipe is then unusable

	closed   bool
	closeErr error
}

// Served starts [Serve] with target in a goroutine and returns the
// [LineTarget] that talks to it. Close ends it.
func Served(target Target) *ServedTarget {
	reqR, reqW := io.Pipe()
	replyR := newReplyPipe()
	replyW := replyR
	s := &ServedTarget{target: target, req: reqW, replyR: replyR, reply: bufio.NewReaderSize(replyR, 64<<10), done: make(chan error, 1), info: target.Info()}
	go func() {
		err := Serve(reqR, replyW, target, target.Info())
		reqR.CloseWithError(errors.New("serve stopped"))
		replyW.Close()
		s.done <- err
	}()
	return s
}

// Info returns what Serve said in its hello.
func (s *ServedTarget) Info() PortInfo { return s.info }

// Hello makes the handshake, once.
func (s *ServedTarget) Hello() (PortInfo, error) {
	if s.hello {
		return s.info, s.err
	}
	s.hello = true
	line, err := s.exchange([]byte(`{"type":"hello","protocol":` + strconv.Quote(Protocol) + "}\n"))
	if err == nil {
		s.info, err = parseHello(line)
	}
	if err != nil {
		s.err = &TransportError{Status: Error, Message: "handshake failed: " + err.Error(), Fatal: true}
	}
	return s.info, s.err
}

// CallLine sends one raw request line; see [LineTarget].
func (s *ServedTarget) CallLine(build func(seq int64) []byte) ([]byte, error) {
	if _, err := s.Hello(); err != nil {
		return nil, err
	}
	s.seq++
	req, err := requestLine(build, s.seq)
	if err != nil {
		return nil, err
	}
	line, err := s.exchange(req)
	if err != nil {
		return nil, err
	}
	if err := checkReplyLine(line, s.seq); err != nil {
		return nil, &TransportError{Status: Error, Message: err.Error()}
	}
	return line, nil
}

// Call makes one call through Serve; an error line is an ERROR, as from a
// port.
func (s *ServedTarget) Call(call []byte) ([]byte, error) {
	line, err := s.CallLine(func(seq int64) []byte {
		return fmt.Appendf(nil, `{"type":"call","seq":%d,"call":%s}`, seq, call)
	})
	if err != nil {
		return nil, err
	}
	msg, _ := parseJSON(line)
	if t, _ := msg.lookup("type"); t.str == "error" {
		m, _ := msg.lookup("message")
		return nil, &TransportError{Status: Error, Message: "port answered an error line: " + m.str}
	}
	outcome, _ := msg.lookup("outcome")
	return outcome.appendJSON(nil), nil
}

// exchange writes one line and reads one reply line.
func (s *ServedTarget) exchange(req []byte) ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	if _, err := s.req.Write(req); err != nil {
		s.err = &TransportError{Status: Crash, Message: fmt.Sprintf("Serve stopped reading: %v", err), Fatal: true}
		return nil, s.err
	}
	line, err := readLine(s.reply)
	if err != nil {
		s.err = &TransportError{Status: Crash, Message: fmt.Sprintf("Serve stopped answering: %v", err), Fatal: true}
		return nil, s.err
	}
	return line, nil
}

// Close ends Serve and returns the error that stopped it, if any.
func (s *ServedTarget) Close() error {
	if !s.closed {
		s.closed = true
		s.req.Close()
		s.closeErr = <-s.done
	}
	return s.closeErr
}

// A replyPipe carries Serve's replies to the runner. Unlike io.Pipe it
// holds what Serve writes until the runner reads it, as the pipe from a
// port's process does, so that a pipelined protocol case (which writes its
// lines before it reads a reply) cannot deadlock against Serve writing its
// first reply. The replies it holds are the answers to the runner's own
// lines: a few at a time.
type replyPipe struct {
	mu     sync.Mutex
	ready  *sync.Cond
	buf    []byte
	closed bool  // the writer is done: Read returns io.EOF once buf is empty
	rerr   error // the reader gave up: Write returns it
}

func newReplyPipe() *replyPipe {
	p := &replyPipe{}
	p.ready = sync.NewCond(&p.mu)
	return p
}

func (p *replyPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rerr != nil {
		return 0, p.rerr
	}
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	p.buf = append(p.buf, b...)
	p.ready.Broadcast()
	return len(b), nil
}

func (p *replyPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && !p.closed && p.rerr == nil {
		p.ready.Wait()
	}
	switch {
	case p.rerr != nil:
		return 0, p.rerr
	case len(p.buf) == 0:
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = nil // let a long reply's memory go
	}
	return n, nil
}

// Close ends the writer's side.
func (p *replyPipe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.ready.Broadcast()
	return nil
}

// CloseWithError ends the reader's side: Serve's next write fails with err.
func (p *replyPipe) CloseWithError(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rerr = err
	p.ready.Broadcast()
}
