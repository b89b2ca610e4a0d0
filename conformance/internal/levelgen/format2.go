package levelgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The format 2 level: contract cases (the format of case.schema.json) on
// catalogs of format 2 (SPEC.md §12), written inline, one tool each where
// one is enough. Every expectation here is written by hand from the
// specification; conformance's tests run them on the Go implementation,
// and internal/suites/schemadiff compares every verdict on a valid catalog
// with an independent JSON Schema validator.

// An f2check is one check of a format-2 case: a call and its expected
// outcome, as JSON text.
type f2check struct{ note, call, expect string }

// An f2case is one case of the format 2 level.
type f2case struct {
	id, title, spec string
	checks          []f2check
}

// cat2 is a format-2 catalog of the tools given (JSON texts).
func cat2(tools ...string) string {
	return `{"format":"catalogkit/2","tools":[` + strings.Join(tools, ",") + `]}`
}

// tool2 is a tool named name, of family "f", effect read, enabled, with an
// empty description and the input schema given.
func tool2(name, schema string) string {
	return `{"name":` + jsonString(name) + `,"family":"f","effect":"read","enabled":true,"description":"","inputSchema":` + schema + `}`
}

// obj is an object schema of the properties given ("name": schema, ...),
// and the required names given (a JSON array, or "" for none).
func obj(props, required string) string {
	s := `{"type":"object","properties":{` + props + `}`
	if required != "" {
		s += `,"required":` + required
	}
	return s + `,"additionalProperties":false}`
}

// prop is an input schema of one optional property "a" of the schema given.
func prop(schema string) string { return obj(`"a":`+schema, "") }

// validate2 is a validate_arguments call of tool "t" of the catalog.
func validate2(catalog, args string) string {
	return `{"op":"validate_arguments","catalog":` + catalog + `,"name":"t","arguments":` + args + `}`
}

// discover2 is a discover call; name "" means no name.
func discover2(catalog, family, name string) string {
	s := `{"op":"discover","catalog":` + catalog + `,"family":` + jsonString(family)
	if name != "" {
		s += `,"name":` + jsonString(name)
	}
	return s + `}`
}

// validation is the result of a shape-valid call of tool name.
func validation(name, args string) string {
	return `{"result":{"name":` + jsonString(name) + `,"arguments":` + args + `,"shape_valid":true,"authorized":false,"executed":false}}`
}

// fits is a check that args fit the input schema (a catalog of one tool t).
func fits(note, schema, args string) f2check {
	return f2check{note, validate2(cat2(tool2("t", schema)), args), validation("t", args)}
}

// refuses is a check that the call of tool t with args on a catalog of that
// one tool ends in the error code.
func refuses(note, schema, args, code string) f2check {
	return f2check{note, validate2(cat2(tool2("t", schema)), args), errorCode(code)}
}

// named is a check that a catalog of one tool of that name (taking no
// argument) is valid: the tool is found by its name.
func named(note, name string) f2check {
	return f2check{note, `{"op":"validate_arguments","catalog":` + cat2(tool2(name, emptySchema)) + `,"name":` + jsonString(name) + `,"arguments":{}}`, validation(name, `{}`)}
}

// schemaOK is a check that the input schema is in the subset: the tool
// takes {} (no property is required).
func schemaOK(note, schema string) f2check { return fits(note, schema, `{}`) }

// schemaBad is a check that the input schema is refused: INVALID_SPEC.
func schemaBad(note, schema string) f2check { return refuses(note, schema, `{}`, "INVALID_SPEC") }

// catalogIs is a check that a validate_arguments call of tool t with {} on
// the catalog (a JSON text) ends in the error code, or is valid when code
// is "".
func catalogIs(note, catalog, code string) f2check {
	if code == "" {
		return f2check{note, validate2(catalog, `{}`), validation("t", `{}`)}
	}
	return f2check{note, validate2(catalog, `{}`), errorCode(code)}
}

func errorCode(code string) string { return fmt.Sprintf(`{"error":%q}`, code) }

// emptySchema is the input schema of a tool that takes no argument.
const emptySchema = `{"type":"object","additionalProperties":false}`

// toolWith is tool t with the member key set to value (added after the
// others, or replacing them when key is one of them).
func toolWith(members string) string {
	return `{"name":"t","family":"f","effect":"read","enabled":true,"description":""` + members + `,"inputSchema":` + emptySchema + `}`
}

// repeatString is s n times, as a JSON string.
func repeatString(s string, n int) string { return jsonString(strings.Repeat(s, n)) }

// nested is an input schema n levels deep: the root, then n-1 levels of a
// property "a" that is an object, the innermost of which has no property.
func nested(n int) string {
	s := emptySchema
	for range n - 1 {
		s = prop(s)
	}
	return s
}

// manyTools is a catalog of n tools t0, t1, ... that take no argument.
func manyTools(n int) string {
	tools := make([]string, n)
	for i := range tools {
		tools[i] = tool2(fmt.Sprintf("t%d", i), emptySchema)
	}
	return cat2(tools...)
}

// manyProps is an object schema of n optional integer properties p0, p1, ...
func manyProps(n int) string {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{"type":"integer"}`, i)
	}
	return obj(strings.Join(props, ","), "")
}

// manyEnum is a string schema whose enum is n distinct strings.
func manyEnum(n int) string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf(`"v%d"`, i)
	}
	return `{"type":"string","enum":[` + strings.Join(vals, ",") + `]}`
}

func format2Table() []f2case {
	const (
		str      = `{"type":"string"}`
		integer  = `{"type":"integer"}`
		number   = `{"type":"number"}`
		nullStr  = `{"type":["string","null"]}`
		anyOfStr = `{"anyOf":[{"type":"string"},{"type":"null"}]}`
		long129  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg"
	)
	described := `{"format":"catalogkit/2","families":{"files":{"description":"Read and write files."},"spare":{"description":"No tool has this family."}},"tools":[` +
		`{"name":"readFile","family":"files","effect":"read","enabled":true,"title":"Read a file","description":"Read the whole file as text.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"Where the file is."},"head":{"type":["integer","null"],"minimum":1,"maximum":1e400},"ratio":{"type":"number","exclusiveMaximum":1.50,"default":-0}},"required":["path"],"additionalProperties":false},"annotations":{"readOnlyHint":true,"openWorldHint":false}},` +
		`{"name":"write_file","family":"files","effect":"change","enabled":true,"description":"","inputSchema":{"additionalProperties":false,"required":["text","path"],"properties":{"text":{"type":"string"},"path":{"type":"string"}},"type":"object"}},` +
		`{"name":"deleteFile","family":"files","effect":"change","enabled":false,"description":"Delete a file.","inputSchema":{"type":"object","additionalProperties":false}},` +
		`{"name":"fetch","family":"web","effect":"read","enabled":true,"description":"Fetch a URL.","origin":{"tool":"fetch_url","server":"web-tools"},"inputSchema":{"type":"object","properties":{"url":{"type":"string","format":"uri"}},"required":["url"],"additionalProperties":false}}]}`
	readFileDesc := `{"name":"readFile","family":"files","effect":"read","title":"Read a file","description":"Read the whole file as text.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"Where the file is."},"head":{"type":["integer","null"],"minimum":1,"maximum":1e400},"ratio":{"type":"number","exclusiveMaximum":1.50,"default":-0}},"required":["path"],"additionalProperties":false},"annotations":{"readOnlyHint":true,"openWorldHint":false},"executes":false}`
	writeFileDesc := `{"name":"write_file","family":"files","effect":"change","description":"","inputSchema":{"additionalProperties":false,"required":["text","path"],"properties":{"text":{"type":"string"},"path":{"type":"string"}},"type":"object"},"executes":false}`
	fetchDesc := `{"name":"fetch","family":"web","effect":"read","description":"Fetch a URL.","inputSchema":{"type":"object","properties":{"url":{"type":"string","format":"uri"}},"required":["url"],"additionalProperties":false},"origin":{"server":"web-tools","tool":"fetch_url"},"executes":false}`

	return []f2case{
		{
			id: "format2.catalog.which-format", title: "A catalog that is an object is format 2 only when its format is \"catalogkit/2\" and it has no other member than format, tools and families",
			spec: "SPEC.md §12.1; §12.2 G1-G2",
			checks: []f2check{
				{"the smallest format-2 catalog: no tool", discover2(`{"format":"catalogkit/2","tools":[]}`, "all", ""), `{"result":[]}`},
				{"an array is still format 1", discover2(`[]`, "all", ""), `{"result":[]}`},
				{"another format string", discover2(`{"format":"catalogkit/3","tools":[]}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"the format as a number", discover2(`{"format":2,"tools":[]}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"the format's case counts", discover2(`{"format":"Catalogkit/2","tools":[]}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"an object with no format is not guessed from its tools", discover2(`{"tools":[]}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"a member beside format, tools and families", discover2(`{"format":"catalogkit/2","tools":[],"version":1}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"no tools member", discover2(`{"format":"catalogkit/2"}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"tools is an object", discover2(`{"format":"catalogkit/2","tools":{}}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"tools is null", discover2(`{"format":"catalogkit/2","tools":null}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"G2 before G3: tools is not an array and a family key is not a label", discover2(`{"format":"catalogkit/2","families":{"Bad":{"description":""}},"tools":"x"}`, "all", ""), errorCode("INVALID_CATALOG")},
				{"G1 before the tools: an extra member and a tool that is not an object", discover2(`{"format":"catalogkit/2","tools":["x"],"extra":true}`, "all", ""), errorCode("INVALID_CATALOG")},
			},
		},
		{
			id: "format2.catalog.tool-count", title: "A format-2 catalog holds at most 1000 tools",
			spec: "SPEC.md §12.2 G2",
			checks: []f2check{
				{"1000 tools: the last one is found", `{"op":"validate_arguments","catalog":` + manyTools(1000) + `,"name":"t999","arguments":{}}`, validation("t999", `{}`)},
				{"1001 tools", `{"op":"validate_arguments","catalog":` + manyTools(1001) + `,"name":"t0","arguments":{}}`, errorCode("INVALID_CATALOG")},
			},
		},
		{
			id: "format2.catalog.families", title: "families maps labels to objects of exactly one member, a description of at most 8192 code points; it is checked before any tool",
			spec: "SPEC.md §12.2 G3",
			checks: []f2check{
				catalogIs("described families, one with no tool", `{"format":"catalogkit/2","families":{"f":{"description":"The f tools."},"g":{"description":""}},"tools":[`+tool2("t", emptySchema)+`]}`, ""),
				catalogIs("an empty families object", `{"format":"catalogkit/2","families":{},"tools":[`+tool2("t", emptySchema)+`]}`, ""),
				catalogIs("families is an array", `{"format":"catalogkit/2","families":[],"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_CATALOG"),
				catalogIs("families is null", `{"format":"catalogkit/2","families":null,"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_CATALOG"),
				catalogIs("a key that is not a label (upper case)", `{"format":"catalogkit/2","families":{"Files":{"description":""}},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_LABEL"),
				catalogIs("an empty key", `{"format":"catalogkit/2","families":{"":{"description":""}},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_LABEL"),
				catalogIs("a value that is a string, not an object", `{"format":"catalogkit/2","families":{"f":"The f tools."},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_METADATA"),
				catalogIs("a value with no description", `{"format":"catalogkit/2","families":{"f":{}},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_METADATA"),
				catalogIs("a value with a member beside description", `{"format":"catalogkit/2","families":{"f":{"description":"","title":"F"}},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_METADATA"),
				catalogIs("a description that is not a string", `{"format":"catalogkit/2","families":{"f":{"description":null}},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_METADATA"),
				catalogIs("a description of 8192 code points, each outside the BMP (16384 UTF-16 units)", `{"format":"catalogkit/2","families":{"f":{"description":`+repeatString("😀", 8192)+`}},"tools":[`+tool2("t", emptySchema)+`]}`, ""),
				catalogIs("a description of 8193 code points", `{"format":"catalogkit/2","families":{"f":{"description":`+repeatString("a", 8193)+`}},"tools":[`+tool2("t", emptySchema)+`]}`, "INVALID_METADATA"),
				catalogIs("G3 before G4: a bad family and a tool with an unknown member", `{"format":"catalogkit/2","families":{"f":{"description":1}},"tools":[`+toolWith(`,"fields":{}`)+`]}`, "INVALID_METADATA"),
				catalogIs("families comes after tools in the object: still checked first", `{"format":"catalogkit/2","tools":[`+toolWith(`,"fields":{}`)+`],"families":{"F":{"description":""}}}`, "INVALID_LABEL"),
			},
		},
		{
			id: "format2.catalog.tool-members", title: "A format-2 tool has exactly name, family, effect, enabled, description and inputSchema, and may have title, annotations and origin",
			spec: "SPEC.md §12.2 G4",
			checks: []f2check{
				catalogIs("title, annotations and origin", cat2(toolWith(`,"title":"T","annotations":{},"origin":{"server":"s","tool":"t"}`)), ""),
				catalogIs("MCP's _meta is not a member", cat2(toolWith(`,"_meta":{}`)), "INVALID_FIELDS"),
				catalogIs("a tool that is a string", cat2(`"t"`), "INVALID_FIELDS"),
				catalogIs("no description", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"inputSchema":`+emptySchema+`}`), "INVALID_FIELDS"),
				catalogIs("no inputSchema", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"description":""}`), "INVALID_FIELDS"),
				catalogIs("format 1's fields beside inputSchema", cat2(toolWith(`,"fields":{}`)), "INVALID_FIELDS"),
				catalogIs("a member whose name differs in case (Title)", cat2(toolWith(`,"Title":"T"`)), "INVALID_FIELDS"),
				catalogIs("MCP's outputSchema is not a member", cat2(toolWith(`,"outputSchema":{"type":"object"}`)), "INVALID_FIELDS"),
				catalogIs("G4 before G5: an unknown member and a name that is not a tool name", cat2(`{"name":"1t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":`+emptySchema+`,"extra":1}`), "INVALID_FIELDS"),
			},
		},
		{
			id: "format2.catalog.tool-names", title: "A format-2 tool name matches ^[A-Za-z][A-Za-z0-9._-]{0,127}$; its family is a label",
			spec: "SPEC.md §12.2 G5; §3.1",
			checks: []f2check{
				named("camel case", "readFile"),
				named("snake case, dots and dashes", "read_text-file.v2"),
				named("one letter", "R"),
				named("128 characters", long129[:128]),
				catalogIs("129 characters", cat2(tool2(long129, emptySchema)), "INVALID_LABEL"),
				catalogIs("a digit first", cat2(tool2("1tool", emptySchema)), "INVALID_LABEL"),
				catalogIs("an underscore first", cat2(tool2("_tool", emptySchema)), "INVALID_LABEL"),
				catalogIs("a space", cat2(tool2("read file", emptySchema)), "INVALID_LABEL"),
				catalogIs("a slash", cat2(tool2("files/read", emptySchema)), "INVALID_LABEL"),
				catalogIs("a letter outside ASCII", cat2(tool2("lire_fichier_é", emptySchema)), "INVALID_LABEL"),
				catalogIs("the empty name", cat2(tool2("", emptySchema)), "INVALID_LABEL"),
				catalogIs("a name that is a number", cat2(`{"name":1,"family":"f","effect":"read","enabled":true,"description":"","inputSchema":`+emptySchema+`}`), "INVALID_LABEL"),
				catalogIs("a family with an upper-case letter (families stay labels)", cat2(`{"name":"t","family":"Files","effect":"read","enabled":true,"description":"","inputSchema":`+emptySchema+`}`), "INVALID_LABEL"),
				catalogIs("G5 before G7: a bad name and a bad effect", cat2(`{"name":"1t","family":"f","effect":"write","enabled":true,"description":"","inputSchema":`+emptySchema+`}`), "INVALID_LABEL"),
			},
		},
		{
			id: "format2.catalog.duplicates", title: "A format-2 name used by an earlier tool is DUPLICATE_TOOL; names differing in case are different names; each tool is checked whole before the next",
			spec: "SPEC.md §12.2 G4-G8",
			checks: []f2check{
				catalogIs("the same name twice", cat2(tool2("t", emptySchema), tool2("t", emptySchema)), "DUPLICATE_TOOL"),
				{"readFile and ReadFile are two tools", `{"op":"validate_arguments","catalog":` + cat2(tool2("readFile", emptySchema), tool2("ReadFile", prop(integer))) + `,"name":"ReadFile","arguments":{"a":1}}`, validation("ReadFile", `{"a":1}`)},
				catalogIs("G6 before G7: a duplicate with a bad effect", cat2(tool2("t", emptySchema), `{"name":"t","family":"f","effect":"write","enabled":true,"description":"","inputSchema":`+emptySchema+`}`), "DUPLICATE_TOOL"),
				catalogIs("the first tool whole before the second: a bad schema, then a duplicate", cat2(tool2("t", `{"type":"object"}`), tool2("t", emptySchema)), "INVALID_SPEC"),
				catalogIs("the first tool whole before the second: a bad effect, then an unknown member", cat2(`{"name":"t","family":"f","effect":"write","enabled":true,"description":"","inputSchema":`+emptySchema+`}`, toolWith(`,"x":1`)), "INVALID_METADATA"),
			},
		},
		{
			id: "format2.catalog.metadata", title: "effect, enabled, description, title, annotations and origin are checked in that order; a description holds at most 8192 code points, a title 256; an origin is exactly a server and a tool, each 1 to 256 code points",
			spec: "SPEC.md §12.2 G7",
			checks: []f2check{
				catalogIs("an empty description", cat2(toolWith(``)), ""),
				catalogIs("a description of 8192 code points", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"description":`+repeatString("é", 8192)+`,"inputSchema":`+emptySchema+`}`), ""),
				catalogIs("a description of 8193 code points", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"description":`+repeatString("é", 8193)+`,"inputSchema":`+emptySchema+`}`), "INVALID_METADATA"),
				catalogIs("a description that is null", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"description":null,"inputSchema":`+emptySchema+`}`), "INVALID_METADATA"),
				catalogIs("effect write", cat2(`{"name":"t","family":"f","effect":"write","enabled":true,"description":"","inputSchema":`+emptySchema+`}`), "INVALID_METADATA"),
				catalogIs("enabled as a string", cat2(`{"name":"t","family":"f","effect":"read","enabled":"true","description":"","inputSchema":`+emptySchema+`}`), "INVALID_METADATA"),
				catalogIs("a title of 256 code points outside the BMP", cat2(toolWith(`,"title":`+repeatString("😀", 256))), ""),
				catalogIs("a title of 257 code points", cat2(toolWith(`,"title":`+repeatString("a", 257))), "INVALID_METADATA"),
				catalogIs("a title that is a number", cat2(toolWith(`,"title":1`)), "INVALID_METADATA"),
				catalogIs("the four annotations", cat2(toolWith(`,"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true}`)), ""),
				catalogIs("an annotation that is not a boolean", cat2(toolWith(`,"annotations":{"readOnlyHint":"yes"}`)), "INVALID_METADATA"),
				catalogIs("an annotation MCP does not define", cat2(toolWith(`,"annotations":{"title":"T"}`)), "INVALID_METADATA"),
				catalogIs("annotations that are an array", cat2(toolWith(`,"annotations":[]`)), "INVALID_METADATA"),
				catalogIs("an origin, tool first", cat2(toolWith(`,"origin":{"tool":"read_text_file","server":"@modelcontextprotocol/server-filesystem"}`)), ""),
				catalogIs("an origin's server and tool of 256 code points outside the BMP", cat2(toolWith(`,"origin":{"server":`+repeatString("😀", 256)+`,"tool":`+repeatString("😀", 256)+`}`)), ""),
				catalogIs("an origin's tool of 257 code points", cat2(toolWith(`,"origin":{"server":"s","tool":`+repeatString("a", 257)+`}`)), "INVALID_METADATA"),
				catalogIs("an empty origin server", cat2(toolWith(`,"origin":{"server":"","tool":"t"}`)), "INVALID_METADATA"),
				catalogIs("an origin without its tool", cat2(toolWith(`,"origin":{"server":"s"}`)), "INVALID_METADATA"),
				catalogIs("an origin with a third member", cat2(toolWith(`,"origin":{"server":"s","tool":"t","version":"1"}`)), "INVALID_METADATA"),
				catalogIs("an origin that is a string", cat2(toolWith(`,"origin":"s/t"`)), "INVALID_METADATA"),
				catalogIs("an origin tool that is a number", cat2(toolWith(`,"origin":{"server":"s","tool":1}`)), "INVALID_METADATA"),
				catalogIs("G7 before G8: a bad origin and a bad schema", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"description":"","origin":{},"inputSchema":{}}`), "INVALID_METADATA"),
				catalogIs("G7 before G8: a bad title and a bad schema", cat2(`{"name":"t","family":"f","effect":"read","enabled":true,"description":"","title":1,"inputSchema":{}}`), "INVALID_METADATA"),
			},
		},
		{
			id: "format2.schema.root", title: "The input schema is an object schema that is not nullable, and it alone may carry $schema",
			spec: "SPEC.md §12.2 G8; §12.3 K1-K3, K5",
			checks: []f2check{
				schemaOK("the draft 2020-12 $schema", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false}`),
				schemaOK("the draft-07 $schema, with the #", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false}`),
				schemaOK("the draft-07 $schema, without the #", `{"$schema":"http://json-schema.org/draft-07/schema","type":"object","additionalProperties":false}`),
				schemaOK("annotations on the root", `{"type":"object","title":"Args","description":"The arguments.","additionalProperties":false,"examples":[{}],"default":{}}`),
				schemaBad("the draft-04 $schema", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","additionalProperties":false}`),
				schemaBad("$schema below the root", prop(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"}`)),
				schemaBad("a root of type string", `{"type":"string"}`),
				schemaBad("a nullable root", `{"type":["object","null"],"additionalProperties":false}`),
				schemaBad("a root under anyOf with null", `{"anyOf":[{"type":"object","additionalProperties":false},{"type":"null"}]}`),
				schemaBad("a root with no type", `{"additionalProperties":false}`),
				schemaBad("the empty schema", `{}`),
				schemaBad("a root that is true", `true`),
				schemaBad("a root that is an array", `[]`),
			},
		},
		{
			id: "format2.schema.keywords", title: "Only the keywords of the subset are allowed; pattern, $ref, oneOf and the others are INVALID_SPEC",
			spec: "SPEC.md §12.3 K2",
			checks: []f2check{
				schemaOK("each annotation on a property", prop(`{"type":"string","title":"A","description":"An a.","default":"x","examples":["y",1],"format":"email"}`)),
				schemaBad("pattern", prop(`{"type":"string","pattern":"^a$"}`)),
				schemaBad("$ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/s"}},"additionalProperties":false,"$defs":{"s":{"type":"string"}}}`),
				schemaBad("$defs alone", `{"type":"object","additionalProperties":false,"$defs":{}}`),
				schemaBad("oneOf", prop(`{"oneOf":[{"type":"string"},{"type":"integer"}]}`)),
				schemaBad("allOf", prop(`{"allOf":[{"type":"string"}]}`)),
				schemaBad("not", prop(`{"type":"string","not":{"const":"x"}}`)),
				schemaBad("if, then, else", prop(`{"type":"string","if":{"const":"a"},"then":{"maxLength":1}}`)),
				schemaBad("patternProperties", prop(`{"type":"object","patternProperties":{"^x":{"type":"string"}},"additionalProperties":false}`)),
				schemaBad("propertyNames", prop(`{"type":"object","propertyNames":{"maxLength":3},"additionalProperties":false}`)),
				schemaBad("prefixItems", prop(`{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"string"}}`)),
				schemaBad("uniqueItems", prop(`{"type":"array","items":{"type":"string"},"uniqueItems":true}`)),
				schemaBad("multipleOf", prop(`{"type":"integer","multipleOf":2}`)),
				schemaBad("minProperties", prop(`{"type":"object","additionalProperties":false,"minProperties":1}`)),
				schemaBad("dependentRequired", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false,"dependentRequired":{"a":["a"]}}`),
				schemaBad("OpenAPI's nullable", prop(`{"type":"string","nullable":true}`)),
				schemaBad("an x- extension", prop(`{"type":"string","x-order":1}`)),
				schemaBad("a keyword whose case differs (MaxLength)", prop(`{"type":"string","MaxLength":3}`)),
				schemaBad("an unknown keyword on the root", `{"type":"object","additionalProperties":false,"strict":true}`),
			},
		},
		{
			id: "format2.schema.types", title: "A schema has exactly one of type and anyOf; a type is one name, or one name and null; anyOf is a schema and {\"type\": \"null\"}",
			spec: "SPEC.md §12.3 K3",
			checks: []f2check{
				schemaOK("each type", obj(`"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},"a":{"type":"array","items":{"type":"string"}},"o":{"type":"object","additionalProperties":false}`, "")),
				schemaOK("a type and null, either order", obj(`"s":{"type":["string","null"]},"i":{"type":["null","integer"]}`, "")),
				schemaOK("anyOf with null, either order, annotations beside", obj(`"s":{"anyOf":[{"type":"string","maxLength":3},{"type":"null"}],"description":"S."},"i":{"anyOf":[{"type":"null"},{"type":"integer"}],"default":null}`, "")),
				schemaBad("type null alone", prop(`{"type":"null"}`)),
				schemaBad("a one-element type array", prop(`{"type":["string"]}`)),
				schemaBad("two types that are not one and null", prop(`{"type":["string","integer"]}`)),
				schemaBad("null twice", prop(`{"type":["null","null"]}`)),
				schemaBad("three types", prop(`{"type":["string","integer","null"]}`)),
				schemaBad("a type that is not a name", prop(`{"type":"any"}`)),
				schemaBad("a type whose case differs", prop(`{"type":"String"}`)),
				schemaBad("no type and no anyOf", prop(`{"description":"anything"}`)),
				schemaBad("both type and anyOf", prop(`{"type":"string","anyOf":[{"type":"string"},{"type":"null"}]}`)),
				schemaBad("anyOf of two types that are not null", prop(`{"anyOf":[{"type":"string"},{"type":"integer"}]}`)),
				schemaBad("anyOf of three", prop(`{"anyOf":[{"type":"string"},{"type":"null"},{"type":"integer"}]}`)),
				schemaBad("anyOf of one", prop(`{"anyOf":[{"type":"string"}]}`)),
				schemaBad("anyOf whose null branch has more than its type", prop(`{"anyOf":[{"type":"string"},{"type":"null","description":"none"}]}`)),
				schemaBad("anyOf whose other branch is nullable", prop(`{"anyOf":[{"type":["string","null"]},{"type":"null"}]}`)),
				schemaBad("anyOf whose other branch is an anyOf", prop(`{"anyOf":[{"anyOf":[{"type":"string"},{"type":"null"}]},{"type":"null"}]}`)),
				schemaBad("a constraint beside anyOf", prop(`{"anyOf":[{"type":"string"},{"type":"null"}],"maxLength":3}`)),
				schemaBad("an enum beside anyOf", prop(`{"anyOf":[{"type":"string"},{"type":"null"}],"enum":["a",null]}`)),
			},
		},
		{
			id: "format2.schema.applies", title: "Each constraint applies to its type; an object schema says additionalProperties false; an array schema has items",
			spec: "SPEC.md §12.3 K4",
			checks: []f2check{
				schemaOK("constraints beside a nullable type apply to the type", obj(`"s":{"type":["string","null"],"maxLength":3},"a":{"type":["null","array"],"items":{"type":"integer"},"maxItems":2}`, "")),
				schemaOK("an object with no properties", prop(`{"type":"object","additionalProperties":false}`)),
				schemaOK("enum and const on any type", obj(`"b":{"type":"boolean","const":true},"a":{"type":"array","items":{"type":"integer"},"enum":[[1],[2,3]]}`, "")),
				schemaBad("minLength on an integer", prop(`{"type":"integer","minLength":1}`)),
				schemaBad("maximum on a string", prop(`{"type":"string","maximum":3}`)),
				schemaBad("items on an object", prop(`{"type":"object","items":{"type":"string"},"additionalProperties":false}`)),
				schemaBad("properties on an array", prop(`{"type":"array","items":{"type":"string"},"properties":{}}`)),
				schemaBad("required on a string", prop(`{"type":"string","required":[]}`)),
				schemaBad("additionalProperties on a string", prop(`{"type":"string","additionalProperties":false}`)),
				schemaBad("maxItems on a boolean", prop(`{"type":"boolean","maxItems":1}`)),
				schemaBad("an object property without additionalProperties", prop(`{"type":"object","properties":{"b":{"type":"string"}}}`)),
				schemaBad("a root without additionalProperties", `{"type":"object","properties":{"a":{"type":"string"}}}`),
				schemaBad("an array without items", prop(`{"type":"array"}`)),
				schemaBad("a nullable array without items", prop(`{"type":["array","null"],"maxItems":3}`)),
			},
		},
		{
			id: "format2.schema.values", title: "Keyword values: numeric bounds are numbers that do not cross; lengths are integers from 0 to 33554432; properties, required, enum, const and default are well formed",
			spec: "SPEC.md §12.3 K5",
			checks: []f2check{
				schemaOK("bounds written with exponents and fractions", obj(`"n":{"type":"number","minimum":-1e400,"exclusiveMaximum":1.5E+3},"i":{"type":"integer","minimum":0.5,"maximum":1e1}`, "")),
				schemaOK("equal bounds, even exclusive ones (the subset refuses crossed bounds only)", obj(`"a":{"type":"number","minimum":5,"maximum":5},"b":{"type":"number","exclusiveMinimum":5,"exclusiveMaximum":5},"c":{"type":"integer","minimum":1.5,"maximum":1.7}`, "")),
				schemaOK("the longest lengths, equal minimum and maximum", obj(`"s":{"type":"string","minLength":33554432,"maxLength":33554432},"a":{"type":"array","items":{"type":"string"},"minItems":0,"maxItems":33554432}`, "")),
				schemaBad("a bound that is a string", prop(`{"type":"number","minimum":"1"}`)),
				schemaBad("draft-04's boolean exclusiveMinimum", prop(`{"type":"number","minimum":1,"exclusiveMinimum":true}`)),
				schemaBad("minimum over maximum", prop(`{"type":"number","minimum":5,"maximum":4}`)),
				schemaBad("exclusiveMinimum over maximum", prop(`{"type":"number","exclusiveMinimum":5.1,"maximum":5}`)),
				schemaBad("crossed bounds that differ past a float's precision", prop(`{"type":"number","minimum":1.00000000000000000001,"maximum":1}`)),
				schemaBad("crossed bounds beyond a float's range", prop(`{"type":"number","minimum":1e401,"maximum":1e400}`)),
				schemaBad("a negative minLength", prop(`{"type":"string","minLength":-1}`)),
				schemaBad("maxLength written 1.0 (not an integer literal)", prop(`{"type":"string","maxLength":1.0}`)),
				schemaBad("maxLength 33554433", prop(`{"type":"string","maxLength":33554433}`)),
				schemaBad("minLength over maxLength", prop(`{"type":"string","minLength":3,"maxLength":2}`)),
				schemaBad("minItems over maxItems", prop(`{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":1}`)),
				schemaBad("items that is an array", prop(`{"type":"array","items":[{"type":"string"}]}`)),
				schemaBad("items that is true", prop(`{"type":"array","items":true}`)),
				schemaBad("properties that is an array", `{"type":"object","properties":[],"additionalProperties":false}`),
				schemaBad("a property that is true", prop(`true`)),
				schemaBad("a property that is a type name", prop(`"string"`)),
				schemaBad("additionalProperties true", `{"type":"object","additionalProperties":true}`),
				schemaBad("additionalProperties as a schema", `{"type":"object","additionalProperties":{"type":"string"}}`),
				schemaBad("required that is not an array", `{"type":"object","properties":{"a":{"type":"string"}},"required":"a","additionalProperties":false}`),
				schemaBad("required naming a key that is not a property", `{"type":"object","properties":{"a":{"type":"string"}},"required":["b"],"additionalProperties":false}`),
				schemaBad("required naming a property twice", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"],"additionalProperties":false}`),
				schemaBad("enum with no value", prop(`{"type":"string","enum":[]}`)),
				schemaBad("enum that is not an array", prop(`{"type":"string","enum":"a"}`)),
				schemaBad("an enum value that does not fit the type", prop(`{"type":"string","enum":["a",1]}`)),
				schemaBad("an enum value that does not fit a bound", prop(`{"type":"string","maxLength":1,"enum":["a","bb"]}`)),
				schemaBad("an enum null on a type that is not nullable", prop(`{"type":"string","enum":["a",null]}`)),
				schemaOK("an enum null on a nullable type", prop(`{"type":["string","null"],"enum":["a",null]}`)),
				schemaBad("an enum value twice", prop(`{"type":"string","enum":["a","a"]}`)),
				schemaBad("an enum value twice, written in other escapes", prop(`{"type":"string","enum":["é","\u00e9"]}`)),
				schemaBad("an enum object twice, members in another order", obj(`"o":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"enum":[{"x":1,"y":2},{"y":2,"x":1}]}`, "")),
				schemaBad("0 and -0 are one value", prop(`{"type":"integer","enum":[0,-0]}`)),
				schemaOK("1 and 1.0 are two values (kinds differ)", prop(`{"type":"number","enum":[1,1.0]}`)),
				schemaBad("1.0 does not fit an integer enum", prop(`{"type":"integer","enum":[1,1.0]}`)),
				schemaOK("two spellings of é are two strings", prop(`{"type":"string","enum":["\u00e9","e\u0301"]}`)),
				schemaOK("an enum of 256 values", prop(manyEnum(256))),
				schemaBad("an enum of 257 values", prop(manyEnum(257))),
				schemaOK("a const that fits", prop(`{"type":"integer","const":3,"maximum":3}`)),
				schemaBad("a const that does not fit its type", prop(`{"type":"integer","const":"3"}`)),
				schemaBad("a const over the maximum", prop(`{"type":"integer","const":4,"maximum":3}`)),
				schemaOK("a default that fits", prop(`{"type":"string","enum":["a","b"],"default":"b"}`)),
				schemaBad("a default outside the enum", prop(`{"type":"string","enum":["a","b"],"default":"c"}`)),
				schemaBad("a default of another type", prop(`{"type":"integer","default":"1"}`)),
				schemaBad("a default null on a type that is not nullable", prop(`{"type":"integer","default":null}`)),
				schemaOK("a default null under anyOf with null", prop(`{"anyOf":[{"type":"integer"},{"type":"null"}],"default":null}`)),
				schemaBad("a default object with a key the schema does not name", prop(`{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false,"default":{"y":1}}`)),
				schemaBad("a description that is not a string", prop(`{"type":"string","description":1}`)),
				schemaBad("a description of 8193 code points", prop(`{"type":"string","description":`+repeatString("a", 8193)+`}`)),
				schemaBad("a title of 257 code points", prop(`{"type":"string","title":`+repeatString("a", 257)+`}`)),
				schemaBad("a format that is not a string", prop(`{"type":"string","format":1}`)),
				schemaBad("examples that is not an array", prop(`{"type":"string","examples":"x"}`)),
			},
		},
		{
			id: "format2.schema.properties", title: "An object schema has at most 100 properties, each named ^[A-Za-z_][A-Za-z0-9_.-]{0,63}$",
			spec: "SPEC.md §12.3 K5",
			checks: []f2check{
				schemaOK("100 properties", manyProps(100)),
				schemaBad("101 properties", manyProps(101)),
				schemaOK("names in camel case, with an underscore first, dots and dashes", obj(`"filePath":{"type":"string"},"_id":{"type":"string"},"a.b-c":{"type":"string"},"__proto__":{"type":"string"}`, "")),
				schemaOK("a name of 64 characters", prop(`{"type":"object","properties":{`+jsonString(strings.Repeat("n", 64))+`:{"type":"string"}},"additionalProperties":false}`)),
				schemaBad("a name of 65 characters", prop(`{"type":"object","properties":{`+jsonString(strings.Repeat("n", 65))+`:{"type":"string"}},"additionalProperties":false}`)),
				schemaBad("a name with a digit first", obj(`"1a":{"type":"string"}`, "")),
				schemaBad("a name with a space", obj(`"a b":{"type":"string"}`, "")),
				schemaBad("the empty name", obj(`"":{"type":"string"}`, "")),
				schemaBad("a name with a letter outside ASCII", obj(`"café":{"type":"string"}`, "")),
			},
		},
		{
			id: "format2.schema.depth", title: "Schemas nest at most 10 deep: the input schema is depth 1, each property and items one deeper",
			spec: "SPEC.md §12.3 K1",
			checks: []f2check{
				schemaOK("10 levels of objects", nested(10)),
				schemaBad("11 levels of objects", nested(11)),
				schemaOK("10 levels: the root, 8 of items, a string", prop(strings.Repeat(`{"type":"array","items":`, 7)+`{"type":"array","items":{"type":"string"}}`+strings.Repeat(`}`, 7))),
				schemaBad("11 levels: the root, 9 of items, a string", prop(strings.Repeat(`{"type":"array","items":`, 8)+`{"type":"array","items":{"type":"string"}}`+strings.Repeat(`}`, 8))),
				schemaOK("anyOf is not a level", prop(strings.Repeat(`{"anyOf":[{"type":"array","items":`, 7)+`{"type":"string"}`+strings.Repeat(`},{"type":"null"}]}`, 7))),
			},
		},
		{
			id: "format2.discover.description", title: "A format-2 description is name, family, effect, title when there is one, description, the input schema exactly as written, annotations when there are any, origin (server, then tool) when there is one, and executes false",
			spec: "SPEC.md §12.4; §8.3",
			checks: []f2check{
				{"one tool by name: title and annotations, bounds as written, properties in their order", discover2(described, "files", "readFile"), `{"result":[` + readFileDesc + `]}`},
				{"a tool with no title and no annotations has neither member; members as the catalog orders them", discover2(described, "all", "write_file"), `{"result":[` + writeFileDesc + `]}`},
				{"a family: its enabled tools in catalog order, never the disabled one", discover2(described, "files", ""), `{"result":[` + readFileDesc + "," + writeFileDesc + `]}`},
				{"all: every enabled tool", discover2(described, "all", ""), `{"result":[` + readFileDesc + "," + writeFileDesc + "," + fetchDesc + `]}`},
				{"an empty title is a title: the description has it", discover2(cat2(toolWith(`,"title":""`)), "f", "t"), `{"result":[{"name":"t","family":"f","effect":"read","title":"","description":"","inputSchema":` + emptySchema + `,"executes":false}]}`},
				{"a disabled tool by name", discover2(described, "files", "deleteFile"), errorCode("TOOL_NOT_AVAILABLE_IN_FAMILY")},
				{"a name in another case", discover2(described, "files", "readfile"), errorCode("TOOL_NOT_AVAILABLE_IN_FAMILY")},
				{"a tool of another family", discover2(described, "web", "readFile"), errorCode("TOOL_NOT_AVAILABLE_IN_FAMILY")},
				{"a name that is not a tool name", discover2(described, "files", "read file"), errorCode("INVALID_LABEL")},
				{"a family described in families that no tool has is unknown", discover2(described, "spare", ""), errorCode("UNKNOWN_FAMILY")},
				{"a family that is not a label, though a tool name may look so", discover2(described, "Files", ""), errorCode("INVALID_LABEL")},
			},
		},
		{
			id: "format2.validate.names", title: "validate_arguments on format 2: the name is a tool name of an enabled tool, whatever its family; the arguments are an object",
			spec: "SPEC.md §12.4 W1; §7 V2-V3",
			checks: []f2check{
				{"camel case", `{"op":"validate_arguments","catalog":` + described + `,"name":"readFile","arguments":{"path":"a"}}`, validation("readFile", `{"path":"a"}`)},
				{"a tool of another family needs no family", `{"op":"validate_arguments","catalog":` + described + `,"name":"fetch","arguments":{"url":"not a URL: format constrains nothing"}}`, validation("fetch", `{"url":"not a URL: format constrains nothing"}`)},
				{"a disabled tool", `{"op":"validate_arguments","catalog":` + described + `,"name":"deleteFile","arguments":{}}`, errorCode("TOOL_NOT_AVAILABLE_IN_FAMILY")},
				{"a name in another case", `{"op":"validate_arguments","catalog":` + described + `,"name":"ReadFile","arguments":{"path":"a"}}`, errorCode("TOOL_NOT_AVAILABLE_IN_FAMILY")},
				{"a name that is not a tool name", `{"op":"validate_arguments","catalog":` + described + `,"name":"read file","arguments":{}}`, errorCode("INVALID_LABEL")},
				{"no name", `{"op":"validate_arguments","catalog":` + described + `,"arguments":{}}`, errorCode("INVALID_LABEL")},
				refuses("no arguments", emptySchema, `null`, "INVALID_ARGUMENT_KEYS"),
				refuses("arguments that are an array", emptySchema, `[]`, "INVALID_ARGUMENT_KEYS"),
				refuses("arguments that are a string", emptySchema, `"{}"`, "INVALID_ARGUMENT_KEYS"),
				fits("arguments echoed as written: numbers keep their literals", obj(`"n":{"type":"number"},"i":{"type":"integer"},"l":{"type":"array","items":{"type":"number"}}`, ""), `{"n":1.50,"i":-0,"l":[1e400,2.0,0.0000000000000000000000001]}`),
			},
		},
		{
			id: "format2.validate.null", title: "null fits a nullable schema only; under type [T, null] it must also be in the enum, under anyOf it need not",
			spec: "SPEC.md §12.4 W3; §12.5",
			checks: []f2check{
				refuses("null for a string", prop(str), `{"a":null}`, "INVALID_ARGUMENT_VALUE"),
				fits("null for type [string, null]", prop(nullStr), `{"a":null}`),
				fits("null for type [null, integer]", prop(`{"type":["null","integer"]}`), `{"a":null}`),
				fits("null under anyOf", prop(anyOfStr), `{"a":null}`),
				fits("null under anyOf whose string branch has an enum", prop(`{"anyOf":[{"type":"string","enum":["x"]},{"type":"null"}]}`), `{"a":null}`),
				refuses("null under type [string, null] with an enum that leaves null out", prop(`{"type":["string","null"],"enum":["x"]}`), `{"a":null}`, "INVALID_ARGUMENT_VALUE"),
				fits("null under type [string, null] with an enum that lists it", prop(`{"type":["string","null"],"enum":["x",null]}`), `{"a":null}`),
				refuses("null under type [integer, null] with a const that is not null", prop(`{"type":["integer","null"],"const":1}`), `{"a":null}`, "INVALID_ARGUMENT_VALUE"),
				fits("null for a nullable type ignores its bounds", prop(`{"type":["string","null"],"minLength":3}`), `{"a":null}`),
				refuses("a string for a nullable integer", prop(`{"type":["integer","null"]}`), `{"a":"1"}`, "INVALID_ARGUMENT_VALUE"),
				refuses("a nullable string's bounds still apply to strings", prop(`{"anyOf":[{"type":"string","maxLength":1},{"type":"null"}]}`), `{"a":"ab"}`, "INVALID_ARGUMENT_VALUE"),
				refuses("null for a required property that is not nullable", obj(`"a":{"type":"string"}`, `["a"]`), `{"a":null}`, "INVALID_ARGUMENT_VALUE"),
				fits("null for a required property that is nullable (the key is there)", obj(`"a":{"type":["string","null"]}`, `["a"]`), `{"a":null}`),
				refuses("null in an array of strings", prop(`{"type":"array","items":{"type":"string"}}`), `{"a":["x",null]}`, "INVALID_ARGUMENT_VALUE"),
			},
		},
		{
			id: "format2.validate.types", title: "Each type takes its values only: an integer is an integer literal of any magnitude, a number any number",
			spec: "SPEC.md §12.4 W4; §12.5; §2 J7",
			checks: []f2check{
				fits("integers", obj(`"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}`, ""), `{"a":-0,"b":123456789012345678901234567890123456789012345678901234567890,"c":-9223372036854775809}`),
				refuses("1.0 is not an integer", prop(integer), `{"a":1.0}`, "INVALID_ARGUMENT_VALUE"),
				refuses("1e2 is not an integer", prop(integer), `{"a":1e2}`, "INVALID_ARGUMENT_VALUE"),
				refuses("1E0 is not an integer", prop(integer), `{"a":1E0}`, "INVALID_ARGUMENT_VALUE"),
				refuses("a string of digits is not an integer", prop(integer), `{"a":"1"}`, "INVALID_ARGUMENT_VALUE"),
				fits("numbers, beyond a float's range too", obj(`"a":{"type":"number"},"b":{"type":"number"},"c":{"type":"number"},"d":{"type":"number"}`, ""), `{"a":1,"b":1.5,"c":-1e400,"d":1E-400}`),
				refuses("a string for a number", prop(number), `{"a":"1.5"}`, "INVALID_ARGUMENT_VALUE"),
				fits("booleans", obj(`"a":{"type":"boolean"},"b":{"type":"boolean"}`, ""), `{"a":true,"b":false}`),
				refuses("1 is not a boolean", prop(`{"type":"boolean"}`), `{"a":1}`, "INVALID_ARGUMENT_VALUE"),
				refuses("\"true\" is not a boolean", prop(`{"type":"boolean"}`), `{"a":"true"}`, "INVALID_ARGUMENT_VALUE"),
				refuses("a number is not a string", prop(str), `{"a":1}`, "INVALID_ARGUMENT_VALUE"),
				refuses("an object is not an array", prop(`{"type":"array","items":{"type":"string"}}`), `{"a":{}}`, "INVALID_ARGUMENT_VALUE"),
				refuses("an array is not an object", prop(`{"type":"object","additionalProperties":false}`), `{"a":[]}`, "INVALID_ARGUMENT_VALUE"),
				refuses("a string is not an object", prop(`{"type":"object","additionalProperties":false}`), `{"a":"{}"}`, "INVALID_ARGUMENT_VALUE"),
			},
		},
		{
			id: "format2.validate.enum", title: "enum and const compare by value and kind: numbers by exact value and by being integer literals, strings by code points, objects as unordered members",
			spec: "SPEC.md §12.4 W5; §12.5; §8.3",
			checks: []f2check{
				refuses("1.0 is not the integer 1", prop(`{"type":"number","enum":[1]}`), `{"a":1.0}`, "INVALID_ARGUMENT_VALUE"),
				refuses("1 is not 1.0", prop(`{"type":"number","enum":[1.0]}`), `{"a":1}`, "INVALID_ARGUMENT_VALUE"),
				fits("1e0 is 1.0", prop(`{"type":"number","enum":[1.0]}`), `{"a":1e0}`),
				fits("1.5 is 1.50 and 15e-1", obj(`"a":{"type":"number","enum":[1.50]},"b":{"type":"number","const":15e-1}`, ""), `{"a":1.5,"b":1.5}`),
				fits("-0 is 0", prop(`{"type":"integer","enum":[0]}`), `{"a":-0}`),
				fits("integers past 2^53 compare exactly", prop(`{"type":"integer","enum":[9007199254740993]}`), `{"a":9007199254740993}`),
				refuses("9007199254740992 is not 9007199254740993", prop(`{"type":"integer","enum":[9007199254740993]}`), `{"a":9007199254740992}`, "INVALID_ARGUMENT_VALUE"),
				refuses("numbers that one float holds are still two", prop(`{"type":"number","const":0.1}`), `{"a":0.1000000000000000000001}`, "INVALID_ARGUMENT_VALUE"),
				fits("é escaped or not is one string", prop(`{"type":"string","enum":["é"]}`), `{"a":"\u00e9"}`),
				refuses("é and e with a combining accent are two strings", prop(`{"type":"string","enum":["é"]}`), `{"a":"e\u0301"}`, "INVALID_ARGUMENT_VALUE"),
				refuses("case counts", prop(`{"type":"string","enum":["a"]}`), `{"a":"A"}`, "INVALID_ARGUMENT_VALUE"),
				fits("an object equals one with its members in another order", prop(`{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"array","items":{"type":"integer"}}},"additionalProperties":false,"enum":[{"x":1,"y":[1,2]}]}`), `{"a":{"y":[1,2],"x":1}}`),
				refuses("an array's order counts", prop(`{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"array","items":{"type":"integer"}}},"additionalProperties":false,"enum":[{"x":1,"y":[1,2]}]}`), `{"a":{"x":1,"y":[2,1]}}`, "INVALID_ARGUMENT_VALUE"),
				refuses("an object with fewer members", prop(`{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"enum":[{"x":1,"y":2}]}`), `{"a":{"x":1}}`, "INVALID_ARGUMENT_VALUE"),
				refuses("true is not 1", prop(`{"type":"boolean","const":true}`), `{"a":false}`, "INVALID_ARGUMENT_VALUE"),
				fits("const on an array", prop(`{"type":"array","items":{"type":"integer"},"const":[1,2]}`), `{"a":[1,2]}`),
				refuses("const on an array: another order", prop(`{"type":"array","items":{"type":"integer"},"const":[1,2]}`), `{"a":[2,1]}`, "INVALID_ARGUMENT_VALUE"),
			},
		},
		{
			id: "format2.validate.strings", title: "String lengths count code points: not bytes, not UTF-16 units, not grapheme clusters",
			spec: "SPEC.md §12.4 W6; §3",
			checks: []f2check{
				fits("two characters outside the BMP for maxLength 2", prop(`{"type":"string","maxLength":2}`), `{"a":"😀😀"}`),
				refuses("three for maxLength 2", prop(`{"type":"string","maxLength":2}`), `{"a":"😀😀😀"}`, "INVALID_ARGUMENT_VALUE"),
				refuses("one character outside the BMP for minLength 2", prop(`{"type":"string","minLength":2}`), `{"a":"😀"}`, "INVALID_ARGUMENT_VALUE"),
				fits("a surrogate pair escape is one code point", prop(`{"type":"string","maxLength":1}`), `{"a":"\ud83d\ude00"}`),
				fits("three two-byte characters for maxLength 3", prop(`{"type":"string","maxLength":3}`), `{"a":"ééé"}`),
				refuses("e and a combining accent are two code points", prop(`{"type":"string","maxLength":1}`), `{"a":"e\u0301"}`, "INVALID_ARGUMENT_VALUE"),
				fits("the empty string for minLength 0", prop(`{"type":"string","minLength":0,"maxLength":0}`), `{"a":""}`),
				refuses("the empty string for minLength 1", prop(`{"type":"string","minLength":1}`), `{"a":""}`, "INVALID_ARGUMENT_VALUE"),
				fits("an escaped NUL is one code point", prop(`{"type":"string","minLength":1,"maxLength":1}`), `{"a":"\u0000"}`),
			},
		},
		{
			id: "format2.validate.numbers", title: "Numeric bounds compare exact decimal values, never floats: inclusive unless exclusive, at any magnitude and precision",
			spec: "SPEC.md §12.4 W6; §12.5",
			checks: []f2check{
				fits("at the minimum and the maximum", obj(`"a":{"type":"integer","minimum":1,"maximum":3},"b":{"type":"integer","minimum":1,"maximum":3}`, ""), `{"a":1,"b":3}`),
				refuses("under the minimum", prop(`{"type":"integer","minimum":1}`), `{"a":0}`, "INVALID_ARGUMENT_VALUE"),
				refuses("over the maximum", prop(`{"type":"integer","maximum":3}`), `{"a":4}`, "INVALID_ARGUMENT_VALUE"),
				refuses("at an exclusive minimum", prop(`{"type":"number","exclusiveMinimum":1}`), `{"a":1.0}`, "INVALID_ARGUMENT_VALUE"),
				fits("just over an exclusive minimum, closer than a float can tell", prop(`{"type":"number","exclusiveMinimum":1}`), `{"a":1.0000000000000000000001}`),
				refuses("at an exclusive maximum written otherwise", prop(`{"type":"number","exclusiveMaximum":1.5}`), `{"a":15e-1}`, "INVALID_ARGUMENT_VALUE"),
				refuses("-0 is not under an exclusive maximum of 0", prop(`{"type":"number","exclusiveMaximum":0}`), `{"a":-0.0}`, "INVALID_ARGUMENT_VALUE"),
				fits("a tiny negative number is under it", prop(`{"type":"number","exclusiveMaximum":0}`), `{"a":-1e-400}`),
				refuses("0.30000000000000001 is over a maximum of 0.3", prop(`{"type":"number","maximum":0.3}`), `{"a":0.30000000000000001}`, "INVALID_ARGUMENT_VALUE"),
				refuses("2^53 + 1 is over a maximum of 2^53", prop(`{"type":"integer","maximum":9007199254740992}`), `{"a":9007199254740993}`, "INVALID_ARGUMENT_VALUE"),
				refuses("a 40-digit integer one over a 40-digit maximum", prop(`{"type":"integer","maximum":1234567890123456789012345678901234567890}`), `{"a":1234567890123456789012345678901234567891}`, "INVALID_ARGUMENT_VALUE"),
				fits("a 40-digit integer at a 40-digit maximum", prop(`{"type":"integer","maximum":1234567890123456789012345678901234567890}`), `{"a":1234567890123456789012345678901234567890}`),
				refuses("9e399 is under a minimum of 1e400", prop(`{"type":"number","minimum":1e400}`), `{"a":9e399}`, "INVALID_ARGUMENT_VALUE"),
				fits("1e401 is over it", prop(`{"type":"number","minimum":1e400}`), `{"a":1e401}`),
				refuses("2e-400 is over a maximum of 1e-400", prop(`{"type":"number","maximum":1e-400}`), `{"a":2e-400}`, "INVALID_ARGUMENT_VALUE"),
				fits("an integer with an exponent of a billion and a number beside it", prop(`{"type":"number","maximum":1e1000000000}`), `{"a":99999999999999999999e999999980}`),
				refuses("an exponent of a billion over a maximum", prop(`{"type":"number","maximum":1e999999999}`), `{"a":1e1000000000}`, "INVALID_ARGUMENT_VALUE"),
				refuses("an integer under a fractional minimum", prop(`{"type":"integer","minimum":1.5}`), `{"a":1}`, "INVALID_ARGUMENT_VALUE"),
				fits("an integer over a fractional minimum", prop(`{"type":"integer","minimum":1.5}`), `{"a":2}`),
				fits("an exponent with a sign and a capital E", prop(`{"type":"number","minimum":100,"maximum":100}`), `{"a":1E+2}`),
				refuses("a negative bound", prop(`{"type":"integer","minimum":-5}`), `{"a":-6}`, "INVALID_ARGUMENT_VALUE"),
			},
		},
		{
			id: "format2.validate.arrays", title: "An array's length is checked before its elements, and its elements in index order",
			spec: "SPEC.md §12.4 W7",
			checks: []f2check{
				fits("within minItems and maxItems", prop(`{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":2}`), `{"a":[1,2]}`),
				refuses("under minItems", prop(`{"type":"array","items":{"type":"integer"},"minItems":1}`), `{"a":[]}`, "INVALID_ARGUMENT_VALUE"),
				refuses("over maxItems", prop(`{"type":"array","items":{"type":"integer"},"maxItems":2}`), `{"a":[1,2,3]}`, "INVALID_ARGUMENT_VALUE"),
				refuses("an element of the wrong type", prop(`{"type":"array","items":{"type":"integer"}}`), `{"a":[1,"2"]}`, "INVALID_ARGUMENT_VALUE"),
				refuses("an element with a key the schema does not name", prop(`{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}}`), `{"a":[{"x":"1"},{"y":"2"}]}`, "INVALID_ARGUMENT_KEYS"),
				refuses("the length before the elements: too many, and an element with a bad key", prop(`{"type":"array","items":{"type":"object","additionalProperties":false},"maxItems":1}`), `{"a":[{},{"y":1}]}`, "INVALID_ARGUMENT_VALUE"),
				refuses("index order: a bad key at [0] before a bad value at [1]", prop(`{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}}`), `{"a":[{"y":1},{"x":1}]}`, "INVALID_ARGUMENT_KEYS"),
				refuses("index order: a bad value at [0] before a bad key at [1]", prop(`{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}}`), `{"a":[{"x":1},{"y":1}]}`, "INVALID_ARGUMENT_VALUE"),
				refuses("a missing required key in an element", prop(`{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}}`), `{"a":[{"x":"1"},{}]}`, "INVALID_ARGUMENT_KEYS"),
				fits("arrays of arrays", prop(`{"type":"array","items":{"type":"array","items":{"type":"boolean"},"maxItems":1}}`), `{"a":[[true],[],[false]]}`),
			},
		},
		{
			id: "format2.validate.objects", title: "An object's keys, then its required properties, then its values in the schema's order of properties, at every depth",
			spec: "SPEC.md §12.4 W8",
			checks: []f2check{
				fits("nested objects", obj(`"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"integer"}},"required":["c"],"additionalProperties":false}},"additionalProperties":false}`, `["a"]`), `{"a":{"b":{"c":1}}}`),
				refuses("a key the root does not name", obj(`"a":{"type":"string"}`, ""), `{"b":"x"}`, "INVALID_ARGUMENT_KEYS"),
				refuses("keys compare exactly: A is not a", obj(`"a":{"type":"string"}`, ""), `{"A":"x"}`, "INVALID_ARGUMENT_KEYS"),
				refuses("a nested key the schema does not name", prop(`{"type":"object","properties":{"b":{"type":"integer"}},"additionalProperties":false}`), `{"a":{"c":1}}`, "INVALID_ARGUMENT_KEYS"),
				refuses("a nested object with no properties takes only {}", prop(`{"type":"object","additionalProperties":false}`), `{"a":{"b":1}}`, "INVALID_ARGUMENT_KEYS"),
				refuses("a missing required property", obj(`"a":{"type":"string"},"b":{"type":"string"}`, `["a","b"]`), `{"a":"x"}`, "INVALID_ARGUMENT_KEYS"),
				refuses("a missing nested required property", prop(`{"type":"object","properties":{"b":{"type":"integer"}},"required":["b"],"additionalProperties":false}`), `{"a":{}}`, "INVALID_ARGUMENT_KEYS"),
				refuses("keys before values: a wrong value written first, then an unknown key", obj(`"a":{"type":"integer"}`, ""), `{"a":"x","z":1}`, "INVALID_ARGUMENT_KEYS"),
				refuses("required before values: a wrong value and a missing required property", obj(`"a":{"type":"integer"},"b":{"type":"integer"}`, `["b"]`), `{"a":"x"}`, "INVALID_ARGUMENT_KEYS"),
				refuses("values in the schema's order: a's wrong value before b's nested unknown key, b written first", obj(`"a":{"type":"integer"},"b":{"type":"object","additionalProperties":false}`, ""), `{"b":{"z":1},"a":"x"}`, "INVALID_ARGUMENT_VALUE"),
				refuses("values in the schema's order: b's nested unknown key before a's wrong value, a written first", obj(`"b":{"type":"object","additionalProperties":false},"a":{"type":"integer"}`, ""), `{"a":"x","b":{"z":1}}`, "INVALID_ARGUMENT_KEYS"),
				refuses("a nested object's keys come at its turn: a's value fails first", obj(`"a":{"type":"integer"},"b":{"type":"object","properties":{"c":{"type":"integer"}},"required":["c"],"additionalProperties":false}`, ""), `{"b":{},"a":true}`, "INVALID_ARGUMENT_VALUE"),
				fits("a property named __proto__", obj(`"__proto__":{"type":"string"}`, `["__proto__"]`), `{"__proto__":"x"}`),
				refuses("constructor is not a property", obj(`"a":{"type":"string"}`, ""), `{"constructor":"x"}`, "INVALID_ARGUMENT_KEYS"),
				refuses("toString is not a property", obj(`"a":{"type":"string"}`, ""), `{"toString":"x"}`, "INVALID_ARGUMENT_KEYS"),
				refuses("__proto__ is not a property unless the schema names it", obj(`"a":{"type":"string"}`, ""), `{"__proto__":{}}`, "INVALID_ARGUMENT_KEYS"),
				refuses("hasOwnProperty is not a property", prop(`{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":false}`), `{"a":{"hasOwnProperty":"x"}}`, "INVALID_ARGUMENT_KEYS"),
			},
		},
	}
}

// encodeF2Case writes a format-2 case file in the format of
// case.schema.json: one line for each check's note, call and expectation,
// the JSON compact (number literals and escapes as written).
func encodeF2Case(c f2case) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"id\": %s,\n  \"title\": %s,\n  \"spec\": %s,\n  \"checks\": [\n", jsonString(c.id), jsonString(c.title), jsonString(c.spec))
	for i, chk := range c.checks {
		call, err := compact(chk.call)
		if err != nil {
			return nil, fmt.Errorf("%s: check %d (%s): call: %v", c.id, i, chk.note, err)
		}
		expect, err := compact(chk.expect)
		if err != nil {
			return nil, fmt.Errorf("%s: check %d (%s): expect: %v", c.id, i, chk.note, err)
		}
		fmt.Fprintf(&b, "    {\n      \"note\": %s,\n      \"call\": %s,\n      \"expect\": %s\n    }", jsonString(chk.note), call, expect)
		if i < len(c.checks)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes(), nil
}

// compact returns JSON text without white space between tokens, keeping
// each literal as it is written.
func compact(s string) (string, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}
