package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long the end of stdin waits for the answers to
// the requests already read.
const drainTimeout = 30 * time.Second

// MaxMessageBytes is the largest JSON-RPC message the server reads, over
// stdio (one line) and over HTTP (one request body): the catalog's text
// limit (catalog.MaxInputBytes) for the arguments of a call, and 64 KiB for
// the rest of the message, so that arguments at the text layer's limit reach
// the text layer and get its own error.
const MaxMessageBytes = catalog.MaxInputBytes + 64<<10

// maxDecoderDepth is how deep encoding/json, and so the SDK, reads.
const maxDecoderDepth = 10000

// ServeStdio serves one client on in and out (newline-delimited JSON-RPC)
// until in ends or ctx does. When in ends, every request already read is
// answered before the connection closes (the SDK alone would drop them),
// so that `requests | catalogkit mcp` prints every response, as a filter
// should.
//
// A line the SDK would end the connection on, or leave unanswered, is
// answered here with a JSON-RPC error (id null) and skipped, and the server
// goes on: a line that is not JSON (-32700), a batch, which the protocol no
// longer has, a line that is not a JSON-RPC message, a message nested deeper
// than the SDK's decoder reads, a request whose id is that of a request not
// yet answered, and a line over [MaxMessageBytes] (all -32600), which is
// discarded as it is read, never held whole. A request other than ping
// before initialize gets -32600 with its own id (the SDK's error has code 0).
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	d := &drain{inFlight: map[jsonrpc.ID]bool{}}
	d.cond = sync.NewCond(&d.mu)
	w := &countingWriter{w: out, d: d}
	t := &mcp.IOTransport{
		Reader:        readCloser{&lineFilter{r: bufio.NewReaderSize(in, 64<<10), w: w, d: d, limit: MaxMessageBytes}, in},
		Writer:        writeCloser{w, out},
		MaxLineLength: MaxMessageBytes + 1, // the filter has bounded every line already
	}
	return s.MCPServer().Run(ctx, t)
}

// drain holds the ids of the requests read and not yet answered, and how
// many answers are being written.
type drain struct {
	mu       sync.Mutex
	cond     *sync.Cond
	inFlight map[jsonrpc.ID]bool
	writing  int
}

// kind tells a JSON-RPC request (an id and a method) and a response (an id
// and a result or error) from anything else, and returns its id. It reads
// the top-level keys in order and stops as soon as it knows, so that a large
// result is not scanned: the SDK writes "id" before "result".
func kind(line []byte) (request, response bool, id jsonrpc.ID) {
	// The keys that decide come first in what the SDK writes: look at the
	// start of the line only, and at the whole line if that did not decide.
	if len(line) > kindPrefix {
		if request, response, id, ok := kindOf(line[:kindPrefix]); ok {
			return request, response, id
		}
	}
	request, response, id, _ = kindOf(line)
	return request, response, id
}

// kindPrefix is how much of a line kind looks at first.
const kindPrefix = 256

// kindOf is kind, and reports whether the text decided it (a cut line may
// not).
func kindOf(line []byte) (request, response bool, id jsonrpc.ID, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false, false, id, false
	}
	hasID, hasMethod, hasResult := false, false, false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false, false, id, false
		}
		key, _ := t.(string)
		switch key {
		case "method":
			hasMethod = true
		case "result", "error":
			hasResult = true
		}
		if hasID && (hasMethod || hasResult) {
			return hasMethod, !hasMethod, id, true
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return false, false, id, false
		}
		if key == "id" && v != nil {
			// As the SDK reads an id: a number is taken as an int64.
			if id, err = jsonrpc.MakeID(v); err != nil {
				return false, false, id, true
			}
			hasID = true
			if hasMethod || hasResult {
				return hasMethod, !hasMethod, id, true
			}
		}
	}
	_, err := dec.Token() // the closing brace: the whole object was read
	return false, false, id, err == nil
}

// read records a request with id read, and reports false if a request with
// that id is still waiting for its answer: the SDK would give the second no
// answer at all.
func (d *drain) read(id jsonrpc.ID) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.inFlight[id] {
		return false
	}
	d.inFlight[id] = true
	return true
}

// answering records that the answer to id is being written. The id is free
// again from here on, before the client can see the answer and reuse it
// (the SDK frees it before it writes, too).
func (d *drain) answering(id jsonrpc.ID) {
	d.mu.Lock()
	delete(d.inFlight, id)
	d.writing++
	d.mu.Unlock()
}

// answered records that an answer has been written.
func (d *drain) answered() {
	d.mu.Lock()
	d.writing--
	d.cond.Broadcast()
	d.mu.Unlock()
}

// wait returns when every request read has been answered, or after
// drainTimeout.
func (d *drain) wait() {
	timeout := false
	timer := time.AfterFunc(drainTimeout, func() {
		d.mu.Lock()
		timeout = true
		d.cond.Broadcast()
		d.mu.Unlock()
	})
	defer timer.Stop()
	d.mu.Lock()
	for !timeout && (len(d.inFlight) > 0 || d.writing > 0) {
		d.cond.Wait()
	}
	d.mu.Unlock()
}

// lineFilter reads the client's lines and passes on to the SDK only those
// it can take; it answers the others itself on w (see ServeStdio). It
// counts the requests it passes on, and waits for their answers before it
// returns io.EOF.
type lineFilter struct {
	r     *bufio.Reader
	w     *countingWriter
	d     *drain
	limit int
	line  []byte // the line being passed on
	off   int    // how much of it has been
	eof   bool
	// initialized: an initialize request has been passed on.
	initialized bool
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for f.off == len(f.line) {
		if f.eof {
			f.d.wait()
			return 0, io.EOF
		}
		f.next()
	}
	n := copy(p, f.line[f.off:])
	f.off += n
	return n, nil
}

// next reads the next line into f.line if the SDK may have it, or answers
// it.
func (f *lineFilter) next() {
	f.line, f.off = f.line[:0], 0
	tooLong := false
	for {
		chunk, err := f.r.ReadSlice('\n')
		if !tooLong && len(f.line)+len(chunk) <= f.limit+1 { // +1: the newline
			f.line = append(f.line, chunk...)
		} else {
			tooLong, f.line = true, f.line[:0]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			f.eof = true
		}
		break
	}
	if tooLong {
		f.reply(-32600, fmt.Sprintf("message too large: a message (one line) is at most %d bytes, the catalog's text limit of %d bytes for the arguments and 64 KiB more", f.limit, catalog.MaxInputBytes))
		return
	}
	text := bytes.TrimSpace(f.line)
	if len(text) == 0 {
		f.line = f.line[:0]
		return
	}
	if text[0] == '[' {
		f.reply(-32600, "JSON-RPC batches are not supported: send one message per line")
		return
	}
	var syntax *json.SyntaxError
	if err := json.Unmarshal(text, new(json.RawMessage)); errors.As(err, &syntax) {
		if strings.Contains(syntax.Error(), "exceeded max depth") {
			// Valid JSON, nested deeper than the SDK's decoder goes.
			f.reply(-32600, fmt.Sprintf("invalid request: the message is nested more than %d deep (at byte offset %d); a catalog's arguments nest at most %d", maxDecoderDepth, syntax.Offset, catalog.MaxDepth))
			return
		}
		f.reply(-32700, fmt.Sprintf("parse error: the line is not a JSON text: %v at byte offset %d: send one JSON-RPC message per line", syntax, syntax.Offset))
		return
	}
	msg, err := jsonrpc.DecodeMessage(text)
	if err != nil {
		f.reply(-32600, "invalid request: "+err.Error())
		return
	}
	req, _ := msg.(*jsonrpc.Request)
	if req != nil && req.ID.IsValid() && !f.initialized && req.Method != "initialize" && req.Method != "ping" &&
		!bytes.Contains(text, []byte(perRequestVersion)) {
		// The SDK answers these with an error of code 0, which JSON-RPC
		// does not define.
		f.replyTo(req.ID, -32600, "invalid request: "+req.Method+" before initialize: a session starts with an initialize request (the MCP lifecycle)")
		return
	}
	if req != nil && req.ID.IsValid() && !f.d.read(req.ID) {
		f.reply(-32600, "invalid request: the id "+idText(req.ID)+" is that of a request not yet answered: give each request in flight its own id")
		return
	}
	if req != nil && req.Method == "initialize" {
		f.initialized = true
	}
	if f.line[len(f.line)-1] != '\n' {
		f.line = append(f.line, '\n') // the last line of the stream
	}
}

// perRequestVersion is the _meta key of a request of the sessionless
// protocol, which needs no initialize.
const perRequestVersion = `"io.modelcontextprotocol/protocolVersion"`

// reply answers a line the SDK is not given, and drops the line.
func (f *lineFilter) reply(code int, message string) { f.replyTo(jsonrpc.ID{}, code, message) }

// replyTo is reply with the id of the request it answers.
func (f *lineFilter) replyTo(id jsonrpc.ID, code int, message string) {
	f.line = f.line[:0]
	b := append([]byte(`{"jsonrpc":"2.0","id":`), idText(id)...)
	b = append(b, `,"error":{"code":`...)
	b = append(b, fmt.Sprint(code)...)
	b = append(b, `,"message":`...)
	b = catalog.AppendQuote(b, message)
	f.w.writeOwn(append(b, "}}\n"...))
}

// countingWriter passes the SDK's messages to w, one message per Write (as
// the SDK writes them), counting the responses; writeOwn writes a message
// of the server's own, not counted.
type countingWriter struct {
	mu sync.Mutex
	w  io.Writer
	d  *drain
}

func (c *countingWriter) Write(p []byte) (int, error) {
	_, response, id := kind(p)
	if response {
		c.d.answering(id)
		defer c.d.answered()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Write(p)
}

func (c *countingWriter) writeOwn(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.w.Write(p)
}

type readCloser struct {
	io.Reader
	io.Closer
}

type writeCloser struct {
	io.Writer
	io.Closer
}

// idText is an id as JSON writes it.
func idText(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}
