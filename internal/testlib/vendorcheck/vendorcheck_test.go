package vendorcheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

type checkCase struct {
	name string
	doc  string
	// want lists the expected problems by path and by a piece of the rule
	// text, so that a rewording of a message does not break every case.
	want []want
}

type want struct {
	path, rule string
}

func run(t *testing.T, check func([]byte) []Problem, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := check([]byte(c.doc))
			var gotW []want
			for i, p := range got {
				w := want{path: p.Path, rule: p.Rule}
				if i < len(c.want) && strings.Contains(p.Rule, c.want[i].rule) {
					w.rule = c.want[i].rule
				}
				gotW = append(gotW, w)
			}
			if diff := cmp.Diff(c.want, gotW, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("problems (-want +got):\n%s\nall problems:\n%s", diff, list(got))
			}
		})
	}
}

func list(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	return b.String()
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// --- OpenAI ---

// The strict get_weather function of the function-calling guide ("Strict
// mode enabled").
const openAIWeather = `{
  "type": "function",
  "name": "get_weather",
  "description": "Retrieves current weather for the given location.",
  "strict": true,
  "parameters": {
    "type": "object",
    "properties": {
      "location": {"type": "string", "description": "City and country e.g. Bogotá, Colombia"},
      "units": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit"], "description": "Units the temperature will be returned in."}
    },
    "required": ["location", "units"],
    "additionalProperties": false
  }
}`

// openAIStrict wraps a parameters schema in a strict function.
func openAIStrict(params string) string {
	return `{"tools": [{"type": "function", "name": "f", "description": "d", "strict": true, "parameters": ` + params + `}]}`
}

// nested returns an object schema with n levels of objects.
func nested(n int) string {
	s := `{"type": "object", "properties": {}, "required": [], "additionalProperties": false}`
	for i := 1; i < n; i++ {
		s = `{"type": "object", "properties": {"a": ` + s + `}, "required": ["a"], "additionalProperties": false}`
	}
	return s
}

// manyProps returns a strict object schema with n string properties named
// by name(i).
func manyProps(n int, name func(int) string, prop string) string {
	var props, req []string
	for i := 0; i < n; i++ {
		props = append(props, quote(name(i))+": "+prop)
		req = append(req, quote(name(i)))
	}
	return `{"type": "object", "properties": {` + strings.Join(props, ",") + `}, "required": [` + strings.Join(req, ",") + `], "additionalProperties": false}`
}

func enumOf(n int, value func(int) string) string {
	var vs []string
	for i := 0; i < n; i++ {
		vs = append(vs, quote(value(i)))
	}
	return `{"type": "object", "properties": {"e": {"type": "string", "enum": [` + strings.Join(vs, ",") + `]}}, "required": ["e"], "additionalProperties": false}`
}

func TestOpenAI(t *testing.T) {
	run(t, OpenAI, []checkCase{
		{name: "guide strict get_weather", doc: `{"tools": [` + openAIWeather + `]}`},
		{
			// The tool search guide's namespace example.
			name: "guide namespace with tool_search",
			doc: `{"tools": [
			  {"type": "namespace", "name": "crm", "description": "CRM tools for customer lookup and order management.",
			   "tools": [
			     {"type": "function", "name": "get_customer_profile", "description": "Fetch a customer profile by customer ID.",
			      "parameters": {"type": "object", "properties": {"customer_id": {"type": "string"}}, "required": ["customer_id"], "additionalProperties": false}},
			     {"type": "function", "name": "list_open_orders", "description": "List open orders for a customer ID.", "defer_loading": true,
			      "parameters": {"type": "object", "properties": {"customer_id": {"type": "string"}}, "required": ["customer_id"], "additionalProperties": false}}
			   ]},
			  {"type": "tool_search"}
			]}`,
		},
		{
			// Structured Outputs "Number Restrictions" example.
			name: "guide number restrictions",
			doc: openAIStrict(`{"type": "object", "properties": {
			  "location": {"type": "string", "description": "The location to get the weather for"},
			  "unit": {"type": ["string", "null"], "description": "The unit to return the temperature in", "enum": ["F", "C"]},
			  "value": {"type": "number", "description": "The actual temperature value in the location", "minimum": -130, "maximum": 130}},
			  "additionalProperties": false, "required": ["location", "unit", "value"]}`),
		},
		{
			// Structured Outputs "String Restrictions" example.
			name: "guide string restrictions",
			doc: openAIStrict(`{"type": "object", "properties": {
			  "name": {"type": "string", "description": "The name of the user"},
			  "username": {"type": "string", "description": "The username of the user. Must start with @", "pattern": "^@[a-zA-Z0-9_]+$"},
			  "email": {"type": "string", "description": "The email of the user", "format": "email"}},
			  "additionalProperties": false, "required": ["name", "username", "email"]}`),
		},
		{
			// Structured Outputs "Recursive schemas are supported", explicit recursion.
			name: "guide linked list",
			doc: openAIStrict(`{"type": "object", "properties": {"linked_list": {"$ref": "#/$defs/linked_list_node"}},
			  "$defs": {"linked_list_node": {"type": "object", "properties": {
			    "value": {"type": "number"},
			    "next": {"anyOf": [{"$ref": "#/$defs/linked_list_node"}, {"type": "null"}]}},
			    "additionalProperties": false, "required": ["next", "value"]}},
			  "additionalProperties": false, "required": ["linked_list"]}`),
		},
		{
			name: "optional as anyOf with null, arrays, const, nesting of 10",
			doc: openAIStrict(`{"type": "object", "properties": {
			  "path": {"anyOf": [{"type": "string", "pattern": "^/"}, {"type": "null"}], "description": "d"},
			  "tags": {"type": ["array", "null"], "items": {"type": "string"}, "minItems": 1, "maxItems": 5},
			  "mode": {"const": "fast"},
			  "deep": ` + nested(9) + `},
			  "required": ["path", "tags", "mode", "deep"], "additionalProperties": false}`),
		},
		{
			name: "non-strict function keeps any schema",
			doc:  `{"tools": [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}}]}`,
		},

		{name: "not JSON", doc: `{"tools": [`, want: []want{{"", "not a JSON document"}}},
		{name: "no tools", doc: `{}`, want: []want{{"tools", "missing"}}},
		{name: "name with a dot", doc: `{"tools": [{"type": "function", "name": "crm.get", "parameters": {}}]}`,
			want: []want{{"tools[0].name", "does not match ^[a-zA-Z0-9_-]{1,64}$"}}},
		{name: "name of 65 characters", doc: `{"tools": [{"type": "function", "name": "` + strings.Repeat("a", 65) + `", "parameters": {}}]}`,
			want: []want{{"tools[0].name", "does not match"}}},
		{name: "parameters missing", doc: `{"tools": [{"type": "function", "name": "f"}]}`,
			want: []want{{"tools[0].parameters", "marks parameters required"}}},
		{name: "unknown function member", doc: `{"tools": [{"type": "function", "name": "f", "title": "F", "parameters": {}}]}`,
			want: []want{{"tools[0].title", "not a member"}}},
		{name: "strict not boolean", doc: `{"tools": [{"type": "function", "name": "f", "strict": "yes", "parameters": {}}]}`,
			want: []want{{"tools[0].strict", "must be a boolean"}}},
		{name: "namespace deferred", doc: `{"tools": [{"type": "namespace", "name": "crm", "description": "d", "defer_loading": true,
			"tools": [{"type": "function", "name": "f", "parameters": {}}]}]}`,
			want: []want{{"tools[0].defer_loading", "not a member"}}},
		{name: "namespace without description", doc: `{"tools": [{"type": "namespace", "name": "crm", "tools": []}]}`,
			want: []want{{"tools[0].description", "missing"}}},
		{name: "deferred function without tool_search", doc: `{"tools": [{"type": "function", "name": "f", "defer_loading": true, "parameters": {}}]}`,
			want: []want{{"tools[0].defer_loading", "needs a {\"type\": \"tool_search\"} tool"}}},
		{name: "other tool type", doc: `{"tools": [{"type": "web_search"}]}`,
			want: []want{{"tools[0].type", "outside what this checker covers"}}},
		{name: "strict root not an object", doc: openAIStrict(`{"type": "array", "items": {"type": "string"}}`),
			want: []want{{"tools[0].parameters.type", "must be \"object\""}}},
		{name: "strict root anyOf", doc: openAIStrict(`{"type": "object", "properties": {}, "required": [], "additionalProperties": false,
			"anyOf": [{"type": "object", "properties": {}, "required": [], "additionalProperties": false}]}`),
			want: []want{{"tools[0].parameters.anyOf", "root must not use anyOf"}}},
		{name: "strict additionalProperties missing", doc: openAIStrict(`{"type": "object", "properties": {"o": {"type": "object", "properties": {}, "required": []}},
			"required": ["o"], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.properties.o.additionalProperties", "must be false in every object"}}},
		{name: "strict property not required", doc: openAIStrict(`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
			"required": ["a"], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.required", `property "b" is not listed`}}},
		{name: "strict maxLength", doc: openAIStrict(`{"type": "object", "properties": {"path": {"type": "string", "maxLength": 9}},
			"required": ["path"], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.properties.path.maxLength", "maxLength is not in the Structured Outputs supported schemas subset"}}},
		{name: "strict title", doc: openAIStrict(`{"type": "object", "title": "T", "properties": {}, "required": [], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.title", "not in the Structured Outputs supported schemas subset"}}},
		{name: "strict allOf", doc: openAIStrict(`{"type": "object", "properties": {"a": {"allOf": [{"type": "string"}]}},
			"required": ["a"], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.properties.a.allOf", "allOf is not supported"}}},
		{name: "strict format uri", doc: openAIStrict(`{"type": "object", "properties": {"u": {"type": "string", "format": "uri"}},
			"required": ["u"], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.properties.u.format", "not one of the supported formats"}}},
		{name: "strict unknown type", doc: openAIStrict(`{"type": "object", "properties": {"u": {"type": "float"}},
			"required": ["u"], "additionalProperties": false}`),
			want: []want{{"tools[0].parameters.properties.u.type", "not one of the supported types"}}},
		{name: "strict nesting of 11", doc: openAIStrict(nested(11)),
			want: []want{{"tools[0].parameters" + strings.Repeat(".properties.a", 10), "up to 10 levels of nesting"}}},
		{name: "strict 5001 properties", doc: openAIStrict(manyProps(5001, func(i int) string { return fmt.Sprint("p", i) }, `{"type": "string"}`)),
			want: []want{{"tools[0].parameters", "up to 5000 object properties total"}}},
		{name: "strict 1001 enum values", doc: openAIStrict(enumOf(1001, func(i int) string { return fmt.Sprint("v", i) })),
			want: []want{{"tools[0].parameters", "up to 1000 enum values"}}},
		{name: "strict long enum of 251 values", doc: openAIStrict(enumOf(251, func(i int) string { return fmt.Sprintf("%060d", i) })),
			want: []want{{"tools[0].parameters.properties.e.enum", "may total at most 15000 characters"}}},
		{name: "strict 120001 characters", doc: openAIStrict(manyProps(1, func(int) string { return strings.Repeat("n", 120_001) }, `{"type": "string"}`)),
			want: []want{{"tools[0].parameters", "the total may not exceed 120000"}}},
	})
}

// --- Anthropic ---

// The tool use overview's get_weather tool.
const anthropicWeather = `{
  "name": "get_weather",
  "description": "Get the current weather in a given location",
  "input_schema": {
    "type": "object",
    "properties": {
      "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
      "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit of temperature, either 'celsius' or 'fahrenheit'"}
    },
    "required": ["location"]
  }
}`

func anthropicStrict(schema string) string {
	return `{"tools": [{"name": "f", "description": "d", "strict": true, "input_schema": ` + schema + `}]}`
}

// strictProp wraps one property in a strict object schema, required.
func strictProp(prop string) string {
	return anthropicStrict(`{"type": "object", "properties": {"p": ` + prop + `}, "required": ["p"], "additionalProperties": false}`)
}

func strictTools(n int) string {
	var ts []string
	for i := 0; i < n; i++ {
		ts = append(ts, fmt.Sprintf(`{"name": "t%d", "strict": true, "input_schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}}`, i))
	}
	return `{"tools": [` + strings.Join(ts, ",") + `]}`
}

func TestAnthropic(t *testing.T) {
	run(t, Anthropic, []checkCase{
		{name: "overview get_weather", doc: `{"tools": [` + anthropicWeather + `]}`},
		{
			// Structured outputs page, strict tool use example.
			name: "structured outputs search_flights",
			doc: `{"tools": [{"name": "search_flights", "description": "Search for available flights to a destination on a specific date", "strict": true,
			  "input_schema": {"type": "object", "properties": {"destination": {"type": "string"}, "date": {"type": "string", "format": "date"}},
			  "required": ["destination", "date"], "additionalProperties": false}}]}`,
		},
		{
			// Tool search tool page: the search tool plus a deferred tool.
			name: "tool search with deferred tool",
			doc: `{"tools": [{"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
			  {"name": "get_weather", "description": "Get the weather at a specific location", "defer_loading": true,
			   "input_schema": {"type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}]}`,
		},
		{
			name: "strict with optional, null union, minItems 1, simple pattern, default",
			doc: anthropicStrict(`{"type": "object", "properties": {
			  "path": {"type": "string", "pattern": "^[a-z]+/\\d{1,3}$"},
			  "limit": {"type": ["integer", "null"], "default": 10, "title": "Limit"},
			  "ids": {"type": "array", "items": {"type": "string"}, "minItems": 1},
			  "kind": {"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]}},
			  "required": ["path"], "additionalProperties": false}`),
		},
		{name: "20 strict tools", doc: strictTools(20)},

		{name: "name with a dot", doc: `{"tools": [{"name": "crm.get", "input_schema": {"type": "object"}}]}`,
			want: []want{{"tools[0].name", "does not match ^[a-zA-Z0-9_-]{1,64}$"}}},
		{name: "input_schema missing", doc: `{"tools": [{"name": "f"}]}`,
			want: []want{{"tools[0].input_schema", "missing"}}},
		{name: "input_schema not an object schema", doc: `{"tools": [{"name": "f", "input_schema": {"type": "array"}}]}`,
			want: []want{{"tools[0].input_schema.type", "must be \"object\""}}},
		{name: "defer_loading not boolean", doc: `{"tools": [{"name": "f", "defer_loading": "yes", "input_schema": {"type": "object"}}]}`,
			want: []want{{"tools[0].defer_loading", "must be a boolean"}}},
		{name: "every tool deferred", doc: `{"tools": [{"name": "f", "defer_loading": true, "input_schema": {"type": "object"}}]}`,
			want: []want{{"tools", "At least one tool must be non-deferred."}}},
		{name: "tool search tool deferred", doc: `{"tools": [{"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25", "defer_loading": true},
			{"name": "f", "input_schema": {"type": "object"}}]}`,
			want: []want{{"tools[0].defer_loading", "must not be deferred"}}},
		{name: "deferred with cache_control", doc: `{"tools": [{"name": "g", "input_schema": {"type": "object"}},
			{"name": "f", "defer_loading": true, "cache_control": {"type": "ephemeral"}, "input_schema": {"type": "object"}}]}`,
			want: []want{{"tools[1].cache_control", "may not carry cache_control"}}},
		{name: "input_examples with tool search", doc: `{"tools": [{"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
			{"name": "f", "input_examples": [{}], "input_schema": {"type": "object"}}]}`,
			want: []want{{"tools[1].input_examples", "not compatible with input_examples"}}},
		{name: "strict additionalProperties missing", doc: anthropicStrict(`{"type": "object", "properties": {}}`),
			want: []want{{"tools[0].input_schema.additionalProperties", "must be set to false for objects"}}},
		{name: "strict minimum", doc: strictProp(`{"type": "integer", "minimum": 1}`),
			want: []want{{"tools[0].input_schema.properties.p.minimum", "numerical constraints are not supported"}}},
		{name: "strict exclusiveMaximum", doc: strictProp(`{"type": "number", "exclusiveMaximum": 1}`),
			want: []want{{"tools[0].input_schema.properties.p.exclusiveMaximum", "numerical constraints are not supported"}}},
		{name: "strict maxLength", doc: strictProp(`{"type": "string", "maxLength": 5}`),
			want: []want{{"tools[0].input_schema.properties.p.maxLength", "string constraints are not supported"}}},
		{name: "strict minItems 2", doc: strictProp(`{"type": "array", "items": {"type": "string"}, "minItems": 2}`),
			want: []want{{"tools[0].input_schema.properties.p.minItems", "minItems must be 0 or 1"}}},
		{name: "strict maxItems", doc: strictProp(`{"type": "array", "items": {"type": "string"}, "maxItems": 2}`),
			want: []want{{"tools[0].input_schema.properties.p.maxItems", "array constraints beyond minItems of 0 or 1"}}},
		{name: "strict format regex", doc: strictProp(`{"type": "string", "format": "regex"}`),
			want: []want{{"tools[0].input_schema.properties.p.format", "not one of the supported formats"}}},
		{name: "strict complex enum", doc: strictProp(`{"enum": ["a", {"b": 1}]}`),
			want: []want{{"tools[0].input_schema.properties.p.enum[1]", "complex types within enums are not supported"}}},
		{name: "strict external ref", doc: strictProp(`{"$ref": "http://example.com/s.json"}`),
			want: []want{{"tools[0].input_schema.properties.p.$ref", "external $ref is not supported"}}},
		{name: "strict allOf with ref", doc: anthropicStrict(`{"type": "object", "properties": {"p": {"allOf": [{"$ref": "#/$defs/A"}]}}, "required": ["p"], "additionalProperties": false,
			"$defs": {"A": {"type": "object", "properties": {}, "additionalProperties": false}}}`),
			want: []want{{"tools[0].input_schema.properties.p.allOf[0].$ref", "allOf with $ref is not supported"}}},
		{name: "strict recursive", doc: anthropicStrict(`{"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"], "additionalProperties": false,
			"$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}, "required": ["child"], "additionalProperties": false}}}`),
			want: []want{{"tools[0].input_schema", "recursive schemas are not supported"}}},
		{name: "strict word boundary", doc: strictProp(`{"type": "string", "pattern": "\\bword\\b"}`),
			want: []want{{"tools[0].input_schema.properties.p.pattern", "word boundary"}}},
		{name: "strict lookahead", doc: strictProp(`{"type": "string", "pattern": "^(?!x)"}`),
			want: []want{{"tools[0].input_schema.properties.p.pattern", "lookahead or lookbehind"}}},
		{name: "21 strict tools", doc: strictTools(21),
			want: []want{{"tools", "at most 20 strict tools per request"}}},
		{name: "25 optional parameters", doc: anthropicStrict(`{"type": "object", "properties": {` +
			strings.Join(func() []string {
				var ps []string
				for i := 0; i < 25; i++ {
					ps = append(ps, fmt.Sprintf(`"p%d": {"type": "string"}`, i))
				}
				return ps
			}(), ",") + `}, "additionalProperties": false}`),
			want: []want{{"tools", "25 optional parameters across strict schemas: at most 24"}}},
		{name: "17 union parameters", doc: anthropicStrict(manyProps(17, func(i int) string { return fmt.Sprint("p", i) }, `{"type": ["string", "null"]}`)),
			want: []want{{"tools", "17 parameters with union types"}}},
	})
}

// --- Gemini ---

func TestGemini(t *testing.T) {
	decl := func(fields string) string {
		return `{"tools": [{"functionDeclarations": [` + fields + `]}]}`
	}
	run(t, Gemini, []checkCase{
		{
			// The Gemini API reference's parametersJsonSchema example.
			name: "reference example",
			doc: decl(`{"name": "get_person", "description": "d", "parametersJsonSchema": {"type": "object",
			  "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
			  "additionalProperties": false, "required": ["name", "age"], "propertyOrdering": ["name", "age"]}}`),
		},
		{name: "dots and colons in a name", doc: decl(`{"name": "crm.get_customer:v1", "description": "d", "parametersJsonSchema": {"type": "object"}}`)},
		{name: "no parameters", doc: decl(`{"name": "now", "description": "d"}`)},

		{name: "slash in a name", doc: decl(`{"name": "crm/get", "description": "d"}`),
			want: []want{{"tools[0].functionDeclarations[0].name", "does not match"}}},
		{name: "name of 129 characters", doc: decl(`{"name": "` + strings.Repeat("a", 129) + `", "description": "d"}`),
			want: []want{{"tools[0].functionDeclarations[0].name", "does not match"}}},
		{name: "description missing", doc: decl(`{"name": "f"}`),
			want: []want{{"tools[0].functionDeclarations[0].description", "missing"}}},
		{name: "parameters and parametersJsonSchema", doc: decl(`{"name": "f", "description": "d", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": "object"}}`),
			want: []want{{"tools[0].functionDeclarations[0].parameters", "mutually exclusive"}}},
		{name: "root not an object", doc: decl(`{"name": "f", "description": "d", "parametersJsonSchema": {"type": "string"}}`),
			want: []want{{"tools[0].functionDeclarations[0].parametersJsonSchema.type", "must be \"object\""}}},
		{name: "unknown member", doc: decl(`{"name": "f", "description": "d", "strict": true}`),
			want: []want{{"tools[0].functionDeclarations[0].strict", "not a member"}}},
	})
}

// --- MCP ---

// The tools page's tools/list result.
const mcpExample = `{
  "resultType": "complete",
  "tools": [{
    "name": "get_weather",
    "title": "Weather Information Provider",
    "description": "Get current weather information for a location",
    "inputSchema": {"type": "object", "properties": {"location": {"type": "string", "description": "City name or zip code"}}, "required": ["location"]},
    "icons": [{"src": "https://example.com/weather-icon.png", "mimeType": "image/png", "sizes": ["48x48"]}]
  }],
  "nextCursor": "next-page-cursor",
  "ttlMs": 300000,
  "cacheScope": "public"
}`

func mcpResult(tools string) string {
	return `{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": [` + tools + `]}`
}

func TestMCP(t *testing.T) {
	run(t, MCP, []checkCase{
		{name: "spec example", doc: mcpExample},
		{name: "dotted name, annotations, no-parameter schema", doc: mcpResult(`{"name": "admin.tools.list", "inputSchema": {"type": "object", "additionalProperties": false},
			"annotations": {"title": "List", "readOnlyHint": true, "openWorldHint": false}}`)},

		{name: "result members missing", doc: `{"tools": []}`,
			want: []want{{"resultType", "missing"}, {"ttlMs", "missing"}, {"cacheScope", "missing"}}},
		{name: "negative ttlMs", doc: `{"resultType": "complete", "ttlMs": -1, "cacheScope": "public", "tools": []}`,
			want: []want{{"ttlMs", "at least 0"}}},
		{name: "bad cacheScope", doc: `{"resultType": "complete", "ttlMs": 1, "cacheScope": "shared", "tools": []}`,
			want: []want{{"cacheScope", "\"public\" or \"private\""}}},
		{name: "name with a space", doc: mcpResult(`{"name": "get weather", "inputSchema": {"type": "object"}}`),
			want: []want{{"tools[0].name", "SHOULD be 1 to 128 characters"}}},
		{name: "name of 129 characters", doc: mcpResult(`{"name": "` + strings.Repeat("a", 129) + `", "inputSchema": {"type": "object"}}`),
			want: []want{{"tools[0].name", "SHOULD be 1 to 128 characters"}}},
		{name: "duplicate name", doc: mcpResult(`{"name": "a", "inputSchema": {"type": "object"}}, {"name": "a", "inputSchema": {"type": "object"}}`),
			want: []want{{"tools[1].name", "SHOULD be unique"}}},
		{name: "inputSchema missing", doc: mcpResult(`{"name": "a"}`),
			want: []want{{"tools[0].inputSchema", "missing"}}},
		{name: "inputSchema null", doc: mcpResult(`{"name": "a", "inputSchema": null}`),
			want: []want{{"tools[0].inputSchema", "must be a JSON Schema object"}}},
		{name: "inputSchema not an object", doc: mcpResult(`{"name": "a", "inputSchema": {"type": "string"}}`),
			want: []want{{"tools[0].inputSchema.type", "must be \"object\""}}},
		{name: "title not a string", doc: mcpResult(`{"name": "a", "title": 1, "inputSchema": {"type": "object"}}`),
			want: []want{{"tools[0].title", "must be a string"}}},
		{name: "annotation hint not boolean", doc: mcpResult(`{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "yes"}}`),
			want: []want{{"tools[0].annotations.readOnlyHint", "must be a boolean"}}},
		{name: "icon without src", doc: mcpResult(`{"name": "a", "inputSchema": {"type": "object"}, "icons": [{}]}`),
			want: []want{{"tools[0].icons[0].src", "missing"}}},
	})
}

func TestProblemString(t *testing.T) {
	if got := (Problem{Path: "tools[0].name", Rule: "r"}).String(); got != "tools[0].name: r" {
		t.Errorf("String() = %q", got)
	}
	if got := (Problem{Rule: "r"}).String(); got != "(document): r" {
		t.Errorf("String() = %q", got)
	}
}
