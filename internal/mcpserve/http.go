package mcpserve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"
)

// The HTTP transport's bounds.
const (
	// MaxHTTPInFlight is how many requests the HTTP handler works on at
	// once; one more is refused at once with 503 and Retry-After.
	MaxHTTPInFlight = 16
	// BodyTimeout is how long a request's body may take to arrive, from
	// the moment the handler starts reading it.
	BodyTimeout = 30 * time.Second
)

// HTTPHandler returns a stateless streamable HTTP handler, served at every
// path: every POST is one JSON-RPC message, answered on its own, with no
// session, by the catalog served at that moment, as a JSON response. Any
// number of replicas serving the same file answer alike.
//
// Before the SDK sees a message, it passes the text layer stdio has
// (wire.go): a batch, data after the message, a key given twice in the
// message or its params, and what is not a JSON-RPC message are refused
// with 400 and a JSON-RPC error, and the client's id comes back byte for
// byte. A body over [MaxMessageBytes] (by its Content-Length, or as it is
// read) is refused with 413; one that does not arrive within
// [BodyTimeout], with 408. At most [MaxHTTPInFlight] requests are worked
// on at once (503 beyond), and the bodies of those in flight total at most
// [MaxMessageBytes] (a request waits for room, until its client leaves), so
// the server's memory rule for a call (10 times its message and 64 MiB)
// holds for all the calls in flight together. A request whose client left
// stops waiting, and its call is not made. A request that reached a
// loopback address with another Host, or a browser's request from another
// origin, is refused with 403.
func (s *Server) HTTPHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.MCPServer() },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: MaxMessageBytes})
	f := &httpFilter{next: h, slots: make(chan struct{}, MaxHTTPInFlight), budget: semaphore.NewWeighted(MaxMessageBytes), timeout: BodyTimeout}
	// A browser's request from another origin (its Origin or Sec-Fetch-Site
	// says so) is refused with 403, as the protocol asks of a server; the
	// SDK refuses a loopback request with another Host (DNS rebinding).
	// Clients that are not browsers send neither header.
	return http.NewCrossOriginProtection().Handler(f)
}

// httpFilter is the HTTP handler's text layer and bounds (see
// [Server.HTTPHandler]).
type httpFilter struct {
	next    http.Handler
	slots   chan struct{}
	budget  *semaphore.Weighted // bytes of the bodies in flight
	timeout time.Duration       // for a body to arrive
}

// ownID is the id the SDK is given for the request of a POST: one message
// a POST, so one id serves them all.
var ownID = []byte(`"c"`)

func (f *httpFilter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		f.next.ServeHTTP(w, r) // the SDK's answer: no stream, no session
		return
	}
	select {
	case f.slots <- struct{}{}:
		defer func() { <-f.slots }()
	default:
		w.Header().Set("Retry-After", "1")
		refuseHTTP(w, http.StatusServiceUnavailable, &refusal{code: -32000, message: fmt.Sprintf("server busy: %d requests in flight, the most this server works on at once: retry in a moment", MaxHTTPInFlight)})
		return
	}
	if r.ContentLength > MaxMessageBytes {
		refuseHTTP(w, http.StatusRequestEntityTooLarge, tooLarge("one request body", MaxMessageBytes))
		return
	}
	weight := r.ContentLength
	if weight < 0 {
		weight = MaxMessageBytes // a body of unknown length may be the largest
	}
	ctx, cancel := context.WithTimeout(r.Context(), f.timeout)
	err := f.budget.Acquire(ctx, weight)
	cancel()
	if err != nil {
		if r.Context().Err() == nil {
			w.Header().Set("Retry-After", "1")
			refuseHTTP(w, http.StatusServiceUnavailable, &refusal{code: -32000, message: fmt.Sprintf("server busy: the requests in flight hold the %d bytes of bodies this server works on at once: retry in a moment", MaxMessageBytes)})
		}
		return // the client left: nothing to answer
	}
	defer f.budget.Release(weight)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(f.timeout)) // not every ResponseWriter can: then the server's own timeouts apply
	body, tooLong, err := readAll(r.Body, MaxMessageBytes)
	if tooLong || err != nil {
		// The rest of the body is not read: the connection ends with
		// the answer (else the server would read on, to reuse it).
		w.Header().Set("Connection", "close")
	} else {
		rc.SetReadDeadline(time.Time{})
	}
	switch {
	case tooLong:
		refuseHTTP(w, http.StatusRequestEntityTooLarge, tooLarge("one request body", MaxMessageBytes))
		return
	case errors.Is(err, os.ErrDeadlineExceeded):
		refuseHTTP(w, http.StatusRequestTimeout, &refusal{code: -32600, message: fmt.Sprintf("invalid request: the body did not arrive within %v", f.timeout)})
		return
	case err != nil:
		refuseHTTP(w, http.StatusBadRequest, &refusal{code: -32700, message: "parse error: reading the body: " + err.Error()})
		return
	}
	m, ref := check(body)
	if ref != nil {
		refuseHTTP(w, http.StatusBadRequest, ref)
		return
	}
	if r.Context().Err() != nil {
		return // the client left: the call is not made
	}
	if m.isRequest {
		body = m.withID(ownID)
	}
	r2 := r.Clone(r.Context())
	r2.Body, r2.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	f.next.ServeHTTP(rec, r2)
	out := rec.body.Bytes()
	if start, end, ok := responseID(out); ok && m.isRequest && bytes.Equal(out[start:end], ownID) {
		out = swapID(out, start, end, m.id)
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(rec.status)
	w.Write(out)
}

// refuseHTTP answers a request the SDK is not given.
func refuseHTTP(w http.ResponseWriter, status int, r *refusal) {
	body := r.encode()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// recorder keeps what the SDK answers a POST, so that its id can be put
// back before it is sent.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
