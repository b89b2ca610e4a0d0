package catalog

import (
	"strings"
	"testing"
)

// fsCatalog is a format-2 catalog in the shape real MCP servers' tools
// take: camelCase names and properties, descriptions everywhere, an enum, a
// default, a nullable anyOf, bounds, an array of objects.
const fsCatalog = `{
  "format": "catalogkit/2",
  "families": {"files": {"description": "Read and write files under the allowed folders."}},
  "tools": [
    {"name": "read_text_file", "family": "files", "effect": "read", "enabled": true,
     "title": "Read a file",
     "description": "Read the complete contents of a file as text.",
     "annotations": {"readOnlyHint": true},
     "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
       "properties": {
         "path": {"type": "string", "description": "the file"},
         "head": {"type": ["integer", "null"], "minimum": 1, "description": "the first N lines"},
         "tail": {"anyOf": [{"type": "integer", "exclusiveMinimum": 0}, {"type": "null"}]}
       },
       "required": ["path"], "additionalProperties": false}},
    {"name": "edit_file", "family": "files", "effect": "change", "enabled": true,
     "description": "Make line-based edits to a text file.",
     "inputSchema": {"type": "object",
       "properties": {
         "path": {"type": "string", "minLength": 1, "maxLength": 4096},
         "edits": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "object",
           "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
           "required": ["oldText", "newText"], "additionalProperties": false}},
         "sortBy": {"type": "string", "enum": ["name", "size"], "default": "name"},
         "ratio": {"type": "number", "minimum": -1.5, "maximum": 1e2},
         "dryRun": {"type": "boolean", "default": false}
       },
       "required": ["path", "edits"], "additionalProperties": false}},
    {"name": "getTinyImage", "family": "media", "effect": "read", "enabled": false,
     "description": "", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
  ]
}`

func mustParse2(t *testing.T, text string) *Catalog {
	t.Helper()
	c, err := Parse([]byte(text))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if c.Format() != 2 {
		t.Fatalf("format %d, want 2", c.Format())
	}
	return c
}

func TestFormat2Discover(t *testing.T) {
	c := mustParse2(t, fsCatalog)
	got, err := c.DiscoverTool("files", "read_text_file")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := got[0].MarshalJSON()
	want := `{"name":"read_text_file","family":"files","effect":"read","title":"Read a file","description":"Read the complete contents of a file as text.",` +
		`"inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"path":{"type":"string","description":"the file"},` +
		`"head":{"type":["integer","null"],"minimum":1,"description":"the first N lines"},"tail":{"anyOf":[{"type":"integer","exclusiveMinimum":0},{"type":"null"}]}},` +
		`"required":["path"],"additionalProperties":false},"annotations":{"readOnlyHint":true},"executes":false}`
	if string(b) != want {
		t.Errorf("description:\n got %s\nwant %s", b, want)
	}
	all, err := c.Discover("all")
	if err != nil || len(all) != 2 {
		t.Fatalf("Discover(all) = %d tools, %v; want the 2 enabled", len(all), err)
	}
	if d, ok := c.FamilyDescription("files"); !ok || d != "Read and write files under the allowed folders." {
		t.Errorf("FamilyDescription(files) = %q, %v", d, ok)
	}
	if _, err := c.DiscoverTool("media", "getTinyImage"); codeOf(t, err) != ToolNotAvailableInFamily {
		t.Errorf("a disabled camelCase tool: %v, want %s", err, ToolNotAvailableInFamily)
	}
	if _, err := c.DiscoverTool("files", "Read_Text_File"); codeOf(t, err) != ToolNotAvailableInFamily {
		t.Errorf("names are compared exactly: %v, want %s", err, ToolNotAvailableInFamily)
	}
}

func TestFormat2Validate(t *testing.T) {
	c := mustParse2(t, fsCatalog)
	tests := []struct {
		name, tool, args string
		code             Code // "" for a valid shape
		path             string
		reason           string
	}{
		{"valid", "read_text_file", `{"path": "a.txt"}`, "", "", "the required key alone"},
		{"nullable null", "read_text_file", `{"path": "a", "head": null, "tail": null}`, "", "", "null where the type says null, and in a nullable anyOf"},
		{"bound at minimum", "read_text_file", `{"path": "a", "head": 1}`, "", "", "minimum is inclusive"},
		{"below minimum", "read_text_file", `{"path": "a", "head": 0}`, InvalidArgumentValue, "arguments.head", "0 is less than minimum 1"},
		{"exclusive", "read_text_file", `{"path": "a", "tail": 0}`, InvalidArgumentValue, "arguments.tail", "exclusiveMinimum 0 refuses 0"},
		{"integer 1.0", "read_text_file", `{"path": "a", "head": 1.0}`, InvalidArgumentValue, "arguments.head", "1.0 is not an integer literal"},
		{"big integer", "read_text_file", `{"path": "a", "head": 123456789012345678901234567890}`, "", "", "integers of any magnitude"},
		{"null not nullable", "read_text_file", `{"path": null}`, InvalidArgumentValue, "arguments.path", "null for a string that is not nullable"},
		{"unknown key", "read_text_file", `{"path": "a", "Path": "b"}`, InvalidArgumentKeys, "arguments.Path", "keys are exact, case included"},
		{"missing", "read_text_file", `{"head": 2}`, InvalidArgumentKeys, "arguments", "a required key missing"},
		{"not an object", "read_text_file", `[]`, InvalidArgumentKeys, "arguments", "arguments are an object"},
		{"edit", "edit_file", `{"path": "a", "edits": [{"oldText": "x", "newText": "y"}], "sortBy": "size", "ratio": -1.5, "dryRun": true}`, "", "", "every property"},
		{"enum", "edit_file", `{"path": "a", "edits": [{"oldText": "x", "newText": "y"}], "sortBy": "bogus"}`, InvalidArgumentValue, "arguments.sortBy", "a value outside the enum"},
		{"nested key", "edit_file", `{"path": "a", "edits": [{"oldText": "x", "newText": "y"}, {"oldText": "x"}]}`, InvalidArgumentKeys, "arguments.edits[1]", "a required key of an element"},
		{"nested value", "edit_file", `{"path": "a", "edits": [{"oldText": "x", "newText": 2}]}`, InvalidArgumentValue, "arguments.edits[0].newText", "the path of the first bad value"},
		{"too few items", "edit_file", `{"path": "a", "edits": []}`, InvalidArgumentValue, "arguments.edits", "minItems"},
		{"too many items", "edit_file", `{"path": "a", "edits": [{"oldText":"","newText":""},{"oldText":"","newText":""},{"oldText":"","newText":""},{"oldText":"","newText":""}]}`, InvalidArgumentValue, "arguments.edits", "maxItems"},
		{"empty path", "edit_file", `{"path": "", "edits": [{"oldText": "x", "newText": "y"}]}`, InvalidArgumentValue, "arguments.path", "minLength counts code points"},
		{"ratio over", "edit_file", `{"path": "a", "edits": [{"oldText": "x", "newText": "y"}], "ratio": 100.0000000000000000001}`, InvalidArgumentValue, "arguments.ratio", "bounds compare by exact decimal value"},
		{"ratio at", "edit_file", `{"path": "a", "edits": [{"oldText": "x", "newText": "y"}], "ratio": 1.00e2}`, "", "", "100.0 is 1e2"},
		{"schema order", "edit_file", `{"dryRun": 1, "path": 7, "edits": [{"oldText": "x", "newText": "y"}]}`, InvalidArgumentValue, "arguments.path", "values in the schema's order, not the arguments'"},
		{"keys before values", "edit_file", `{"path": 7, "edits": [], "extra": 1}`, InvalidArgumentKeys, "arguments.extra", "an object's keys before its values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, err := ParseJSON([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ValidateArguments(tt.tool, args)
			// The function-level form gives the same.
			cat, _ := ParseJSON([]byte(fsCatalog))
			_, ferr := ValidateArguments(cat, stringValue(tt.tool), args)
			for _, e := range []error{err, ferr} {
				switch {
				case tt.code == "" && e != nil:
					t.Errorf("%s: %v, want a valid shape", tt.reason, e)
				case tt.code != "" && (codeOf(t, e) != tt.code || pathOf(e) != tt.path):
					t.Errorf("%s: %v, want %s at %s", tt.reason, e, tt.code, tt.path)
				}
			}
		})
	}
}

// TestFormat2NullAndEnum: under type [T, "null"] null must still be in the
// enum, as JSON Schema has it; under anyOf [S, {"type": "null"}] the enum is
// S's and null is the other branch (found by the differential test against
// an independent validator).
func TestFormat2NullAndEnum(t *testing.T) {
	c := mustParse2(t, `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"",
	 "inputSchema":{"type":"object","properties":{
	   "a":{"type":["string","null"],"enum":["x","y"]},
	   "b":{"type":["string","null"],"enum":["x",null]},
	   "c":{"anyOf":[{"type":"string","enum":["x"]},{"type":"null"}]}},"additionalProperties":false}}]}`)
	for _, tt := range []struct {
		args string
		code Code
	}{
		{`{"a":null}`, InvalidArgumentValue},
		{`{"b":null}`, ""},
		{`{"c":null}`, ""},
		{`{"c":"y"}`, InvalidArgumentValue},
	} {
		args, _ := ParseJSON([]byte(tt.args))
		_, err := c.ValidateArguments("t", args)
		if codeOf(t, err) != tt.code {
			t.Errorf("%s: %v, want %q", tt.args, err, tt.code)
		}
	}
}

// TestFormat2Refused: each catalog outside format 2's rules is refused
// with its code at the path of what is wrong.
func TestFormat2Refused(t *testing.T) {
	tool := func(schema string) string {
		return `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"d","inputSchema":` + schema + `}]}`
	}
	obj := func(props string) string {
		return tool(`{"type":"object","properties":{"x":` + props + `},"additionalProperties":false}`)
	}
	tests := []struct {
		name, catalog string
		code          Code
		path          string
	}{
		{"format missing value", `{"format":"catalogkit/3","tools":[]}`, InvalidCatalog, "$.format"},
		{"unknown member", `{"format":"catalogkit/2","tools":[],"extra":1}`, InvalidCatalog, "$.extra"},
		{"tools not array", `{"format":"catalogkit/2","tools":{}}`, InvalidCatalog, "$.tools"},
		{"family not label", `{"format":"catalogkit/2","families":{"Web":{"description":"x"}},"tools":[]}`, InvalidLabel, `$.families.Web`},
		{"family shape", `{"format":"catalogkit/2","families":{"web":"x"},"tools":[]}`, InvalidMetadata, "$.families.web"},
		{"tool key", `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"d","inputSchema":{},"fields":{}}]}`, InvalidFields, "$.tools[0]"},
		{"tool key missing", `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"inputSchema":{}}]}`, InvalidFields, "$.tools[0]"},
		{"bad name", strings.Replace(tool(`{"type":"object","additionalProperties":false}`), `"name":"t"`, `"name":"1t"`, 1), InvalidLabel, "$.tools[0].name"},
		{"description type", strings.Replace(tool(`{"type":"object","additionalProperties":false}`), `"description":"d"`, `"description":1`, 1), InvalidMetadata, "$.tools[0].description"},
		{"annotation", strings.Replace(tool(`{"type":"object","additionalProperties":false}`), `"enabled":true`, `"enabled":true,"annotations":{"readonlyHint":true}`, 1), InvalidMetadata, "$.tools[0].annotations.readonlyHint"},
		{"root not object", tool(`{"type":"string"}`), InvalidSpec, "$.tools[0].inputSchema"},
		{"open object", tool(`{"type":"object","properties":{}}`), InvalidSpec, "$.tools[0].inputSchema"},
		{"additionalProperties true", tool(`{"type":"object","additionalProperties":true}`), InvalidSpec, "$.tools[0].inputSchema.additionalProperties"},
		{"pattern", obj(`{"type":"string","pattern":"^a"}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.pattern"},
		{"ref", obj(`{"$ref":"#/x"}`), InvalidSpec, `$.tools[0].inputSchema.properties.x["$ref"]`},
		{"oneOf", obj(`{"oneOf":[{"type":"string"},{"type":"integer"}]}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.oneOf"},
		{"anyOf union", obj(`{"anyOf":[{"type":"string"},{"type":"integer"}]}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.anyOf"},
		{"no type", obj(`{"description":"x"}`), InvalidSpec, "$.tools[0].inputSchema.properties.x"},
		{"keyword of another type", obj(`{"type":"integer","maxLength":3}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.maxLength"},
		{"array without items", obj(`{"type":"array"}`), InvalidSpec, "$.tools[0].inputSchema.properties.x"},
		{"enum misfit", obj(`{"type":"string","enum":["a",1]}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.enum[1]"},
		{"enum twice", obj(`{"type":"integer","enum":[1,1]}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.enum[1]"},
		{"default misfit", obj(`{"type":"integer","maximum":3,"default":4}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.default"},
		{"draft-04 exclusive", obj(`{"type":"number","exclusiveMinimum":true}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.exclusiveMinimum"},
		{"min over max", obj(`{"type":"string","minLength":3,"maxLength":2}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.minLength"},
		{"bounds crossed", obj(`{"type":"number","minimum":2,"exclusiveMaximum":1}`), InvalidSpec, "$.tools[0].inputSchema.properties.x"},
		{"negative length", obj(`{"type":"string","maxLength":-1}`), InvalidSpec, "$.tools[0].inputSchema.properties.x.maxLength"},
		{"property name", tool(`{"type":"object","properties":{"a b":{"type":"string"}},"additionalProperties":false}`), InvalidSpec, `$.tools[0].inputSchema.properties["a b"]`},
		{"required unknown", tool(`{"type":"object","properties":{},"required":["x"],"additionalProperties":false}`), InvalidSpec, "$.tools[0].inputSchema.required[0]"},
		{"schema dialect", tool(`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","additionalProperties":false}`), InvalidSpec, `$.tools[0].inputSchema["$schema"]`},
		{"nested $schema", obj(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"}`), InvalidSpec, `$.tools[0].inputSchema.properties.x["$schema"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.catalog))
			if codeOf(t, err) != tt.code || pathOf(err) != tt.path {
				t.Errorf("Parse: %v, want %s at %s", err, tt.code, tt.path)
			}
		})
	}
}

// TestFormat2Depth: schemas nest at most MaxSchemaDepth deep.
func TestFormat2Depth(t *testing.T) {
	nest := func(depth int) string {
		s := `{"type":"string"}`
		for range depth - 1 {
			s = `{"type":"array","items":` + s + `}`
		}
		return `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"d","inputSchema":{"type":"object","properties":{"x":` + s + `},"additionalProperties":false}}]}`
	}
	if _, err := Parse([]byte(nest(MaxSchemaDepth - 1))); err != nil {
		t.Errorf("at the depth limit: %v", err)
	}
	if _, err := Parse([]byte(nest(MaxSchemaDepth))); codeOf(t, err) != InvalidSpec {
		t.Errorf("one over the depth limit: %v, want %s", err, InvalidSpec)
	}
}

func TestDecimal(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"0", "-0", 0}, {"0.0e9", "0", 0}, {"1", "1.0", 0}, {"1e2", "100", 0}, {"100.0", "1E+2", 0},
		{"9007199254740993", "9007199254740992", 1}, {"-1", "1", -1}, {"-2", "-1", -1},
		{"1e400", "1e399", 1}, {"1e-400", "0", 1}, {"-1e-400", "0", -1}, {"0.1", "0.10000000000000000001", -1},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e29", 0}, {"1.5", "1.25", 1},
		{"1e99999999999999999999", "1e99999999999999999998", 1},
	}
	for _, tt := range tests {
		if got := cmpDecimal(parseDecimal(tt.a), parseDecimal(tt.b)); got != tt.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := cmpDecimal(parseDecimal(tt.b), parseDecimal(tt.a)); got != -tt.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// TestFormat1Unmoved: an array is format 1, an object without "format" is
// refused as format 1 always refused it.
func TestFormat1Unmoved(t *testing.T) {
	_, err := Parse([]byte(`{"tools":[]}`))
	if err == nil || err.Error() != `INVALID_CATALOG at $: catalog is a JSON object, want an array of tool definitions` {
		t.Errorf("an object without format: %v", err)
	}
	c, err := Parse([]byte(`[]`))
	if err != nil || c.Format() != 1 {
		t.Errorf("[]: %v, format %d", err, c.Format())
	}
}

// TestValueKeyAgreesWithEqual holds the key the enum's duplicate check uses
// to equalValues: over every pair of a list of values that are equal or
// nearly so (numbers spelled several ways, integer and not, strings that a
// careless key would run together, arrays and objects in other orders),
// two keys are equal exactly when the values are.
func TestValueKeyAgreesWithEqual(t *testing.T) {
	texts := []string{
		`null`, `true`, `false`, `0`, `-0`, `0.0`, `0e5`, `1`, `1.0`, `10e-1`, `1e0`, `100`, `1e2`, `1E+2`, `100.00`, `-1`, `-1.0`,
		`2.5`, `25e-1`, `2.50`, `0.30000000000000001`, `0.3`, `9007199254740993`, `9007199254740992`, `1e400`, `10e399`, `-1e-400`,
		`""`, `"a"`, `"ab"`, `"a:b"`, `"1:a"`, `"n1e0;"`, `"\u00e9"`, `"e\u0301"`,
		`[]`, `[1]`, `[1.0]`, `[1,2]`, `[2,1]`, `[[]]`, `[""]`, `["",""]`, `[null]`,
		`{}`, `{"a":1}`, `{"a":1.0}`, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":{"b":[1]}}`, `{"a":{"b":[1.0]}}`, `{"1:a":1}`, `{"a":"1"}`,
		`{"a1:":1}`, `{"a":"","b":""}`, `{"ab":"", "":""}`,
	}
	var vals []Value
	for _, s := range texts {
		v, err := ParseJSON([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		vals = append(vals, v)
	}
	for i, a := range vals {
		for j, b := range vals {
			keys := string(appendValueKey(nil, a)) == string(appendValueKey(nil, b))
			if eq := equalValues(a, b); keys != eq {
				t.Errorf("%s and %s: keys equal %v, equalValues %v", texts[i], texts[j], keys, eq)
			}
		}
	}
}
