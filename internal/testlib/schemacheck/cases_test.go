package schemacheck

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/conformance"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var conformanceDir = filepath.Join("..", "..", "..", "conformance")

// compile compiles one of the JSON Schemas in conformance/.
func compile(t *testing.T, name string) *jsonschema.Schema {
	return Load(t, "", filepath.Join(conformanceDir, name))[0]
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unmarshal decodes JSON for the validator, numbers kept exact.
func unmarshal(t *testing.T, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%v in %.80s", err, data)
	}
	return v
}

// TestCaseFiles is the suite's self-check: every case file validates
// against case.schema.json, has no duplicate key, is named by its id; there
// are exactly 21 cases with unique ids; every contract error code is
// expected by at least one case; and the Go runner loads the same 21 ids.
func TestCaseFiles(t *testing.T) {
	expected := map[string]int{}
	_, ids := caseFileIDs(t, "cases", "case.schema.json", func(v catalog.Value) {
		checks, _ := v.Lookup("checks")
		for i := range checks.Len() {
			expect, _ := checks.Index(i).Lookup("expect")
			if code, ok := expect.Lookup("error"); ok {
				s, _ := code.Str()
				expected[s]++
			}
		}
	})
	if len(ids) != 21 {
		t.Errorf("%d case files, want exactly 21", len(ids))
	}
	if dup := duplicates(ids); len(dup) > 0 {
		t.Errorf("duplicate ids: %q", dup)
	}
	for _, code := range catalog.Codes {
		if code == catalog.InvalidJSON {
			continue // the JSON text layer's code: calls carry values, not text
		}
		if expected[string(code)] == 0 {
			t.Errorf("no case expects %s: every contract code must be expected at least once", code)
		}
	}
	cases, err := conformance.Cases()
	sameIDs(t, "cases", ids, cases, err, func(c *conformance.Case) string { return c.ID })
}

// sameIDs checks that the case files on disk (ids) and the cases the Go
// runner embeds (loaded, with the error of loading them) have the same ids.
func sameIDs[C any](t *testing.T, what string, ids []string, loaded []C, err error, id func(C) string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range loaded {
		got = append(got, id(c))
	}
	slices.Sort(ids)
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("ids of the files on disk and of the embedded %s differ (-disk +embedded):\n%s", what, diff)
	}
}

func duplicates(ids []string) []string {
	seen := map[string]bool{}
	var dup []string
	for _, id := range ids {
		if seen[id] {
			dup = append(dup, id)
		}
		seen[id] = true
	}
	return dup
}

// TestCaseSchemaRejects proves the case schema can fail: each variant of a
// real case file breaks one rule and must not validate.
func TestCaseSchemaRejects(t *testing.T) {
	sch := compile(t, "case.schema.json")
	base := string(readFile(t, filepath.Join(conformanceDir, "cases", "validate.shape-valid.json")))
	Rejects(t, sch, base, []Edit{
		{`"authorized": false`, `"authorized": true`, "a valid shape is never authorized"},
		{`"executed": false`, `"executed": null`, "executed is always false"},
		{`"id": "validate.shape-valid"`, `"id": "Validate"`, "ids are dotted lowercase"},
		{`"title": `, `"tittle": `, "no unknown keys; title is required"},
		{`"op": "validate_arguments"`, `"op": "validate"`, "only the three ops"},
		{`"$ref": "synthetic-catalog.json"`, `"$ref": "catalog.json"`, "only the synthetic catalog can be referenced"},
		{`"checks": [`, `"checks": [], "x": [`, "checks must not be empty"},
		{`"name": "page.read",`, `"name": "page.read", "family": "reading",`, "validate_arguments has no family"},
		{`"spec": "SPEC.md §7`, `"spec": "§7`, "a citation names the specification file"},
		{`"spec": "SPEC.md §7 V5;`, `"spec": "SPEC.md §7 V5, step 3;`, "steps are cited by their ids"},
		{`"spec": "SPEC.md §7 V5;`, `"spec": "SPEC.md section 7;`, "sections are cited with §"},
	})
	errorCase := `{"id":"a.b","title":"t","spec":"SPEC.md §2","checks":[{"call":{"op":"discover","catalog":[],"family":"x"},"expect":{"error":"%s"}}]}`
	for _, tt := range []struct {
		code string
		ok   bool
	}{{"UNKNOWN_FAMILY", true}, {"INVALID_JSON", false}, {"NOT_A_CODE", false}} {
		err := sch.Validate(unmarshal(t, fmt.Appendf(nil, errorCase, tt.code)))
		if (err == nil) != tt.ok {
			t.Errorf("expecting %s: validation error %v, want ok=%v (only the 10 contract codes)", tt.code, err, tt.ok)
		}
	}
}

// TestProtocolMessages validates every message of a real session against
// protocol.schema.json: the hello, a call for every check of every case, and
// every line the Go port (catalogkit port) answers; then messages that
// break the protocol, which must not validate.
func TestProtocolMessages(t *testing.T) {
	sch := compile(t, "protocol.schema.json")
	cases, err := conformance.Cases()
	if err != nil {
		t.Fatal(err)
	}
	requests := []string{fmt.Sprintf(`{"type":"hello","protocol":%q}`, conformance.Protocol)}
	for _, c := range cases {
		for _, chk := range c.Checks {
			requests = append(requests, fmt.Sprintf(`{"type":"call","seq":%d,"call":%s}`, len(requests), chk.Call()))
		}
	}
	requests = append(requests, `{"type":"call","seq":999,"call":{"op":"frobnicate"}}`, `not JSON`)
	var out bytes.Buffer
	info := conformance.PortInfo{Name: "catalogkit", Language: "Go", Version: "test"}
	if err := conformance.Serve(strings.NewReader(strings.Join(requests, "\n")+"\n"), &out, conformance.GoTarget("test"), info); err != nil {
		t.Fatal(err)
	}
	replies := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(replies) != len(requests) {
		t.Fatalf("%d replies to %d requests", len(replies), len(requests))
	}
	for _, line := range append(requests[:len(requests)-2], replies...) {
		if err := sch.Validate(unmarshal(t, []byte(line))); err != nil {
			t.Errorf("message does not match protocol.schema.json: %v\n%.300s", err, line)
		}
	}
	bad := []struct{ msg, reason string }{
		{`{"type":"call","seq":0,"call":{"op":"discover","catalog":[],"family":"x"}}`, "seq is positive"},
		{`{"type":"call","seq":1,"call":{"op":"discover","catalog":[]}}`, "discover needs a family"},
		{`{"type":"reply","seq":1,"outcome":{"result":[],"error":"INVALID_LABEL"}}`, "exactly one outcome"},
		{`{"type":"reply","seq":1,"outcome":{"result":[],"detail":"x"}}`, "detail only beside error"},
		{`{"type":"reply","seq":"1","outcome":{"result":[]}}`, "seq is a number"},
		{`{"type":"hello","protocol":"catalogkit-conformance/1","port":{"name":"p","language":"","version":"1"}}`, "port fields are non-empty"},
		{`{"type":"reply","seq":1,"outcome":{"not_implemented":true}}`, "a reason is a string"},
		{`{"type":"call","seq":1,"call":{"op":"mutate_and_repeat","call":{"op":"mutate_and_repeat","call":{}}}}`, "no nested mutate_and_repeat"},
	}
	for _, tt := range bad {
		if err := sch.Validate(unmarshal(t, []byte(tt.msg))); err == nil {
			t.Errorf("%s validates, want an error (%s)", tt.msg, tt.reason)
		}
	}
	var verr *jsonschema.ValidationError
	if err := sch.Validate(unmarshal(t, []byte(bad[0].msg))); !errors.As(err, &verr) {
		t.Errorf("validation error is %T, want *jsonschema.ValidationError", err)
	}
}

// TestTextCaseFiles is the text level's self-check: every file in
// conformance/text validates against text.schema.json, passes the strict
// JSON layer, is named by its id; ids are unique; the Go runner loads the
// same ids; and each line is refused by catalog.ParseJSON exactly when its
// case expects INVALID_JSON, so the expectations agree with the Go text
// layer and the refusals test what they say.
func TestTextCaseFiles(t *testing.T) {
	_, ids := caseFileIDs(t, "text", "text.schema.json", nil)
	if dup := duplicates(ids); len(dup) > 0 {
		t.Errorf("duplicate ids: %q", dup)
	}
	cases, err := conformance.TextCases()
	sameIDs(t, "text cases", ids, cases, err, func(c *conformance.TextCase) string { return c.ID })
	refused := 0
	for _, c := range cases {
		_, err := catalog.ParseJSON(c.Line(7))
		if got := err != nil; got != c.Refused() {
			t.Errorf("%s: catalog.ParseJSON of its line: error %v, but the case expects %s", c.ID, err, c.Expect())
		}
		if c.Refused() {
			refused++
		}
	}
	if refused == 0 || refused == len(cases) {
		t.Errorf("%d of %d text cases expect a refusal: the level needs lines that must be refused and lines that must be read", refused, len(cases))
	}
}

// TestTextSchemaRejects proves the text case schema can fail: each variant
// of a real text case breaks one rule and must not validate.
func TestTextSchemaRejects(t *testing.T) {
	sch := compile(t, "text.schema.json")
	base := string(readFile(t, filepath.Join(conformanceDir, "text", "text.utf8.ff.json")))
	Rejects(t, sch, base, []Edit{
		{`"id": "text.utf8.ff"`, `"id": "utf8.ff"`, "a text id starts with text."},
		{`{"seq": true},`, ``, "a line has one seq piece"},
		{`{"seq": true},`, `{"seq": true}, {"seq": true},`, "a line has only one seq piece"},
		{`{"hex": "ff"}`, `{"hex": "fg"}`, "hex is hexadecimal"},
		{`{"hex": "ff"}`, `{"hex": "f"}`, "hex is whole bytes"},
		{`"\"}"`, `"\"}\n"`, "no newline in a piece"},
		{`{"error": "INVALID_JSON"}`, `{"error": "INVALID_UTF8"}`, "a known code"},
		{`{"error": "INVALID_JSON"}`, `{"refused": true}`, "expect is a result or an error"},
		{`{"seq": true}`, `{"seq": 1}`, "a seq piece is {\"seq\": true}"},
	})
}

// TestFormat2CaseFiles is the format 2 level's self-check: every file in
// conformance/format2 validates against case.schema.json, passes the strict
// JSON layer and is named by its id, which starts with format2.; every
// contract code is expected by one of its checks; and the Go runner loads
// the same ids.
func TestFormat2CaseFiles(t *testing.T) {
	expected := map[string]int{}
	_, ids := caseFileIDs(t, "format2", "case.schema.json", func(v catalog.Value) {
		checks, _ := v.Lookup("checks")
		for i := range checks.Len() {
			expect, _ := checks.Index(i).Lookup("expect")
			code, _ := expect.Lookup("error")
			s, _ := code.Str()
			expected[s]++
		}
	})
	for _, id := range ids {
		if !strings.HasPrefix(id, "format2.") {
			t.Errorf("format 2 case %s: the id does not start with format2.", id)
		}
	}
	for _, code := range catalog.Codes {
		if code != catalog.InvalidJSON && expected[string(code)] == 0 {
			t.Errorf("no format 2 case expects %s", code)
		}
	}
	if expected[""] == 0 {
		t.Errorf("no format 2 case expects a result")
	}
	cases, err := conformance.Format2Cases()
	sameIDs(t, "format 2 cases", ids, cases, err, func(c *conformance.Case) string { return c.ID })
}

// TestProtocolCaseFiles is the protocol level's self-check: every file in
// conformance/protocol validates against protocol-case.schema.json, passes
// the strict JSON layer and is named by its id, and the Go runner loads
// the same ids.
func TestProtocolCaseFiles(t *testing.T) {
	sch, ids := caseFileIDs(t, "protocol", "protocol-case.schema.json", nil)
	cases, err := conformance.ProtocolCases()
	sameIDs(t, "protocol cases", ids, cases, err, func(c *conformance.ProtocolCase) string { return c.ID })

	// The schema can fail: each variant of a real case breaks one rule.
	base := string(readFile(t, filepath.Join(conformanceDir, "protocol", "protocol.last-line.no-newline.json")))
	for _, tt := range []struct{ old, new, reason string }{
		{`"id": "protocol.last-line.no-newline"`, `"id": "last-line.no-newline"`, "a protocol id starts with protocol."},
		{`"session": "fresh"`, `"session": "new"`, "a session is shared or fresh"},
		{`"end": ""`, `"end": "\r"`, "a line ends with LF, CR LF or nothing"},
		{`"seq": 2}`, `"seq": 0}`, "a reply's seq is a positive integer"},
		{`{"hello": true}`, `{"hello": false}`, "hello is true"},
	} {
		if !strings.Contains(base, tt.old) {
			t.Fatalf("the base case has no %q", tt.old)
		}
		if err := sch.Validate(unmarshal(t, []byte(strings.Replace(base, tt.old, tt.new, 1)))); err == nil {
			t.Errorf("a protocol case with %s instead of %s validates, want an error (%s)", tt.new, tt.old, tt.reason)
		}
	}
}

// caseFileIDs checks every case file in conformance/<dir>: it passes the
// strict JSON layer, validates against the schema and is named by its id.
// It returns the compiled schema and the ids, in the files' order; each,
// if not nil, is given every file that passed.
func caseFileIDs(t *testing.T, dir, schema string, each func(catalog.Value)) (*jsonschema.Schema, []string) {
	t.Helper()
	sch := compile(t, schema)
	files, err := filepath.Glob(filepath.Join(conformanceDir, dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no case files in %s", filepath.Join(conformanceDir, dir))
	}
	var ids []string
	for _, file := range files {
		data := readFile(t, file)
		v, err := catalog.ParseJSON(data)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if err := sch.Validate(unmarshal(t, data)); err != nil {
			t.Errorf("%s does not match %s: %v", file, schema, err)
			continue
		}
		idv, _ := v.Lookup("id")
		id, _ := idv.Str()
		if want := strings.TrimSuffix(filepath.Base(file), ".json"); id != want {
			t.Errorf("%s: id %q, want the file name %q", file, id, want)
		}
		ids = append(ids, id)
		if each != nil {
			each(v)
		}
	}
	return sch, ids
}
