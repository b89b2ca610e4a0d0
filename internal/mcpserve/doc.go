// Package mcpserve serves a catalog to agents over the Model Context
// Protocol, through the official Go SDK (github.com/modelcontextprotocol/go-sdk):
// `catalogkit mcp` is a thin command over it. It is internal because its
// contract is the protocol and the command, not a Go API: a Go host that
// wants the catalog in process uses package catalog, whose results these
// tools return unchanged.
//
// # Tools
//
// tools/list is fixed and tiny: discover, then validate_arguments, both
// annotated read-only, idempotent and closed-world, each with an
// outputSchema. Catalog tools never become MCP tools (their dotted names are
// not valid tool names for several hosts). The server's instructions name
// every family with its number of enabled tools, and the catalog's SHA-256
// and signer; they describe the catalog of the moment a client initialized
// (over stdio, the start of the process), while the tools always answer from
// the catalog served at the moment of the call.
//
//   - discover {family, name?}: catalog.Catalog.Discover, or DiscoverTool
//     when name is given. structuredContent is
//     {"descriptions": [...], "digests": {name: digest}, "catalog": {"sha256", "signer"}}:
//     the descriptions exactly as package catalog writes them, each tool's
//     digest, the SHA-256 of the catalog file's bytes and who signed it
//     ("unsigned" without keys).
//   - validate_arguments {name, arguments, digest?}: the tool must be
//     enabled (as discovery in family "all" says); then, if digest is given,
//     it must be the tool's current digest, else STALE_DEFINITION ([CodeStaleDefinition]):
//     discover again; then catalog.Catalog.ValidateArguments. structuredContent
//     is the contract's result ({"name", "arguments", "shape_valid": true,
//     "authorized": false, "executed": false}) followed by "digest" and
//     "catalog". Nothing is ever executed.
//
// Every result carries the same JSON twice: as structuredContent and as its
// one text content. Every refusal is a tool result with isError true and
// structuredContent {"code", "path", "detail"}, never a JSON-RPC error: the
// catalog contract's codes keep their meaning (INVALID_LABEL for a family or
// name that is missing or not a string label, as the contract's
// function-level form says), INVALID_ARGUMENT_KEYS with the parameter's name
// as path for a parameter the tool does not take, INVALID_ARGUMENT_VALUE at
// "digest" for a digest that is not a string or not of a digest's form
// ("sha256:" and 64 lower-case hex digits), so that STALE_DEFINITION always
// means that the tool changed.
//
// # The client's bytes
//
// The arguments of a tools/call are read from the bytes the client sent
// (the SDK passes them on raw), through catalog.ParseJSON: 1.0 or 1e0 for an
// integer is INVALID_ARGUMENT_VALUE and a repeated key, at any depth, is
// INVALID_JSON (its path relative to the call's arguments), exactly as
// `catalogkit validate` refuses them, although an SDK client would have
// re-serialized them away. Integers of any magnitude are kept exactly.
//
// # Digests
//
// A tool's digest is "sha256:" and the lower-case hex SHA-256 of its
// canonical form ([CanonicalTool]): JSON with no white space, the keys name,
// family, effect, enabled and fields in that order; fields in the
// definition's order (it orders properties and validation), each spec with
// the keys type, required and max_length in that order, max_length in
// decimal. It covers the whole definition (enabled and an integer's
// max_length included, which descriptions do not show), so it changes when
// anything about the tool changes, and never when another tool, the key
// order or the white space of the file does. Two servers of the same file
// give the same digests. Every string in the canonical form is a label, a
// field type or an effect, so no escaping ever arises, and a valid
// max_length literal is already its decimal form: a third party recomputes
// a digest with any JSON tool that keeps key order, for example
//
//	jq -c '.[] | {name, family, effect, enabled, fields: (.fields | map_values({type, required, max_length}))}' catalog.json
//
// and the SHA-256 of each line without its newline (TestMCPDigestJQ does).
//
// A format-2 tool's canonical form has the members name, family, effect,
// enabled, title (when given), description, annotations (when given),
// origin (when given) and inputSchema in that order, each value written as
// the catalog writes it (members in their order, numbers as their literals,
// no white space): the digest covers the description and the annotations,
// where a poisoned tool would hide its instructions, so a changed
// description is STALE_DEFINITION, and the origin, so a tool cannot be
// pointed at another server's tool under the same digest.
//
// # Trusted source and reload
//
// With keys ([Load]), the catalog is served only if FILE.minisig verifies
// with one of them and its trusted comment names the file and its SHA-256
// (internal/release/sign's file comment, written by `catalogkit sign`; `minisign -Vm
// FILE -p KEY.pub` verifies it). The signature is checked before the
// catalog's bytes are parsed. [Server.Reload] reads, verifies and compiles
// the file again: a good catalog replaces the served one whole, between
// requests (a request sees one catalog from start to end); a bad one, or a
// bad signature, is refused with a line on the log and the old catalog is
// still served.
//
// # Transports and replicas
//
// stdio ([Server.ServeStdio]) serves one client; when stdin ends, every
// request already read is answered first, so `requests | catalogkit mcp`
// prints every response. [Server.HTTPHandler] is stateless streamable HTTP
// with JSON responses: no session, so any number of replicas serving the
// same signed file behind an ordinary load balancer answer every request
// identically, digests included. Both transports share one text layer
// (wire.go): the same refusals of what is not one JSON-RPC message, and the
// client's ids kept byte for byte. HTTP adds its bounds: a body's time to
// arrive, the requests in flight, and the bytes of their bodies.
package mcpserve
