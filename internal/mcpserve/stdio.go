package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/catalogkit/catalogkit/catalog"
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
	d := newDrain()
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
	mu   sync.Mutex
	cond *sync.Cond
	// inFlight holds the requests given to the SDK and not yet answered:
	// the server's own id of each (see wire.go), with the client's id as
	// written and its idKey.
	inFlight map[string]clientID
	// keys holds the idKey of each client id in flight.
	keys    map[string]bool
	next    int // the number of the next id of the server's own
	writing int
}

// A clientID is a request's id as the client wrote it, and its idKey.
type clientID struct {
	raw []byte
	key string
}

func newDrain() *drain {
	d := &drain{inFlight: map[string]clientID{}, keys: map[string]bool{}}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// read records a request whose id the client wrote as raw, and returns
// the id of the server's own to give the SDK in its place; ok is false if
// a request with that id is still waiting for its answer: the SDK would
// give the second no answer at all.
func (d *drain) read(raw []byte) (own []byte, ok bool) {
	key := idKey(raw)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.keys[key] {
		return nil, false
	}
	d.next++
	own = strconv.AppendQuote(nil, "c"+strconv.Itoa(d.next))
	d.keys[key] = true
	d.inFlight[string(own)] = clientID{raw: raw, key: key}
	return own, true
}

// answering records that the answer to the request the SDK knows as own
// is being written, and returns the client's id of it (nil if own is not
// one of the server's). The client's id is free again from here on,
// before the client can see the answer and reuse it (the SDK frees its
// own before it writes, too).
func (d *drain) answering(own []byte) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.inFlight[string(own)]
	if !ok {
		return nil
	}
	delete(d.inFlight, string(own))
	delete(d.keys, c.key)
	d.writing++
	return c.raw
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
		f.refuse(tooLarge("one line", f.limit))
		return
	}
	if len(bytes.TrimSpace(f.line)) == 0 {
		f.line = f.line[:0]
		return
	}
	m, r := check(f.line)
	if r != nil {
		f.refuse(r)
		return
	}
	if m.isRequest && !f.initialized && m.method != "initialize" && m.method != "ping" &&
		!bytes.Contains(m.text, []byte(perRequestVersion)) {
		// The SDK answers these with an error of code 0, which JSON-RPC
		// does not define.
		f.refuse(&refusal{id: m.id, code: -32600, message: "invalid request: " + m.method + " before initialize: a session starts with an initialize request (the MCP lifecycle)"})
		return
	}
	f.line = append(f.line[:0], m.text...)
	if m.isRequest {
		own, ok := f.d.read(m.id)
		if !ok {
			f.refuse(&refusal{code: -32600, message: "invalid request: the id " + clip(string(m.id)) + " is that of a request not yet answered: give each request in flight its own id"})
			return
		}
		f.line = m.withID(own)
	}
	if m.method == "initialize" {
		f.initialized = true
	}
	f.line = append(f.line, '\n')
}

// perRequestVersion is the _meta key of a request of the sessionless
// protocol, which needs no initialize.
const perRequestVersion = `"io.modelcontextprotocol/protocolVersion"`

// refuse answers a line the SDK is not given, and drops the line.
func (f *lineFilter) refuse(r *refusal) {
	f.line = f.line[:0]
	f.w.writeOwn(append(r.encode(), '\n'))
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
	n := len(p)
	if start, end, ok := responseID(p); ok {
		if raw := c.d.answering(p[start:end]); raw != nil {
			defer c.d.answered()
			p = swapID(p, start, end, raw)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
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
