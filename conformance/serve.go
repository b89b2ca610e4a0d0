package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/catalogkit/catalogkit/catalog"
)

// Serve is the port side of the protocol: it answers every line on r with
// exactly one line on w, by the rules of PROTOCOL.md ("Every line gets one
// reply"), until r ends. The JSON text layer of a line is
// [catalog.ParseJSON]'s, applied to the whole line (so the message object
// is at depth 1 and a line over [catalog.MaxInputBytes] is refused); a call
// goes to target. It returns nil at the end of input, or the error that
// stopped it (r or w failing). Nothing a line holds makes it stop or panic.
//
// catalogkit port is Serve with [GoTarget].
func Serve(r io.Reader, w io.Writer, target Target, info PortInfo) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriter(w)
	s := &session{target: target, info: info}
	for {
		line, tooLong, err := readRequest(br)
		if err != nil && err != io.EOF {
			bw.Flush() // the replies already made
			return fmt.Errorf("failed to read a request: %w", err)
		}
		if err == io.EOF && len(line) == 0 && !tooLong {
			return nil
		}
		bw.Write(s.answer(line, tooLong))
		bw.WriteByte('\n')
		// Replies wait in bw only while a whole request line is waiting
		// too: a client that sends several lines before reading gets
		// their replies in one write, and a reply is never held while
		// Serve waits for input.
		if err == io.EOF || !lineBuffered(br) {
			if ferr := bw.Flush(); ferr != nil {
				return fmt.Errorf("failed to write a reply: %w", ferr)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// lineBuffered reports whether br holds a whole line already read from
// its reader, so that reading it does not wait.
func lineBuffered(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// readLine reads one line and returns it without its line ending; a line
// longer than [MaxLine] is an error.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, fmt.Errorf("request line longer than %d bytes", MaxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// keptOfLongLine is how much of a line over the text layer's limit Serve
// keeps: enough to read the seq from the line's prefix.
const keptOfLongLine = 64

// readRequest reads one request line, without its "\n" (a "\r" before it is
// white space the text layer allows). A line longer than
// [catalog.MaxInputBytes] is read to its end but not kept: tooLong is true
// and line holds only its first bytes. err is io.EOF when the input ended
// (line then holds a last line that had no "\n").
func readRequest(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > catalog.MaxInputBytes+1 {
				tooLong = true
				line = line[:keptOfLongLine:keptOfLongLine]
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil && !tooLong {
			line = line[:len(line)-1]
		}
		return line, tooLong, err
	}
}

// seqPrefix is the start of every call line the runner writes. When a line
// the text layer refuses starts with it, the seq can be read, and the
// refusal is a reply to that call.
var seqPrefix = regexp.MustCompile(`^\{"type":"call","seq":([1-9][0-9]*),`)

// positiveInteger matches the literal of a seq.
var positiveInteger = regexp.MustCompile(`^[1-9][0-9]*$`)

// A session is the state of one protocol session: whether the hello came.
type session struct {
	target  Target
	info    PortInfo
	greeted bool
}

// answer returns the reply to one request line, by PROTOCOL.md's rules in
// their order.
func (s *session) answer(line []byte, tooLong bool) []byte {
	if tooLong {
		return refusal(line, fmt.Sprintf("the line is longer than the limit of %d bytes", catalog.MaxInputBytes))
	}
	if len(bytes.Trim(line, " \t\r")) == 0 {
		return errorLine("", "empty line: every line must hold one JSON message")
	}
	msg, err := catalog.ParseJSON(line)
	if err != nil {
		return refusal(line, err.Error())
	}
	if msg.Kind() != catalog.Object {
		return errorLine("", fmt.Sprintf("the message is a JSON %s, not an object", msg.Kind()))
	}
	seq := ""
	if v, ok := msg.Lookup("seq"); ok {
		if lit, _ := v.NumberLiteral(); positiveInteger.MatchString(lit) {
			seq = lit
		}
	}
	typ, _ := msg.Lookup("type")
	switch t, ok := typ.Str(); {
	case !ok:
		return errorLine(seq, `the message has no string "type"`)
	case t == "hello" && s.greeted:
		return errorLine(seq, "a second hello: the handshake is made once per session")
	case t == "hello":
		s.greeted = true
		b, _ := json.Marshal(struct {
			Type     string   `json:"type"`
			Protocol string   `json:"protocol"`
			Port     PortInfo `json:"port"`
		}{"hello", Protocol, s.info})
		return b
	case t != "call":
		return errorLine(seq, fmt.Sprintf("unknown message type %q", t))
	case !s.greeted:
		return errorLine(seq, "a call before the hello")
	case seq == "":
		return errorLine("", "the call's seq is not a positive integer")
	}
	call, _ := msg.Lookup("call")
	if call.Kind() != catalog.Object {
		return errorLine(seq, `the message's "call" is not an object`)
	}
	op, _ := call.Lookup("op")
	opName, ok := op.Str()
	if !ok {
		return errorLine(seq, `the call has no string "op"`)
	}
	if opName == "mutate_and_repeat" {
		inner, _ := call.Lookup("call")
		if inner.Kind() != catalog.Object {
			return errorLine(seq, `mutate_and_repeat: its "call" is not an object`)
		}
		iop, _ := inner.Lookup("op")
		switch name, ok := iop.Str(); {
		case !ok:
			return errorLine(seq, `mutate_and_repeat: the inner call has no string "op"`)
		case name == "mutate_and_repeat":
			return errorLine(seq, "mutate_and_repeat inside mutate_and_repeat")
		case name != "discover" && name != "validate_arguments":
			return replyLine(seq, notImplemented(fmt.Sprintf("no op %q inside mutate_and_repeat", name)))
		}
	}
	var out []byte
	if vt, ok := s.target.(valueTarget); ok {
		out, err = safely(func() ([]byte, error) { return vt.callValue(call) })
	} else {
		callJSON, _ := call.MarshalJSON()
		out, err = safeCall(s.target, callJSON)
	}
	if err != nil {
		var te *TransportError
		if errors.As(err, &te) {
			return errorLine(seq, te.Message)
		}
		return errorLine(seq, err.Error())
	}
	return replyLine(seq, out)
}

// refusal answers a line the text layer refused: a reply with INVALID_JSON
// if its seq can be read from the prefix the runner writes, else an error
// line.
func refusal(line []byte, why string) []byte {
	if m := seqPrefix.FindSubmatch(line); m != nil {
		return replyLine(string(m[1]), codeOutcome(codeInvalidJSON, why))
	}
	return errorLine("", "the line is not valid JSON: "+why)
}

func notImplemented(reason string) []byte {
	return append(catalog.AppendQuote([]byte(`{"not_implemented":`), reason), '}')
}

func replyLine(seq string, outcome []byte) []byte {
	return fmt.Appendf(nil, `{"type":"reply","seq":%s,"outcome":%s}`, seq, outcome)
}

// errorLine returns a {"type": "error"} line; seq "" is null.
func errorLine(seq, message string) []byte {
	if seq == "" {
		seq = "null"
	}
	return fmt.Appendf(nil, `{"type":"error","seq":%s,"message":%s}`, seq, catalog.AppendQuote(nil, message))
}
