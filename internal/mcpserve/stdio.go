package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long the end of stdin waits for the answers to
// the requests already read.
const drainTimeout = 30 * time.Second

// ServeStdio serves one client on in and out (newline-delimited JSON-RPC)
// until in ends or ctx does. When in ends, every request already read is
// answered before the connection closes (the SDK alone would drop them),
// so that `requests | catalogkit mcp` prints every response, as a filter
// should.
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	d := &drain{}
	d.cond = sync.NewCond(&d.mu)
	t := &mcp.IOTransport{
		Reader: readCloser{&lineCounter{r: in, onLine: d.read, onEOF: d.wait}, in},
		Writer: writeCloser{&lineCounter{w: out, onLine: d.wrote}, out},
	}
	return s.MCPServer().Run(ctx, t)
}

// drain counts the requests read and the responses written.
type drain struct {
	mu       sync.Mutex
	cond     *sync.Cond
	awaiting int
}

// kind tells a JSON-RPC request (an id and a method) and a response (an id
// and a result or error) from anything else. It reads the top-level keys in
// order and stops as soon as it knows, so that a large result is not
// scanned: the SDK writes "id" before "result".
func kind(line []byte) (request, response bool) {
	// The keys that decide come first in what the SDK writes: look at the
	// start of the line only, and at the whole line if that did not decide.
	if len(line) > kindPrefix {
		if request, response, ok := kindOf(line[:kindPrefix]); ok {
			return request, response
		}
	}
	request, response, _ = kindOf(line)
	return request, response
}

// kindPrefix is how much of a line kind looks at first.
const kindPrefix = 256

// kindOf is kind, and reports whether the text decided it (a cut line may
// not).
func kindOf(line []byte) (request, response, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false, false, false
	}
	hasID, hasMethod, hasResult := false, false, false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false, false, false
		}
		key, _ := t.(string)
		switch key {
		case "method":
			hasMethod = true
		case "result", "error":
			hasResult = true
		}
		if hasID && (hasMethod || hasResult) {
			return hasMethod, !hasMethod, true
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false, false, false
		}
		if key == "id" && string(v) != "null" {
			hasID = true
			if hasMethod || hasResult {
				return hasMethod, !hasMethod, true
			}
		}
	}
	_, err := dec.Token() // the closing brace: the whole object was read
	return false, false, err == nil
}

func (d *drain) read(line []byte) {
	if request, _ := kind(line); request {
		d.mu.Lock()
		d.awaiting++
		d.mu.Unlock()
	}
}

func (d *drain) wrote(line []byte) {
	if _, response := kind(line); response {
		d.mu.Lock()
		d.awaiting--
		d.cond.Broadcast()
		d.mu.Unlock()
	}
}

// wait returns when every request read has been answered, or after
// drainTimeout.
func (d *drain) wait() {
	timer := time.AfterFunc(drainTimeout, func() {
		d.mu.Lock()
		d.awaiting = 0
		d.cond.Broadcast()
		d.mu.Unlock()
	})
	defer timer.Stop()
	d.mu.Lock()
	for d.awaiting > 0 {
		d.cond.Wait()
	}
	d.mu.Unlock()
}

// lineCounter passes bytes through to r or w and calls onLine with each
// complete line; a reader calls onEOF before it returns io.EOF.
type lineCounter struct {
	r       io.Reader
	w       io.Writer
	partial []byte
	onLine  func([]byte)
	onEOF   func()
}

func (l *lineCounter) scan(p []byte) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return
		}
		l.onLine(l.partial[:i])
		l.partial = l.partial[i+1:]
	}
}

func (l *lineCounter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.scan(p[:n])
	if err == io.EOF {
		if len(l.partial) > 0 {
			l.onLine(l.partial)
			l.partial = nil
		}
		if n > 0 {
			return n, nil // the SDK reads these bytes first; EOF comes next
		}
		l.onEOF()
	}
	return n, err
}

func (l *lineCounter) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	l.scan(p[:n])
	return n, err
}

type readCloser struct {
	io.Reader
	io.Closer
}

type writeCloser struct {
	io.Writer
	io.Closer
}
