package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectHTTP returns an SDK client session to a stateless HTTP handler.
func connectHTTP(t testing.TB, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestMCPReplicas: two servers of the same catalog file, as two replicas
// behind a load balancer, answer every request identically over stateless
// HTTP, and a client may send its requests to either: there is no session.
func TestMCPReplicas(t *testing.T) {
	var sessions []*mcp.ClientSession
	// The endpoint is any path: one client at the root, one at /mcp, as
	// clients that append it reach it.
	for _, path := range []string{"/", "/mcp"} {
		hs := httptest.NewServer(newServer(t, syntheticPath).HTTPHandler())
		t.Cleanup(hs.Close)
		sessions = append(sessions, connectHTTP(t, hs.URL+path))
	}
	requests := []struct {
		tool string
		args map[string]any
	}{
		{ToolDiscover, map[string]any{"family": "all"}},
		{ToolDiscover, map[string]any{"family": "input", "name": "form.fill"}},
		{ToolValidate, map[string]any{"name": "page.read", "arguments": map[string]any{"tab_id": 3}}},
		{ToolValidate, map[string]any{"name": "page.read", "arguments": map[string]any{"tab_id": "x"}}},
		{ToolValidate, map[string]any{"name": "page.read", "arguments": map[string]any{}, "digest": "sha256:00"}},
	}
	lists := make([]*mcp.ListToolsResult, 2)
	for i, cs := range sessions {
		var err error
		if lists[i], err = cs.ListTools(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := json.Marshal(lists[0])
	b, _ := json.Marshal(lists[1])
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("tools/list differs between replicas (-first +second):\n%s", diff)
	}
	if sessions[0].InitializeResult().Instructions != sessions[1].InitializeResult().Instructions {
		t.Error("the replicas' instructions differ")
	}
	for _, r := range requests {
		first, e1 := call(t, sessions[0], r.tool, r.args)
		second, e2 := call(t, sessions[1], r.tool, r.args)
		if diff := cmp.Diff(first, second); diff != "" || e1 != e2 {
			t.Errorf("%s %v: the replicas differ (-first +second):\n%s", r.tool, r.args, diff)
		}
	}
}

// TestMCPHTTPRefusals: what the HTTP handler refuses before any JSON-RPC.
func TestMCPHTTPRefusals(t *testing.T) {
	hs := httptest.NewServer(newServer(t, syntheticPath).HTTPHandler())
	t.Cleanup(hs.Close)
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	tests := []struct {
		reason string
		header map[string]string
		body   string
		status int
	}{
		{"a plain request", nil, ping, http.StatusOK},
		{"DNS rebinding: a loopback address reached by another name", map[string]string{"Host": "evil.example"}, ping, http.StatusForbidden},
		{"a browser's request from another origin", map[string]string{"Origin": "http://evil.example"}, ping, http.StatusForbidden},
		{"a browser's cross-site request", map[string]string{"Sec-Fetch-Site": "cross-site"}, ping, http.StatusForbidden},
		{"a body over the limit", nil, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", MaxMessageBytes) + `"}}`, http.StatusRequestEntityTooLarge},
		{"a batch, which stdio refuses too", nil, `[` + ping + `,` + ping + `]`, http.StatusBadRequest},
		{"data after the message", nil, ping + ` {"jsonrpc":"2.0","id":2,"method":"ping"}`, http.StatusBadRequest},
		{"an id given twice", nil, `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, http.StatusBadRequest},
		{"not JSON", nil, `ping`, http.StatusBadRequest},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("POST", hs.URL, strings.NewReader(tt.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		for k, v := range tt.header {
			req.Header.Set(k, v)
		}
		if h, ok := tt.header["Host"]; ok {
			req.Host = h
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d (%.200s), want %d", tt.reason, resp.StatusCode, body, tt.status)
		}
	}
}

// post sends body to url as an MCP client would, and returns the status
// and the response body.
func post(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if h, ok := header["Host"]; ok {
		req.Host = h
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// testFilter is the HTTP handler's filter with a short body timeout, and
// the test server that serves it.
func testFilter(t *testing.T, timeout time.Duration) (*httpFilter, *httptest.Server) {
	t.Helper()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(t, syntheticPath).MCPServer() },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	f := &httpFilter{next: sdk, slots: make(chan struct{}, MaxHTTPInFlight), budget: semaphore.NewWeighted(MaxMessageBytes), timeout: timeout}
	hs := httptest.NewServer(f)
	t.Cleanup(hs.Close)
	return f, hs
}

// slowPost starts a POST whose body says it has n bytes and sends one:
// a client trickling its body. It returns the connection.
func slowPost(t *testing.T, hs *httptest.Server, n int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n{", hs.Listener.Addr(), n)
	return c
}

// waitFor polls cond until it holds: the test waits for an event, however
// slow the machine (go test's own timeout is the limit).
func waitFor(cond func() bool) {
	for !cond() {
		time.Sleep(5 * time.Millisecond)
	}
}

// TestMCPHTTPSlowBodies: clients that trickle their bodies hold at most
// MaxHTTPInFlight requests; one more is refused at once with 503; a body
// that does not arrive in time gets 408; and once the clients leave,
// nothing is held.
func TestMCPHTTPSlowBodies(t *testing.T) {
	f, hs := testFilter(t, time.Hour)
	var conns []net.Conn
	for range MaxHTTPInFlight {
		conns = append(conns, slowPost(t, hs, 100))
	}
	waitFor(func() bool { return len(f.slots) == MaxHTTPInFlight })
	status, body := post(t, hs.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "server busy") {
		t.Errorf("with %d slow bodies in flight: %d %s, want 503 server busy", MaxHTTPInFlight, status, body)
	}
	for _, c := range conns {
		c.Close()
	}
	waitFor(func() bool { return len(f.slots) == 0 })
	if !f.budget.TryAcquire(MaxMessageBytes) {
		t.Error("the clients left, and their bodies' budget is still held")
	}
	f.budget.Release(MaxMessageBytes)

	f, hs = testFilter(t, 50*time.Millisecond)
	c := slowPost(t, hs, 100)
	defer c.Close()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(got), "did not arrive within") {
		t.Errorf("a body that never arrives: %d %s, want 408", resp.StatusCode, got)
	}
}

// TestMCPHTTPBodyBudget: a request whose body would take the bodies in
// flight over MaxMessageBytes waits for room, and is refused with 503 if
// none comes in time; small requests go on once the large one ends.
func TestMCPHTTPBodyBudget(t *testing.T) {
	f, hs := testFilter(t, 50*time.Millisecond)
	if !f.budget.TryAcquire(MaxMessageBytes) { // a large body in flight
		t.Fatal("the budget is taken")
	}
	status, body := post(t, hs.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "bytes of bodies") {
		t.Errorf("with the bodies' budget taken: %d %s, want 503", status, body)
	}
	f.budget.Release(MaxMessageBytes)
	if status, body := post(t, hs.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil); status != http.StatusOK {
		t.Errorf("with the budget free: %d %s, want 200", status, body)
	}
}
