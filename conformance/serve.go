package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Serve is the port side of the protocol: it answers the runner's hello with
// info, then answers every call line on r with target's outcome, one line on
// w each, until r ends. It returns nil at the end of input, or the error that
// stopped it (w failing, a line over [MaxLine]). A request it cannot make
// sense of gets a {"type": "error"} line, never a crash.
//
// catalogkit port is Serve with [GoTarget].
func Serve(r io.Reader, w io.Writer, target Target, info PortInfo) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriter(w)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			reply := serveLine(line, target, info)
			bw.Write(reply)
			bw.WriteByte('\n')
			if ferr := bw.Flush(); ferr != nil {
				return fmt.Errorf("failed to write a reply: %w", ferr)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

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

// serveLine answers one request line.
func serveLine(line []byte, target Target, info PortInfo) []byte {
	msg, err := parseJSON(line)
	if err != nil {
		// A call whose JSON text is malformed in a way the contract's JSON
		// layer names (duplicate keys, say) is still a call: answer it with
		// INVALID_JSON if its seq can be read.
		var head struct {
			Type string          `json:"type"`
			Seq  json.RawMessage `json:"seq"`
		}
		if json.Unmarshal(line, &head) == nil && head.Type == "call" && len(head.Seq) > 0 {
			return fmt.Appendf(nil, `{"type":"reply","seq":%s,"outcome":%s}`, head.Seq, codeOutcome("INVALID_JSON", err.Error()))
		}
		return errorLine(nil, fmt.Sprintf("request is not valid JSON: %v", err))
	}
	typ, _ := msg.lookup("type")
	seq, _ := msg.lookup("seq")
	switch {
	case typ == nil || typ.kind != kString:
		return errorLine(seq, "request has no type")
	case typ.str == "hello":
		b, _ := json.Marshal(struct {
			Type     string   `json:"type"`
			Protocol string   `json:"protocol"`
			Port     PortInfo `json:"port"`
		}{"hello", Protocol, info})
		return b
	case typ.str != "call":
		return errorLine(seq, fmt.Sprintf("unknown message type %q", typ.str))
	case seq == nil || seq.kind != kNumber:
		return errorLine(seq, "call has no seq")
	}
	call, ok := msg.lookup("call")
	if !ok || call.kind != kObject {
		return errorLine(seq, "call is not an object")
	}
	out, err := safeCall(target, call.appendJSON(nil))
	if err != nil {
		var te *TransportError
		if errors.As(err, &te) {
			return errorLine(seq, te.Message)
		}
		return errorLine(seq, err.Error())
	}
	return fmt.Appendf(nil, `{"type":"reply","seq":%s,"outcome":%s}`, seq.lit, out)
}

func errorLine(seq *node, message string) []byte {
	s := []byte("null")
	if seq != nil && seq.kind == kNumber {
		s = []byte(seq.lit)
	}
	m, _ := json.Marshal(message)
	return fmt.Appendf(nil, `{"type":"error","seq":%s,"message":%s}`, s, m)
}
