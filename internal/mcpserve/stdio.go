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

// message is what drain looks at in a JSON-RPC message: a request has an
// id and a method, a response an id and no method.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (d *drain) read(line []byte) {
	var m message
	if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && string(m.ID) != "null" && m.Method != "" {
		d.mu.Lock()
		d.awaiting++
		d.mu.Unlock()
	}
}

func (d *drain) wrote(line []byte) {
	var m message
	if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && m.Method == "" {
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
