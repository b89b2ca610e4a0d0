package schemacheck

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"
)

// catalogCodes reads the error codes package catalog declares (its
// constants of type Code), so that no list of them is written here.
func catalogCodes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "..", "catalog", "errors.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		if id, isIdent := vs.Type.(*ast.Ident); !isIdent || id.Name != "Code" {
			return true
		}
		for _, v := range vs.Values {
			if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				codes = append(codes, s)
			}
		}
		return true
	})
	if len(codes) < 5 {
		t.Fatalf("read %d codes from catalog/errors.go: the declarations were not found", len(codes))
	}
	sort.Strings(codes)
	return codes
}

// TestSchemaCodesAreCatalogs checks every schema that lists error codes
// against package catalog's: each lists them all in one enum (a new code
// cannot be missing from a schema), and no enum names a code catalog does
// not declare.
func TestSchemaCodesAreCatalogs(t *testing.T) {
	all := catalogCodes(t)
	schemas := []struct {
		name, except, reason string
	}{
		{name: "cmd/catalogkit/error.schema.json"},
		{name: "records/record.schema.json"},
		{name: "conformance/case.schema.json", except: "INVALID_JSON", reason: "a case's calls carry JSON values, not text, so the text layer's code cannot be expected (the schema says so)"},
		{name: "conformance/text.schema.json"},
	}
	for _, sc := range schemas {
		name := sc.name
		want := slices.DeleteFunc(slices.Clone(all), func(c string) bool { return c == sc.except })
		data, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		full := false
		for _, enum := range codeEnums(doc, want) {
			for _, c := range enum {
				if !slices.Contains(all, c) {
					t.Errorf("%s: enum names %q, which catalog does not declare", name, c)
				}
			}
			got := slices.Clone(enum)
			sort.Strings(got)
			full = full || slices.Equal(slices.Compact(got), want)
		}
		if !full {
			t.Errorf("%s: no enum lists every catalog code %q", name, want)
		}
	}
}

// codeEnums returns every "enum" array of strings in doc that holds at
// least one of codes.
func codeEnums(doc any, codes []string) [][]string {
	var out [][]string
	switch x := doc.(type) {
	case map[string]any:
		if arr, ok := x["enum"].([]any); ok {
			var enum []string
			hit := false
			for _, v := range arr {
				if s, ok := v.(string); ok {
					enum = append(enum, s)
					hit = hit || slices.Contains(codes, s)
				}
			}
			if hit {
				out = append(out, enum)
			}
		}
		for _, v := range x {
			out = append(out, codeEnums(v, codes)...)
		}
	case []any:
		for _, v := range x {
			out = append(out, codeEnums(v, codes)...)
		}
	}
	return out
}
