package vendorcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// A Problem is one broken rule in a document.
type Problem struct {
	// Path is where in the document the rule is broken, written as member
	// names joined by dots and array indexes in brackets, for example
	// tools[2].parameters.properties.path.maxLength. It is empty for the
	// document as a whole.
	Path string
	// Rule says what is wrong and which documented rule it breaks.
	Rule string
}

// String returns the problem as "path: rule".
func (p Problem) String() string {
	if p.Path == "" {
		return "(document): " + p.Rule
	}
	return p.Path + ": " + p.Rule
}

// report collects problems in the order they are found.
type report struct {
	problems []Problem
}

func (r *report) add(path, format string, args ...any) {
	r.problems = append(r.problems, Problem{Path: path, Rule: fmt.Sprintf(format, args...)})
}

// decode parses doc as one JSON value, keeping numbers as json.Number.
func decode(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the first JSON value")
	}
	return v, nil
}

// toolsArray decodes doc, which must be an object with a "tools" array, and
// returns the root object and the array. On failure it records the problem
// and returns ok false.
func toolsArray(doc []byte, r *report) (root map[string]any, tools []any, ok bool) {
	v, err := decode(doc)
	if err != nil {
		r.add("", "not a JSON document: %v", err)
		return nil, nil, false
	}
	root, isObj := v.(map[string]any)
	if !isObj {
		r.add("", "the document must be a JSON object with a tools member")
		return nil, nil, false
	}
	t, present := root["tools"]
	if !present {
		r.add("tools", "missing: the document must have a tools array")
		return root, nil, false
	}
	tools, isArr := t.([]any)
	if !isArr {
		r.add("tools", "must be an array")
		return root, nil, false
	}
	return root, tools, true
}

// join appends a member name to a path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// index appends an array index to a path.
func index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// sortedKeys returns the keys of m in sorted order, so that problems come
// out in a stable order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// kind names the JSON type of a decoded value, for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// optString checks that member name of obj, if present, is a string.
func optString(r *report, obj map[string]any, path, name string) {
	if v, ok := obj[name]; ok {
		if _, isStr := v.(string); !isStr {
			r.add(join(path, name), "must be a string, not %s", kind(v))
		}
	}
}

// optBool checks that member name of obj, if present, is a boolean.
func optBool(r *report, obj map[string]any, path, name string) {
	if v, ok := obj[name]; ok {
		if _, isBool := v.(bool); !isBool {
			r.add(join(path, name), "must be a boolean, not %s", kind(v))
		}
	}
}

// reqString checks that member name of obj is present and a string, and
// returns it.
func reqString(r *report, obj map[string]any, path, name string) (string, bool) {
	v, ok := obj[name]
	if !ok {
		r.add(join(path, name), "missing: required member")
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		r.add(join(path, name), "must be a string, not %s", kind(v))
		return "", false
	}
	return s, true
}

// unknownMembers reports every member of obj not in allowed.
func unknownMembers(r *report, obj map[string]any, path string, allowed []string, source string) {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(allowed, k) {
			r.add(join(path, k), "not a member %s documents (%s)", source, strings.Join(allowed, ", "))
		}
	}
}

// isTrue reports whether v is the JSON value true.
func isTrue(v any) bool {
	b, ok := v.(bool)
	return ok && b
}

// schemaNode is one subschema met while walking a JSON Schema.
type schemaNode struct {
	// m is the subschema, or nil when it is not a JSON object (a boolean
	// schema, or a value of the wrong type).
	m    map[string]any
	raw  any
	path string
	// depth counts the object schemas on the way from the root to this
	// node, this node included when it is an object schema.
	depth int
	root  bool
	// parentKeyword is the keyword under which the node was found: "" for
	// the root, else "properties", "items", "anyOf" and so on.
	parentKeyword string
	// key is the member name under a map keyword such as properties or
	// $defs, else "".
	key string
}

// Keywords whose value is one subschema, a map of subschemas, or an array
// of subschemas (JSON Schema 2020-12 and draft-07 spellings).
var (
	singleSchemaKeywords = []string{"items", "additionalProperties", "not", "if", "then", "else",
		"contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	mapSchemaKeywords   = []string{"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"}
	arraySchemaKeywords = []string{"anyOf", "allOf", "oneOf", "prefixItems", "items"}
)

// typeNames returns the names in the type keyword of m (a string or an
// array of strings); ok is false when type is absent.
func typeNames(m map[string]any) (names []string, ok bool) {
	t, present := m["type"]
	if !present {
		return nil, false
	}
	switch t := t.(type) {
	case string:
		return []string{t}, true
	case []any:
		for _, e := range t {
			if s, isStr := e.(string); isStr {
				names = append(names, s)
			}
		}
		return names, true
	}
	return nil, true
}

// isObjectSchema reports whether m describes objects: its type is or
// includes "object", or it has no type but has properties.
func isObjectSchema(m map[string]any) bool {
	names, ok := typeNames(m)
	if !ok {
		_, hasProps := m["properties"]
		return hasProps
	}
	return slices.Contains(names, "object")
}

// walkSchema calls fn for the schema v and for every subschema inside it,
// parents before children, members in sorted order.
func walkSchema(v any, path string, fn func(schemaNode)) {
	walk(v, path, 0, true, "", "", fn)
}

func walk(v any, path string, parentDepth int, root bool, parentKeyword, key string, fn func(schemaNode)) {
	m, _ := v.(map[string]any)
	depth := parentDepth
	if m != nil && isObjectSchema(m) {
		depth++
	}
	fn(schemaNode{m: m, raw: v, path: path, depth: depth, root: root, parentKeyword: parentKeyword, key: key})
	if m == nil {
		return
	}
	for _, k := range sortedKeys(m) {
		sub := m[k]
		p := join(path, k)
		switch {
		case slices.Contains(mapSchemaKeywords, k):
			if mm, ok := sub.(map[string]any); ok {
				for _, name := range sortedKeys(mm) {
					walk(mm[name], join(p, name), depth, false, k, name, fn)
				}
			}
		case slices.Contains(singleSchemaKeywords, k) || slices.Contains(arraySchemaKeywords, k):
			switch s := sub.(type) {
			case map[string]any:
				if slices.Contains(singleSchemaKeywords, k) {
					walk(s, p, depth, false, k, "", fn)
				}
			case bool:
				if slices.Contains(singleSchemaKeywords, k) && k != "additionalProperties" {
					walk(s, p, depth, false, k, "", fn)
				}
			case []any:
				if slices.Contains(arraySchemaKeywords, k) {
					for i, e := range s {
						walk(e, index(p, i), depth, false, k, "", fn)
					}
				}
			}
		}
	}
}

// requireObjectRoot checks that a parameters schema is a JSON object whose
// type is "object".
func requireObjectRoot(r *report, schema any, path, source string) (map[string]any, bool) {
	m, ok := schema.(map[string]any)
	if !ok {
		r.add(path, "must be a JSON Schema object, not %s (%s)", kind(schema), source)
		return nil, false
	}
	t, present := m["type"]
	if !present {
		r.add(join(path, "type"), "missing: the root schema must have type \"object\" (%s)", source)
		return m, false
	}
	if s, isStr := t.(string); !isStr || s != "object" {
		r.add(join(path, "type"), "the root schema's type must be \"object\" (%s)", source)
		return m, false
	}
	return m, true
}

// objects yields the elements of arr that are JSON objects, each with its
// path (path[i]), and reports every other element as what must be an
// object.
func objects(r *report, arr []any, path, what string) iter.Seq2[string, map[string]any] {
	return func(yield func(string, map[string]any) bool) {
		for i, e := range arr {
			p := index(path, i)
			obj, ok := e.(map[string]any)
			if !ok {
				r.add(p, "%s must be a JSON object, not %s", what, kind(e))
				continue
			}
			if !yield(p, obj) {
				return
			}
		}
	}
}
