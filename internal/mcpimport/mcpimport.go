// Package mcpimport turns the tools an MCP server lists (the result of its
// tools/list, as the MCP Inspector or any client saves it) into a format-2
// catalog (package catalog, "Format 2"), and says for every tool what
// became of it: imported exactly, imported with a change (which), or
// refused (which rule, where, why). Nothing is silent: a tool is never
// dropped or changed without a line saying so, and the same input gives the
// same catalog and the same report.
//
// An imported tool accepts and refuses the arguments the server's schema
// does, but for what its line says and for the few values format 2 is
// stricter about (conformance/SPEC.md §12.5: 1.0 is not an integer, enum
// values compare by kind). A refused tool is left out; the others are
// imported.
package mcpimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
)

// Options say which family each tool goes into.
type Options struct {
	// Families maps a tool's name to its family.
	Families map[string]string
	// Family is the family of every tool Families does not name; "" means
	// such a tool is refused.
	Family string
	// Descriptions maps a family to its description, written into the
	// catalog's families.
	Descriptions map[string]string
	// Server is the name a host knows the server by: every tool imported
	// gets the origin {"server": Server, "tool": its name}, so a host
	// knows which tool of which server to call. "" writes no origin.
	Server string
}

// An Outcome is what became of one tool.
type Outcome string

// The outcomes, as the report writes them.
const (
	Exact   Outcome = "imported exactly"
	Changed Outcome = "imported with a change"
	Refused Outcome = "refused"
)

// A Line is the report of one tool.
type Line struct {
	Tool    string
	Outcome Outcome
	// Changes says what an import with a change changed; Notes what the
	// importer chose that the server did not say (the effect).
	Changes []string
	Notes   []string
	// Why says why a tool was refused: a catalog error with its code and
	// path, or the importer's own reason.
	Why string
}

// String is the line as the report prints it.
func (l Line) String() string {
	s := fmt.Sprintf("%-22s %s", l.Outcome, l.Tool)
	switch {
	case l.Outcome == Refused:
		s += ": " + l.Why
	case len(l.Changes) > 0:
		s += ": " + strings.Join(l.Changes, "; ")
	}
	if len(l.Notes) > 0 {
		s += " (" + strings.Join(l.Notes, "; ") + ")"
	}
	return s
}

// A Result is an import: the catalog, indented JSON with a final newline,
// and a line for every tool in the order the server lists them.
type Result struct {
	Catalog []byte
	Lines   []Line
}

// Count returns how many tools had the outcome o.
func (r *Result) Count(o Outcome) int {
	n := 0
	for _, l := range r.Lines {
		if l.Outcome == o {
			n++
		}
	}
	return n
}

// An InputError says the input is not a tools/list result.
type InputError struct{ Detail string }

func (e *InputError) Error() string { return "not a tools/list result: " + e.Detail }

// Import reads a tools/list result (an object with a tools array, or a
// JSON-RPC response whose result is one) and imports its tools.
func Import(data []byte, opts Options) (*Result, error) {
	v, err := catalog.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	if r, ok := v.Lookup("result"); ok && v.Kind() == catalog.Object {
		v = r
	}
	tools, ok := v.Lookup("tools")
	if v.Kind() != catalog.Object || !ok || tools.Kind() != catalog.Array {
		return nil, &InputError{Detail: "want an object with a tools array (what tools/list returns), or a JSON-RPC response whose result is one"}
	}
	res := &Result{}
	seen := map[string]bool{}
	var kept [][]byte
	for i := range tools.Len() {
		line, tool := importTool(tools.Index(i), i, opts, seen)
		res.Lines = append(res.Lines, line)
		if line.Outcome != Refused {
			kept = append(kept, tool)
		}
	}
	res.Catalog = writeCatalog(kept, opts)
	// The whole catalog is checked again, as any reader will check it.
	if _, err := catalog.Parse(res.Catalog); err != nil {
		return nil, fmt.Errorf("internal error: the imported catalog does not check: %v", err)
	}
	return res, nil
}

// importTool converts tool i, or says why it cannot be imported.
func importTool(t catalog.Value, i int, opts Options, seen map[string]bool) (Line, []byte) {
	name, _ := t.Lookup("name")
	line := Line{Tool: name.String()}
	if s, ok := name.Str(); ok {
		line.Tool = s
	}
	refuse := func(format string, args ...any) (Line, []byte) {
		line.Outcome, line.Why = Refused, fmt.Sprintf(format, args...)
		return line, nil
	}
	if t.Kind() != catalog.Object {
		return refuse("tool %d is %s, not an object", i, t.String())
	}
	s, ok := name.Str()
	switch {
	case !ok:
		return refuse("tool %d has no name", i)
	case !catalog.IsToolName2(s):
		return refuse("INVALID_LABEL: the name is not a format-2 tool name (^[A-Za-z][A-Za-z0-9._-]{0,127}$)")
	case seen[s]:
		return refuse("DUPLICATE_TOOL: an earlier tool has this name")
	}
	seen[s] = true
	family, ok := opts.Families[s]
	if !ok {
		family = opts.Family
	}
	if family == "" {
		return refuse("no family: give --family, or map the tool in --families")
	}
	for k := range members(t) {
		if !containsString([]string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "icons"}, k) {
			line.Changes = append(line.Changes, fmt.Sprintf("%s dropped (not a member of an MCP tool)", k))
		}
	}
	if _, ok := t.Lookup("outputSchema"); ok {
		line.Notes = append(line.Notes, "outputSchema left out: a catalog checks what a call sends, not what it returns")
	}

	var b bytes.Buffer
	b.WriteString(`{"name":`)
	b.WriteString(quote(s))
	b.WriteString(`,"family":`)
	b.WriteString(quote(family))
	ann, hasAnn := t.Lookup("annotations")
	readOnly, _ := lookupBool(ann, "readOnlyHint")
	if readOnly {
		b.WriteString(`,"effect":"read"`)
		line.Notes = append(line.Notes, "effect read: readOnlyHint")
	} else {
		b.WriteString(`,"effect":"change"`)
		line.Notes = append(line.Notes, "effect change: the server does not say readOnlyHint")
	}
	b.WriteString(`,"enabled":true`)
	title, hasTitle := t.Lookup("title")
	if !hasTitle && hasAnn {
		title, hasTitle = ann.Lookup("title")
	}
	if hasTitle {
		b.WriteString(`,"title":`)
		b.WriteString(title.String())
	}
	b.WriteString(`,"description":`)
	if d, ok := t.Lookup("description"); ok {
		b.WriteString(d.String())
	} else {
		b.WriteString(`""`)
		line.Changes = append(line.Changes, `no description: imported as ""`)
	}
	if hasAnn && ann.Kind() == catalog.Object {
		var hints []string
		for k := range members(ann) {
			v, _ := ann.Lookup(k)
			switch {
			case k == "title":
			case containsString([]string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}, k) && v.Kind() == catalog.Bool:
				hints = append(hints, quote(k)+":"+v.String())
			default:
				line.Changes = append(line.Changes, fmt.Sprintf("annotation %s dropped", k))
			}
		}
		if len(hints) > 0 {
			b.WriteString(`,"annotations":{` + strings.Join(hints, ",") + `}`)
		}
	}
	if opts.Server != "" {
		b.WriteString(`,"origin":{"server":` + quote(opts.Server) + `,"tool":` + quote(s) + `}`)
	}
	b.WriteString(`,"inputSchema":`)
	schema, ok := t.Lookup("inputSchema")
	if !ok {
		return refuse("no inputSchema")
	}
	b.Write(convertSchema(schema, "inputSchema", true, &line.Changes))
	b.WriteString(`}`)

	// The tool, alone in a catalog, is checked as the catalog will be.
	one := append(append([]byte(`{"format":"catalogkit/2","tools":[`), b.Bytes()...), "]}"...)
	if _, err := catalog.Parse(one); err != nil {
		why := err.Error()
		if e, ok := err.(*catalog.Error); ok {
			why = fmt.Sprintf("%s at %s: %s", e.Code, strings.TrimPrefix(e.Path, "$.tools[0]."), e.Detail)
		}
		return refuse("%s", why)
	}
	line.Outcome = Exact
	if len(line.Changes) > 0 {
		line.Outcome = Changed
	}
	return line, b.Bytes()
}

// convertSchema writes the schema v, closing every object schema that is
// open: additionalProperties is added as false where it is missing, and
// made false where it is true, each change said. A root $schema that is not
// a dialect of the subset is dropped, and said. Everything else is written
// as the server wrote it, for the catalog's own check to judge.
func convertSchema(v catalog.Value, path string, root bool, changes *[]string) []byte {
	if v.Kind() != catalog.Object {
		return []byte(v.String())
	}
	var parts []string
	object, closed := isObjectSchema(v), false
	for k := range members(v) {
		x, _ := v.Lookup(k)
		p := path + "." + k
		switch k {
		case "$schema":
			if s, _ := x.Str(); root && !containsString(dialects, s) {
				*changes = append(*changes, fmt.Sprintf("$schema %s dropped (the subset is 2020-12 and draft-07)", x.String()))
				continue
			}
		case "properties":
			if x.Kind() == catalog.Object {
				var props []string
				for name := range members(x) {
					s, _ := x.Lookup(name)
					props = append(props, quote(name)+":"+string(convertSchema(s, p+"."+name, false, changes)))
				}
				parts = append(parts, quote(k)+":{"+strings.Join(props, ",")+"}")
				continue
			}
		case "items":
			parts = append(parts, quote(k)+":"+string(convertSchema(x, p, false, changes)))
			continue
		case "anyOf":
			if x.Kind() == catalog.Array {
				var alts []string
				for i := range x.Len() {
					alts = append(alts, string(convertSchema(x.Index(i), p+"["+strconv.Itoa(i)+"]", false, changes)))
				}
				parts = append(parts, quote(k)+":["+strings.Join(alts, ",")+"]")
				continue
			}
		case "additionalProperties":
			closed = true
			if b, ok := x.Bool(); ok && b && object {
				*changes = append(*changes, fmt.Sprintf("additionalProperties made false at %s (a key the schema does not name is now refused)", path))
				parts = append(parts, `"additionalProperties":false`)
				continue
			}
		}
		parts = append(parts, quote(k)+":"+x.String())
	}
	if object && !closed {
		*changes = append(*changes, fmt.Sprintf("additionalProperties: false added at %s (a key the schema does not name is now refused)", path))
		parts = append(parts, `"additionalProperties":false`)
	}
	return []byte("{" + strings.Join(parts, ",") + "}")
}

// dialects are the $schema values of the subset.
var dialects = []string{"https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"}

// isObjectSchema reports whether v says type object (or [object, null]).
func isObjectSchema(v catalog.Value) bool {
	t, _ := v.Lookup("type")
	if s, ok := t.Str(); ok {
		return s == "object"
	}
	for i := range t.Len() {
		if s, _ := t.Index(i).Str(); s == "object" && t.Kind() == catalog.Array {
			return true
		}
	}
	return false
}

// writeCatalog writes the format-2 catalog of the tools kept, indented.
func writeCatalog(tools [][]byte, opts Options) []byte {
	var b bytes.Buffer
	b.WriteString(`{"format":"catalogkit/2"`)
	if len(opts.Descriptions) > 0 {
		var fams []string
		for _, f := range sortedKeys(opts.Descriptions) {
			fams = append(fams, quote(f)+`:{"description":`+quote(opts.Descriptions[f])+`}`)
		}
		b.WriteString(`,"families":{` + strings.Join(fams, ",") + `}`)
	}
	b.WriteString(`,"tools":[`)
	b.Write(bytes.Join(tools, []byte(",")))
	b.WriteString(`]}`)
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		panic("mcpimport: the catalog written is not JSON: " + err.Error())
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// members yields an object's keys in order.
func members(v catalog.Value) func(func(string) bool) {
	return func(yield func(string) bool) {
		if v.Kind() != catalog.Object {
			return
		}
		for i := range v.Len() {
			if !yield(v.Key(i)) {
				return
			}
		}
	}
}

func lookupBool(v catalog.Value, key string) (bool, bool) {
	x, ok := v.Lookup(key)
	if !ok {
		return false, false
	}
	return x.Bool()
}

func quote(s string) string { return string(catalog.AppendQuote(nil, s)) }

func containsString(list []string, s string) bool { return slices.Contains(list, s) }

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
