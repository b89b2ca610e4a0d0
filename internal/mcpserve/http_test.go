package mcpserve

import (
	"context"
	"encoding/json"
	"net/http/httptest"
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
