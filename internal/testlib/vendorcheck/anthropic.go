package vendorcheck

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// anthropicName is the tool-name rule of the tool use overview
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview):
// name "Must match the regex ^[a-zA-Z0-9_-]{1,64}$".
var anthropicName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// The tool search tool's two variants and their names, as the tool search
// page shows them
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool).
var anthropicToolSearch = map[string]string{
	"tool_search_tool_regex_20251119": "tool_search_tool_regex",
	"tool_search_tool_bm25_20251119":  "tool_search_tool_bm25",
}

// Structured outputs, "JSON Schema limitations"
// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs),
// which "Both JSON outputs and strict tool use share". The page starts from
// standard JSON Schema and lists what is not supported, so only what it
// names is reported here; keywords it does not mention (title, examples,
// description, oneOf, $schema, minProperties and so on) are not.
//
//   - "Numerical constraints (such as minimum, maximum, multipleOf)"
//   - "String constraints (minLength, maxLength)"
//   - "Array constraints beyond minItems of 0 or 1"
var (
	anthropicNumericKeywords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	anthropicStringKeywords  = []string{"minLength", "maxLength"}
	anthropicArrayKeywords   = []string{"maxItems", "uniqueItems", "contains", "minContains", "maxContains"}
)

// anthropicFormats are the page's supported string formats.
var anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// anthropicTypes are "All basic types: object, array, string, integer,
// number, boolean, null".
var anthropicTypes = []string{"object", "array", "string", "integer", "number", "boolean", "null"}

// The page's "Explicit limits", which "apply to the combined total across
// all strict schemas in a single request".
const (
	anthropicMaxStrictTools    = 20 // "Strict tools per request"
	anthropicMaxOptionalParams = 24 // "Each parameter not listed in required counts"
	anthropicMaxUnionParams    = 16 // "parameters that use anyOf or type arrays"
)

// Anthropic checks the tools member of a Messages API request, given as
// {"tools": [...]}. Elements are custom (client) tools and, optionally, the
// tool search tool; other server or Anthropic-defined tools are reported as
// outside what this checker covers.
//
// Rules, with sources:
//   - Custom tool (tool use overview; Messages API reference): name matches
//     ^[a-zA-Z0-9_-]{1,64}$; description is a string; input_schema is a
//     JSON Schema object whose type is "object"; strict is a boolean.
//   - defer_loading (tool search tool page) is a boolean; "All tools have
//     defer_loading set. At least one tool must be non-deferred." is a 400
//     error; the tool search tool itself must not be deferred; a deferred
//     tool may not carry cache_control; tool search "is NOT compatible with"
//     input_examples on tool definitions.
//   - Strict tools (structured outputs, "JSON Schema limitations"): every
//     object schema has additionalProperties false ("required and
//     additionalProperties (must be set to false for objects)"); none of
//     the unsupported features: recursive schemas, complex types within
//     enums, external $ref, allOf with $ref, numerical constraints, string
//     constraints, array constraints beyond minItems 0 or 1, formats
//     outside the supported list, and regex backreferences, lookaround and
//     word boundaries in pattern.
//   - Complexity limits (same page, "Explicit limits"): at most 20 strict
//     tools, 24 optional parameters and 16 parameters with union types
//     across all strict schemas.
//
// Not checked, because the pages are silent or vague: uniqueness of tool
// names, members other than the ones above, "complex {n,m} quantifiers with
// large ranges", and the internal grammar-size limits that the page says
// exist but does not state.
func Anthropic(doc []byte) []Problem {
	var r report
	_, tools, ok := toolsArray(doc, &r)
	if !ok {
		return r.problems
	}
	strictTools, optional, unions := 0, 0, 0
	deferredCount, hasToolSearch := 0, false
	var examples []string
	for path, obj := range objects(&r, tools, "tools", "a tool") {
		optBool(&r, obj, path, "defer_loading")
		deferred := isTrue(obj["defer_loading"])
		if deferred {
			deferredCount++
			if _, hasCache := obj["cache_control"]; hasCache {
				r.add(join(path, "cache_control"), "a deferred tool may not carry cache_control (tool search tool)")
			}
		}
		if typ, hasType := obj["type"]; hasType && typ != "custom" {
			s, _ := typ.(string)
			name, isSearch := anthropicToolSearch[s]
			if !isSearch {
				r.add(join(path, "type"), "tool type %v is outside what this checker covers (custom tools and the tool search tool)", typ)
				continue
			}
			hasToolSearch = true
			if got, _ := obj["name"].(string); got != name {
				r.add(join(path, "name"), "the %s tool is named %q (tool search tool)", s, name)
			}
			if deferred {
				r.add(join(path, "defer_loading"), "the tool search tool itself must not be deferred (tool search tool)")
			}
			continue
		}
		if name, ok := reqString(&r, obj, path, "name"); ok && !anthropicName.MatchString(name) {
			r.add(join(path, "name"), "%q does not match ^[a-zA-Z0-9_-]{1,64}$ (tool use overview)", name)
		}
		optString(&r, obj, path, "description")
		optBool(&r, obj, path, "strict")
		if _, has := obj["input_examples"]; has {
			examples = append(examples, join(path, "input_examples"))
		}
		schema, present := obj["input_schema"]
		if !present {
			r.add(join(path, "input_schema"), "missing: a custom tool needs an input_schema (Messages API reference)")
			continue
		}
		if _, ok := requireObjectRoot(&r, schema, join(path, "input_schema"), "Messages API reference: input_schema type is \"object\""); !ok {
			continue
		}
		if isTrue(obj["strict"]) {
			strictTools++
			o, u := anthropicStrictSchema(&r, schema, join(path, "input_schema"))
			optional += o
			unions += u
		}
	}
	if len(tools) > 0 && deferredCount == len(tools) {
		r.add("tools", "every tool has defer_loading set: \"At least one tool must be non-deferred.\" (tool search tool)")
	}
	if hasToolSearch {
		for _, p := range examples {
			r.add(p, "tool search is not compatible with input_examples on tool definitions (tool search tool)")
		}
	}
	if strictTools > anthropicMaxStrictTools {
		r.add("tools", "%d tools with strict: true: at most %d strict tools per request (structured outputs, explicit limits)", strictTools, anthropicMaxStrictTools)
	}
	if optional > anthropicMaxOptionalParams {
		r.add("tools", "%d optional parameters across strict schemas: at most %d (structured outputs, explicit limits)", optional, anthropicMaxOptionalParams)
	}
	if unions > anthropicMaxUnionParams {
		r.add("tools", "%d parameters with union types (anyOf or type arrays) across strict schemas: at most %d (structured outputs, explicit limits)", unions, anthropicMaxUnionParams)
	}
	return r.problems
}

// anthropicStrictSchema checks a strict tool's input_schema against the
// structured outputs limitations and returns its count of optional
// parameters and of parameters with union types.
//
// The page counts "Each parameter not listed in required" and "parameters
// that use anyOf or type arrays (for example, "type": ["string", "null"])".
// It does not define "parameter" further; this checker counts every
// property of every object schema for the first, and every subschema below
// the root that has anyOf or an array-valued type for the second.
func anthropicStrictSchema(r *report, schema any, path string) (optional, unions int) {
	const src = "structured outputs JSON Schema limitations"
	refs := map[string]bool{}
	walkSchema(schema, path, func(n schemaNode) {
		if n.m == nil {
			return
		}
		if !n.root {
			_, hasAnyOf := n.m["anyOf"]
			_, typeArray := n.m["type"].([]any)
			if hasAnyOf || typeArray {
				unions++
			}
		}
		for _, k := range sortedKeys(n.m) {
			v := n.m[k]
			p := join(n.path, k)
			switch {
			case slices.Contains(anthropicNumericKeywords, k):
				r.add(p, "numerical constraints are not supported (%s)", src)
			case slices.Contains(anthropicStringKeywords, k):
				r.add(p, "string constraints are not supported (%s)", src)
			case slices.Contains(anthropicArrayKeywords, k):
				r.add(p, "array constraints beyond minItems of 0 or 1 are not supported (%s)", src)
			case k == "minItems":
				if n, isNum := v.(json.Number); !isNum || (n.String() != "0" && n.String() != "1") {
					r.add(p, "minItems must be 0 or 1 (%s)", src)
				}
			case k == "format":
				if s, _ := v.(string); !slices.Contains(anthropicFormats, s) {
					r.add(p, "format %v is not one of the supported formats %v (%s)", v, anthropicFormats, src)
				}
			case k == "type":
				anthropicType(r, v, p)
			case k == "enum":
				if arr, isArr := v.([]any); isArr {
					for i, e := range arr {
						switch e.(type) {
						case []any, map[string]any:
							r.add(index(p, i), "enum values must be strings, numbers, bools or nulls: complex types within enums are not supported (%s)", src)
						}
					}
				}
			case k == "pattern":
				if s, isStr := v.(string); isStr {
					if what := unsupportedRegex(s); what != "" {
						r.add(p, "pattern uses %s, which is not supported (%s, pattern support)", what, src)
					}
				}
			case k == "$ref":
				if s, isStr := v.(string); isStr {
					if !strings.HasPrefix(s, "#") {
						r.add(p, "external $ref is not supported (%s)", src)
					} else {
						refs[n.path] = true
					}
				}
			case k == "allOf":
				if arr, isArr := v.([]any); isArr {
					for i, e := range arr {
						if m, isObj := e.(map[string]any); isObj {
							if _, hasRef := m["$ref"]; hasRef {
								r.add(join(index(p, i), "$ref"), "allOf with $ref is not supported (%s)", src)
							}
						}
					}
				}
			}
		}
		if isObjectSchema(n.m) {
			ap, present := n.m["additionalProperties"]
			if b, isBool := ap.(bool); !present || !isBool || b {
				r.add(join(n.path, "additionalProperties"), "must be set to false for objects (%s)", src)
			}
			props, _ := n.m["properties"].(map[string]any)
			required := map[string]bool{}
			if arr, isArr := n.m["required"].([]any); isArr {
				for _, v := range arr {
					if s, isStr := v.(string); isStr {
						required[s] = true
					}
				}
			}
			for name := range props {
				if !required[name] {
					optional++
				}
			}
		}
	})
	if len(refs) > 0 {
		if root, isObj := schema.(map[string]any); isObj && recursive(root) {
			r.add(path, "recursive schemas are not supported (%s)", src)
		}
	}
	return optional, unions
}

// anthropicType checks a type keyword against the basic types.
func anthropicType(r *report, t any, path string) {
	check := func(v any) {
		if s, isStr := v.(string); !isStr || !slices.Contains(anthropicTypes, s) {
			r.add(path, "type %v is not one of the basic types %v (structured outputs JSON Schema limitations)", v, anthropicTypes)
		}
	}
	if arr, isArr := t.([]any); isArr {
		for _, v := range arr {
			check(v)
		}
		return
	}
	check(t)
}

// unsupportedRegex names the first regex feature in pattern that the
// structured outputs page lists as not supported: "Backreferences to groups
// (for example, \1, \2)", "Lookahead/lookbehind assertions (for example,
// (?=...), (?!...))" and "Word boundaries: \b, \B". It returns "" when there
// is none.
func unsupportedRegex(pattern string) string {
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			next := pattern[i+1]
			i++
			if inClass {
				continue
			}
			switch {
			case next >= '1' && next <= '9':
				return "a backreference"
			case next == 'b' || next == 'B':
				return "a word boundary"
			}
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		case c == '(' && !inClass:
			rest := pattern[i+1:]
			for _, look := range []string{"?=", "?!", "?<=", "?<!"} {
				if strings.HasPrefix(rest, look) {
					return "a lookahead or lookbehind assertion"
				}
			}
		}
	}
	return ""
}

// recursive reports whether any internal $ref in root can reach itself: a
// reference to "#" from inside the schema, or a cycle among definitions
// under $defs, $def or definitions.
func recursive(root map[string]any) bool {
	target := func(ref string) (map[string]any, string, bool) {
		if ref == "#" {
			return root, "#", true
		}
		for _, container := range []string{"$defs", "$def", "definitions"} {
			prefix := "#/" + container + "/"
			if name, ok := strings.CutPrefix(ref, prefix); ok {
				defs, _ := root[container].(map[string]any)
				def, _ := defs[name].(map[string]any)
				return def, ref, def != nil
			}
		}
		return nil, "", false
	}
	// refsIn lists the internal references anywhere inside v.
	var refsIn func(v any, out *[]string)
	refsIn = func(v any, out *[]string) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, isStr := e.(string); isStr && k == "$ref" {
					*out = append(*out, s)
				} else {
					refsIn(e, out)
				}
			}
		case []any:
			for _, e := range v {
				refsIn(e, out)
			}
		}
	}
	// The root schema minus its definitions, so that a definition that is
	// never used from the root is still followed through its own refs.
	body := map[string]any{}
	for k, v := range root {
		if k != "$defs" && k != "$def" && k != "definitions" {
			body[k] = v
		}
	}
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(key string, node any) bool
	visit = func(key string, node any) bool {
		switch state[key] {
		case 1:
			return true
		case 2:
			return false
		}
		state[key] = 1
		var refs []string
		refsIn(node, &refs)
		for _, ref := range refs {
			def, k, ok := target(ref)
			if !ok {
				continue
			}
			var next any = def
			if k == "#" {
				next = body
			}
			if visit(k, next) {
				return true
			}
		}
		state[key] = 2
		return false
	}
	if visit("#", body) {
		return true
	}
	for _, container := range []string{"$defs", "$def", "definitions"} {
		defs, _ := root[container].(map[string]any)
		for _, name := range sortedKeys(defs) {
			if visit("#/"+container+"/"+name, defs[name]) {
				return true
			}
		}
	}
	return false
}
