package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestMCPCheck: what the text layer of both transports makes of a message.
func TestMCPCheck(t *testing.T) {
	tests := []struct {
		line, reason      string
		request, response bool
		id                string
		code              int // a refusal
	}{
		{line: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, reason: "a request", request: true, id: "1"},
		{line: `{"method":"tools/list","id":"a","jsonrpc":"2.0"}`, reason: "a request, keys in another order", request: true, id: `"a"`},
		{line: `{"jsonrpc":"2.0","id":1e308,"method":"ping"}`, reason: "an id kept as written", request: true, id: "1e308"},
		{line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, reason: "a notification has no id"},
		{line: `{"jsonrpc":"2.0","id":null,"method":"x"}`, reason: "a null id is no request"},
		{line: `{"jsonrpc":"2.0","id":2,"result":{"big":[1,2,3]}}`, reason: "a response", response: true, id: "2"},
		{line: `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}`, reason: "an error response", response: true, id: "3"},
		{line: `not json`, reason: "garbage", code: -32700},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, reason: "data after the message", code: -32700},
		{line: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, reason: "a batch", code: -32600},
		{line: `{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}`, reason: "an id given twice", code: -32600},
		{line: `{"jsonrpc":"2.0","id":7,"method":"ping","method":"tools/list"}`, reason: "a method given twice", code: -32600},
		{line: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"discover","name":"x"}}`, reason: "a parameter given twice", code: -32600},
		{line: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"discover","arguments":{"family":"a","family":"b"}}}`, reason: "a repeated key in the arguments is the tool's to refuse", request: true, id: "7"},
	}
	for _, tt := range tests {
		m, r := check([]byte(tt.line))
		switch {
		case tt.code != 0 && (r == nil || r.code != tt.code):
			t.Errorf("%s: check(%s) = %+v, %+v; want refused with %d", tt.reason, tt.line, m, r, tt.code)
		case tt.code != 0:
		case r != nil:
			t.Errorf("%s: check(%s) refused: %d %s", tt.reason, tt.line, r.code, r.message)
		case m.isRequest != tt.request || m.isResponse != tt.response || string(m.id) != tt.id:
			t.Errorf("%s: check(%s) = request %v, response %v, id %s; want %v, %v, %s", tt.reason, tt.line, m.isRequest, m.isResponse, m.id, tt.request, tt.response, tt.id)
		}
	}
}

// TestResponseID: where the id of a response the SDK wrote is, however
// long the response.
func TestResponseID(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":"c1","result":{"pad":"` + strings.Repeat("x", 1<<16) + `"}}`,
		`{"result":{"pad":"` + strings.Repeat("x", 1<<10) + `"},"jsonrpc":"2.0","id":"c1"}`,
	} {
		start, end, ok := responseID([]byte(line))
		if !ok || line[start:end] != `"c1"` {
			t.Errorf("responseID(%.60s...) = %q, %v; want the id", line, line[start:end], ok)
		}
		if got := string(swapID([]byte(line), start, end, []byte("1e308"))); got != strings.Replace(line, `"c1"`, "1e308", 1) {
			t.Errorf("swapID: %.80s", got)
		}
	}
}

// TestMCPIDsAsWritten: every id comes back byte for byte as the client
// wrote it, over both transports, however the SDK would have read it.
func TestMCPIDsAsWritten(t *testing.T) {
	ids := []string{"1e308", "1.5", "9007199254740993", "-0", "1E2", `"\u0061"`, `"a"`, "123456789012345678901234567890"}
	r := rawStdio(t, newServer(t, syntheticPath))
	for _, id := range ids {
		if got, want := r.roundTrip(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`), `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`; got != want {
			t.Errorf("stdio: %s, want %s", got, want)
		}
	}
	hs := httptest.NewServer(newServer(t, syntheticPath).HTTPHandler())
	t.Cleanup(hs.Close)
	for _, id := range ids {
		status, body := post(t, hs.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`, nil)
		if want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}`; status != http.StatusOK || strings.TrimSpace(body) != want {
			t.Errorf("HTTP: %d %s, want %s", status, body, want)
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
	d := newDrain()
	seven, ok1 := d.read([]byte("7"))
	sevenText, ok2 := d.read([]byte(`"7"`))
	if !ok1 || !ok2 || string(seven) == string(sevenText) {
		t.Fatalf("a first request with an id was refused, or two got one id of the server's: %s %s", seven, sevenText)
	}
	if _, ok := d.read([]byte("7")); ok {
		t.Error("id 7 was taken again while in flight")
	}
	if _, ok := d.read([]byte(`"\u0037"`)); ok {
		t.Error(`id "\u0037" (the string "7") was taken while "7" is in flight`)
	}
	if raw := d.answering(seven); string(raw) != "7" {
		t.Errorf("answering %s gave the client's id %q, want 7", seven, raw)
	}
	if _, ok := d.read([]byte("7")); !ok {
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
