package mcpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The text layer both transports share: what a message must be before the
// SDK is given it (one line over stdio, one request body over HTTP), and
// the client's ids, kept exactly as written. The SDK reads a numeric id
// as an int64 (1e308 would come back as -9223372036854775808, 1.5 as 1,
// 9007199254740993 as 9007199254740992), so it never sees the client's
// id: each request is given to it with an id of the server's own, and its
// answer goes back with the client's id, byte for byte.

// A refusal is a message the server answers itself with a JSON-RPC error
// instead of giving it to the SDK.
type refusal struct {
	id      []byte // the request's id as the client wrote it; nil for null
	code    int
	message string
}

// encode returns the refusal as a JSON-RPC error response, without a
// newline.
func (r *refusal) encode() []byte {
	id := r.id
	if id == nil {
		id = []byte("null")
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(r.code), 10)
	b = append(b, `,"message":`...)
	b = catalog.AppendQuote(b, r.message)
	return append(b, "}}"...)
}

// A message is one the SDK may be given: the client's text, its method
// ("" for a response), and its id as written with where it is in the text
// (nil for a notification, or an id that is null).
type message struct {
	text       []byte
	method     string
	id         []byte
	idStart    int
	idEnd      int
	isRequest  bool
	isResponse bool
}

// check reads text, one message as the client sent it, and returns it, or
// the refusal that answers it: a batch (which the protocol no longer has),
// text that is not one JSON text with nothing after it (-32700), a message
// nested deeper than the SDK's decoder reads, a key that appears twice in
// the message or in its params (a decoder would keep one of them
// silently), and anything that is not a JSON-RPC message (all -32600). A
// repeated key deeper down, in a call's arguments, is the tools' to refuse
// (INVALID_JSON, with its path).
func check(text []byte) (*message, *refusal) {
	text = bytes.TrimSpace(text)
	if len(text) > 0 && text[0] == '[' {
		return nil, &refusal{code: -32600, message: "JSON-RPC batches are not supported: send one message at a time"}
	}
	var syntax *json.SyntaxError
	if err := json.Unmarshal(text, new(json.RawMessage)); errors.As(err, &syntax) {
		if strings.Contains(syntax.Error(), "exceeded max depth") {
			// Valid JSON, nested deeper than the SDK's decoder goes.
			return nil, &refusal{code: -32600, message: fmt.Sprintf("invalid request: the message is nested more than %d deep (at byte offset %d); a catalog's arguments nest at most %d", maxDecoderDepth, syntax.Offset, catalog.MaxDepth)}
		}
		return nil, &refusal{code: -32700, message: fmt.Sprintf("parse error: the message is not one JSON text: %v at byte offset %d: send one JSON-RPC message per line (over HTTP, per request)", syntax, syntax.Offset)}
	} else if err != nil {
		return nil, &refusal{code: -32700, message: "parse error: " + err.Error()}
	}
	m := &message{text: text}
	if err := m.envelope(); err != nil {
		return nil, &refusal{code: -32600, message: "invalid request: " + err.Error()}
	}
	msg, err := jsonrpc.DecodeMessage(text)
	if err != nil {
		return nil, &refusal{code: -32600, message: "invalid request: " + err.Error()}
	}
	switch msg := msg.(type) {
	case *jsonrpc.Request:
		m.method, m.isRequest = msg.Method, msg.ID.IsValid()
	case *jsonrpc.Response:
		m.isResponse = true
	}
	if !m.isRequest && !m.isResponse {
		m.id = nil // a notification: nothing to answer
	}
	return m, nil
}

// envelope reads the message's top-level keys, and those of its params
// when they are an object: it refuses a key that appears twice, and finds
// the id.
func (m *message) envelope() error {
	keys, err := topKeys(m.text, func(key string, start, end int) error {
		if key == "id" && string(m.text[start:end]) != "null" {
			m.id, m.idStart, m.idEnd = m.text[start:end], start, end
		}
		if key == "params" && m.text[start] == '{' {
			if _, err := topKeys(m.text[start:end], nil); err != nil {
				return fmt.Errorf("in params: %w", err)
			}
		}
		return nil
	})
	if err == nil && keys == 0 && (len(m.text) == 0 || m.text[0] != '{') {
		return errors.New("a JSON-RPC message is a JSON object")
	}
	return err
}

// topKeys calls fn with each key of the JSON object text and where its
// value is, in order, and refuses a key that appears twice. text that is
// not an object has no keys. It returns how many keys it read.
func topKeys(text []byte, fn func(key string, start, end int) error) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, nil
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return len(seen), err
		}
		key, _ := t.(string)
		if seen[key] {
			return len(seen), fmt.Errorf("the key %s appears twice", strconv.Quote(clip(key)))
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return len(seen), err
		}
		end := int(dec.InputOffset())
		if fn != nil {
			if err := fn(key, end-len(v), end); err != nil {
				return len(seen), err
			}
		}
	}
	return len(seen), nil
}

// withID returns the message's text with id in place of the client's id.
func (m *message) withID(id []byte) []byte {
	out := make([]byte, 0, len(m.text)-(m.idEnd-m.idStart)+len(id)+1)
	out = append(out, m.text[:m.idStart]...)
	out = append(out, id...)
	return append(out, m.text[m.idEnd:]...)
}

// idKey is what tells two ids apart: a string by its value (however it is
// escaped), a number by its literal (1 and 1.0 are two ids, each answered
// with its own).
func idKey(raw []byte) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return "s" + s
		}
	}
	return "n" + string(raw)
}

// responseID returns where the id of a response the SDK wrote is: the SDK
// writes "id" second, after "jsonrpc", so only the start of a large
// response is read. ok is false if the text is not a response with an id.
func responseID(text []byte) (start, end int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0, false
		}
		if t == "id" {
			end := int(dec.InputOffset())
			return end - len(v), end, true
		}
	}
	return 0, 0, false
}

// swapID returns text with the value at [start, end) replaced by id.
func swapID(text []byte, start, end int, id []byte) []byte {
	out := make([]byte, 0, len(text)-(end-start)+len(id))
	out = append(out, text[:start]...)
	out = append(out, id...)
	return append(out, text[end:]...)
}

// tooLarge is the refusal of a message over limit bytes.
func tooLarge(what string, limit int) *refusal {
	return &refusal{code: -32600, message: fmt.Sprintf("message too large: a message (%s) is at most %d bytes, the catalog's text limit of %d bytes for the arguments and 64 KiB more", what, limit, catalog.MaxInputBytes)}
}

// readAll reads r to its end, at most limit bytes; tooLong says there was
// more.
func readAll(r io.Reader, limit int) (data []byte, tooLong bool, err error) {
	data, err = io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if len(data) > limit {
		return nil, true, err
	}
	return data, false, err
}
