package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/testlib/schemacheck"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// errorSchema compiles error.schema.json, the documented shape of a --json
// contract error.
func errorSchema(t *testing.T) *jsonschema.Schema {
	return schemacheck.Load(t, "https://github.com/catalogkit/catalogkit/cmd/catalogkit/", "error.schema.json")[0]
}

// TestJSONErrorsMatchSchema runs discover and validate with --json on inputs
// that give each kind of contract error and checks every real output against
// error.schema.json: exit status 1, the object on stdout, nothing on stderr.
func TestJSONErrorsMatchSchema(t *testing.T) {
	sch := errorSchema(t)
	dir := t.TempDir()
	synthetic := filepath.Join("..", "..", "conformance", "synthetic-catalog.json")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badJSON := write("bad.json", `[{"name": "a", "name": "b"}]`)
	badArgs := write("args.json", "{\"tab_id\": 1,}")
	tool := func(extra string) string {
		return `[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{}` + extra + `}]`
	}
	tests := []struct {
		name     string
		args     []string
		stdin    string
		wantCode catalog.Code
		wantKeys []string // the members of the error object
		// wantSource, when set, is the error's source.
		wantSource string
		reason     string
	}{
		{
			name:     "value error",
			args:     []string{"validate", "--json", "--catalog", synthetic, "--name", "page.read", "--arguments", `{"tab_id": 1.0}`},
			wantCode: catalog.InvalidArgumentValue, wantKeys: []string{"code", "detail", "path"},
			reason: "a call error names the argument, has no source (the call is the input) and no offset",
		},
		{
			name:     "unknown key",
			args:     []string{"validate", "--json", "--catalog", synthetic, "--name", "page.read", "--arguments", `{"tab_id": 1, "zoom": 2}`},
			wantCode: catalog.InvalidArgumentKeys, wantKeys: []string{"code", "detail", "path"},
			reason: "keys are checked before values",
		},
		{
			name:     "INVALID_JSON in inline arguments",
			args:     []string{"validate", "--json", "--catalog", synthetic, "--name", "page.read", "--arguments", `{"tab_id": 1, "tab_id": 2}`},
			wantCode: catalog.InvalidJSON, wantKeys: []string{"code", "detail", "input", "offset", "path"},
			reason: "INVALID_JSON says which text (input) and where in it (offset); inline arguments come from no file",
		},
		{
			name:     "INVALID_JSON in an arguments file",
			args:     []string{"validate", "--json", "--catalog", synthetic, "--name", "page.read", "--arguments", "@" + badArgs},
			wantCode: catalog.InvalidJSON, wantKeys: []string{"code", "detail", "input", "offset", "path", "source"},
			wantSource: badArgs,
			reason:     "the source is the file's path alone",
		},
		{
			name:     "INVALID_JSON in a catalog file",
			args:     []string{"discover", "--json", "--catalog", badJSON, "--family", "all"},
			wantCode: catalog.InvalidJSON, wantKeys: []string{"code", "detail", "input", "offset", "path", "source"},
			wantSource: badJSON,
			reason:     "a duplicate key is a text-layer error of the catalog",
		},
		{
			name:     "INVALID_JSON in a catalog on stdin",
			args:     []string{"discover", "--json", "--catalog", "-", "--family", "all"},
			stdin:    "[",
			wantCode: catalog.InvalidJSON, wantKeys: []string{"code", "detail", "input", "offset", "path", "source"},
			wantSource: "-",
			reason:     "stdin is named as on the command line",
		},
		{
			name:     "catalog error",
			args:     []string{"discover", "--json", "--catalog", "-", "--family", "f"},
			stdin:    tool(`,"admin":true`),
			wantCode: catalog.InvalidFields, wantKeys: []string{"code", "detail", "input", "path", "source"},
			reason: "a catalog error has the catalog as source and a $ path, no offset",
		},
		{
			name:     "label in the catalog",
			args:     []string{"discover", "--json", "--catalog", "-", "--family", "f"},
			stdin:    strings.Replace(tool(""), `"a"`, `"A"`, 1),
			wantCode: catalog.InvalidLabel, wantKeys: []string{"code", "detail", "input", "path", "source"},
			reason: "INVALID_LABEL in the catalog carries the source",
		},
		{
			name:     "label in the call",
			args:     []string{"discover", "--json", "--catalog", synthetic, "--family", "Reading"},
			wantCode: catalog.InvalidLabel, wantKeys: []string{"code", "detail", "path"},
			reason: "INVALID_LABEL of the call's family has no source",
		},
		{
			name:     "unknown family",
			args:     []string{"discover", "--json", "--catalog", synthetic, "--family", "nope"},
			wantCode: catalog.UnknownFamily, wantKeys: []string{"code", "detail", "path"},
			reason: "a family no tool has",
		},
		{
			name:     "disabled tool",
			args:     []string{"discover", "--json", "--catalog", synthetic, "--family", "reading", "--name", "page.screenshot"},
			wantCode: catalog.ToolNotAvailableInFamily, wantKeys: []string{"code", "detail", "path"},
			reason: "no fallback to another tool",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != 1 || stderr.Len() != 0 {
				t.Fatalf("catalogkit %q: exit %d, stderr %q; want exit 1 and the error on stdout only (%s)", tt.args, code, stderr.String(), tt.reason)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(stdout.Bytes()))
			if err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("stdout does not match error.schema.json (%s):\n%s\n%v", tt.reason, stdout.String(), err)
			}
			var got struct {
				Error map[string]any `json:"error"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range got.Error {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if got.Error["code"] != string(tt.wantCode) || !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("got code %v with members %v, want %s with %v (%s)", got.Error["code"], keys, tt.wantCode, tt.wantKeys, tt.reason)
			}
			if tt.wantSource != "" && got.Error["source"] != tt.wantSource {
				t.Errorf("source %q, want %q (%s)", got.Error["source"], tt.wantSource, tt.reason)
			}
		})
	}
}

// TestErrorSchemaRejects checks that the schema is not one that accepts
// anything: each object breaks one documented rule.
func TestErrorSchemaRejects(t *testing.T) {
	sch := errorSchema(t)
	tests := []struct {
		name   string
		doc    string
		reason string
	}{
		{"offset on a value error", `{"error": {"code": "INVALID_ARGUMENT_VALUE", "path": "arguments.tab_id", "offset": 3, "detail": "x"}}`, "offset belongs to INVALID_JSON only"},
		{"INVALID_JSON without offset", `{"error": {"code": "INVALID_JSON", "input": "arguments", "path": "$", "detail": "x"}}`, "INVALID_JSON always says where"},
		{"INVALID_JSON without input", `{"error": {"code": "INVALID_JSON", "path": "$", "offset": 0, "detail": "x"}}`, "INVALID_JSON always says which text"},
		{"catalog error without source", `{"error": {"code": "INVALID_SPEC", "input": "catalog", "path": "$[0].fields.q", "detail": "x"}}`, "a catalog error names the catalog's file"},
		{"catalog error in the arguments", `{"error": {"code": "INVALID_SPEC", "input": "arguments", "source": "a.json", "path": "$[0].fields.q", "detail": "x"}}`, "a catalog error is in the catalog"},
		{"unknown input", `{"error": {"code": "INVALID_JSON", "input": "catalog \"f.json\"", "path": "$", "offset": 0, "detail": "x"}}`, "input is catalog or arguments; the path goes in source"},
		{"call error with source", `{"error": {"code": "UNKNOWN_FAMILY", "source": "a.json", "path": "family", "detail": "x"}}`, "a call error has no source"},
		{"call error with input", `{"error": {"code": "UNKNOWN_FAMILY", "input": "arguments", "path": "family", "detail": "x"}}`, "a call error has no input"},
		{"unknown code", `{"error": {"code": "NOPE", "path": "name", "detail": "x"}}`, "codes are a closed set"},
		{"extra member", `{"error": {"code": "UNKNOWN_FAMILY", "path": "family", "detail": "x", "hint": "y"}}`, "no undocumented member"},
		{"no detail", `{"error": {"code": "UNKNOWN_FAMILY", "path": "family"}}`, "detail is always there"},
		{"bare error", `{"code": "UNKNOWN_FAMILY", "path": "family", "detail": "x"}`, "the object is wrapped in {\"error\": ...}"},
		{"negative offset", `{"error": {"code": "INVALID_JSON", "input": "arguments", "path": "$", "offset": -1, "detail": "x"}}`, "offsets count from 0"},
		{"label in the call with a $ path", `{"error": {"code": "INVALID_LABEL", "path": "$[0].name", "detail": "x"}}`, "a catalog label error has a source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if sch.Validate(v) == nil {
				t.Errorf("error.schema.json accepts %s, want a rejection (%s)", tt.doc, tt.reason)
			}
		})
	}
}

// TestErrorSchemaCodes keeps the schema's list of codes equal to the
// catalog package's.
func TestErrorSchemaCodes(t *testing.T) {
	b, err := os.ReadFile("error.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			Error struct {
				Properties struct {
					Code struct {
						Enum []catalog.Code `json:"enum"`
					} `json:"code"`
				} `json:"properties"`
			} `json:"error"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	got, want := slices.Sorted(slices.Values(doc.Defs.Error.Properties.Code.Enum)), slices.Sorted(slices.Values(catalog.Codes))
	if !slices.Equal(got, want) {
		t.Errorf("error.schema.json lists the codes %v, want exactly catalog.Codes %v", got, want)
	}
}
