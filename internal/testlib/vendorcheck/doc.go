// Package vendorcheck decides, offline and without any network call,
// whether a tool-definitions document would be accepted by one model
// vendor. It exists so that tests can run the output of
// `catalogkit export --for openai|anthropic|gemini|mcp` through a checker
// that was written from the vendor's public documentation rather than from
// this repository's own code: if the exporter and the checker disagree, one
// of them has misread the documentation, and the test says where.
//
// There is one function per vendor. Each takes the JSON bytes of one
// document and returns every problem it finds, in document order; an empty
// result means the document keeps every rule the checker knows. A Problem
// names the place (a path such as tools[2].parameters.properties.path.maxLength)
// and the rule, and every rule cites the page it comes from in the doc
// comment of the code that checks it. Where a page is silent the checker
// stays silent too, and says so in a comment, rather than guessing at what
// the vendor's server does. Where a vendor has a strict mode, the checker
// applies that mode's schema subset to every tool that asks for it.
//
// Sources, all read on 2026-12-06:
//
// OpenAI (Responses API):
//   - Function calling guide, "Defining functions", "Defining namespaces",
//     "Strict mode":
//     https://developers.openai.com/api/docs/guides/function-calling
//   - Structured Outputs guide, "Supported schemas":
//     https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas
//   - Tool search guide:
//     https://developers.openai.com/api/docs/guides/tools-tool-search
//   - API reference, Responses create, tools (FunctionTool, NamespaceTool):
//     https://developers.openai.com/api/reference/resources/responses/methods/create
//   - API reference, Chat Completions create, tools[].function.name (the
//     only place the function-name characters and length are written):
//     https://platform.openai.com/docs/api-reference/chat/create
//
// Anthropic (Messages API):
//   - Tool use overview, tool definition parameters (name pattern):
//     https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview
//   - Messages API reference, tools[].input_schema:
//     https://platform.claude.com/docs/en/api/messages
//   - Structured outputs, "JSON Schema limitations" and "Schema complexity
//     limits" (shared by strict tool use):
//     https://platform.claude.com/docs/en/build-with-claude/structured-outputs
//   - Strict tool use:
//     https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
//   - Tool search tool (defer_loading):
//     https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool
//
// Google Gemini (Gemini API):
//   - API reference, Tool and FunctionDeclaration:
//     https://ai.google.dev/api/caching#FunctionDeclaration
//   - Function calling guide:
//     https://ai.google.dev/gemini-api/docs/function-calling
//
// Model Context Protocol, revision 2026-07-28 (the latest):
//   - Server features, Tools (tool names, inputSchema):
//     https://modelcontextprotocol.io/specification/2026-07-28/server/tools
//   - Schema (Tool, ToolAnnotations, ListToolsResult, CacheableResult):
//     https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2026-07-28/schema.ts
package vendorcheck
