package conformance

import (
	"fmt"
)

// Exchange sends one raw request line to the port, without its final
// newline and byte for byte as given (its seq, if it has one, is the
// caller's: the port's own count is not used), and returns the reply line
// without its line ending. The reply must be JSON text the runner's strict
// reader accepts; what it says is not checked, and the port keeps running
// whatever it says. No reply, a reply that is not JSON, or a line the port
// wrote before the request is a [*TransportError], as for Call. It is for
// the lines of the protocol's corners (an empty line, a seq of 40 digits, a
// second hello), whose reply is not a reply to the port's next seq.
func (p *Port) Exchange(line []byte) ([]byte, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	if err := p.send(func(int64) []byte { return line }, 0); err != nil {
		return nil, err
	}
	reply, terr := p.readLine(p.callTimeout(), "reply")
	if terr != nil {
		return nil, terr
	}
	if _, err := parseTape(reply); err != nil {
		return nil, p.fail(Error, unreadable("reply", err, reply))
	}
	return reply, nil
}

// SendLine writes one request line for the port's next seq, as CallLine does,
// without waiting for its reply, and returns that seq; [Port.ReceiveReply] reads
// the replies in the order the lines were sent. A port answers its lines in
// order, one reply each, and reads the next line only when it has answered
// the last one: several lines may wait in its input meanwhile, which is how
// the fuzzer keeps a port busy. The caller bounds what it has in flight, so
// that neither side's pipe fills (PROTOCOL.md, "Transport").
func (p *Port) SendLine(build func(seq int64) []byte) (int64, error) {
	if p.proc == nil {
		if err := p.start(); err != nil {
			return 0, err
		}
	}
	p.seq++
	if err := p.send(build, p.seq); err != nil {
		return 0, err
	}
	return p.seq, nil
}

// ReceiveAny reads the reply to the oldest line SendLine sent whose seq is
// the line's own (a line written whole, whatever seq it holds): any line
// that is valid JSON, its seq left to the caller to judge, as [Port.Exchange]
// reads it.
func (p *Port) ReceiveAny() ([]byte, error) {
	if p.proc == nil {
		return nil, &TransportError{Status: Error, Message: "no reply: the port failed before it"}
	}
	line, terr := p.readLine(p.callTimeout(), "reply")
	if terr != nil {
		return nil, terr
	}
	if _, err := parseTape(line); err != nil {
		return nil, p.fail(Error, unreadable("reply", err, line))
	}
	return line, nil
}

// ReceiveReply reads the reply to the line SendLine numbered seq, the oldest not yet
// received, and checks it as CallLine does: a reply to seq or an error
// line. After a transport error the port's process is gone, and with it
// every line still in flight: ReceiveReply then fails at once for them.
func (p *Port) ReceiveReply(seq int64) ([]byte, error) {
	if p.proc == nil {
		return nil, &TransportError{Status: Error, Message: fmt.Sprintf("no reply to seq %d: the port failed before it", seq)}
	}
	line, terr := p.readLine(p.callTimeout(), "reply")
	if terr != nil {
		return nil, terr
	}
	if err := checkReplyLine(line, seq); err != nil {
		return nil, p.fail(Error, err.Error())
	}
	return line, nil
}
