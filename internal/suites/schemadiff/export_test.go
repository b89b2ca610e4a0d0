package schemadiff

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/export"
	"github.com/catalogkit/catalogkit/internal/testlib/vendorcheck"
)

// TestExportedSchemas exports generated schemas of the subset for OpenAI
// and Anthropic and holds each export to three things: the vendor's
// checker finds nothing to refuse; every argument object the catalog
// accepts, written as the vendor's strict mode makes the model write it
// (OpenAI: every optional property present, null when unused), is valid
// under the exported schema for the independent validator (the export
// refuses no call the catalog takes); and dropping the nulls the export
// lists gives back the arguments (the host's way back), which the catalog
// accepts.
func TestExportedSchemas(t *testing.T) {
	schemas, calls := 600, 20
	if testing.Short() {
		schemas = 100
	}
	g := gen{rand.New(rand.NewPCG(3, 4))}
	accepted := 0
	for range schemas {
		schema := g.object(3)
		c, err := catalog.Parse([]byte(`{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":` + schema + `}]}`))
		if err != nil {
			t.Fatalf("schema %s: %v", schema, err)
		}
		for _, vendor := range []string{export.OpenAI, export.Anthropic} {
			res, err := export.Export(c, vendor, "all")
			if err != nil {
				t.Fatal(err)
			}
			check := map[string]func([]byte) []vendorcheck.Problem{export.OpenAI: vendorcheck.OpenAI, export.Anthropic: vendorcheck.Anthropic}[vendor]
			for _, p := range check(res.Document) {
				t.Errorf("%s, schema %s: %s", vendor, schema, p)
			}
			exported, nullable := exportedSchema(t, vendor, res.Document)
			for range calls {
				args := g.objectValue(3)
				if ok, _ := ours(t, schema, args); !ok {
					continue
				}
				accepted++
				var v any
				json.Unmarshal([]byte(args), &v)
				filled := fill(exported, v)
				text, _ := json.Marshal(filled)
				if !theirs(t, exported, string(text)) {
					t.Errorf("%s refuses what the catalog accepts:\nschema %s\nexported %s\narguments %s, as the model writes them %s", vendor, schema, exported, args, text)
				}
				// The way back gives the arguments, but for an optional
				// property's explicit null, which strict mode cannot tell
				// from absent: it comes back absent, which the catalog
				// accepts as well.
				want := drop(v, "arguments", nullable)
				back := drop(filled, "arguments", nullable)
				if diff := cmp.Diff(want, back); diff != "" {
					t.Errorf("%s: dropping the listed nulls does not give the arguments back (-want +got):\n%s\nschema %s", vendor, diff, schema)
				}
				if text, _ := json.Marshal(back); !ok(t, schema, string(text)) {
					t.Errorf("%s: the catalog refuses the arguments the host gets back, %s\nschema %s", vendor, text, schema)
				}
			}
		}
	}
	if accepted < schemas {
		t.Errorf("only %d accepted calls in %d schemas: the test checks too little", accepted, schemas)
	}
}

// exportedSchema returns the one tool's exported schema and its listed
// nullable optional properties.
func exportedSchema(t *testing.T, vendor string, doc []byte) (string, []string) {
	var d struct {
		Tools []struct {
			InputSchema json.RawMessage `json:"input_schema"`
			Tools       []struct{ Parameters json.RawMessage }
		}
		Catalogkit struct {
			NullableOptional map[string][]string `json:"nullable_optional"`
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	if vendor == export.OpenAI {
		return string(d.Tools[0].Tools[0].Parameters), d.Catalogkit.NullableOptional["t"]
	}
	return string(d.Tools[1].InputSchema), nil
}

// fill writes v as a strict mode makes the model write it: every property
// an object schema requires and v lacks is there, null.
func fill(schema string, v any) any {
	var s map[string]any
	json.Unmarshal([]byte(schema), &s)
	return fillValue(s, v)
}

func fillValue(s map[string]any, v any) any {
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if m, _ := a.(map[string]any); m["type"] != "null" {
				s = m
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		for k, e := range x {
			p, _ := props[k].(map[string]any)
			out[k] = fillValue(p, e)
		}
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := out[r.(string)]; !ok {
				out[r.(string)] = nil
			}
		}
		return out
	case []any:
		items, _ := s["items"].(map[string]any)
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fillValue(items, e)
		}
		return out
	}
	return v
}

// drop removes, at each path listed (arguments.a.b, arguments.a[*].b), a
// property whose value is null: what a host does before it validates.
func drop(v any, path string, listed []string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			p := path + "." + k
			if e == nil && slices.Contains(listed, p) {
				continue
			}
			out[k] = drop(e, p, listed)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = drop(e, path+"[*]", listed)
		}
		return out
	}
	return v
}

func ok(t *testing.T, schema, args string) bool {
	t.Helper()
	valid, err := ours(t, schema, args)
	if err != nil {
		t.Fatal(err)
	}
	return valid
}
