package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
	for range 2 {
		hs := httptest.NewServer(newServer(t, syntheticPath).HTTPHandler())
		t.Cleanup(hs.Close)
		sessions = append(sessions, connectHTTP(t, hs.URL))
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
