package catalog

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// mustJSON parses JSON text that the test itself wrote.
func mustJSON(t testing.TB, text string) Value {
	t.Helper()
	v, err := ParseJSON([]byte(text))
	if err != nil {
		t.Fatalf("ParseJSON(%q): %v", text, err)
	}
	return v
}

// codeOf returns the stable code of err, "" for nil, and fails the test for
// an error that is not an *Error.
func codeOf(t testing.TB, err error) Code {
	t.Helper()
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *catalog.Error", err, err)
	}
	return e.Code
}

func pathOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Path
	}
	return ""
}

// tool renders one tool definition from raw JSON parts.
func tool(name, family, effect, enabled, fields string) string {
	return fmt.Sprintf(`{"name":%s,"family":%s,"effect":%s,"enabled":%s,"fields":%s}`, name, family, effect, enabled, fields)
}

// okTool is a valid definition; okField a valid field spec.
var (
	okTool  = tool(`"a"`, `"f"`, `"read"`, `true`, `{}`)
	okField = `{"type":"string","required":true,"max_length":5}`
)

// withField renders a valid tool "t" whose fields object is the given text.
func withFields(fields string) string {
	return "[" + tool(`"t"`, `"f"`, `"read"`, `true`, fields) + "]"
}

func spec(typ, required, maxLength string) string {
	return fmt.Sprintf(`{"type":%s,"required":%s,"max_length":%s}`, typ, required, maxLength)
}

func nFields(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"f%02d":%s`, i, okField)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func nTools(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = tool(fmt.Sprintf(`"t%04d"`, i), `"f"`, `"read"`, `true`, `{}`)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// checkBothForms runs catalog validation through the compiled form and both
// function-level calls, requires them to agree, and returns the error.
func checkBothForms(t *testing.T, cat Value) error {
	t.Helper()
	_, compiled := Compile(cat)
	_, discover := Discover(cat, mustJSON(t, `"all"`), Value{})
	_, validate := ValidateArguments(cat, mustJSON(t, `"no.such.tool"`), mustJSON(t, `{}`))
	if codeOf(t, discover) != codeOf(t, compiled) || pathOf(discover) != pathOf(compiled) {
		t.Errorf("Discover and Compile disagree: %v vs %v", discover, compiled)
	}
	if compiled != nil && (codeOf(t, validate) != codeOf(t, compiled) || pathOf(validate) != pathOf(compiled)) {
		t.Errorf("ValidateArguments and Compile disagree: %v vs %v", validate, compiled)
	}
	return compiled
}

func TestCatalogValidation(t *testing.T) {
	label80 := "a" + strings.Repeat("b", 79)
	label81 := label80 + "c"
	tests := []struct {
		name     string
		catalog  string
		wantCode Code // "" for a valid catalog
		wantPath string
		reason   string
	}{
		{"empty", `[]`, "", "", "an empty array is a valid catalog"},
		{"object", `{}`, InvalidCatalog, "$", "a catalog must be an array"},
		{"null", `null`, InvalidCatalog, "$", "null is not an array"},
		{"string", `"[]"`, InvalidCatalog, "$", "a string holding an array is not an array"},
		{"1000 tools", nTools(1000), "", "", "1000 tools is the maximum"},
		{"1001 tools", nTools(1001), InvalidCatalog, "$", "one tool over the maximum"},
		{"tool not object", `[1]`, InvalidFields, "$[0]", "a tool must be an object"},
		{"tool array", `[[]]`, InvalidFields, "$[0]", "a tool must be an object"},
		{"missing key", `[{"name":"a","family":"f","effect":"read","enabled":true}]`, InvalidFields, "$[0]", "fields is missing"},
		{"extra key", `[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{},"admin":true}]`, InvalidFields, "$[0]", "a polluted definition with an extra key"},
		{"extra key, one missing", `[{"name":"a","family":"f","effect":"read","enabled":true,"field":{}}]`, InvalidFields, "$[0]", "five keys but not the five"},
		{"label 80", "[" + tool(`"`+label80+`"`, `"f"`, `"read"`, `true`, `{}`) + "]", "", "", "80 characters is the longest label"},
		{"label 81", "[" + tool(`"`+label81+`"`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "81 characters is too long"},
		{"uppercase name", "[" + tool(`"Page.read"`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "labels are lowercase"},
		{"trailing newline", "[" + tool(`"page\n"`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "nothing may follow a label, not even a newline"},
		{"empty name", "[" + tool(`""`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "a label has at least one character"},
		{"digit first", "[" + tool(`"1a"`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "a label starts with a letter"},
		{"non-ASCII", "[" + tool(`"café"`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "labels are ASCII"},
		{"space", "[" + tool(`"a b"`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "no spaces"},
		{"number name", "[" + tool(`5`, `"f"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].name", "a label is a string"},
		{"all punctuation kinds", "[" + tool(`"a0._-z"`, `"f-1.x_y"`, `"read"`, `true`, `{}`) + "]", "", "", "digits, dot, underscore, hyphen are allowed after the first letter"},
		{"bad family", "[" + tool(`"a"`, `"Reading"`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].family", "family must be a label"},
		{"null family", "[" + tool(`"a"`, `null`, `"read"`, `true`, `{}`) + "]", InvalidLabel, "$[0].family", "family must be a string"},
		{"duplicate", "[" + okTool + "," + tool(`"a"`, `"g"`, `"change"`, `false`, `{}`) + "]", DuplicateTool, "$[1].name", "names are unique across families and enabled states"},
		{"effect write", "[" + tool(`"a"`, `"f"`, `"write"`, `true`, `{}`) + "]", InvalidMetadata, "$[0].effect", "effect is read or change"},
		{"effect case", "[" + tool(`"a"`, `"f"`, `"Read"`, `true`, `{}`) + "]", InvalidMetadata, "$[0].effect", "effect is exact"},
		{"enabled string", "[" + tool(`"a"`, `"f"`, `"read"`, `"true"`, `{}`) + "]", InvalidMetadata, "$[0].enabled", "enabled is a JSON boolean"},
		{"enabled number", "[" + tool(`"a"`, `"f"`, `"read"`, `1`, `{}`) + "]", InvalidMetadata, "$[0].enabled", "1 is not a boolean"},
		{"enabled null", "[" + tool(`"a"`, `"f"`, `"read"`, `null`, `{}`) + "]", InvalidMetadata, "$[0].enabled", "null is not a boolean"},
		{"fields array", withFields(`[]`), InvalidFields, "$[0].fields", "fields is an object"},
		{"30 fields", withFields(nFields(30)), "", "", "30 fields is the maximum"},
		{"31 fields", withFields(nFields(31)), InvalidFields, "$[0].fields", "one field over the maximum"},
		{"field name", withFields(`{"Query":` + okField + `}`), InvalidLabel, `$[0].fields.Query`, "field names are labels"},
		{"field name dotted", withFields(`{"a.b":` + okField + `}`), "", "", "a dotted field name is a label"},
		{"spec not object", withFields(`{"q":"string"}`), InvalidFields, "$[0].fields.q", "a field spec is an object"},
		{"spec extra key", withFields(`{"q":{"type":"string","required":true,"max_length":5,"format":"email"}}`), InvalidFields, "$[0].fields.q", "a spec has exactly three keys"},
		{"spec missing key", withFields(`{"q":{"type":"string","required":true}}`), InvalidFields, "$[0].fields.q", "max_length is declared for every field"},
		{"type number", withFields(`{"q":` + spec(`"number"`, `true`, `5`) + `}`), InvalidSpec, "$[0].fields.q.type", "only string, integer, boolean"},
		{"type object", withFields(`{"q":` + spec(`"object"`, `true`, `5`) + `}`), InvalidSpec, "$[0].fields.q.type", "no nested objects"},
		{"required string", withFields(`{"q":` + spec(`"string"`, `"yes"`, `5`) + `}`), InvalidSpec, "$[0].fields.q.required", "required is a JSON boolean"},
		{"max_length 0", withFields(`{"q":` + spec(`"string"`, `true`, `0`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "below the range"},
		{"max_length 1", withFields(`{"q":` + spec(`"string"`, `true`, `1`) + `}`), "", "", "lowest in range"},
		{"max_length 20000", withFields(`{"q":` + spec(`"string"`, `true`, `20000`) + `}`), "", "", "highest in range"},
		{"max_length 20001", withFields(`{"q":` + spec(`"string"`, `true`, `20001`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "above the range"},
		{"max_length 5.0", withFields(`{"q":` + spec(`"string"`, `true`, `5.0`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "a fraction is not an integer"},
		{"max_length 1e2", withFields(`{"q":` + spec(`"string"`, `true`, `1e2`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "an exponent is not an integer"},
		{"max_length true", withFields(`{"q":` + spec(`"string"`, `true`, `true`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "a boolean is not an integer"},
		{"max_length -1", withFields(`{"q":` + spec(`"string"`, `true`, `-1`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "negative"},
		{"max_length -0", withFields(`{"q":` + spec(`"string"`, `true`, `-0`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "-0 is the integer 0, below the range"},
		{"max_length huge", withFields(`{"q":` + spec(`"string"`, `true`, `100000000000000000000000`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "far above the range, no overflow"},
		{"max_length string", withFields(`{"q":` + spec(`"string"`, `true`, `"5"`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "a string is not an integer"},
		{"max_length on boolean", withFields(`{"q":` + spec(`"boolean"`, `false`, `1`) + `}`), "", "", "declared for every field, even when it constrains nothing"},
		{"max_length 0 on integer", withFields(`{"q":` + spec(`"integer"`, `false`, `0`) + `}`), InvalidSpec, "$[0].fields.q.max_length", "range applies to every type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkBothForms(t, mustJSON(t, tt.catalog))
			if got := codeOf(t, err); got != tt.wantCode || pathOf(err) != tt.wantPath {
				t.Errorf("got %q at %q, want %q at %q (%s); error: %v", got, pathOf(err), tt.wantCode, tt.wantPath, tt.reason, err)
			}
		})
	}
}

// TestPrecedence checks that when a catalog has two problems, the first check
// in the contract's order decides the error.
func TestPrecedence(t *testing.T) {
	tests := []struct {
		name     string
		catalog  string
		wantCode Code
		wantPath string
		reason   string
	}{
		{"tool order", "[" + tool(`"a"`, `"f"`, `"read"`, `true`, `{"q":`+spec(`"x"`, `true`, `5`)+`}`) + `,{"name":"b"}]`,
			InvalidSpec, "$[0].fields.q.type", "tool 0 is checked completely before tool 1"},
		{"catalog size first", strings.Replace(nTools(1001), `"t0000"`, `"BAD"`, 1),
			InvalidCatalog, "$", "the size of the catalog is checked before any tool"},
		{"keys before name", `[{"name":"BAD","family":"f","effect":"read","enabled":true,"fields":{},"x":1}]`,
			InvalidFields, "$[0]", "the key set is checked before the name label"},
		{"name before family", "[" + tool(`"BAD"`, `"ALSO BAD"`, `"read"`, `true`, `{}`) + "]",
			InvalidLabel, "$[0].name", "name label before family label"},
		{"family before duplicate", "[" + okTool + "," + tool(`"a"`, `"BAD"`, `"read"`, `true`, `{}`) + "]",
			InvalidLabel, "$[1].family", "labels before the duplicate check"},
		{"duplicate before metadata", "[" + okTool + "," + tool(`"a"`, `"f"`, `"write"`, `1`, `{}`) + "]",
			DuplicateTool, "$[1].name", "duplicate before metadata"},
		{"effect before enabled", "[" + tool(`"a"`, `"f"`, `"write"`, `"yes"`, `{}`) + "]",
			InvalidMetadata, "$[0].effect", "effect before enabled"},
		{"metadata before fields", "[" + tool(`"a"`, `"f"`, `"read"`, `"yes"`, `[]`) + "]",
			InvalidMetadata, "$[0].enabled", "metadata before fields"},
		{"field count before field names", withFields(strings.Replace(nFields(31), `"f00"`, `"BAD"`, 1)),
			InvalidFields, "$[0].fields", "the number of fields before any field"},
		{"field order", withFields(`{"q":` + spec(`"x"`, `true`, `5`) + `,"BAD":` + okField + `}`),
			InvalidSpec, "$[0].fields.q.type", "fields in the object's order"},
		{"field name before spec", withFields(`{"BAD":"not an object"}`),
			InvalidLabel, "$[0].fields.BAD", "field name before its spec"},
		{"spec keys before type", withFields(`{"q":{"type":"x","required":1,"max_length":0,"extra":1}}`),
			InvalidFields, "$[0].fields.q", "spec key set before spec values"},
		{"type before max_length", withFields(`{"q":` + spec(`"x"`, `true`, `0`) + `}`),
			InvalidSpec, "$[0].fields.q.type", "type before max_length"},
		{"required before max_length", withFields(`{"q":` + spec(`"string"`, `1`, `0`) + `}`),
			InvalidSpec, "$[0].fields.q.required", "required before max_length"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkBothForms(t, mustJSON(t, tt.catalog))
			if got := codeOf(t, err); got != tt.wantCode || pathOf(err) != tt.wantPath {
				t.Errorf("got %q at %q, want %q at %q (%s); error: %v", got, pathOf(err), tt.wantCode, tt.wantPath, tt.reason, err)
			}
		})
	}
}

// synthetic returns the synthetic catalog shared with the conformance suite
// and the records.
func synthetic(t testing.TB) Value {
	t.Helper()
	data, err := os.ReadFile("../conformance/synthetic-catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, string(data))
}

func names(ds []Description) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func TestDiscover(t *testing.T) {
	cat := synthetic(t)
	compiled, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		family, name string // name "" is not given
		want         []string
		wantCode     Code
		reason       string
	}{
		{"reading", "", []string{"page.read", "page.find", "tab.select"}, "", "enabled tools of the family, in catalog order; no disabled one, no other family"},
		{"input", "", []string{"form.fill", "key.press"}, "", "the other family"},
		{"all", "", []string{"page.read", "page.find", "tab.select", "form.fill", "key.press"}, "", "all lifts the family filter, never the enabled filter"},
		{"storage", "", []string{}, "", "a known family whose tools are all disabled lists []"},
		{"reading", "tab.select", []string{"tab.select"}, "", "exact name; a change tool in the reading family"},
		{"all", "key.press", []string{"key.press"}, "", "exact name in any family"},
		{"input", "page.read", nil, ToolNotAvailableInFamily, "a name from another family"},
		{"reading", "page.screenshot", nil, ToolNotAvailableInFamily, "a disabled tool"},
		{"all", "page.screenshot", nil, ToolNotAvailableInFamily, "all never lifts the enabled filter"},
		{"all", "page.rea", nil, ToolNotAvailableInFamily, "no prefix match"},
		{"all", "page.reader", nil, ToolNotAvailableInFamily, "no similar name"},
		{"storage", "cookie.clear", nil, ToolNotAvailableInFamily, "disabled in a family of disabled tools"},
		{"writing", "", nil, UnknownFamily, "no tool has that family"},
		{"writing", "page.read", nil, UnknownFamily, "unknown family is checked before the name is looked up"},
		{"Reading", "", nil, InvalidLabel, "family is a label"},
		{"reading\n", "", nil, InvalidLabel, "no trailing newline"},
		{"reading", "Page.Read", nil, InvalidLabel, "name is a label"},
		{"BAD", "ALSO BAD", nil, InvalidLabel, "family is checked before name"},
		{"writing", "BAD", nil, InvalidLabel, "name label before unknown family"},
	}
	for _, tt := range tests {
		t.Run(tt.family+"/"+tt.name, func(t *testing.T) {
			var got []Description
			var err error
			var fnGot []Description
			var fnErr error
			famV := mustJSON(t, string(appendString(nil, tt.family)))
			if tt.name == "" {
				got, err = compiled.Discover(tt.family)
				fnGot, fnErr = Discover(cat, famV, Value{})
			} else {
				got, err = compiled.DiscoverTool(tt.family, tt.name)
				fnGot, fnErr = Discover(cat, famV, mustJSON(t, string(appendString(nil, tt.name))))
			}
			if codeOf(t, err) != tt.wantCode {
				t.Fatalf("code %q, want %q (%s): %v", codeOf(t, err), tt.wantCode, tt.reason, err)
			}
			if diff := diff(got, fnGot); diff != "" || codeOf(t, fnErr) != codeOf(t, err) {
				t.Errorf("function-level form differs from compiled (-compiled +function): %s; errors %v vs %v", diff, err, fnErr)
			}
			if tt.wantCode == "" {
				if diff := diff(tt.want, names(got)); diff != "" {
					t.Errorf("names (-want +got) (%s):\n%s", tt.reason, diff)
				}
			}
		})
	}
}

func TestDescriptionJSON(t *testing.T) {
	c, err := Compile(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, want, reason string
	}{
		{"page.read", `{"name":"page.read","family":"reading","effect":"read","inputSchema":{"type":"object","properties":{"format":{"type":"string","maxLength":16},"tab_id":{"type":"integer"}},"required":["tab_id"],"additionalProperties":false},"executes":false}`,
			"properties keep field order even when an optional field comes first; maxLength only for strings"},
		{"page.find", `{"name":"page.find","family":"reading","effect":"read","inputSchema":{"type":"object","properties":{"query":{"type":"string","maxLength":8},"match_case":{"type":"boolean"},"limit":{"type":"integer"}},"required":["query"],"additionalProperties":false},"executes":false}`,
			"all three types"},
		{"key.press", `{"name":"key.press","family":"input","effect":"change","inputSchema":{"type":"object","properties":{"repeat":{"type":"integer"},"key":{"type":"string","maxLength":32}},"required":["key"],"additionalProperties":false},"executes":false}`,
			"required follows field order"},
	} {
		got, err := c.DiscoverTool("all", tt.name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := got[0].MarshalJSON()
		if diff := diff(tt.want, string(b)); diff != "" {
			t.Errorf("%s (-want +got) (%s):\n%s", tt.name, tt.reason, diff)
		}
	}
	// A tool with no fields has empty properties and an empty required list,
	// never null.
	empty, err := Parse([]byte(`[{"name":"x","family":"f","effect":"change","enabled":true,"fields":{}}]`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := empty.Discover("f")
	b, _ := got[0].MarshalJSON()
	want := `{"name":"x","family":"f","effect":"change","inputSchema":{"type":"object","properties":{},"required":[],"additionalProperties":false},"executes":false}`
	if diff := diff(want, string(b)); diff != "" {
		t.Errorf("empty tool (-want +got):\n%s", diff)
	}
}

func TestValidateArguments(t *testing.T) {
	cat := synthetic(t)
	compiled, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, args string
		wantCode   Code
		reason     string
	}{
		{"page.read", `{"tab_id":3}`, "", "required key only"},
		{"page.read", `{"tab_id":3,"format":"text"}`, "", "optional key too, any order"},
		{"page.read", `{"tab_id":0}`, "", "0 is an integer"},
		{"page.read", `{"tab_id":-0}`, "", "-0 is an integer literal"},
		{"page.read", `{"tab_id":-12}`, "", "negative integers; no numeric ranges"},
		{"page.read", `{"tab_id":10000000000000000000000000000000000000000}`, "", "10^40: any magnitude"},
		{"page.read", `{"tab_id":1.0}`, InvalidArgumentValue, "1.0 has a fraction"},
		{"page.read", `{"tab_id":1e2}`, InvalidArgumentValue, "1e2 has an exponent"},
		{"page.read", `{"tab_id":1E2}`, InvalidArgumentValue, "1E2 has an exponent"},
		{"page.read", `{"tab_id":true}`, InvalidArgumentValue, "true is not an integer"},
		{"page.read", `{"tab_id":"3"}`, InvalidArgumentValue, "a string is not an integer"},
		{"page.read", `{"tab_id":null}`, InvalidArgumentValue, "null is not an integer"},
		{"page.read", `{"tab_id":3,"zoom":2}`, InvalidArgumentKeys, "unknown key"},
		{"page.read", `{"format":"text"}`, InvalidArgumentKeys, "missing required key"},
		{"page.read", `{}`, InvalidArgumentKeys, "missing required key, empty object"},
		{"page.read", `[]`, InvalidArgumentKeys, "arguments must be an object"},
		{"page.read", `null`, InvalidArgumentKeys, "null is not an object"},
		{"page.read", `"tab_id=3"`, InvalidArgumentKeys, "a string is not an object"},
		{"page.read", `{"zoom":"x","tab_id":true}`, InvalidArgumentKeys, "keys are checked before values"},
		{"page.read", `{"tab_id":true,"zoom":1}`, InvalidArgumentKeys, "keys before values, whatever their order"},
		{"page.find", `{"query":"abc","match_case":true}`, "", "boolean true"},
		{"page.find", `{"query":"abc","match_case":false}`, "", "boolean false"},
		{"page.find", `{"query":"abc","match_case":1}`, InvalidArgumentValue, "1 is not a boolean"},
		{"page.find", `{"query":"abc","match_case":"true"}`, InvalidArgumentValue, "\"true\" is not a boolean"},
		{"page.find", `{"query":"abc","match_case":null}`, InvalidArgumentValue, "null is not a boolean"},
		{"page.find", `{"query":"aaaaaaaa"}`, "", "ASCII at the limit of 8"},
		{"page.find", `{"query":"aaaaaaaaa"}`, InvalidArgumentValue, "ASCII one over"},
		{"page.find", `{"query":""}`, "", "the empty string"},
		{"page.find", `{"query":"한국어텍스트입니"}`, "", "8 Hangul code points = 24 bytes: a byte counter would reject"},
		{"page.find", `{"query":"한국어텍스트입니다"}`, InvalidArgumentValue, "9 code points"},
		{"page.find", `{"query":"😀😀😀😀😀😀😀😀"}`, "", "8 astral code points = 16 UTF-16 units, 32 bytes"},
		{"page.find", `{"query":"😀😀😀😀😀😀😀😀😀"}`, InvalidArgumentValue, "9 astral code points"},
		{"page.find", `{"query":"\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00"}`, "", "surrogate-pair escapes are one code point each"},
		{"page.find", `{"query":"e\u0301e\u0301e\u0301e\u0301x"}`, InvalidArgumentValue, "combining marks are code points: 9, not 5 graphemes"},
		{"page.find", `{"query":"ab\ncd\u0000ef"}`, "", "control characters count as one code point each"},
		{"page.find", `{"query":5}`, InvalidArgumentValue, "a number is not a string"},
		{"page.find", `{"query":["a"]}`, InvalidArgumentValue, "no nested values"},
		{"page.find", `{"query":{}}`, InvalidArgumentValue, "no nested objects"},
		{"page.screenshot", `{}`, ToolNotAvailableInFamily, "a disabled tool"},
		{"no.such", `{}`, ToolNotAvailableInFamily, "an unknown tool"},
		{"page.rea", `{"tab_id":1}`, ToolNotAvailableInFamily, "no fallback to a similar name"},
		{"Page.read", `{"tab_id":1}`, InvalidLabel, "the name must be a label"},
		{"", `{"tab_id":1}`, InvalidLabel, "the empty name is not a label"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.args, func(t *testing.T) {
			args := mustJSON(t, tt.args)
			got, err := compiled.ValidateArguments(tt.tool, args)
			fnGot, fnErr := ValidateArguments(cat, mustJSON(t, string(appendString(nil, tt.tool))), args)
			if codeOf(t, err) != tt.wantCode {
				t.Fatalf("code %q, want %q (%s): %v", codeOf(t, err), tt.wantCode, tt.reason, err)
			}
			if codeOf(t, fnErr) != codeOf(t, err) || pathOf(fnErr) != pathOf(err) {
				t.Errorf("function-level error %v, compiled %v", fnErr, err)
			}
			if err != nil {
				return
			}
			want := `{"name":"` + tt.tool + `","arguments":` + args.String() + `,"shape_valid":true,"authorized":false,"executed":false}`
			for _, res := range []*Validation{got, fnGot} {
				b, _ := res.MarshalJSON()
				if diff := diff(want, string(b)); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestValidateArgumentsName checks names that only the function-level form
// can receive: missing, or not a string.
func TestValidateArgumentsName(t *testing.T) {
	cat := synthetic(t)
	for _, tt := range []struct {
		name   Value
		reason string
	}{
		{Value{}, "no name: the reference silently used the first enabled tool"},
		{mustJSON(t, `null`), "null is not a label"},
		{mustJSON(t, `5`), "a number is not a label"},
		{mustJSON(t, `["page.read"]`), "an array is not a label"},
	} {
		_, err := ValidateArguments(cat, tt.name, mustJSON(t, `{"tab_id":1}`))
		if got := codeOf(t, err); got != InvalidLabel || pathOf(err) != "name" {
			t.Errorf("name %v: got %q at %q, want INVALID_LABEL at name (%s)", tt.name, got, pathOf(err), tt.reason)
		}
		_, err = Discover(cat, mustJSON(t, `"all"`), tt.name)
		if tt.name.Kind() != Absent && codeOf(t, err) != InvalidLabel {
			t.Errorf("Discover name %v: got %v, want INVALID_LABEL (%s)", tt.name, err, tt.reason)
		}
	}
	_, err := Discover(cat, mustJSON(t, `5`), Value{})
	if codeOf(t, err) != InvalidLabel || pathOf(err) != "family" {
		t.Errorf("numeric family: got %v, want INVALID_LABEL at family", err)
	}
	_, err = Discover(cat, Value{}, Value{})
	if codeOf(t, err) != InvalidLabel {
		t.Errorf("missing family: got %v, want INVALID_LABEL", err)
	}
}

// TestArgumentsEchoedExactly checks that the result carries the arguments as
// given: big integers and -0 unchanged, key order kept.
func TestArgumentsEchoedExactly(t *testing.T) {
	c, err := Compile(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	text := `{"repeat":-0,"key":"<Enter> & \"more\"\u2028"}`
	res, err := c.ValidateArguments("key.press", mustJSON(t, text))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := res.MarshalJSON()
	want := `{"name":"key.press","arguments":{"repeat":-0,"key":"<Enter> & \"more\"` + "\u2028" + `"},"shape_valid":true,"authorized":false,"executed":false}`
	if diff := diff(want, string(b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestResultsAreFresh mutates everything a result exposes and checks that the
// catalog and later results do not change, for both forms.
func TestResultsAreFresh(t *testing.T) {
	cat := synthetic(t)
	catText := cat.String()
	c, err := Compile(cat)
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]func() ([]Description, error){
		"compiled Discover":     func() ([]Description, error) { return c.Discover("reading") },
		"compiled DiscoverTool": func() ([]Description, error) { return c.DiscoverTool("reading", "page.find") },
		"function Discover":     func() ([]Description, error) { return Discover(cat, mustJSON(t, `"reading"`), Value{}) },
	}
	for name, discover := range forms {
		first, err := discover()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := discover()
		for i := range first {
			d := &first[i]
			d.Name, d.Family, d.Effect = "MUTATED", "MUTATED", "MUTATED"
			for j := range d.InputSchema.Properties {
				d.InputSchema.Properties[j] = Property{Name: "MUTATED", Type: "MUTATED", MaxLength: -1}
			}
			for j := range d.InputSchema.Required {
				d.InputSchema.Required[j] = "MUTATED"
			}
			d.InputSchema.Required = append(d.InputSchema.Required, "MUTATED")
			d.InputSchema.Properties = append(d.InputSchema.Properties, Property{Name: "MUTATED"})
		}
		again, err := discover()
		if err != nil {
			t.Fatal(err)
		}
		if diff := diff(want, again); diff != "" {
			t.Errorf("%s: a later result changed after mutating an earlier one (-want +got):\n%s", name, diff)
		}
	}
	// Validation results: the arguments Value is immutable; the result's
	// fields can be changed without touching the next result.
	res, _ := c.ValidateArguments("page.read", mustJSON(t, `{"tab_id":1}`))
	res.Name = "MUTATED"
	res.Arguments = mustJSON(t, `{"x":1}`)
	res2, _ := c.ValidateArguments("page.read", mustJSON(t, `{"tab_id":1}`))
	if b, _ := res2.MarshalJSON(); !strings.Contains(string(b), `"name":"page.read","arguments":{"tab_id":1}`) {
		t.Errorf("later validation changed: %s", b)
	}
	if got := cat.String(); got != catText {
		t.Errorf("the catalog value changed")
	}
}

func TestIsLabel(t *testing.T) {
	for _, tt := range []struct {
		s      string
		want   bool
		reason string
	}{
		{"a", true, "shortest"},
		{"a" + strings.Repeat("z", 79), true, "80 characters"},
		{"a" + strings.Repeat("z", 80), false, "81 characters"},
		{"page.read", true, "dot"},
		{"a_b-c.9", true, "every punctuation allowed"},
		{"", false, "empty"},
		{"A", false, "uppercase"},
		{"aB", false, "uppercase inside"},
		{"a\n", false, "trailing newline (Python's $ would accept it)"},
		{"\na", false, "leading newline"},
		{"_a", false, "must start with a letter"},
		{"9a", false, "must start with a letter"},
		{"a b", false, "space"},
		{"a/b", false, "slash"},
		{"é", false, "non-ASCII"},
		{"a\x00", false, "NUL"},
	} {
		if got := IsLabel(tt.s); got != tt.want {
			t.Errorf("IsLabel(%q) = %v, want %v (%s)", tt.s, got, tt.want, tt.reason)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Parse([]byte(`[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{"q":{"type":"string","required":true,"max_length":0}}}]`))
	want := "INVALID_SPEC at $[0].fields.q.max_length: max_length is 0, want an integer from 1 to 20000"
	if err == nil || err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Offset != -1 {
		t.Errorf("Offset of a non-JSON error = %d, want -1", e.Offset)
	}
}

// TestMissingValues checks the function-level form with Absent values, which
// only Go callers can pass: the codes of the contract, and messages that say
// "missing".
func TestMissingValues(t *testing.T) {
	cat := synthetic(t)
	_, err := ValidateArguments(cat, mustJSON(t, `"page.read"`), Value{})
	if codeOf(t, err) != InvalidArgumentKeys || !strings.Contains(err.Error(), "arguments is missing") {
		t.Errorf("missing arguments: %v, want INVALID_ARGUMENT_KEYS saying the arguments are missing", err)
	}
	_, err = Discover(Value{}, mustJSON(t, `"all"`), Value{})
	if codeOf(t, err) != InvalidCatalog || !strings.Contains(err.Error(), "catalog is missing") {
		t.Errorf("missing catalog: %v, want INVALID_CATALOG saying the catalog is missing", err)
	}
}
