package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The names of the two tools, in the order tools/list gives them.
const (
	ToolDiscover = "discover"
	ToolValidate = "validate_arguments"
)

// Options configure a [Server].
type Options struct {
	// Version is the server's version in its initialize result.
	Version string
	// Log receives one line per reload, accepted or refused. Nil discards.
	Log io.Writer
}

// Server serves one catalog file over MCP. The catalog it serves is
// replaced whole by [Server.Reload]; a request sees one catalog from start to
// end. A Server is safe for concurrent use.
type Server struct {
	path string
	keys []sign.PublicKey
	opts Options

	cur      atomic.Pointer[served]
	reloadMu sync.Mutex // one reload at a time
}

// served is a snapshot and the MCP server whose instructions describe it.
type served struct {
	snap *Snapshot
	mcp  *mcp.Server
}

// New loads the catalog at path with [Load] (its signature checked against
// keys when keys are given) and returns a server for it, or Load's error.
func New(path string, keys []sign.PublicKey, opts Options) (*Server, error) {
	snap, err := Load(path, keys)
	if err != nil {
		return nil, err
	}
	s := &Server{path: path, keys: keys, opts: opts}
	s.swap(snap)
	return s, nil
}

// NewForSnapshot returns a server for a snapshot that has no file (tests,
// benchmarks, a Go host that reads the catalog itself); Reload refuses.
func NewForSnapshot(snap *Snapshot, opts Options) *Server {
	s := &Server{opts: opts}
	s.swap(snap)
	return s
}

// Snapshot returns the catalog served now.
func (s *Server) Snapshot() *Snapshot { return s.cur.Load().snap }

// MCPServer returns the SDK server for the catalog served now: its tools
// always answer from the current catalog; its instructions describe the
// catalog of the moment it was made.
func (s *Server) MCPServer() *mcp.Server { return s.cur.Load().mcp }

// Reload reads, verifies and compiles the catalog file again. A good catalog
// replaces the served one at once (requests already running finish with the
// old one); on any error the old catalog stays and Reload returns the error.
// Either way one line goes to Options.Log.
func (s *Server) Reload() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	old := s.Snapshot()
	if s.path == "" {
		return fmt.Errorf("this server has no catalog file to reload")
	}
	snap, err := Load(s.path, s.keys)
	if err != nil {
		s.logf("catalogkit: mcp: reload of %s refused, still serving sha256 %s: %v\n", s.path, old.sha256, err)
		return err
	}
	s.swap(snap)
	if snap.sha256 == old.sha256 {
		s.logf("catalogkit: mcp: reloaded %s: unchanged (sha256 %s)\n", s.path, snap.sha256)
	} else {
		s.logf("catalogkit: mcp: reloaded %s: now serving sha256 %s, %s (was %s)\n", s.path, snap.sha256, snap.signer, old.sha256)
	}
	return nil
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, format, args...)
	}
}

// swap makes snap the served catalog, with a new SDK server for its
// instructions.
func (s *Server) swap(snap *Snapshot) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "catalogkit", Version: s.opts.Version},
		&mcp.ServerOptions{
			Instructions: Instructions(snap),
			// The SDK's default logging, and tools whose list never changes:
			// a reload changes what discover answers, never tools/list.
			// Logging is deprecated as of 2026-07-28 but still asked for
			// by the older revisions this server speaks.
			//lint:ignore SA1019 kept for clients of the older revisions
			Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{ListChanged: false}},
		})
	srv.AddTool(discoverTool(), s.discover)
	srv.AddTool(validateTool(), s.validate)
	s.cur.Store(&served{snap: snap, mcp: srv})
}

// Instructions returns the server's instructions for a catalog: what the
// two tools are for, and every family with its number of enabled tools.
func Instructions(snap *Snapshot) string {
	var fams []string
	for _, f := range snap.families {
		if f.Description != "" {
			fams = append(fams, fmt.Sprintf("%s (%d enabled: %s)", f.Name, f.Enabled, f.Description))
			continue
		}
		fams = append(fams, fmt.Sprintf("%s (%d enabled)", f.Name, f.Enabled))
	}
	return "This server holds a catalog of tool definitions; it never runs a tool. " +
		"Families: " + strings.Join(fams, ", ") + ". " +
		"Call discover with a family (or \"all\") and names_only true to list its enabled tools' names and descriptions, " +
		"then with family and an exact name for one tool's input schema, digest and origin (the MCP server tool it stands for). Before calling a catalog tool through your host, " +
		"call validate_arguments with its name, the arguments and the digest you discovered, " +
		"and call the real tool only if shape_valid is true. On STALE_DEFINITION the tool changed: discover it again. " +
		"Catalog sha256 " + snap.sha256 + ", signer: " + snap.signer + "."
}

func annotations(title string) *mcp.ToolAnnotations {
	closed := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// errorSchema is the structuredContent of every error result.
const errorSchema = `{"type":"object","properties":{"code":{"type":"string"},"path":{"type":"string"},"detail":{"type":"string"}},"required":["code","path","detail"],"additionalProperties":false}`

const catalogSchema = `{"type":"object","properties":{"sha256":{"type":"string"},"signer":{"type":"string"}},"required":["sha256","signer"],"additionalProperties":false}`

func discoverTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  ToolDiscover,
		Title: "Discover catalog tools",
		Description: "List the enabled tools of a catalog family (\"all\" for every family), or one tool by exact name: " +
			"each tool's name, family, effect (read or change), description, inputSchema and origin (when the catalog gives it), and its digest; " +
			"with names_only, every member but inputSchema and origin, to choose a tool before asking for its schema. Nothing is executed.",
		Annotations: annotations("Discover catalog tools"),
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"family":{"type":"string","description":"a family named in the server's instructions, or \"all\""},` +
			`"name":{"type":"string","description":"an exact tool name: return only that tool"},` +
			`"names_only":{"type":"boolean","description":"true: leave out each tool's inputSchema and origin (names, titles, descriptions and digests only)"}},` +
			`"required":["family"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","anyOf":[{"type":"object","properties":{` +
			`"descriptions":{"type":"array","items":{"type":"object"}},` +
			`"digests":{"type":"object","additionalProperties":{"type":"string"}},` +
			`"catalog":` + catalogSchema + `},"required":["descriptions","digests","catalog"],"additionalProperties":false},` +
			errorSchema + `]}`),
	}
}

func validateTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  ToolValidate,
		Title: "Validate a call's arguments",
		Description: "Check the arguments of a call to a catalog tool against its inputSchema, from the JSON exactly as sent " +
			"(1.0 is not an integer; a repeated key is refused). A valid shape says shape_valid: true and nothing more: " +
			"authorized and executed are always false. Give the digest from discover to be told (STALE_DEFINITION) when the tool changed.",
		Annotations: annotations("Validate a call's arguments"),
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"name":{"type":"string","description":"the exact tool name"},` +
			`"arguments":{"type":"object","description":"the call's arguments"},` +
			`"digest":{"type":"string","description":"the tool's digest from discover"}},` +
			`"required":["name","arguments"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","anyOf":[{"type":"object","properties":{` +
			`"name":{"type":"string"},"arguments":{"type":"object"},` +
			`"shape_valid":{"const":true},"authorized":{"const":false},"executed":{"const":false},` +
			`"digest":{"type":"string"},"catalog":` + catalogSchema + `},` +
			`"required":["name","arguments","shape_valid","authorized","executed","digest","catalog"],"additionalProperties":false},` +
			errorSchema + `]}`),
	}
}

func (s *Server) discover(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // the client left: nothing to answer
	}
	snap := s.Snapshot()
	p, err := params(req.Params.Arguments, "family", "name", "names_only")
	if err != nil {
		return errorResult(err), nil
	}
	family, err := labelParam(p, "family", "family", false)
	if err != nil {
		return errorResult(err), nil
	}
	name, err := labelParam(p, "name", "tool name", true)
	if err != nil {
		return errorResult(err), nil
	}
	var descs []catalog.Description
	if name.Kind() == catalog.Absent {
		descs, err = snap.cat.Discover(strOf(family))
	} else {
		descs, err = snap.cat.DiscoverTool(strOf(family), strOf(name))
	}
	if err != nil {
		return errorResult(err), nil
	}
	// names_only after the family and the name, which the contract checks.
	namesOnly := false
	if v, ok := p.Lookup("names_only"); ok {
		if namesOnly, ok = v.Bool(); !ok {
			return errorResult(&catalog.Error{Code: catalog.InvalidArgumentValue, Path: "names_only", Offset: -1,
				Detail: fmt.Sprintf("names_only must be true or false, not %s", v.Kind())}), nil
		}
	}
	b := append([]byte(nil), `{"descriptions":[`...)
	for i, d := range descs {
		if i > 0 {
			b = append(b, ',')
		}
		var j []byte
		if namesOnly {
			j, _ = d.Summary().MarshalJSON()
		} else {
			j, _ = d.MarshalJSON()
		}
		b = append(b, j...)
	}
	b = append(b, `],"digests":{`...)
	for i, d := range descs {
		if i > 0 {
			b = append(b, ',')
		}
		b = catalog.AppendQuote(b, d.Name)
		b = append(b, ':')
		b = catalog.AppendQuote(b, snap.digests[d.Name])
	}
	b = append(b, `},"catalog":`...)
	b = snap.appendCatalog(b)
	return result(append(b, '}'), false), nil
}

func (s *Server) validate(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // the client left: nothing to answer
	}
	snap := s.Snapshot()
	p, err := params(req.Params.Arguments, "name", "arguments", "digest")
	if err != nil {
		return errorResult(err), nil
	}
	name, err := labelParam(p, "name", "tool name", false)
	if err != nil {
		return errorResult(err), nil
	}
	// The tool first (its own errors), then whether the caller holds its
	// current definition, then the arguments against that definition.
	if _, err := snap.cat.DiscoverTool("all", strOf(name)); err != nil {
		return errorResult(err), nil
	}
	current := snap.digests[strOf(name)]
	if d, ok := p.Lookup("digest"); ok {
		held, isString := d.Str()
		switch {
		case !isString:
			return errorResult(&catalog.Error{Code: catalog.InvalidArgumentValue, Path: "digest", Offset: -1,
				Detail: fmt.Sprintf("digest must be a string, not %s: give the digest discover returned", d.Kind())}), nil
		case !wellFormedDigest(held):
			// Not a digest at all: the caller's own mistake, which
			// STALE_DEFINITION would pass off as a change of the tool.
			return errorResult(&catalog.Error{Code: catalog.InvalidArgumentValue, Path: "digest", Offset: -1,
				Detail: fmt.Sprintf("digest %s is not \"sha256:\" and 64 lower-case hex digits: give the digest discover returned", catalog.AppendQuote(nil, held))}), nil
		case held != current:
			return errorResult(&Error{Code: CodeStaleDefinition, Path: "digest",
				Detail: fmt.Sprintf("the definition of %q has changed since digest %q was discovered: call discover again and check the arguments against its new inputSchema", strOf(name), held)}), nil
		}
	}
	args, _ := p.Lookup("arguments")
	v, err := snap.cat.ValidateArguments(strOf(name), args)
	if err != nil {
		return errorResult(err), nil
	}
	b, _ := v.MarshalJSON()
	b = append(b[:len(b)-1], `,"digest":`...)
	b = catalog.AppendQuote(b, current)
	b = append(b, `,"catalog":`...)
	b = snap.appendCatalog(b)
	return result(append(b, '}'), false), nil
}

func (s *Snapshot) appendCatalog(b []byte) []byte {
	b = append(b, `{"sha256":`...)
	b = catalog.AppendQuote(b, s.sha256)
	b = append(b, `,"signer":`...)
	b = catalog.AppendQuote(b, s.signer)
	return append(b, '}')
}

// params reads a tool call's arguments from the bytes the client sent,
// through the contract's strict JSON text layer (catalog.ParseJSON): a
// duplicate key, at any depth, and every other text-layer fault is
// INVALID_JSON here as it is on the command line. The call must be an
// object with no keys but those allowed.
func params(raw json.RawMessage, allowed ...string) (catalog.Value, error) {
	if len(raw) == 0 {
		raw = json.RawMessage("{}") // a call with no arguments
	}
	v, err := catalog.ParseJSON(raw)
	if err != nil {
		return catalog.Value{}, err
	}
	if v.Kind() != catalog.Object {
		return catalog.Value{}, &catalog.Error{Code: catalog.InvalidArgumentKeys, Path: "$", Offset: -1,
			Detail: fmt.Sprintf("the tool's arguments must be an object, not %s", v.Kind())}
	}
	for i := range v.Len() {
		if k := v.Key(i); !contains(allowed, k) {
			return catalog.Value{}, &catalog.Error{Code: catalog.InvalidArgumentKeys, Path: k, Offset: -1,
				Detail: fmt.Sprintf("unknown parameter %q: the parameters are %s", k, strings.Join(allowed, ", "))}
		}
	}
	return v, nil
}

// labelParam returns parameter key of p, which must be a string (the
// catalog checks that it is a label). An absent optional parameter is
// returned Absent; an absent required one, or a value that is not a string,
// is INVALID_LABEL, as the contract's function-level form says.
func labelParam(p catalog.Value, key, what string, optional bool) (catalog.Value, error) {
	v, ok := p.Lookup(key)
	switch {
	case !ok && optional:
		return catalog.Value{}, nil
	case !ok:
		return v, &catalog.Error{Code: catalog.InvalidLabel, Path: key, Offset: -1, Detail: fmt.Sprintf("%s is missing: give %s", key, what)}
	case v.Kind() != catalog.String:
		return v, &catalog.Error{Code: catalog.InvalidLabel, Path: key, Offset: -1, Detail: fmt.Sprintf("%s must be a string, not %s", what, v.Kind())}
	}
	return v, nil
}

func strOf(v catalog.Value) string { s, _ := v.Str(); return s }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// errorResult is a refusal as a tool result (never a JSON-RPC error):
// isError, and {code, path, detail} as structuredContent and as text.
func errorResult(err error) *mcp.CallToolResult {
	code, path, detail := "", "", err.Error()
	switch e := err.(type) {
	case *catalog.Error:
		code, path, detail = string(e.Code), e.Path, e.Detail
	case *Error:
		code, path, detail = string(e.Code), e.Path, e.Detail
	}
	b := append([]byte(nil), `{"code":`...)
	b = catalog.AppendQuote(b, code)
	b = append(b, `,"path":`...)
	b = catalog.AppendQuote(b, clip(path))
	b = append(b, `,"detail":`...)
	b = catalog.AppendQuote(b, clip(detail))
	return result(append(b, '}'), true)
}

// maxErrorText is the most of an error's path or detail a result carries:
// they quote the client's values (a family, a name, a key), which may be
// megabytes long.
const maxErrorText = 1024

// clip returns s, or its first maxErrorText bytes (whole UTF-8 characters)
// and how long it was.
func clip(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	return fmt.Sprintf("%s... (cut: %d bytes in all)", termsafe.Cut(s, maxErrorText), len(s))
}

// result is a tool result whose structuredContent is the JSON text b and
// whose one text content is the same text.
func result(b []byte, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		IsError:           isError,
	}
}

// wellFormedDigest reports whether d has the form of a tool's digest:
// "sha256:" and 64 lower-case hexadecimal digits.
func wellFormedDigest(d string) bool {
	hex, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for _, c := range []byte(hex) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
