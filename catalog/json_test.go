package catalog

import (
	"errors"
	"strings"
	"testing"
)

func TestParseJSONRejects(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name       string
		input      string
		wantOffset int
		wantPath   string
		reason     string
	}{
		{"empty", ``, 0, "$", "no value at all"},
		{"only space", "  \n", 3, "$", "white space is not a value"},
		{"unclosed array", `[`, 1, "$[0]", "truncated: the first element is missing"},
		{"missing value", `{"a":}`, 5, "$.a", "a key needs a value"},
		{"trailing comma", `[1,]`, 3, "$[1]", "no trailing commas"},
		{"trailing data", `[] []`, 3, "$", "one value only"},
		{"trailing garbage", `{"a":1}x`, 7, "$", "nothing after the value"},
		{"duplicate key", `{"a":1,"a":2}`, 7, "$", "a second key must not smuggle a value"},
		{"duplicate key in tool", `[{"name":"a","enabled":false,"enabled":true}]`, 29, "$[0]", "the smuggled enabled"},
		{"duplicate field", `[{"fields":{"q":{},"q":{}}}]`, 19, "$[0].fields", "duplicate field names"},
		{"duplicate in spec", `[{"fields":{"q":{"type":"string","type":"integer"}}}]`, 33, "$[0].fields.q", "duplicate keys at any depth"},
		{"duplicate among many", `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"c":2}`, 61, "$", "the map path for larger objects"},
		{"invalid UTF-8", "\"a\xffb\"", 2, "$", "invalid UTF-8 byte"},
		{"invalid UTF-8 escaped path", "[\"\\n\", \"\xc3\"]", 8, "$[1]", "truncated UTF-8 sequence, slow path too"},
		{"UTF-8 surrogate", "\"\xed\xa0\x80\"", 1, "$", "a surrogate encoded in UTF-8 is not valid UTF-8"},
		{"overlong", "\"\xc0\xaf\"", 1, "$", "overlong encoding"},
		{"lone high surrogate", `"\ud800"`, 1, "$", "a high surrogate needs a low one"},
		{"lone low surrogate", `"\udc00"`, 1, "$", "a low surrogate alone"},
		{"high then letter", `"\ud800\u0041"`, 1, "$", "a high surrogate followed by a non-surrogate"},
		{"high then high", `"\ud800\ud800"`, 1, "$", "two high surrogates"},
		{"high at end", `"x\ud83d"`, 2, "$", "a high surrogate at the end of the string"},
		{"bad escape", `"\x41"`, 1, "$", "\\x is not a JSON escape"},
		{"short unicode escape", `"\u12"`, 1, "$", "four hex digits"},
		{"raw control", "\"a\tb\"", 2, "$", "control characters must be escaped"},
		{"raw newline", "\"a\nb\"", 2, "$", "a raw newline in a string"},
		{"BOM", "\xef\xbb\xbf[]", 0, "$", "no byte order mark"},
		{"leading zero", `01`, 0, "$", "no leading zeros"},
		{"minus alone", `-`, 0, "$", "a digit after the minus"},
		{"plus", `+1`, 0, "$", "no plus sign"},
		{"dot first", `.5`, 0, "$", "a digit before the dot"},
		{"dot last", `1.`, 0, "$", "a digit after the dot"},
		{"empty exponent", `1e`, 0, "$", "a digit in the exponent"},
		{"NaN", `NaN`, 0, "$", "not JSON"},
		{"Infinity", `[Infinity]`, 1, "$[0]", "not JSON"},
		{"single quotes", `{'a':1}`, 1, "$", "keys are double-quoted"},
		{"unquoted key", `{a:1}`, 1, "$", "keys are strings"},
		{"comment", `[1 /* x */]`, 3, "$", "no comments"},
		{"tru", `tru`, 0, "$", "truncated literal"},
		{"True", `True`, 0, "$", "literals are lowercase"},
		{"too deep", deep(MaxDepth + 1), MaxDepth, "$" + strings.Repeat("[0]", MaxDepth), "nesting over the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tt.input))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseJSON(%q) error = %v, want an *Error (%s)", tt.input, err, tt.reason)
			}
			got := []any{e.Code, e.Offset, e.Path}
			want := []any{InvalidJSON, tt.wantOffset, tt.wantPath}
			if diff := diff(want, got); diff != "" {
				t.Errorf("ParseJSON(%q) (%s): code, offset, path (-want +got):\n%s\nerror: %v", tt.input, tt.reason, diff, err)
			}
		})
	}
}

func TestParseJSONLimits(t *testing.T) {
	if _, err := ParseJSON([]byte(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))); err != nil {
		t.Errorf("nesting at the limit: %v", err)
	}
	big := make([]byte, MaxInputBytes+1)
	for i := range big {
		big[i] = ' '
	}
	big[0] = '0'
	_, err := ParseJSON(big)
	if e := new(Error); !errors.As(err, &e) || e.Code != InvalidJSON || e.Offset != MaxInputBytes {
		t.Errorf("input over MaxInputBytes: got %v, want INVALID_JSON at offset %d", err, MaxInputBytes)
	}
	if _, err := ParseJSON(big[:MaxInputBytes]); err != nil {
		t.Errorf("input of exactly MaxInputBytes: %v", err)
	}
}

func TestParseJSONAccepts(t *testing.T) {
	tests := []struct {
		input, want, reason string
	}{
		{` {"b":1, "a":[true,false,null]} `, `{"b":1,"a":[true,false,null]}`, "member order is kept, white space dropped"},
		{`"\ud83d\ude00"`, `"😀"`, "a surrogate pair escape is one code point"},
		{`"\u00e9\u4e2d\/"`, `"é中/"`, "escapes decode to UTF-8"},
		{`"\"\\\b\f\n\r\t\u0001\u001f"`, `"\"\\\b\f\n\r\t\u0001\u001f"`, "control characters re-encode with the short escapes"},
		{`"<>&\u2028"`, "\"<>&\u2028\"", "no HTML escaping, no U+2028 escaping"},
		{`[-0, 0, 1.50, 1E+2, 10000000000000000000000000000000000000000]`, `[-0,0,1.50,1E+2,10000000000000000000000000000000000000000]`, "numbers keep their literal"},
		{`{}`, `{}`, "empty object"},
		{`[]`, `[]`, "empty array"},
		{"\"\xef\xbf\xbd\"", "\"\uFFFD\"", "a real U+FFFD is valid UTF-8"},
		{`{"a":{"a":{"a":1}}}`, `{"a":{"a":{"a":1}}}`, "the same key in nested objects is not a duplicate"},
	}
	for _, tt := range tests {
		v, err := ParseJSON([]byte(tt.input))
		if err != nil {
			t.Errorf("ParseJSON(%q): %v (%s)", tt.input, err, tt.reason)
			continue
		}
		if diff := diff(tt.want, v.String()); diff != "" {
			t.Errorf("ParseJSON(%q) (%s) (-want +got):\n%s", tt.input, tt.reason, diff)
		}
	}
}

func TestValueAccessors(t *testing.T) {
	v := mustJSON(t, `{"s":"x","n":-1.5e3,"b":true,"z":null,"a":[1,2]}`)
	if v.Kind() != Object || v.Len() != 5 || v.Key(1) != "n" {
		t.Fatalf("object accessors: kind %v len %d key(1) %q", v.Kind(), v.Len(), v.Key(1))
	}
	if s, ok := v.Index(0).Str(); !ok || s != "x" {
		t.Errorf("Str = %q, %v", s, ok)
	}
	if lit, ok := v.Index(1).NumberLiteral(); !ok || lit != "-1.5e3" {
		t.Errorf("NumberLiteral = %q, %v", lit, ok)
	}
	if b, ok := v.Index(2).Bool(); !ok || !b {
		t.Errorf("Bool = %v, %v", b, ok)
	}
	if _, ok := v.Index(2).Str(); ok {
		t.Errorf("Str on a boolean reports ok")
	}
	if z, ok := v.Lookup("z"); !ok || z.Kind() != Null {
		t.Errorf("Lookup(z) = %v, %v", z, ok)
	}
	if _, ok := v.Lookup("missing"); ok {
		t.Errorf("Lookup(missing) reports ok")
	}
	a, _ := v.Lookup("a")
	if a.Len() != 2 || a.Index(1).String() != "2" {
		t.Errorf("array accessors: %v", a)
	}
	var absent Value
	if absent.Kind() != Absent || absent.String() != "null" || absent.Len() != 0 {
		t.Errorf("zero Value: kind %v, %q", absent.Kind(), absent.String())
	}
	if got := Kind(42).String(); got != "Kind(42)" {
		t.Errorf("Kind(42).String() = %q", got)
	}
}

func TestAppendQuote(t *testing.T) {
	for _, tt := range []struct {
		in, want, reason string
	}{
		{"plain", `"plain"`, "nothing to escape"},
		{"a\"b\\c", `"a\"b\\c"`, "quote and backslash"},
		{"\b\f\n\r\t\x00\x1f", `"\b\f\n\r\t\u0000\u001f"`, "short escapes, then lowercase \\u00xx"},
		{"<>&\u2028\x7f한😀", "\"<>&\u2028\x7f한😀\"", "no HTML, U+2028 or DEL escaping; UTF-8 as is"},
		{"a\xffb", "\"a\uFFFDb\"", "invalid UTF-8 becomes U+FFFD, so the output is always valid JSON"},
	} {
		if got := string(AppendQuote([]byte("x"), tt.in)); got != "x"+tt.want {
			t.Errorf("AppendQuote(%q) = %q, want %q (%s)", tt.in, got, "x"+tt.want, tt.reason)
		}
	}
}
