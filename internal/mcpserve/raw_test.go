package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// rawSession speaks newline-delimited JSON-RPC to a server over pipes, as
// stdio does: the lines are the client's own bytes, which an SDK client
// would re-serialize (1.0 becomes 1, a repeated key disappears).
type rawSession struct {
	in  *io.PipeWriter
	out *bufio.Scanner
}

func rawStdio(t *testing.T, s *Server) *rawSession {
	t.Helper()
	r := rawPipes(t, s)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

// rawPipes is rawStdio before the initialize request.
func rawPipes(t *testing.T, s *Server) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.ServeStdio(ctx, inR, outW); outW.Close(); close(done) }()
	t.Cleanup(func() { inW.Close(); cancel(); <-done })
	r := &rawSession{in: inW, out: bufio.NewScanner(outR)}
	r.out.Buffer(nil, 1<<20)
	return r
}

func (r *rawSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// roundTrip sends a request and returns its response line.
func (r *rawSession) roundTrip(t *testing.T, line string) string {
	t.Helper()
	r.send(t, line)
	if !r.out.Scan() {
		t.Fatalf("no response to %s: %v", line, r.out.Err())
	}
	return r.out.Text()
}

// RawCases are tools/call requests whose bytes only a raw client can send,
// with the code the strict text layer gives them ("" for a valid shape).
var RawCases = []struct {
	Name, Reason, Arguments, Code, Path string
}{
	{Name: "integer-1.0", Reason: "1.0 is not an integer literal (an SDK client would send 1)", Arguments: `{"name":"page.read","arguments":{"tab_id":1.0}}`, Code: "INVALID_ARGUMENT_VALUE", Path: "arguments.tab_id"},
	{Name: "integer-1e0", Reason: "nor is an exponent", Arguments: `{"name":"page.read","arguments":{"tab_id":1e0}}`, Code: "INVALID_ARGUMENT_VALUE", Path: "arguments.tab_id"},
	{Name: "duplicate-argument", Reason: "a repeated key inside the arguments, which a JSON decoder would silently resolve", Arguments: `{"name":"page.read","arguments":{"tab_id":3,"tab_id":4}}`, Code: "INVALID_JSON", Path: "$.arguments"},
	{Name: "duplicate-parameter", Reason: "a repeated parameter of the call itself", Arguments: `{"name":"page.read","name":"tab.select","arguments":{"tab_id":3}}`, Code: "INVALID_JSON", Path: "$"},
	{Name: "big-integer", Reason: "an integer of any magnitude is kept exactly", Arguments: `{"name":"page.read","arguments":{"tab_id":123456789012345678901234567890}}`},
}

func TestMCPRawText(t *testing.T) {
	r := rawStdio(t, newServer(t, syntheticPath))
	for i, tt := range RawCases {
		t.Run(tt.Name, func(t *testing.T) {
			line := r.roundTrip(t, `{"jsonrpc":"2.0","id":`+itoa(i+1)+`,"method":"tools/call","params":{"name":"validate_arguments","arguments":`+tt.Arguments+`}}`)
			var resp struct {
				Error  json.RawMessage
				Result struct {
					IsError           bool
					StructuredContent json.RawMessage
				}
			}
			if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.Error != nil {
				t.Fatalf("%s: %v: %s, want a tool result", tt.Reason, err, line)
			}
			var e struct{ Code, Path string }
			json.Unmarshal(resp.Result.StructuredContent, &e)
			if resp.Result.IsError != (tt.Code != "") || e.Code != tt.Code || e.Path != tt.Path {
				t.Errorf("%s: isError %v, %s; want code %q at %q", tt.Reason, resp.Result.IsError, resp.Result.StructuredContent, tt.Code, tt.Path)
			}
			if tt.Code == "" && !strings.Contains(string(resp.Result.StructuredContent), `"tab_id":123456789012345678901234567890`) {
				t.Errorf("%s: %s, want the literal kept exactly", tt.Reason, resp.Result.StructuredContent)
			}
		})
	}
}

func TestMCPMessageKind(t *testing.T) {
	tests := []struct {
		line, reason      string
		request, response bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "a request", true, false},
		{`{"method":"tools/list","id":"a","jsonrpc":"2.0"}`, "a request, keys in another order", true, false},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "a notification has no id", false, false},
		{`{"jsonrpc":"2.0","id":null,"method":"x"}`, "a null id is no request", false, false},
		{`{"jsonrpc":"2.0","id":2,"result":{"big":[1,2,3]}}`, "a response", false, true},
		{`{"result":{},"jsonrpc":"2.0","id":2}`, "a response, result first", false, true},
		{`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}`, "an error response", false, true},
		{`not json`, "garbage", false, false},
		{`{"result":{"pad":"` + strings.Repeat("x", 2*kindPrefix) + `"},"jsonrpc":"2.0","id":2}`, "a long response whose id comes after the first bytes looked at", false, true},
		{`{"jsonrpc":"2.0","id":2,"result":{"pad":"` + strings.Repeat("x", 2*kindPrefix) + `"}}`, "a long response, decided by its start", false, true},
	}
	for _, tt := range tests {
		req, resp, _ := kind([]byte(tt.line))
		if req != tt.request || resp != tt.response {
			t.Errorf("%s: kind(%s) = %v, %v; want %v, %v", tt.reason, tt.line, req, resp, tt.request, tt.response)
		}
	}
}

// TestMCPStdioBadLines: a line the SDK would end the connection on is
// answered with a JSON-RPC error and the server goes on answering.
func TestMCPStdioBadLines(t *testing.T) {
	r := rawStdio(t, newServer(t, syntheticPath))
	tests := []struct {
		line, reason string
		code         int
	}{
		{`garbage`, "not JSON", -32700},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"`, "a JSON text cut short", -32700},
		{`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, "a batch", -32600},
		{`[]`, "an empty batch", -32600},
		{`{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, "an id that is an object", -32600},
		{`{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, "another version", -32600},
		{`"x"`, "not an object", -32600},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":"` + strings.Repeat("x", MaxMessageBytes) + `"}`, "a line over the limit", -32600},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`, "valid JSON nested deeper than the SDK's decoder reads", -32600},
	}
	for i, tt := range tests {
		line := r.roundTrip(t, tt.line)
		var resp struct {
			ID    json.RawMessage
			Error struct{ Code int }
		}
		if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.Error.Code != tt.code || string(resp.ID) != "null" {
			t.Errorf("%s: %.200s, want a JSON-RPC error %d with id null", tt.reason, line, tt.code)
		}
		if got := r.roundTrip(t, `{"jsonrpc":"2.0","id":`+itoa(100+i)+`,"method":"ping"}`); got != `{"jsonrpc":"2.0","id":`+itoa(100+i)+`,"result":{}}` {
			t.Errorf("after %s: ping answered %.200s, want the server still serving", tt.reason, got)
		}
	}
}

// TestMCPStdioReusedID: a request whose id is that of a request not yet
// answered (which the SDK would leave without any answer) gets an error
// with id null, so every request line gets exactly one answer and the end
// of stdin does not wait for answers that never come. Whether a repeat
// arrives before the first is answered is up to the scheduler: each of
// them is answered one way or the other.
func TestMCPStdioReusedID(t *testing.T) {
	r := rawStdio(t, newServer(t, syntheticPath))
	const n = 200
	r.send(t, strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":7,"method":"ping"}`+"\n", n), "\n"))
	r.in.Close()
	results, refused := 0, 0
	for r.out.Scan() {
		switch line := r.out.Text(); {
		case line == `{"jsonrpc":"2.0","id":7,"result":{}}`:
			results++
		case strings.HasPrefix(line, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id 7 is that of a request not yet answered`):
			refused++
		default:
			t.Errorf("answer %q, want the ping's result or the reused id refused", line)
		}
	}
	if results+refused != n || results == 0 {
		t.Errorf("%d results and %d refusals for %d pings with one id, want one answer each and at least one result", results, refused, n)
	}
	t.Logf("%d answered, %d refused as reusing an id in flight", results, refused)
}

func TestDrainReusedID(t *testing.T) {
	d := &drain{inFlight: map[jsonrpc.ID]bool{}}
	seven, _ := jsonrpc.MakeID(float64(7))
	sevenText, _ := jsonrpc.MakeID("7")
	if !d.read(seven) || !d.read(sevenText) {
		t.Fatal("a first request with an id was refused")
	}
	if d.read(seven) {
		t.Error("id 7 was taken again while in flight")
	}
	d.answering(seven)
	if !d.read(seven) {
		t.Error("id 7 was refused once its answer was being written")
	}
}

// TestMCPStdioBeforeInitialize: a request before initialize gets a JSON-RPC
// error with its own id and a defined code (the SDK's own has code 0); a
// ping is answered; after initialize the session serves as usual.
func TestMCPStdioBeforeInitialize(t *testing.T) {
	r := rawPipes(t, newServer(t, syntheticPath))
	line := r.roundTrip(t, `{"jsonrpc":"2.0","id":"a","method":"tools/list"}`)
	if !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"invalid request: tools/list before initialize`) {
		t.Errorf("tools/list before initialize: %s, want -32600 with id \"a\"", line)
	}
	if got := r.roundTrip(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("ping before initialize: %s, want its result", got)
	}
	r.roundTrip(t, `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := r.roundTrip(t, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`); !strings.Contains(got, `"name":"discover"`) {
		t.Errorf("tools/list after initialize: %.200s, want the tools", got)
	}
}

// TestMCPErrorClipped: a refusal quoting a huge client value carries at
// most maxErrorText bytes of it, saying how long it was (catalog itself
// now cuts the labels it quotes; the server's own cut is the backstop).
func TestMCPErrorClipped(t *testing.T) {
	r := rawStdio(t, newServer(t, syntheticPath))
	line := r.roundTrip(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"discover","arguments":{"family":"`+strings.Repeat("a", 1<<20)+`"}}}`)
	if len(line) > 8*maxErrorText || !strings.Contains(line, "INVALID_LABEL") || !strings.Contains(line, "1048576 bytes") {
		t.Errorf("%d bytes: %.300s; want INVALID_LABEL with its detail cut", len(line), line)
	}
}

// TestErrorResultClips checks mcpserve's own cut, on a path and a detail
// that nothing cut before: each is at most maxErrorText bytes of whole
// characters, then how long it was.
func TestErrorResultClips(t *testing.T) {
	long := strings.Repeat("é", 3000) // 6000 bytes, a cut inside a character if counted in bytes
	res := errorResult(&Error{Code: CodeStaleDefinition, Path: long, Detail: long})
	var got struct{ Code, Path, Detail string }
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"path": got.Path, "detail": got.Detail} {
		body, tail, ok := strings.Cut(s, "... (cut: ")
		if !ok || tail != "6000 bytes in all)" || len(body) > maxErrorText || len(body) < maxErrorText-1 || !utf8.ValidString(body) {
			t.Errorf("%s: %d bytes, tail %q; want at most %d bytes of whole characters, then the whole length", name, len(body), tail, maxErrorText)
		}
	}
	if got.Code != string(CodeStaleDefinition) {
		t.Errorf("code %q, want %s", got.Code, CodeStaleDefinition)
	}
	if short := errorResult(&Error{Code: CodeStaleDefinition, Path: "p", Detail: "d"}); !strings.Contains(string(short.StructuredContent.(json.RawMessage)), `"path":"p","detail":"d"`) {
		t.Errorf("a short error was changed: %s", short.StructuredContent)
	}
}
