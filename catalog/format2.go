package catalog

import (
	"strconv"
	"unicode/utf8"
)

// Format2 is the value of the "format" member of a format-2 catalog.
const Format2 = "catalogkit/2"

// The limits of a format-2 catalog.
const (
	// MaxNameLength2 is the longest tool name of a format-2 catalog.
	MaxNameLength2 = 128
	// MaxDescription is the most code points of a description (of a tool,
	// a family or a schema).
	MaxDescription = 8192
	// MaxTitle is the most code points of a title.
	MaxTitle = 256
	// MaxSchemaDepth is how deep schemas nest: the input schema is depth 1,
	// each property's or items' schema one deeper.
	MaxSchemaDepth = 10
	// MaxProperties is the most properties of one object schema.
	MaxProperties = 100
	// MaxPropertyName is the longest property name, in characters.
	MaxPropertyName = 64
	// MaxEnum is the most values of an enum.
	MaxEnum = 256
	// MaxBound is the largest minLength, maxLength, minItems or maxItems.
	MaxBound = MaxInputBytes
)

// IsToolName2 reports whether s is a tool name of a format-2 catalog:
// ^[A-Za-z][A-Za-z0-9._-]{0,127}$ in full. MCP servers name tools in camel
// case too (getTinyImage), which a label refuses.
func IsToolName2(s string) bool { return isName(s, MaxNameLength2, false) }

// isPropertyName reports whether s is a property name of a format-2
// schema: ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$ in full.
func isPropertyName(s string) bool { return isName(s, MaxPropertyName, true) }

// isName reports whether s is 1 to max ASCII characters, the first a
// letter (or an underscore, with underscore), the others letters, digits,
// '.', '_' or '-'.
func isName(s string, max int, underscore bool) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		switch {
		case letter, c == '_' && (underscore || i > 0):
		case i > 0 && ('0' <= c && c <= '9' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// formatOf tells a format-2 catalog from a format-1 one: an object whose
// format member is Format2. Anything else is checked as format 1, whose
// first rule refuses what is not an array.
func formatOf(cat Value) int {
	if cat.Kind() != Object {
		return 1
	}
	if f, ok := cat.Lookup("format"); ok && f.Kind() != Absent {
		return 2
	}
	return 1
}

// An Origin is where a format-2 tool comes from: the MCP server a host
// calls it through and the tool's name on that server. It describes; it
// grants nothing, and catalogkit never calls it.
type Origin struct {
	// Server is the name a host knows the server by (its key in the
	// host's MCP configuration, as given to import --server).
	Server string
	// Tool is the tool's name on that server, exactly as the server
	// lists it.
	Tool string
}

// MaxOriginText is the most code points of an origin's server or tool.
const MaxOriginText = 256

// A hint is one MCP tool annotation of a format-2 tool.
type Hint struct {
	Name  string // "readOnlyHint", "destructiveHint", "idempotentHint" or "openWorldHint"
	Value bool
}

// hintNames are the MCP tool annotations a format-2 tool may carry.
var hintNames = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// tool2Keys are the keys a format-2 tool definition may have; the first
// six it must.
var tool2Keys = []string{"name", "family", "effect", "enabled", "description", "inputSchema", "title", "annotations", "origin"}

// A compiled2 is a checked format-2 catalog.
type compiled2 struct {
	tools    []tool2
	families map[string]string // family → its description, for the families described
}

// A tool2 is a checked format-2 tool definition.
type tool2 struct {
	desc    Description
	enabled bool
	schema  *schemaNode
}

// checkCatalog2 checks a format-2 catalog in the order of the package
// documentation (G1 to G8) and compiles it.
func checkCatalog2(cat Value) (*compiled2, map[string]int, error) {
	// G1: the format and the members.
	f, _ := cat.Lookup("format")
	if s, ok := f.Str(); !ok || s != Format2 {
		return nil, nil, errorf(InvalidCatalog, "$.format", "format is %s, want %q (a format-1 catalog is an array)", brief(f), Format2)
	}
	for k := range cat.members() {
		if key := k.text(); key != "format" && key != "families" && key != "tools" {
			return nil, nil, errorf(InvalidCatalog, "$"+pathKey(key), "unknown member %s: a format-2 catalog has format, tools and, optionally, families", quoteShort(key))
		}
	}
	// G2: the tools.
	tools, _ := cat.Lookup("tools")
	if tools.Kind() != Array {
		return nil, nil, errorf(InvalidCatalog, "$.tools", "tools is %s, want an array of tool definitions", describeKind(tools.Kind()))
	}
	if tools.Len() > MaxTools {
		return nil, nil, errorf(InvalidCatalog, "$.tools", "catalog has %d tools, over the limit of %d", tools.Len(), MaxTools)
	}
	// G3: the families' descriptions.
	c := &compiled2{families: map[string]string{}}
	if fams, ok := cat.Lookup("families"); ok {
		if fams.Kind() != Object {
			return nil, nil, errorf(InvalidCatalog, "$.families", "families is %s, want an object: family → {\"description\": ...}", describeKind(fams.Kind()))
		}
		for k, v := range fams.members() {
			path := "$.families" + pathKey(k.text())
			if !k.has(flagLabel) {
				return nil, nil, errorf(InvalidLabel, path, "family %s is not a label (want ^[a-z][a-z0-9._-]{0,79}$)", quoteShort(k.text()))
			}
			d, ok := v.Lookup("description")
			if v.Kind() != Object || v.Len() != 1 || !ok {
				return nil, nil, errorf(InvalidMetadata, path, "a family is {\"description\": TEXT}, not %s", brief(v))
			}
			if err := checkText(d, path+".description", "description", MaxDescription); err != nil {
				return nil, nil, err
			}
			c.families[k.text()] = d.text()
		}
	}
	// G4 to G8, tool by tool.
	names := make(map[string]int, tools.Len())
	for tool := range tools.elems() {
		t, err := checkTool2(len(c.tools), tool, names)
		if err != nil {
			return nil, nil, err
		}
		c.tools = append(c.tools, t)
	}
	return c, names, nil
}

func tool2Path(i int) string { return "$.tools[" + strconv.Itoa(i) + "]" }

// checkTool2 checks tool i of a format-2 catalog (G4 to G8).
func checkTool2(i int, tool Value, names map[string]int) (tool2, error) {
	p := tool2Path(i)
	// G4: an object with the keys of a tool.
	if tool.Kind() != Object {
		return tool2{}, errorf(InvalidFields, p, "tool definition is a JSON %s, want an object", tool.Kind())
	}
	for k := range tool.members() {
		if !containsString(tool2Keys, k.text()) {
			return tool2{}, errorf(InvalidFields, p, "tool definition has keys %s, want name, family, effect, enabled, description, inputSchema and, optionally, title, annotations and origin%s", keyList(tool), keyMistakes(tool, tool2Keys))
		}
	}
	for _, k := range tool2Keys[:6] {
		if _, ok := tool.Lookup(k); !ok {
			return tool2{}, errorf(InvalidFields, p, "tool definition has keys %s, want name, family, effect, enabled, description, inputSchema and, optionally, title, annotations and origin: %q is missing", keyList(tool), k)
		}
	}
	get := func(k string) Value { v, _ := tool.Lookup(k); return v }
	name, family, effect, enabled := get("name"), get("family"), get("effect"), get("enabled")
	// G5: the name and the family.
	if s, ok := name.Str(); !ok || !IsToolName2(s) {
		return tool2{}, toolName2Error(p+".name", name)
	}
	if !isLabelValue(family) {
		return tool2{}, labelError(p+".family", "family", family)
	}
	// G6: a name used once.
	nameText := name.text()
	if _, dup := names[nameText]; dup {
		return tool2{}, errorf(DuplicateTool, p+".name", "tool name %q is already used by an earlier tool", nameText)
	}
	names[nameText] = i
	// G7: effect, enabled, description, title, annotations, origin.
	if w := effect.word(); w != wordRead && w != wordChange {
		return tool2{}, errorf(InvalidMetadata, p+".effect", "effect is %s, want \"read\" or \"change\"", brief(effect))
	}
	if enabled.Kind() != Bool {
		return tool2{}, errorf(InvalidMetadata, p+".enabled", "enabled is %s, want true or false", brief(enabled))
	}
	t := tool2{desc: Description{Name: nameText, Family: family.text(), Effect: effect.text()}}
	t.enabled, _ = enabled.Bool()
	if err := checkText(get("description"), p+".description", "description", MaxDescription); err != nil {
		return tool2{}, err
	}
	t.desc.Text = get("description").text()
	if title, ok := tool.Lookup("title"); ok {
		if err := checkText(title, p+".title", "title", MaxTitle); err != nil {
			return tool2{}, err
		}
		t.desc.Title, t.desc.titled = title.text(), true
	}
	if ann, ok := tool.Lookup("annotations"); ok {
		if ann.Kind() != Object {
			return tool2{}, errorf(InvalidMetadata, p+".annotations", "annotations is %s, want an object of %s", brief(ann), hintList())
		}
		t.desc.Hints = []Hint{}
		for k, v := range ann.members() {
			if !containsString(hintNames, k.text()) {
				return tool2{}, errorf(InvalidMetadata, p+".annotations"+pathKey(k.text()), "unknown annotation %s, want one of %s", quoteShort(k.text()), hintList())
			}
			b, ok := v.Bool()
			if !ok {
				return tool2{}, errorf(InvalidMetadata, p+".annotations"+pathKey(k.text()), "%s is %s, want true or false", k.text(), brief(v))
			}
			t.desc.Hints = append(t.desc.Hints, Hint{Name: k.text(), Value: b})
		}
	}
	if origin, ok := tool.Lookup("origin"); ok {
		o, err := checkOrigin(origin, p+".origin")
		if err != nil {
			return tool2{}, err
		}
		t.desc.Origin = o
	}
	// G8: the input schema, within the subset, an object at its root.
	schema := get("inputSchema")
	node, err := compileSchema(schema, p+".inputSchema", 1)
	if err != nil {
		return tool2{}, err
	}
	if node.typ != typeObject || node.nullable {
		return tool2{}, errorf(InvalidSpec, p+".inputSchema", "the input schema is %s, want an object schema: arguments are an object", node.describeType())
	}
	t.schema = node
	t.desc.schema = schema
	return t, nil
}

// checkOrigin checks an origin: an object of exactly server and tool, in
// either order, each a string of 1 to MaxOriginText code points, checked
// in the order written.
func checkOrigin(v Value, path string) (*Origin, error) {
	_, hasServer := v.Lookup("server")
	_, hasTool := v.Lookup("tool")
	if v.Kind() != Object || v.Len() != 2 || !hasServer || !hasTool {
		return nil, errorf(InvalidMetadata, path, "origin is %s, want {\"server\": NAME, \"tool\": NAME}: the MCP server a host calls the tool through and the tool's name there", brief(v))
	}
	o := &Origin{}
	for k, s := range v.members() {
		key := k.text()
		if err := checkText(s, path+"."+key, "origin "+key, MaxOriginText); err != nil {
			return nil, err
		}
		if s.text() == "" {
			return nil, errorf(InvalidMetadata, path+"."+key, "origin %s is empty, want the %s's name", key, key)
		}
		if key == "server" {
			o.Server = s.text()
		} else {
			o.Tool = s.text()
		}
	}
	return o, nil
}

// checkText checks a description or a title: a string of at most max code
// points.
func checkText(v Value, path, what string, max int) error {
	s, ok := v.Str()
	if !ok {
		return errorf(InvalidMetadata, path, "%s is %s, want a string", what, brief(v))
	}
	if n := utf8.RuneCountInString(s); n > max {
		return errorf(InvalidMetadata, path, "%s is %d code points, over the limit of %d", what, n, max)
	}
	return nil
}

func toolName2Error(path string, v Value) error {
	if v.Kind() != String {
		return errorf(InvalidLabel, path, "tool name is %s, want a name (^[A-Za-z][A-Za-z0-9._-]{0,127}$)", brief(v))
	}
	return errorf(InvalidLabel, path, "tool name %s is not a name (want ^[A-Za-z][A-Za-z0-9._-]{0,127}$)", quoteShort(v.text()))
}

func hintList() string {
	return "readOnlyHint, destructiveHint, idempotentHint, openWorldHint (each true or false)"
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pathKey is ".key", or ["key"] for a key that is not a plain name.
func pathKey(key string) string {
	if isPlainKey(key) {
		return "." + key
	}
	return "[" + string(appendString(nil, key)) + "]"
}
