package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/mcpserve"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/testlib/signtest"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const syntheticCatalog = "../../conformance/synthetic-catalog.json"

// syncBuffer is a bytes.Buffer safe for a child's writes and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// waitForStderr waits until the child's stderr matches re, and returns the match.
func waitForStderr(t *testing.T, stderr *syncBuffer, re string) []string {
	t.Helper()
	r := regexp.MustCompile(re)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := r.FindStringSubmatch(stderr.String()); m != nil {
			return m
		}
	}
	t.Fatalf("stderr never matched %q:\n%s", re, stderr.String())
	return nil
}

// startMCP runs the built binary's mcp command under the SDK's
// CommandTransport and returns the client session and the child's stderr.
func startMCP(t *testing.T, bin string, args ...string) (*mcp.ClientSession, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd, stderr
}

func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	return string(b), res.IsError
}

// TestMCPBinary runs the built binary's mcp command (one build for all).
func TestMCPBinary(t *testing.T) {
	bin := buildCatalogkit(t)
	t.Run("stdio", func(t *testing.T) { testMCPBinaryStdio(t, bin) })
	t.Run("raw-lines", func(t *testing.T) { testMCPBinaryRawLines(t, bin) })
	t.Run("signed-reload", func(t *testing.T) { testMCPSignedReload(t, bin) })
	t.Run("http", func(t *testing.T) { testMCPBinaryHTTP(t, bin) })
	t.Run("staged-rollout", func(t *testing.T) { testMCPStagedRollout(t, bin) })
}

// testMCPStagedRollout runs docs/mcp.md's rollout of a new signed catalog:
// the new catalog is staged beside the served one, signed under the name it
// will be served as (sign --as), and renamed into place with its signature.
// Signed under its staged name instead, it is refused for good
// (WRONG_FILE), and the old catalog stays served.
func testMCPStagedRollout(t *testing.T, bin string) {
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("catalogkit %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	key, pub := filepath.Join(dir, "k.key"), filepath.Join(dir, "k.pub")
	run("keygen", "--unencrypted", "--out", filepath.Join(dir, "k"))
	orig, err := os.ReadFile(syntheticCatalog)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	run("sign", "--key", key, path)
	cs, _, stderr := startMCP(t, bin, "--catalog", path, "--key", pub)
	waitForStderr(t, stderr, `serving .* minisign key `)
	next := path + ".next"
	rollout := func(data []byte, signArgs ...string) {
		t.Helper()
		if err := os.WriteFile(next, data, 0o644); err != nil {
			t.Fatal(err)
		}
		run(append(append([]string{"sign", "--key", key}, signArgs...), next)...)
		if err := os.Rename(next+sign.SignatureSuffix, path+sign.SignatureSuffix); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(next, path); err != nil {
			t.Fatal(err)
		}
	}
	wrong := bytes.Replace(orig, []byte(`"max_length": 16}`), []byte(`"max_length": 17}`), 1)
	rollout(wrong) // signed as catalog.json.next
	waitForStderr(t, stderr, `reload of .* refused, still serving sha256 [0-9a-f]+: WRONG_FILE`)

	right := bytes.Replace(orig, []byte(`"max_length": 16}`), []byte(`"max_length": 18}`), 1)
	rollout(right, "--as", "catalog.json")
	sum := sha256.Sum256(right)
	waitForStderr(t, stderr, `reloaded .*: now serving sha256 `+hex.EncodeToString(sum[:]))
	if now, _ := callTool(t, cs, mcpserve.ToolDiscover, map[string]any{"family": "reading", "name": "page.read"}); !strings.Contains(now, `"maxLength":18`) {
		t.Errorf("discover after the rollout: %s, want the new definition", now)
	}
}

// testMCPBinaryStdio: the built binary, driven by the SDK's own client over
// stdio, lists the two tools and answers as the package does in process.
func testMCPBinaryStdio(t *testing.T, bin string) {
	cs, _, _ := startMCP(t, bin, "--catalog", syntheticCatalog)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 || res.Tools[0].Name != mcpserve.ToolDiscover || res.Tools[1].Name != mcpserve.ToolValidate {
		t.Fatalf("tools/list %+v, want discover then validate_arguments", res.Tools)
	}
	srv, err := mcpserve.New(syntheticCatalog, nil, mcpserve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.MCPServer().Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	local, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	for _, r := range []struct {
		tool string
		args map[string]any
	}{
		{mcpserve.ToolDiscover, map[string]any{"family": "reading"}},
		{mcpserve.ToolDiscover, map[string]any{"family": "storage", "name": "db.drop"}},
		{mcpserve.ToolValidate, map[string]any{"name": "form.fill", "arguments": map[string]any{"selector": "#q", "text": "hi"}}},
		{mcpserve.ToolValidate, map[string]any{"name": "form.fill", "arguments": map[string]any{"selector": "#q"}}},
	} {
		got, gotErr := callTool(t, cs, r.tool, r.args)
		want, wantErr := callTool(t, local, r.tool, r.args)
		if diff := cmp.Diff(want, got); diff != "" || gotErr != wantErr {
			t.Errorf("%s %v: the binary differs from the package in process (-want +got):\n%s", r.tool, r.args, diff)
		}
	}
}

// testMCPBinaryRawLines sends testdata/mcp-requests.jsonl, a client's own
// bytes (1.0 for an integer and a repeated key, which an SDK client would
// re-serialize away), to the binary's stdin, and checks each answer by id.
func testMCPBinaryRawLines(t *testing.T, bin string) {
	in, err := os.Open(filepath.Join("testdata", "mcp-requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(bin, "mcp", "--catalog", syntheticCatalog)
	cmd.Stdin = in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcp: %v", err)
	}
	type answer struct {
		IsError bool
		Code    string
	}
	got := map[int]answer{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var resp struct {
			ID     int
			Result struct {
				IsError           bool
				StructuredContent struct{ Code string }
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &resp); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		got[resp.ID] = answer{resp.Result.IsError, resp.Result.StructuredContent.Code}
	}
	want := map[int]answer{
		1: {},                               // initialize
		2: {},                               // discover page.read
		3: {},                               // a valid shape with the current digest
		4: {true, "INVALID_ARGUMENT_VALUE"}, // "tab_id":1.0
		5: {true, "INVALID_JSON"},           // "tab_id" twice
		6: {true, "STALE_DEFINITION"},       // a digest that is not the current one
		7: {true, "UNKNOWN_FAMILY"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers by id (-want +got):\n%s", diff)
	}
}

// testMCPSignedReload: a signed catalog served with --key; on SIGHUP a
// changed catalog whose signature is stale is refused with a line on stderr
// and the old one is still served; once signed, the new one is served and
// the old digest of the changed tool is STALE_DEFINITION. Then a change on
// disk is picked up with no signal.
func testMCPSignedReload(t *testing.T, bin string) {
	kp, key, _ := signtest.Key(t, "test")
	dir := t.TempDir()
	pub := filepath.Join(dir, "test.pub")
	if err := os.WriteFile(pub, kp.Public, 0o644); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(syntheticCatalog)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "catalog.json")
	put := func(data []byte, signIt bool) {
		t.Helper()
		if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			t.Fatal(err)
		}
		if signIt {
			sig, err := sign.SignFile(key, "catalog.json", data)
			if err != nil {
				t.Fatal(err)
			}
			if err := sign.WriteSignature(path+sign.SignatureSuffix, sig); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(orig, true)
	cs, cmd, stderr := startMCP(t, bin, "--catalog", path, "--key", pub)
	waitForStderr(t, stderr, `serving .* minisign key `+kp.ID)
	discover := func() (string, bool) {
		return callTool(t, cs, mcpserve.ToolDiscover, map[string]any{"family": "reading", "name": "page.read"})
	}
	before, _ := discover()
	var d struct{ Digests map[string]string }
	json.Unmarshal([]byte(before), &d)
	oldDigest := d.Digests["page.read"]

	changed := bytes.Replace(orig, []byte(`"format": {"type": "string", "required": false, "max_length": 16}`), []byte(`"format": {"type": "string", "required": false, "max_length": 32}`), 1)
	if bytes.Equal(changed, orig) {
		t.Fatal("the edit did not apply")
	}
	put(changed, false) // the old signature stays: not over these bytes
	cmd.Process.Signal(syscall.SIGHUP)
	waitForStderr(t, stderr, `reload of .* refused, still serving sha256 [0-9a-f]+: BAD_SIGNATURE`)
	if now, isError := discover(); now != before || isError {
		t.Errorf("after a refused reload discover says\n%s\nwant the old catalog's\n%s", now, before)
	}

	put(changed, true) // signing changes the signature file: picked up with no signal
	waitForStderr(t, stderr, `reloaded .*: now serving sha256`)
	if text, isError := callTool(t, cs, mcpserve.ToolValidate, map[string]any{"name": "page.read", "arguments": map[string]any{"tab_id": 1}, "digest": oldDigest}); !isError || !strings.Contains(text, "STALE_DEFINITION") {
		t.Errorf("the old digest after the reload: %s, want STALE_DEFINITION", text)
	}
	if now, _ := discover(); !strings.Contains(now, `"maxLength":32`) {
		t.Errorf("discover after the reload: %s, want the new definition", now)
	}
}

// testMCPBinaryHTTP: --http :0 listens on 127.0.0.1 only, and the SDK's
// streamable HTTP client gets the same answers as over stdio.
func testMCPBinaryHTTP(t *testing.T, bin string) {
	cmd := exec.Command(bin, "mcp", "--catalog", syntheticCatalog, "--http", ":0")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := waitForStderr(t, stderr, `on (http://[^ ]+/) `)[1]
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("--http :0 serves %s, want 127.0.0.1 (loopback) only", url)
	}
	hc, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	sc, _, _ := startMCP(t, bin, "--catalog", syntheticCatalog)
	args := map[string]any{"family": "all"}
	overHTTP, _ := callTool(t, hc, mcpserve.ToolDiscover, args)
	overStdio, _ := callTool(t, sc, mcpserve.ToolDiscover, args)
	if diff := cmp.Diff(overStdio, overHTTP); diff != "" {
		t.Errorf("HTTP and stdio differ (-stdio +http):\n%s", diff)
	}
}

// TestSignatureHintNeverSaysSign: whatever made a signature fail, the hint
// mcp gives never tells whoever serves the catalog to sign it (a copy that
// fails to verify may be tampered with, and signing it would bless it):
// it says to get the catalog again, or to give the publisher's key.
func TestSignatureHintNeverSaysSign(t *testing.T) {
	for _, code := range []sign.Code{sign.CodeUnknownKey, sign.CodeBadSignature, sign.CodeCommentForged, sign.CodeCommentFormat,
		sign.CodeWrongFile, sign.CodeSigFormat, sign.CodeSigAlgorithm, sign.CodeVersionMismatch,
		sign.CodeNoKeys, sign.CodeKeyFormat, sign.CodeKeyAlgorithm, sign.CodeNotPublicKey} {
		h := signatureHint(code)
		if strings.HasPrefix(h, "sign") || strings.Contains(h, "sign the catalog") || !strings.Contains(h, "publish") {
			t.Errorf("%s: hint %q: want one that sends the reader to the publisher, never to sign what failed", code, h)
		}
	}
}
