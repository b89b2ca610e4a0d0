package records

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
)

var update = flag.Bool("update", false, "rewrite the record files in this folder from a fresh generation")

// catalogFile is the synthetic catalog, from this package's folder (the test's
// working directory), in the repository and in an extracted release alike.
var catalogFile = filepath.Join("..", filepath.FromSlash(DefaultCatalogPath))

func generate(t *testing.T) *Set {
	t.Helper()
	data, err := os.ReadFile(catalogFile)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Generate(data, DefaultCatalogPath)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return set
}

// TestRecordsUpToDate is the record generator's check: the committed record
// files in this folder must equal a fresh generation byte for byte, and no
// record file the generator no longer makes may be left. With -update, it
// rewrites them first.
func TestRecordsUpToDate(t *testing.T) {
	set := generate(t)
	if *update {
		if err := set.Write("."); err != nil {
			t.Fatal(err)
		}
	}
	problems, err := set.Check(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%v", p)
		if d := p.Diff(); d != "" {
			t.Errorf("%s (-want +got):\n%s", p.Name, d)
		}
	}
	if len(problems) > 0 {
		t.Log("regenerate with 'go run ./cmd/catalogkit records' from the repository root, or 'go test ./records -run TestRecordsUpToDate -update'")
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := generate(t), generate(t)
	if !reflect.DeepEqual(a.Files, b.Files) {
		t.Error("two generations from the same catalog differ")
	}
}

// TestGenerateRecords checks what holds for every record, whatever the
// catalog: the file layout, the catalog reference, and that the outcome is
// what the compiled form of the catalog package returns for the same call.
func TestGenerateRecords(t *testing.T) {
	data, err := os.ReadFile(catalogFile)
	if err != nil {
		t.Fatal(err)
	}
	set := generate(t)
	if len(set.Records) != 5 || len(set.Files) != 5+1 {
		t.Fatalf("got %d records in %d files, want 5 records in 5 files and the page", len(set.Records), len(set.Files))
	}
	sum := sha256.Sum256(data)
	compiled, err := catalog.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for i, r := range set.Records {
		if ids[r.ID] {
			t.Errorf("duplicate id %q", r.ID)
		}
		ids[r.ID] = true
		if want := filepath.Base(r.File); r.File != want || !recordFileName.MatchString(r.File) || !strings.HasSuffix(r.File, "-"+r.ID+".json") {
			t.Errorf("record %d file %q: want NN-%s.json", i+1, r.File, r.ID)
		}
		if r.Title == "" || strings.ContainsAny(r.Title, "\r\n") {
			t.Errorf("record %q title %q: want one non-empty line", r.ID, r.Title)
		}
		if want := (CatalogRef{DefaultCatalogPath, hex.EncodeToString(sum[:])}); r.Call.Catalog != want {
			t.Errorf("record %q catalog = %+v, want %+v", r.ID, r.Call.Catalog, want)
		}
		if !set.Owns(r.File) {
			t.Errorf("Owns(%q) = false for a record file", r.File)
		}

		// The file is the canonical form of the record's JSON.
		var file []byte
		for _, f := range set.Files {
			if f.Name == r.File {
				file = f.Data
			}
		}
		text, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if canon, err := Canonical(text); err != nil || !bytes.Equal(canon, file) {
			t.Errorf("record %q: file is not the canonical form of its JSON (%v)", r.ID, err)
		}

		// The outcome is what the compiled catalog returns.
		var got any
		var callErr error
		name, _ := r.Call.Name.Str()
		switch r.Call.Op {
		case OpDiscover:
			family, _ := r.Call.Family.Str()
			if r.Call.Name.Kind() == catalog.Absent {
				got, callErr = compiled.Discover(family)
			} else {
				got, callErr = compiled.DiscoverTool(family, name)
			}
		case OpValidateArguments:
			got, callErr = compiled.ValidateArguments(name, r.Call.Arguments)
		default:
			t.Fatalf("record %q: op %q", r.ID, r.Call.Op)
		}
		var ce *catalog.Error
		switch {
		case errors.As(callErr, &ce):
			if ce.Code != r.Outcome.Error {
				t.Errorf("record %q: compiled form fails with %s, record says error %q", r.ID, ce.Code, r.Outcome.Error)
			}
		case callErr != nil:
			t.Fatal(callErr)
		default:
			want, _ := json.Marshal(got)
			if r.Outcome.Result.String() != string(jsonValueText(t, want)) {
				t.Errorf("record %q: result\n%s\nwant (compiled form)\n%s", r.ID, r.Outcome.Result, want)
			}
		}
	}
}

// jsonValueText returns the compact JSON text of a JSON text, keeping member
// order, through the catalog package's reader.
func jsonValueText(t *testing.T, text []byte) []byte {
	v, err := catalog.ParseJSON(text)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(v.String())
}

// TestRecordsShowWhatTheyClaim checks each record against the claim in the
// issue that defines it, on the committed catalog.
func TestRecordsShowWhatTheyClaim(t *testing.T) {
	set := generate(t)
	byID := map[string]Record{}
	for _, r := range set.Records {
		byID[r.ID] = r
	}
	str := func(v catalog.Value, key string) string {
		f, _ := v.Lookup(key)
		s, _ := f.Str()
		return s
	}
	bool_ := func(v catalog.Value, key string) (bool, bool) {
		f, _ := v.Lookup(key)
		return f.Bool()
	}

	listing := byID["family-listing"]
	if listing.Call.Op != OpDiscover || listing.Call.Name.Kind() != catalog.Absent || listing.Outcome.Result.Len() == 0 {
		t.Errorf("family-listing: want a discover call without a name listing tools, got %s", listing.Call.Op)
	}
	hasChange := false
	for i := range listing.Outcome.Result.Len() {
		d := listing.Outcome.Result.Index(i)
		if str(d, "family") != "reading" {
			t.Errorf("family-listing lists %q of family %q", str(d, "name"), str(d, "family"))
		}
		hasChange = hasChange || str(d, "effect") == "change"
	}
	if !hasChange {
		t.Error("family-listing: want the reading family to include a tool whose effect is change")
	}

	single := byID["single-tool"]
	if single.Call.Name.Kind() != catalog.String || single.Outcome.Result.Len() != 1 ||
		str(single.Outcome.Result.Index(0), "name") != mustStr(single.Call.Name) ||
		str(single.Outcome.Result.Index(0), "family") != mustStr(single.Call.Family) {
		t.Errorf("single-tool: want exactly the tool named in the call, of the call's family, got %s", single.Outcome.Result)
	}

	valid := byID["shape-valid-input"].Outcome.Result
	for key, want := range map[string]bool{"shape_valid": true, "authorized": false, "executed": false} {
		if got, ok := bool_(valid, key); !ok || got != want {
			t.Errorf("shape-valid-input: %s = %v, want %v", key, got, want)
		}
	}

	for id, code := range map[string]catalog.Code{
		"disabled-tool-rejected": catalog.ToolNotAvailableInFamily,
		"unknown-key-rejected":   catalog.InvalidArgumentKeys,
	} {
		if got := byID[id].Outcome.Error; got != code {
			t.Errorf("%s: error %q, want %q", id, got, code)
		}
	}
	// The disabled tool really is in the catalog, disabled.
	data, _ := os.ReadFile(catalogFile)
	cat, _ := catalog.ParseJSON(data)
	name := mustStr(byID["disabled-tool-rejected"].Call.Name)
	found := false
	for i := range cat.Len() {
		if str(cat.Index(i), "name") == name {
			enabled, _ := bool_(cat.Index(i), "enabled")
			found = !enabled
		}
	}
	if !found {
		t.Errorf("disabled-tool-rejected: %q is not a disabled tool of the catalog", name)
	}
}

func mustStr(v catalog.Value) string {
	s, _ := v.Str()
	return s
}

func TestGenerateRejectsBadCatalog(t *testing.T) {
	tests := []struct {
		name    string
		catalog string
		want    catalog.Code
		reason  string
	}{
		{"not JSON", `[{"name":`, catalog.InvalidJSON, "the JSON text layer's code"},
		{"duplicate key", `[{"name":"a","name":"b"}]`, catalog.InvalidJSON, "duplicate keys are rejected before validation"},
		{"not an array", `{}`, catalog.InvalidCatalog, "rule 1"},
		{"extra key", `[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{},"admin":true}]`, catalog.InvalidFields, "rule 2"},
		{"bad spec", `[{"name":"a","family":"f","effect":"read","enabled":true,"fields":{"q":{"type":"string","required":true,"max_length":0}}}]`, catalog.InvalidSpec, "rule 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Generate([]byte(tt.catalog), DefaultCatalogPath)
			var ce *catalog.Error
			if !errors.As(err, &ce) || ce.Code != tt.want {
				t.Fatalf("Generate = %v, %v; want an error with code %s (%s)", set, err, tt.want, tt.reason)
			}
			if !strings.Contains(err.Error(), `catalog "conformance/synthetic-catalog.json" is not valid`) {
				t.Errorf("error %q does not name the catalog", err)
			}
		})
	}
}

// TestGenerateRejectsCatalogThatNoLongerFits: a valid catalog on which a
// record would show something else than it is meant to is an error naming
// the record, never a quietly different record.
func TestGenerateRejectsCatalogThatNoLongerFits(t *testing.T) {
	data, err := os.ReadFile(catalogFile)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new string
		record         string
		reason         string
	}{
		{
			name:   "disabled tool enabled",
			old:    `"effect": "read",` + "\n    \"enabled\": false",
			new:    `"effect": "read",` + "\n    \"enabled\": true",
			record: "disabled-tool-rejected",
			reason: "page.screenshot enabled: record 4 would show a success",
		},
		{
			name:   "valid-input tool disabled",
			old:    `"name": "form.fill",` + "\n    \"family\": \"input\",\n    \"effect\": \"change\",\n    \"enabled\": true",
			new:    `"name": "form.fill",` + "\n    \"family\": \"input\",\n    \"effect\": \"change\",\n    \"enabled\": false",
			record: "shape-valid-input",
			reason: "form.fill disabled: record 3 would show an error",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed := strings.Replace(string(data), tt.old, tt.new, 1)
			if changed == string(data) {
				t.Fatalf("the synthetic catalog no longer holds %q; update this test", tt.old)
			}
			_, err := Generate([]byte(changed), DefaultCatalogPath)
			if err == nil || !strings.Contains(err.Error(), "-"+tt.record+".json") || !strings.Contains(err.Error(), "no longer fits") {
				t.Errorf("Generate = %v, want an error naming record %q (%s)", err, tt.record, tt.reason)
			}
		})
	}
}

func TestGenerateRejectsBadCatalogPath(t *testing.T) {
	data, err := os.ReadFile(catalogFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", "/abs/catalog.json", `conformance\synthetic-catalog.json`, "./x.json", "a//b.json", "../x.json", "..", "a/../b.json"} {
		if _, err := Generate(data, p); err == nil {
			t.Errorf("Generate(catalog, %q) succeeded, want an error: records name the catalog by a clean relative path", p)
		}
	}
}

func TestOutcomeMarshalJSON(t *testing.T) {
	v, _ := catalog.ParseJSON([]byte(`[]`))
	tests := []struct {
		name    string
		outcome Outcome
		want    string
		reason  string
	}{
		{"result", Outcome{Result: v}, `{"result":[]}`, "the protocol's result outcome"},
		{"error", Outcome{Error: catalog.UnknownFamily}, `{"error":"UNKNOWN_FAMILY"}`, "the protocol's error outcome, without detail"},
		{"neither", Outcome{}, "", "an outcome must say something"},
		{"both", Outcome{Result: v, Error: catalog.UnknownFamily}, "", "exactly one of the two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.outcome.MarshalJSON()
			if tt.want == "" {
				if err == nil {
					t.Errorf("MarshalJSON = %s, want an error (%s)", got, tt.reason)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("MarshalJSON = %s, %v; want %s (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestParseDefinitionsRejects(t *testing.T) {
	const ok = `{"id": "a", "title": "t", "call": {"op": "discover", "family": "reading"}, "expect": "result"}`
	if _, err := parseDefinitions([]byte("[" + ok + "]")); err != nil {
		t.Fatalf("a good definition: %v", err)
	}
	tests := []struct {
		name, defs string
		reason     string
	}{
		{"not JSON", `[`, "definitions are JSON"},
		{"empty", `[]`, "at least one record"},
		{"not an array", ok, "an array of definitions"},
		{"extra key", `[{"id": "a", "title": "t", "call": {"op": "discover", "family": "reading"}, "expect": "result", "x": 1}]`, "exactly four keys"},
		{"duplicate id", "[" + ok + "," + ok + "]", "ids are unique"},
		{"bad id", `[{"id": "A b", "title": "t", "call": {"op": "discover", "family": "reading"}, "expect": "result"}]`, "ids go into file names"},
		{"two-line title", `[{"id": "a", "title": "t\nu", "call": {"op": "discover", "family": "reading"}, "expect": "result"}]`, "titles are one line"},
		{"unknown op", `[{"id": "a", "title": "t", "call": {"op": "run", "family": "reading"}, "expect": "result"}]`, "two ops"},
		{"discover with arguments", `[{"id": "a", "title": "t", "call": {"op": "discover", "family": "reading", "arguments": {}}, "expect": "result"}]`, "discover takes no arguments"},
		{"validate without arguments", `[{"id": "a", "title": "t", "call": {"op": "validate_arguments", "name": "x"}, "expect": "result"}]`, "validate_arguments needs arguments"},
		{"inline catalog", `[{"id": "a", "title": "t", "call": {"op": "discover", "family": "reading", "catalog": []}, "expect": "result"}]`, "the catalog is the generator's input, never a definition's"},
		{"unknown code", `[{"id": "a", "title": "t", "call": {"op": "discover", "family": "reading"}, "expect": "NOPE"}]`, "result or a stable code"},
	}
	data, err := os.ReadFile(catalogFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := generateFrom([]byte(tt.defs), data, DefaultCatalogPath)
			var ce *catalog.Error
			if err == nil || !strings.HasPrefix(err.Error(), "bad record definitions: ") || errors.As(err, &ce) {
				t.Errorf("generateFrom(%s) = %v, want a definitions error that is not a catalog error (%s)", tt.defs, err, tt.reason)
			}
		})
	}
}
