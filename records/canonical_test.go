package records

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		reason string
	}{
		{
			name:   "scalars",
			in:     `[null, true, false, 0, -1, "s"]`,
			want:   "[\n  null,\n  true,\n  false,\n  0,\n  -1,\n  \"s\"\n]\n",
			reason: "one element per line, two-space indent, final newline",
		},
		{
			name:   "top-level scalar",
			in:     ` "x" `,
			want:   "\"x\"\n",
			reason: "white space around the value is dropped",
		},
		{
			name:   "keys sorted by code point",
			in:     `{"b": 1, "a": 2, "B": 3, "é": 4, "z": 5, "😀": 6, "ﬀ": 7, "aa": 8}`,
			want:   "{\n  \"B\": 3,\n  \"a\": 2,\n  \"aa\": 8,\n  \"b\": 1,\n  \"z\": 5,\n  \"é\": 4,\n  \"ﬀ\": 7,\n  \"😀\": 6\n}\n",
			reason: "upper case before lower case, a prefix before its extensions, U+FB00 before U+1F600 (UTF-16 order would put the astral key first)",
		},
		{
			name:   "empty containers",
			in:     `{"a": [], "b": {}, "c": [[]], "d": [{}]}`,
			want:   "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    []\n  ],\n  \"d\": [\n    {}\n  ]\n}\n",
			reason: "an empty array or object stays on one line",
		},
		{
			name:   "nesting",
			in:     `{"o": {"k": [1, {"x": true}]}}`,
			want:   "{\n  \"o\": {\n    \"k\": [\n      1,\n      {\n        \"x\": true\n      }\n    ]\n  }\n}\n",
			reason: "each level adds two spaces; \": \" after keys, \",\" at line ends",
		},
		{
			name:   "number literals kept",
			in:     `[10000000000000000000000000000000000000000, -0, 1.0, 1e2, 1.5E-3, 0.1]`,
			want:   "[\n  10000000000000000000000000000000000000000,\n  -0,\n  1.0,\n  1e2,\n  1.5E-3,\n  0.1\n]\n",
			reason: "numbers are written exactly as their literal: big integers exact, no float round trip",
		},
		{
			name:   "escapes",
			in:     `"q\" b\\ s\/ \b\f\n\r\t \u0000\u0001\u001f\u007f"`,
			want:   `"q\" b\\ s/ \b\f\n\r\t \u0000\u0001\u001f` + "\x7f\"\n",
			reason: "only '\"', '\\\\' and U+0000-U+001F are escaped: short forms where JSON has them, else \\u00xx in lowercase; '/' and U+007F are not",
		},
		{
			name:   "no other escaping",
			in:     `"<a href=\"x\">&amp;</a> \u00e9 é \u2028\u2029 \ud83d\ude00 😀 \u00ad"`,
			want:   "\"<a href=\\\"x\\\">&amp;</a> é é \u2028\u2029 😀 😀 \u00ad\"\n",
			reason: "<, >, &, non-ASCII, U+2028/U+2029 and astral characters are written as UTF-8, whether the input escaped them or not",
		},
		{
			name:   "member order from input ignored",
			in:     `{"name": "a", "family": "f"}`,
			want:   "{\n  \"family\": \"f\",\n  \"name\": \"a\"\n}\n",
			reason: "the input's member order does not show where the contract defines no order",
		},
		{
			name:   "properties of a discover result keep their order",
			in:     `{"outcome": {"result": [{"inputSchema": {"type": "object", "properties": {"z": {"type": "string", "maxLength": 2}, "a": {}}}}]}}`,
			want:   "{\n  \"outcome\": {\n    \"result\": [\n      {\n        \"inputSchema\": {\n          \"properties\": {\n            \"z\": {\n              \"maxLength\": 2,\n              \"type\": \"string\"\n            },\n            \"a\": {}\n          },\n          \"type\": \"object\"\n        }\n      }\n    ]\n  }\n}\n",
			reason: "outcome.result[].inputSchema.properties is in the tool's field order; the schema around it and each property's own schema are sorted",
		},
		{
			name:   "properties elsewhere are sorted",
			in:     `{"call": {"arguments": {"inputSchema": {"properties": {"b": 1, "a": 2}}}}, "outcome": {"result": {"inputSchema": {"properties": {"b": 1, "a": 2}}}}}`,
			want:   "{\n  \"call\": {\n    \"arguments\": {\n      \"inputSchema\": {\n        \"properties\": {\n          \"a\": 2,\n          \"b\": 1\n        }\n      }\n    }\n  },\n  \"outcome\": {\n    \"result\": {\n      \"inputSchema\": {\n        \"properties\": {\n          \"a\": 2,\n          \"b\": 1\n        }\n      }\n    }\n  }\n}\n",
			reason: "only the path from the top counts: the same keys in a call's arguments, or under a result that is an object (validate_arguments), have no contract order",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical([]byte(tt.in))
			if err != nil {
				t.Fatalf("Canonical(%q): %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Errorf("Canonical(%q) (%s):\n got %q\nwant %q", tt.in, tt.reason, got, tt.want)
			}
			again, err := Canonical(got)
			if err != nil || string(again) != string(got) {
				t.Errorf("Canonical is not idempotent on %q: got %q, %v", got, again, err)
			}
		})
	}
}

func TestCanonicalRejectsBadJSON(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		reason string
	}{
		{"duplicate key", `{"a": 1, "a": 2}`, "a canonical form of an object with a duplicate key would have to drop one"},
		{"trailing data", `{} {}`, "one value per text"},
		{"invalid UTF-8", "\"\xff\"", "strings must be valid UTF-8"},
		{"lone surrogate", `"\ud800"`, "a lone surrogate has no UTF-8 form"},
		{"empty", ``, "no value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Canonical([]byte(tt.in))
			var ce *catalog.Error
			if !errors.As(err, &ce) || ce.Code != catalog.InvalidJSON {
				t.Errorf("Canonical(%q) = %v, want an INVALID_JSON error (%s)", tt.in, err, tt.reason)
			}
		})
	}
}

func TestEncodeAbsent(t *testing.T) {
	if b, err := Encode(catalog.Value{}); err == nil {
		t.Errorf("Encode(Absent) = %q, want an error", b)
	}
}

// TestFormatExample checks the worked example of FORMAT.md: the canonical
// form of its input block is its output block, line for line.
func TestFormatExample(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	block := func(marker string) string {
		_, rest, ok := strings.Cut(string(doc), "<!-- "+marker+" -->\n```json\n")
		if !ok {
			t.Fatalf("FORMAT.md has no %q block", marker)
		}
		body, _, ok := strings.Cut(rest, "\n```\n")
		if !ok {
			t.Fatalf("FORMAT.md: the %q block does not end", marker)
		}
		return body
	}
	in, want := block("example-input"), block("example-output")+"\n"
	got, err := Canonical([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("FORMAT.md's worked example is wrong (-doc +Canonical):\n%s", lineDiff([]byte(want), got))
	}
}
