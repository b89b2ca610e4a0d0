// Package export writes a catalog's tools as the tool definitions a model
// vendor's API takes: OpenAI's Responses API (functions in one namespace
// per family, deferred, strict, with tool search), Anthropic's Messages API
// (deferred, with the tool search tool, strict when the request stays
// within Anthropic's strict limits), Gemini's function declarations and
// MCP's tools/list result.
//
// A vendor's strict mode accepts a subset of JSON Schema. What the catalog's
// schema says and the subset lacks (OpenAI: minLength, maxLength, most
// formats, title, default, examples; Anthropic: the length and numeric
// bounds, maxItems, minItems over 1, some formats) leaves the schema and is
// written into the property's description, where the model reads it; the
// catalog itself does not change, so validate_arguments still checks all of
// it before the call. Where a vendor wants every property required (OpenAI
// strict), an optional property is written nullable (its enum, if any,
// takes null too) and listed in the document's catalogkit member: a host
// drops a listed property whose value is null, then validates the
// arguments. Null is how the model says absent, so an optional property
// that was nullable already loses its explicit null: it arrives absent,
// which the catalog accepts as well.
//
// Names: OpenAI and Anthropic take ^[a-zA-Z0-9_-]{1,64}$. A name that fits
// is kept; another has each character outside the rule (a dot) written as
// an underscore, and when that is over 64 characters or taken by another
// tool, its first 55 characters, an underscore and the first 8 hex digits
// of the SHA-256 of the catalog name. Every renamed tool is listed in the
// catalogkit member (vendor name → catalog name), and the rule is a
// function of the catalog alone, so the mapping is reversible both ways.
// Gemini and MCP take every catalog name as it is.
package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// The vendors, as --for names them.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Gemini    = "gemini"
	MCP       = "mcp"
)

// Vendors lists the vendors in the order the usage names them.
var Vendors = []string{OpenAI, Anthropic, Gemini, MCP}

// Anthropic's limits on strict tools in one request ("Explicit limits" of
// its structured outputs page).
const (
	anthropicMaxStrictTools = 20
	anthropicMaxOptional    = 24
	anthropicMaxUnions      = 16
)

// A Result is one export: the document (indented JSON with a final
// newline) and a line for every tool the export changed.
type Result struct {
	Document []byte
	Lines    []string
	// Tools is how many tools the document holds.
	Tools int
	// Strict reports whether the document's functions are strict; Why
	// says why not, where the vendor has a strict mode.
	Strict bool
	Why    string
}

// vendorName is OpenAI's and Anthropic's rule for a function name.
var vendorName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Export writes the enabled tools of family ("all" for every family) of the
// compiled catalog c for vendor. Its errors are those of c.Discover, and an
// unknown vendor.
func Export(c *catalog.Catalog, vendor, family string) (*Result, error) {
	if !slices.Contains(Vendors, vendor) {
		return nil, fmt.Errorf("unknown vendor %q: want one of %s", vendor, strings.Join(Vendors, ", "))
	}
	descs, err := c.Discover(family)
	if err != nil {
		return nil, err
	}
	e := &exporter{vendor: vendor, res: &Result{Tools: len(descs)}}
	names := make([]string, len(descs))
	for i, d := range descs {
		names[i] = d.Name
	}
	e.names = mapNames(names, vendor)
	tools := make([]tool, len(descs))
	for i, d := range descs {
		tools[i] = e.tool(d)
	}
	e.res.Document = e.document(c, descs, tools)
	return e.res, nil
}

// A tool is one exported tool: its parts, ready to be written.
type tool struct {
	name, description string
	schema            []byte
	// nullable lists the paths of the optional properties written
	// nullable; optional and unions count them for Anthropic's limits.
	nullable         []string
	optional, unions int
}

type exporter struct {
	vendor string
	names  map[string]string // catalog name → vendor name
	res    *Result
}

// strict reports whether the vendor's strict subset applies.
func (e *exporter) strict() bool { return e.vendor == OpenAI || e.vendor == Anthropic }

func (e *exporter) tool(d catalog.Description) tool {
	schema := schemaOf(d)
	t := tool{name: e.names[d.Name], description: d.Text}
	if t.name != d.Name {
		e.res.Lines = append(e.res.Lines, fmt.Sprintf("%s: named %s (%s's names are ^[a-zA-Z0-9_-]{1,64}$)", d.Name, t.name, e.vendor))
	}
	if !e.strict() {
		t.schema = []byte(schema.String())
		return t
	}
	w := &walker{vendor: e.vendor, t: &t}
	var rootNotes []string
	t.schema = w.walk(schema, "arguments", false, &rootNotes)
	t.description = appendNotes(t.description, rootNotes)
	for _, m := range w.moved {
		e.res.Lines = append(e.res.Lines, d.Name+": "+m)
	}
	if len(t.nullable) > 0 {
		e.res.Lines = append(e.res.Lines, fmt.Sprintf("%s: optional, so written nullable (null means absent): %s", d.Name, strings.Join(t.nullable, ", ")))
	}
	return t
}

// schemaOf returns a tool's input schema as its description writes it.
func schemaOf(d catalog.Description) catalog.Value {
	if s, ok := d.InputSchema2(); ok {
		return s
	}
	j, _ := d.MarshalJSON()
	v, err := catalog.ParseJSON(j)
	if err != nil {
		panic("export: internal error: a description is not JSON: " + err.Error())
	}
	s, _ := v.Lookup("inputSchema")
	return s
}

// mapNames maps every catalog name to the vendor's, by the rule of the
// package documentation.
func mapNames(names []string, vendor string) map[string]string {
	out := make(map[string]string, len(names))
	taken := map[string]bool{}
	for _, name := range names {
		if vendor == Gemini || vendor == MCP || vendorName.MatchString(name) {
			out[name] = name
			taken[name] = true
		}
	}
	for _, name := range names {
		if _, ok := out[name]; ok {
			continue
		}
		n := strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				return r
			}
			return '_'
		}, name)
		if len(n) > 64 || taken[n] {
			sum := sha256.Sum256([]byte(name))
			n = n[:min(len(n), 55)] + "_" + hex.EncodeToString(sum[:4])
		}
		if taken[n] {
			panic(fmt.Sprintf("export: two catalog names map to %s", n)) // 2^-32 per pair
		}
		out[name] = n
		taken[n] = true
	}
	return out
}

// The keywords each strict subset keeps; everything else moves into the
// description (see the package documentation).
var (
	openAIKeeps    = []string{"type", "anyOf", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "items", "minItems", "maxItems", "properties", "required", "additionalProperties", "description", "format"}
	anthropicKeeps = []string{"type", "anyOf", "enum", "const", "items", "minItems", "properties", "required", "additionalProperties", "description", "format", "default"}
	openAIFormats  = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	// Anthropic's formats are OpenAI's and uri.
	anthropicFormats = append(slices.Clone(openAIFormats), "uri")
)

// A walker writes one tool's schema in a strict subset.
type walker struct {
	vendor string
	t      *tool
	moved  []string // "PATH: keyword value moved into the description"
}

// keeps reports whether the subset keeps keyword k with value v.
func (w *walker) keeps(k string, v catalog.Value) bool {
	switch {
	case k == "format":
		s, _ := v.Str()
		if w.vendor == OpenAI {
			return slices.Contains(openAIFormats, s)
		}
		return slices.Contains(anthropicFormats, s)
	case w.vendor == OpenAI:
		return slices.Contains(openAIKeeps, k)
	case k == "minItems":
		n, _ := v.NumberLiteral()
		return n == "0" || n == "1"
	case k == "enum":
		return !slices.ContainsFunc(elements(v), compound) // Anthropic's enums are of scalars
	case k == "const" || k == "default":
		return !compound(v)
	}
	return slices.Contains(anthropicKeeps, k)
}

// walk writes schema s, at path; nullable says to write it nullable (an
// optional property under OpenAI's every-property-required rule) and to
// list it, nullable already or not. Notes on
// what left the schema go to notes, for the description of the property or
// the tool that holds s.
func (w *walker) walk(s catalog.Value, path string, nullable bool, notes *[]string) []byte {
	if nullable {
		// Null from the model means absent, whether or not the schema
		// was nullable already: the host drops it.
		w.t.nullable = append(w.t.nullable, path)
	}
	if anyOf, ok := s.Lookup("anyOf"); ok {
		// anyOf [S, {"type": "null"}]: already nullable; S is walked, the
		// null branch written as it is, annotations beside handled below.
		var parts []string
		for i := range anyOf.Len() {
			b := anyOf.Index(i)
			if t, _ := b.Lookup("type"); b.Len() == 1 && t.String() == `"null"` {
				parts = append(parts, b.String())
				continue
			}
			var inner []string
			branch := w.walk(b, path, false, &inner)
			*notes = append(*notes, inner...)
			parts = append(parts, string(branch))
		}
		return w.object(s, path, notes, func(k string, _ catalog.Value) (string, string, bool) {
			if k == "anyOf" {
				return k, "[" + strings.Join(parts, ",") + "]", true
			}
			return "", "", false
		}, "")
	}
	props, hasProps := s.Lookup("properties")
	required, _ := s.Lookup("required")
	isRequired := func(name string) bool {
		for i := range required.Len() {
			if r, _ := required.Index(i).Str(); r == name {
				return true
			}
		}
		return false
	}
	typ, _ := s.Lookup("type")
	_, hasNull := typeNames(typ)
	makeNullable := nullable && !hasNull
	// Every property required under OpenAI's rule, where the schema has
	// no required of its own to rewrite.
	addRequired := ""
	if _, ok := s.Lookup("required"); !ok && hasProps && props.Len() > 0 && w.vendor == OpenAI {
		addRequired = allNames(props)
	}
	return w.object(s, path, notes, func(k string, v catalog.Value) (string, string, bool) {
		switch k {
		case "type":
			if makeNullable {
				return k, "[" + v.String() + `,"null"]`, true
			}
		case "enum":
			// An optional property's null must pass its enum too, nullable
			// type or not: it is how the model says absent.
			if nullable && !slices.ContainsFunc(elements(v), isNull) {
				return k, strings.TrimSuffix(v.String(), "]") + ",null]", true
			}
		case "const":
			if nullable && !isNull(v) {
				return "enum", "[" + v.String() + ",null]", true
			}
		case "properties":
			var out []string
			for i := range props.Len() {
				name := props.Key(i)
				var inner []string
				optional := !isRequired(name)
				if optional {
					w.t.optional++
				}
				p := props.Index(i)
				if _, isAnyOf := p.Lookup("anyOf"); isAnyOf || isNullableType(p) {
					w.t.unions++
				}
				written := w.walk(p, path+"."+name, optional && w.vendor == OpenAI, &inner)
				out = append(out, string(catalog.AppendQuote(nil, name))+":"+string(withNotes(written, inner)))
			}
			return k, "{" + strings.Join(out, ",") + "}", true
		case "required":
			if w.vendor == OpenAI && hasProps {
				return k, allNames(props), true
			}
		case "items":
			var inner []string
			written := w.walk(v, path+"[*]", false, &inner)
			return k, string(withNotes(written, inner)), true
		}
		return "", "", false
	}, addRequired)
}

// allNames is the JSON array of the names of properties, in order.
func allNames(props catalog.Value) string {
	all := make([]string, props.Len())
	for i := range all {
		all[i] = string(catalog.AppendQuote(nil, props.Key(i)))
	}
	return "[" + strings.Join(all, ",") + "]"
}

// object writes the members of schema s that the subset keeps, in order,
// each as rewrite says (when it says: under its key, or another), and
// moves the others into notes; then required, when addRequired is the
// list the schema lacks.
func (w *walker) object(s catalog.Value, path string, notes *[]string, rewrite func(k string, v catalog.Value) (key, text string, ok bool), addRequired string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	member := func(k, text string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(catalog.AppendQuote(nil, k))
		b.WriteByte(':')
		b.WriteString(text)
	}
	for i := range s.Len() {
		k, v := s.Key(i), s.Index(i)
		if k == "$schema" {
			continue // what dialect the schema is: the vendor's own
		}
		if !w.keeps(k, v) {
			*notes = append(*notes, k+" "+v.String())
			w.moved = append(w.moved, fmt.Sprintf("%s: %s %s moved into the description", path, k, clip(v.String())))
			continue
		}
		if key, text, ok := rewrite(k, v); ok {
			member(key, text)
		} else {
			member(k, v.String())
		}
	}
	if addRequired != "" {
		member("required", addRequired)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// withNotes adds notes to the description of the schema written: appended
// to its description, or as a new one.
func withNotes(schema []byte, notes []string) []byte {
	if len(notes) == 0 {
		return schema
	}
	v, err := catalog.ParseJSON(schema)
	if err != nil {
		panic("export: internal error: a schema written is not JSON: " + err.Error())
	}
	old := ""
	if d, ok := v.Lookup("description"); ok {
		old, _ = d.Str()
	}
	desc := catalog.AppendQuote(nil, appendNotes(old, notes))
	var b bytes.Buffer
	b.WriteByte('{')
	found := false
	for i := range v.Len() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(catalog.AppendQuote(nil, v.Key(i)))
		b.WriteByte(':')
		if v.Key(i) == "description" {
			b.Write(desc)
			found = true
		} else {
			b.WriteString(v.Index(i).String())
		}
	}
	if !found {
		if v.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"description":`)
		b.Write(desc)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// appendNotes writes what left a schema after its description.
func appendNotes(desc string, notes []string) string {
	if len(notes) == 0 {
		return desc
	}
	if desc != "" && !strings.HasSuffix(desc, " ") && !strings.HasSuffix(desc, "\n") {
		desc += " "
	}
	return desc + "(" + strings.Join(notes, "; ") + ")"
}

// document writes the vendor's document.
func (e *exporter) document(c *catalog.Catalog, descs []catalog.Description, tools []tool) []byte {
	var items []any
	side := map[string]any{"vendor": e.vendor}
	renamed := map[string]string{}
	nullable := map[string][]string{}
	for i, d := range descs {
		if tools[i].name != d.Name {
			renamed[tools[i].name] = d.Name
		}
		if len(tools[i].nullable) > 0 {
			nullable[tools[i].name] = tools[i].nullable
		}
	}
	switch e.vendor {
	case OpenAI:
		e.res.Strict = true
		var order []string
		byFamily := map[string][]any{}
		for i, d := range descs {
			if _, ok := byFamily[d.Family]; !ok {
				order = append(order, d.Family)
			}
			byFamily[d.Family] = append(byFamily[d.Family], obj("type", "function", "name", tools[i].name, "description", tools[i].description,
				"parameters", json.RawMessage(tools[i].schema), "strict", true, "defer_loading", true))
		}
		namespaces := mapNames(order, OpenAI)
		for _, f := range order {
			about, ok := c.FamilyDescription(f)
			if !ok {
				about = "The " + f + " tools."
			}
			items = append(items, obj("type", "namespace", "name", namespaces[f], "description", about, "tools", byFamily[f]))
		}
		items = append(items, obj("type", "tool_search"))
	case Anthropic:
		optional, unions := 0, 0
		for _, t := range tools {
			optional += t.optional
			unions += t.unions
		}
		switch {
		case len(tools) > anthropicMaxStrictTools:
			e.res.Why = fmt.Sprintf("%d tools, over Anthropic's %d strict tools per request", len(tools), anthropicMaxStrictTools)
		case optional > anthropicMaxOptional:
			e.res.Why = fmt.Sprintf("%d optional properties, over Anthropic's %d per request", optional, anthropicMaxOptional)
		case unions > anthropicMaxUnions:
			e.res.Why = fmt.Sprintf("%d nullable properties, over Anthropic's %d union-typed per request", unions, anthropicMaxUnions)
		default:
			e.res.Strict = true
		}
		// The tool search tool is not deferred, as Anthropic requires of
		// at least one tool.
		items = append(items, obj("type", "tool_search_tool_regex_20251119", "name", "tool_search_tool_regex"))
		for i := range descs {
			t := obj("name", tools[i].name, "description", tools[i].description, "input_schema", json.RawMessage(tools[i].schema))
			if e.res.Strict {
				t = append(t, kv{"strict", true})
			}
			items = append(items, append(t, kv{"defer_loading", true}))
		}
	case Gemini:
		decls := []any{}
		for i := range descs {
			decls = append(decls, obj("name", tools[i].name, "description", tools[i].description, "parametersJsonSchema", json.RawMessage(tools[i].schema)))
		}
		items = append(items, obj("functionDeclarations", decls))
	case MCP:
		for i, d := range descs {
			t := obj("name", d.Name)
			if d.Title != "" {
				t = append(t, kv{"title", d.Title})
			}
			t = append(t, kv{"description", tools[i].description}, kv{"inputSchema", json.RawMessage(tools[i].schema)})
			if d.Hints != nil {
				var hints ordered
				for _, h := range d.Hints {
					hints = append(hints, kv{h.Name, h.Value})
				}
				t = append(t, kv{"annotations", hints})
			}
			items = append(items, t)
		}
	}
	if items == nil {
		items = []any{}
	}
	doc := ordered{{"tools", items}}
	if e.vendor == MCP {
		// Revision 2026-07-28's ListToolsResult; older clients ignore
		// the members they do not know.
		doc = ordered{{"resultType", "complete"}, {"ttlMs", 0}, {"cacheScope", "public"}, {"tools", items}}
	}
	if len(renamed) > 0 {
		side["names"] = renamed
	}
	if len(nullable) > 0 {
		side["nullable_optional"] = nullable
	}
	if e.vendor == Anthropic || e.vendor == OpenAI {
		side["strict"] = e.res.Strict
	}
	doc = append(doc, kv{"catalogkit", side})
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("export: internal error: " + err.Error())
	}
	return append(b, '\n')
}

// An ordered is a JSON object that keeps its members' order.
type ordered []kv

type kv struct {
	k string
	v any
}

func obj(pairs ...any) ordered {
	var o ordered
	for i := 0; i < len(pairs); i += 2 {
		o = append(o, kv{pairs[i].(string), pairs[i+1]})
	}
	return o
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(catalog.AppendQuote(nil, m.k))
		b.WriteByte(':')
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// typeNames returns a type's name and whether it is nullable ([T, "null"]).
func typeNames(t catalog.Value) (string, bool) {
	if s, ok := t.Str(); ok {
		return s, false
	}
	for i := range t.Len() {
		if s, _ := t.Index(i).Str(); s != "null" {
			return s, true
		}
	}
	return "", false
}

func isNullableType(s catalog.Value) bool {
	t, _ := s.Lookup("type")
	_, n := typeNames(t)
	return n
}

func isNull(v catalog.Value) bool { return v.Kind() == catalog.Null }

// compound reports whether v is an object or an array.
func compound(v catalog.Value) bool { return v.Kind() == catalog.Object || v.Kind() == catalog.Array }

// elements returns an array's elements.
func elements(v catalog.Value) []catalog.Value {
	out := make([]catalog.Value, v.Len())
	for i := range out {
		out[i] = v.Index(i)
	}
	return out
}

// clip shortens a value quoted in a report line, at a whole character.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	return termsafe.Cut(s, 57) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
