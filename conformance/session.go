package conformance

import (
	"fmt"
	"io"
	"time"
)

// A LineSession is one protocol session spoken to byte by byte, as the
// protocol level does: the runner writes what a case gives, line endings
// included, and reads the implementation's lines one at a time.
type LineSession interface {
	// Send writes b as it is.
	Send(b []byte) error
	// Next returns the next line the implementation writes, without its
	// "\n"; no line within the call timeout, or the end of the output, is a
	// [*TransportError].
	Next() ([]byte, error)
}

// A FreshSession is a [LineSession] of its own, started for one case with
// no handshake made.
type FreshSession interface {
	LineSession
	// CloseInput ends the implementation's input.
	CloseInput() error
	// Wait waits for the implementation to end after CloseInput. It returns
	// nil if it ended cleanly (a port: exit status 0 within the exit grace)
	// and wrote nothing more, else an error that says what happened.
	Wait() error
	// Abort ends the session at once, whatever state it is in.
	Abort()
}

// A SessionTarget is a [LineTarget] that also runs the protocol level: a
// [*Port], or a [*ServedTarget]. Its own session (the one that served the
// other cases) is a [LineSession]; Fresh starts another.
type SessionTarget interface {
	LineTarget
	LineSession
	// Fresh starts a new session of the same implementation, with no
	// hello sent.
	Fresh() (FreshSession, error)
}

// Send writes b to the port's stdin, starting the port (with its
// handshake) if it is not running.
func (p *Port) Send(b []byte) error {
	if p.proc == nil {
		if err := p.start(); err != nil {
			return err
		}
	}
	if terr := p.write(b, "request"); terr != nil {
		return terr
	}
	return nil
}

// Next reads the port's next line; a port that does not answer within the
// call timeout, or exits, is killed (the next call starts it again). The
// first line of a fresh session, which no hello preceded, gets the startup
// timeout: the port may still be starting.
func (p *Port) Next() ([]byte, error) {
	if p.proc == nil {
		return nil, &TransportError{Status: Error, Message: "no port running"}
	}
	timeout := p.callTimeout()
	if p.noHello && !p.answered {
		timeout = max(timeout, p.startupTimeout())
	}
	p.answered = true
	line, terr := p.readLine(timeout, "reply")
	if terr != nil {
		return nil, terr
	}
	return line, nil
}

// Fresh starts the port's command again, in a session of its own with no
// handshake made.
func (p *Port) Fresh() (FreshSession, error) {
	f := &Port{Command: p.Command, Dir: p.Dir, Env: p.Env, StartupTimeout: p.StartupTimeout,
		CallTimeout: p.CallTimeout, MaxReply: p.MaxReply, noHello: true}
	if err := f.start(); err != nil {
		return nil, err
	}
	return freshPort{f}, nil
}

// freshPort is a port of its own for one case of the protocol level.
type freshPort struct{ *Port }

func (f freshPort) CloseInput() error {
	if f.proc == nil {
		return &TransportError{Status: Error, Message: "no port running"}
	}
	return f.proc.stdin.Close()
}

// Wait waits for the port to exit after its input ended: exit status 0,
// and nothing written after its last reply.
func (f freshPort) Wait() error {
	pr := f.proc
	if pr == nil {
		return &TransportError{Status: Error, Message: "no port running"}
	}
	timer := time.NewTimer(exitTimeout)
	defer timer.Stop()
	for {
		select {
		case l := <-pr.lines:
			if l.err == nil {
				return f.fail(Error, fmt.Sprintf("port wrote a line after its input ended: %s", brief(l.line)))
			}
			select {
			case <-pr.done:
			case <-timer.C:
				return f.fail(Timeout, fmt.Sprintf("port closed stdout but did not exit within %v of the end of its input", exitTimeout))
			}
			pr := f.take()
			pr.end()
			if pr.err != nil {
				return &TransportError{Status: Error, Message: fmt.Sprintf("port did not exit with status 0 at the end of its input (%s)", exitText(pr.err)), Stderr: pr.stderr.String()}
			}
			return nil
		case <-timer.C:
			return f.fail(Timeout, fmt.Sprintf("port did not exit within %v of the end of its input", exitTimeout))
		}
	}
}

func (f freshPort) Abort() {
	if f.proc != nil {
		f.fail(Error, "aborted")
	}
}

// exitTimeout is how long a port has to exit once its input ended
// (PROTOCOL.md, "Transport").
const exitTimeout = 2 * time.Second

// Send writes b to Serve.
func (s *ServedTarget) Send(b []byte) error {
	if _, err := s.Hello(); err != nil {
		return err
	}
	return s.send(b)
}

func (s *ServedTarget) send(b []byte) error {
	if s.err != nil {
		return s.err
	}
	if _, err := s.req.Write(b); err != nil {
		s.err = &TransportError{Status: Crash, Message: fmt.Sprintf("Serve stopped reading: %v", err), Fatal: true}
		return s.err
	}
	return nil
}

// Next reads Serve's next line.
func (s *ServedTarget) Next() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	line, err := readLine(s.reply)
	if err != nil {
		if len(line) > 0 && err == io.EOF {
			return nil, &TransportError{Status: Error, Message: "Serve's last line has no newline"}
		}
		s.err = &TransportError{Status: Crash, Message: fmt.Sprintf("Serve stopped answering: %v", err), Fatal: true}
		return nil, s.err
	}
	return line, nil
}

// Fresh starts another Serve of the same target, with no hello sent.
func (s *ServedTarget) Fresh() (FreshSession, error) {
	f := Served(s.target)
	f.hello = true // the case says what to send
	return freshServed{f}, nil
}

type freshServed struct{ *ServedTarget }

func (f freshServed) Send(b []byte) error { return f.send(b) }

func (f freshServed) CloseInput() error { return f.req.Close() }

// Wait waits for Serve to return after its input ended, with nothing more
// written.
func (f freshServed) Wait() error {
	line, err := f.reply.ReadBytes('\n')
	if err == nil || len(line) > 0 {
		return &TransportError{Status: Error, Message: fmt.Sprintf("Serve wrote a line after its input ended: %s", brief(line))}
	}
	f.closed = true
	if err := <-f.done; err != nil {
		return &TransportError{Status: Error, Message: fmt.Sprintf("Serve ended with an error at the end of its input: %v", err)}
	}
	return nil
}

// Abort stops reading Serve's replies, so that a Serve blocked writing one
// returns, and ends it.
func (f freshServed) Abort() {
	f.replyR.CloseWithError(fmt.Errorf("the session was aborted"))
	f.Close()
}

var (
	_ SessionTarget = (*Port)(nil)
	_ SessionTarget = (*ServedTarget)(nil)
)
