package schemacheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// recordsDir is the records folder, from this package's folder.
var recordsDir = filepath.Join("..", "..", "..", "records")

func recordSchema(t *testing.T) *jsonschema.Schema {
	return Load(t, "https://github.com/catalogkit/catalogkit/records/", filepath.Join(recordsDir, "record.schema.json"))[0]
}

func readJSON(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// TestRecordsMatchSchema validates every record file against
// records/record.schema.json.
func TestRecordsMatchSchema(t *testing.T) {
	sch := recordSchema(t)
	files, err := filepath.Glob(filepath.Join(recordsDir, "[0-9][0-9]-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 {
		t.Errorf("found %d record files in %s, want 5: %v", len(files), recordsDir, files)
	}
	for _, f := range files {
		if err := sch.Validate(readJSON(t, f)); err != nil {
			t.Errorf("%s does not match the record schema:\n%v", f, err)
		}
	}
}

// TestRecordSchemaRejects checks that the schema is not a schema that accepts
// anything: each change to a valid record breaks one rule of the format.
func TestRecordSchemaRejects(t *testing.T) {
	sch := recordSchema(t)
	discover := filepath.Join(recordsDir, "01-family-listing.json")
	validate := filepath.Join(recordsDir, "03-shape-valid-input.json")
	failed := filepath.Join(recordsDir, "05-unknown-key-rejected.json")

	tests := []struct {
		name   string
		file   string
		change func(r map[string]any)
		reason string
	}{
		{"extra key", validate, func(r map[string]any) { r["note"] = "x" }, "a record has exactly five keys"},
		{"no title", validate, func(r map[string]any) { delete(r, "title") }, "every key is required"},
		{"other format", validate, func(r map[string]any) { r["format"] = "catalogkit-record/2" }, "the format is fixed"},
		{"title on two lines", validate, func(r map[string]any) { r["title"] = "a\nb" }, "a title is one line"},
		{"bad id", validate, func(r map[string]any) { r["id"] = "Shape Valid" }, "ids are lowercase with dashes"},
		{"unknown op", validate, func(r map[string]any) { obj(r, "call")["op"] = "execute" }, "two ops only"},
		{"discover without family", discover, func(r map[string]any) { delete(obj(r, "call"), "family") }, "discover always has a family"},
		{"validate with a family", validate, func(r map[string]any) { obj(r, "call")["family"] = "input" }, "validate_arguments takes no family"},
		{"validate without arguments", validate, func(r map[string]any) { delete(obj(r, "call"), "arguments") }, "validate_arguments always has arguments"},
		{"inline catalog", validate, func(r map[string]any) { obj(r, "call")["catalog"] = []any{} }, "records name the catalog by reference"},
		{"uppercase sha256", validate, func(r map[string]any) {
			ref := obj(obj(r, "call"), "catalog")
			ref["sha256"] = strings.ToUpper(ref["sha256"].(string))
		}, "lowercase hex"},
		{"absolute path", validate, func(r map[string]any) { obj(obj(r, "call"), "catalog")["path"] = "/conformance/synthetic-catalog.json" }, "paths are relative"},
		{"dot-dot path", validate, func(r map[string]any) { obj(obj(r, "call"), "catalog")["path"] = "../synthetic-catalog.json" }, "paths stay inside the repository"},
		{"backslash path", validate, func(r map[string]any) { obj(obj(r, "call"), "catalog")["path"] = `conformance\synthetic-catalog.json` }, "forward slashes only"},
		{"result and error", validate, func(r map[string]any) { obj(r, "outcome")["error"] = "INVALID_LABEL" }, "an outcome is one or the other"},
		{"error with detail", failed, func(r map[string]any) { obj(r, "outcome")["detail"] = "unknown key" }, "the detail is not stable, so records leave it out"},
		{"unknown code", failed, func(r map[string]any) { obj(r, "outcome")["error"] = "FORBIDDEN" }, "the stable codes only"},
		{"authorized", validate, func(r map[string]any) { obj(obj(r, "outcome"), "result")["authorized"] = true }, "a valid shape grants nothing"},
		{"executed", validate, func(r map[string]any) { obj(obj(r, "outcome"), "result")["executed"] = true }, "a valid shape runs nothing"},
		{"validation result for discover", discover, func(r map[string]any) {
			obj(r, "outcome")["result"] = map[string]any{"name": "a", "arguments": map[string]any{}, "shape_valid": true, "authorized": false, "executed": false}
		}, "discover returns an array of descriptions"},
		{"description executes", discover, func(r map[string]any) { firstDescription(r)["executes"] = true }, "a description never executes"},
		{"string property without maxLength", discover, func(r map[string]any) {
			props := obj(obj(firstDescription(r), "inputSchema"), "properties")
			for _, p := range props {
				if p := p.(map[string]any); p["type"] == "string" {
					delete(p, "maxLength")
					return
				}
			}
			t.Fatal("no string property to change")
		}, "string properties carry maxLength"},
		{"integer property with maxLength", discover, func(r map[string]any) {
			props := obj(obj(firstDescription(r), "inputSchema"), "properties")
			for _, p := range props {
				if p := p.(map[string]any); p["type"] == "integer" {
					p["maxLength"] = 3
					return
				}
			}
			t.Fatal("no integer property to change")
		}, "only string properties carry maxLength"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := readJSON(t, tt.file).(map[string]any)
			if err := sch.Validate(r); err != nil {
				t.Fatalf("%s before the change: %v", tt.file, err)
			}
			tt.change(r)
			if err := sch.Validate(r); err == nil {
				t.Errorf("the schema accepts a record changed by %q, want it rejected (%s)", tt.name, tt.reason)
			}
		})
	}
}

func obj(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }

func firstDescription(r map[string]any) map[string]any {
	return obj(r, "outcome")["result"].([]any)[0].(map[string]any)
}
