package vendorcheck

import (
	"regexp"
	"slices"
	"unicode/utf8"
)

// openAIName is the function-name rule. The Responses API reference says
// only "The name of the function to call"; the characters and length are
// written in the Chat Completions reference for tools[].function.name:
// "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
// length of 64." (https://platform.openai.com/docs/api-reference/chat/create).
// No page states a rule for namespace names, so none is checked beyond their
// being strings.
var openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Members of the tool objects, from the Responses API reference
// (https://developers.openai.com/api/reference/resources/responses/methods/create):
// FunctionTool has type, name, description, parameters and strict, and the
// tool search guide adds defer_loading to functions; NamespaceTool has
// exactly type, name, description and tools. The function-calling guide's
// table of function properties lists the same five members.
var (
	openAIFunctionMembers  = []string{"type", "name", "description", "parameters", "strict", "defer_loading"}
	openAINamespaceMembers = []string{"type", "name", "description", "tools"}
)

// Structured Outputs "Supported schemas"
// (https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas).
//
// The page lists the supported types (string, number, boolean, integer,
// object, array, enum, anyOf) and, per type, the supported constraints:
// string pattern and format; number multipleOf, maximum, exclusiveMaximum,
// minimum, exclusiveMinimum; array minItems and maxItems. Its examples use
// properties, required, additionalProperties, description, items, $defs,
// $ref and the "null" type, and its string-size limit names const values.
// Every other keyword is outside the documented subset and is reported:
// the page says "Structured Outputs supports a subset of the JSON Schema
// language" and "If you turn on Structured Outputs by supplying strict: true
// and call the API with an unsupported JSON Schema, you will receive an
// error."
//
// minLength and maxLength are a known ambiguity: they are absent from the
// supported string properties, yet the same page lists them among what it
// "additionally" does not support for fine-tuned models. This checker
// follows the supported list and reports them. title, default, examples and
// $schema are never mentioned by the page and are reported for the same
// reason.
var openAIStrictKeywords = []string{
	"type", "properties", "required", "additionalProperties", "description",
	"enum", "const", "anyOf", "items", "$ref", "$defs",
	"pattern", "format",
	"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"minItems", "maxItems",
}

// openAIUnsupportedKeywords are named on the same page under "Some
// type-specific keywords are not yet supported": "Composition: allOf, not,
// dependentRequired, dependentSchemas, if, then, else".
var openAIUnsupportedKeywords = []string{"allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else"}

// openAIFormats are the string formats the page lists as "Currently
// supported".
var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// openAITypes are the JSON Schema type names accepted in strict mode: the
// page's supported types, plus "null", which the page uses to write an
// optional field ("type": ["string", "null"]).
var openAITypes = []string{"string", "number", "boolean", "integer", "object", "array", "null"}

// The page's size limits, under "Objects have limitations on nesting depth
// and size", "Limitations on total string size" and "Limitations on enum
// size".
const (
	openAIMaxProperties       = 5000    // "up to 5000 object properties total"
	openAIMaxDepth            = 10      // "with up to 10 levels of nesting"
	openAIMaxStringChars      = 120_000 // property names, definition names, enum and const values
	openAIMaxEnumValues       = 1000    // "up to 1000 enum values across all enum properties"
	openAIMaxEnumStringChars  = 15_000  // one string enum, when it has more than 250 values
	openAIEnumCharsAboveCount = 250
)

// OpenAI checks the tools member of a Responses API request, given as
// {"tools": [...]}. Elements may be functions, namespaces of functions, and
// the tool_search tool; any other built-in tool type is reported as outside
// what this checker covers.
//
// Rules, with sources:
//   - Function: type "function", name matching ^[a-zA-Z0-9_-]{1,64}$,
//     parameters present (required by the Responses reference), description
//     a string, strict and defer_loading booleans, no other members.
//   - Namespace (function-calling guide, "Defining namespaces"; Responses
//     reference NamespaceTool): name, description and tools required, tools
//     holding functions; no other members. The tool search guide says
//     defer_loading "applies to the functions inside the namespace, not to
//     the namespace object itself", so defer_loading on a namespace is
//     reported with the other unknown members.
//   - Tool search (https://developers.openai.com/api/docs/guides/tools-tool-search):
//     "To activate tool search, you must ... Add tool_search as a tool in
//     your tools array" and mark deferred functions with defer_loading, so a
//     deferred function without a tool_search element is reported. The
//     guide does not say whether two tool_search elements are refused; that
//     is not checked.
//   - Strict mode (function-calling guide, "Strict mode"): when strict is
//     true, parameters must keep the Structured Outputs subset: the root is
//     an object and not anyOf; every object sets additionalProperties to
//     false and lists every property in required; only the supported
//     keywords, types and formats; at most 10 levels of object nesting,
//     5000 properties, 1000 enum values, 15,000 characters in one string
//     enum of more than 250 values and 120,000 characters of property
//     names, definition names, enum values and const values.
//
// Not checked, because the pages are silent: whether function names must be
// unique, and what happens to a schema when strict is omitted (the guide
// says Responses then attempts strict mode and falls back, so nothing is
// refused).
func OpenAI(doc []byte) []Problem {
	var r report
	_, tools, ok := toolsArray(doc, &r)
	if !ok {
		return r.problems
	}
	toolSearch, deferred := false, []string{}
	for path, obj := range objects(&r, tools, "tools", "a tool") {
		typ, _ := obj["type"].(string)
		switch typ {
		case "function":
			if openAIFunction(&r, obj, path, true) {
				deferred = append(deferred, path)
			}
		case "namespace":
			unknownMembers(&r, obj, path, openAINamespaceMembers, "the Responses API reference's NamespaceTool")
			reqString(&r, obj, path, "name")
			reqString(&r, obj, path, "description")
			inner, present := obj["tools"]
			if !present {
				r.add(join(path, "tools"), "missing: a namespace must list its tools")
				continue
			}
			arr, isArr := inner.([]any)
			if !isArr {
				r.add(join(path, "tools"), "must be an array, not %s", kind(inner))
				continue
			}
			for fpath, fobj := range objects(&r, arr, join(path, "tools"), "a tool") {
				if ft, _ := fobj["type"].(string); ft != "function" {
					r.add(join(fpath, "type"), "must be \"function\": this checker covers namespaces of functions")
					continue
				}
				if openAIFunction(&r, fobj, fpath, false) {
					deferred = append(deferred, fpath)
				}
			}
		case "tool_search":
			toolSearch = true
		case "":
			r.add(join(path, "type"), "missing: every tool needs a type")
		default:
			r.add(join(path, "type"), "tool type %q is outside what this checker covers (function, namespace, tool_search)", typ)
		}
	}
	if !toolSearch {
		for _, p := range deferred {
			r.add(join(p, "defer_loading"), "a deferred function needs a {\"type\": \"tool_search\"} tool in the tools array (tool search guide)")
		}
	}
	return r.problems
}

// openAIFunction checks one function tool and reports whether it is
// deferred. topLevel is false inside a namespace, where the reference marks
// parameters optional.
func openAIFunction(r *report, obj map[string]any, path string, topLevel bool) (deferred bool) {
	unknownMembers(r, obj, path, openAIFunctionMembers, "the Responses API reference's FunctionTool")
	if name, ok := reqString(r, obj, path, "name"); ok && !openAIName.MatchString(name) {
		r.add(join(path, "name"), "%q does not match ^[a-zA-Z0-9_-]{1,64}$ (\"a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64\")", name)
	}
	optString(r, obj, path, "description")
	optBool(r, obj, path, "strict")
	optBool(r, obj, path, "defer_loading")
	params, present := obj["parameters"]
	if !present && topLevel {
		r.add(join(path, "parameters"), "missing: the Responses API reference marks parameters required")
	}
	if present && params != nil {
		if _, isObj := params.(map[string]any); !isObj {
			r.add(join(path, "parameters"), "must be a JSON Schema object, not %s", kind(params))
		} else if isTrue(obj["strict"]) {
			openAIStrictSchema(r, params, join(path, "parameters"))
		}
	}
	return isTrue(obj["defer_loading"])
}

// openAIStrictSchema checks a strict-mode parameters schema against the
// Structured Outputs subset (see openAIStrictKeywords for the source).
func openAIStrictSchema(r *report, schema any, path string) {
	const src = "Structured Outputs supported schemas"
	if m, ok := requireObjectRoot(r, schema, path, "\"Root objects must not be anyOf and must be an object\""); ok {
		if _, hasAnyOf := m["anyOf"]; hasAnyOf {
			r.add(join(path, "anyOf"), "the root must not use anyOf (\"Root objects must not be anyOf and must be an object\")")
		}
	}
	properties, enumValues, stringChars := 0, 0, 0
	depthReported := false
	walkSchema(schema, path, func(n schemaNode) {
		if n.m == nil {
			if !n.root {
				r.add(n.path, "a subschema must be a JSON object, not %s (outside the %s)", kind(n.raw), src)
			}
			return
		}
		if n.parentKeyword == "$defs" {
			stringChars += utf8.RuneCountInString(n.key)
		}
		for _, k := range sortedKeys(n.m) {
			switch {
			case slices.Contains(openAIUnsupportedKeywords, k):
				r.add(join(n.path, k), "%s is not supported (\"Some type-specific keywords are not yet supported: Composition\")", k)
			case !slices.Contains(openAIStrictKeywords, k):
				r.add(join(n.path, k), "%s is not in the %s subset", k, src)
			}
		}
		if t, present := n.m["type"]; present {
			openAIType(r, t, join(n.path, "type"))
		}
		if f, present := n.m["format"]; present {
			if s, _ := f.(string); !slices.Contains(openAIFormats, s) {
				r.add(join(n.path, "format"), "format %v is not one of the supported formats %v", f, openAIFormats)
			}
		}
		if e, present := n.m["enum"]; present {
			arr, isArr := e.([]any)
			if !isArr {
				r.add(join(n.path, "enum"), "must be an array, not %s", kind(e))
			} else {
				enumValues += len(arr)
				chars := 0
				for _, v := range arr {
					if s, isStr := v.(string); isStr {
						chars += utf8.RuneCountInString(s)
					}
				}
				stringChars += chars
				if len(arr) > openAIEnumCharsAboveCount && chars > openAIMaxEnumStringChars {
					r.add(join(n.path, "enum"), "%d string values totalling %d characters: an enum of more than %d values may total at most %d characters",
						len(arr), chars, openAIEnumCharsAboveCount, openAIMaxEnumStringChars)
				}
			}
		}
		if s, isStr := n.m["const"].(string); isStr {
			stringChars += utf8.RuneCountInString(s)
		}
		if n.depth > openAIMaxDepth && isObjectSchema(n.m) && !depthReported {
			depthReported = true
			r.add(n.path, "object nested %d levels deep: a schema may have up to %d levels of nesting", n.depth, openAIMaxDepth)
		}
		if isObjectSchema(n.m) {
			openAIStrictObject(r, n, &properties, &stringChars)
		}
	})
	if properties > openAIMaxProperties {
		r.add(path, "%d object properties: a schema may have up to %d object properties total", properties, openAIMaxProperties)
	}
	if enumValues > openAIMaxEnumValues {
		r.add(path, "%d enum values: a schema may have up to %d enum values across all enum properties", enumValues, openAIMaxEnumValues)
	}
	if stringChars > openAIMaxStringChars {
		r.add(path, "%d characters of property names, definition names, enum values and const values: the total may not exceed %d", stringChars, openAIMaxStringChars)
	}
}

// openAIStrictObject checks one object schema in strict mode:
// "additionalProperties: false must always be set in objects" and "All
// fields must be required" (Structured Outputs supported schemas; the
// function-calling guide's "Strict mode" says the same).
func openAIStrictObject(r *report, n schemaNode, properties, stringChars *int) {
	ap, present := n.m["additionalProperties"]
	if b, isBool := ap.(bool); !present || !isBool || b {
		r.add(join(n.path, "additionalProperties"), "must be false in every object (\"additionalProperties: false must always be set in objects\")")
	}
	props, _ := n.m["properties"].(map[string]any)
	*properties += len(props)
	for name := range props {
		*stringChars += utf8.RuneCountInString(name)
	}
	required := map[string]bool{}
	if req, present := n.m["required"]; present {
		arr, isArr := req.([]any)
		if !isArr {
			r.add(join(n.path, "required"), "must be an array of property names, not %s", kind(req))
		}
		for _, v := range arr {
			if s, isStr := v.(string); isStr {
				required[s] = true
			}
		}
	}
	for _, name := range sortedKeys(props) {
		if !required[name] {
			r.add(join(n.path, "required"), "property %q is not listed: all fields must be required (write an optional field as a union with null)", name)
		}
	}
}

// openAIType checks the value of a type keyword in strict mode.
func openAIType(r *report, t any, path string) {
	check := func(v any) {
		s, isStr := v.(string)
		if !isStr || !slices.Contains(openAITypes, s) {
			r.add(path, "type %v is not one of the supported types %v", v, openAITypes)
		}
	}
	switch t := t.(type) {
	case []any:
		if len(t) == 0 {
			r.add(path, "a type array must not be empty")
		}
		seen := map[string]bool{}
		for _, v := range t {
			check(v)
			if s, isStr := v.(string); isStr {
				if seen[s] {
					r.add(path, "type %q is listed twice", s)
				}
				seen[s] = true
			}
		}
	default:
		check(t)
	}
}
