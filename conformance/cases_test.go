package conformance

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

const miniCatalog = `[{"name":"a.b","family":"f","effect":"read","enabled":true,"fields":{"x":{"type":"string","required":true,"max_length":3}}}]`

func suiteFS(cases map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{CatalogFile: {Data: []byte(miniCatalog)}}
	for name, text := range cases {
		fsys["cases/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

const goodCase = `{"id":"x.y","title":"t","spec":"s","checks":[{"call":{"op":"discover","catalog":{"$ref":"synthetic-catalog.json"},"family":"f"},"expect":{"error":"UNKNOWN_FAMILY"}}]}`

// TestLoadRejects checks that a case file the runner cannot trust stops the
// load with a message naming the file and the problem.
func TestLoadRejects(t *testing.T) {
	tests := []struct {
		file, text, wantErr string
		reason              string
	}{
		{"x.y.json", strings.Replace(goodCase, `"title":"t"`, `"title":"t","title":"u"`, 1), `duplicate object key "title"`, "duplicate keys are never read"},
		{"x.z.json", goodCase, `id "x.y" does not match the file name`, "the file name follows the id"},
		{"x.y.json", strings.Replace(goodCase, `"spec":"s"`, `"spec":"s","skip":true`, 1), `unknown key "skip"`, "no key outside the format"},
		{"x.y.json", strings.Replace(goodCase, `"id":"x.y"`, `"id":"X"`, 1), `is not dotted lowercase words`, "ids are dotted lowercase"},
		{"x.y.json", strings.Replace(goodCase, `"synthetic-catalog.json"`, `"other.json"`, 1), `$ref is not "synthetic-catalog.json"`, "only the synthetic catalog can be referenced"},
		{"x.y.json", strings.Replace(goodCase, `"family":"f"`, `"family":"f","argument":1`, 1), `unknown key "argument"`, "a misspelt call key is caught, not sent"},
		{"x.y.json", strings.Replace(goodCase, `{"error":"UNKNOWN_FAMILY"}`, `{"error":"UNKNOWN_FAMILY","result":[]}`, 1), `"expect" is not`, "one expectation per check"},
		{"x.y.json", strings.Replace(goodCase, `"op":"discover"`, `"op":"discovery"`, 1), `unknown op "discovery"`, "unknown ops are caught"},
		{"x.y.json", strings.Replace(goodCase, `"checks":[`, `"checks":[],"x":[`, 1), `unknown key "x"`, "unknown keys"},
		{"x.y.json", strings.Replace(goodCase, `"$ref":"synthetic-catalog.json"`, `"$ref":"synthetic-catalog.json","patch":[{"op":"replace","path":"/3/name","value":"b"}]`, 1), `index "3" out of range`, "a patch path must exist"},
		{"x.y.json", strings.Replace(goodCase, `"$ref":"synthetic-catalog.json"`, `"$ref":"synthetic-catalog.json","patch":[{"op":"move","path":"/0/name","value":"b"}]`, 1), `unknown op "move"`, "only add, replace and remove"},
	}
	for _, tt := range tests {
		_, err := Load(suiteFS(map[string]string{tt.file: tt.text}))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.file) {
			t.Errorf("Load(%s) error = %v, want one naming the file and %q (%s)", tt.text, err, tt.wantErr, tt.reason)
		}
	}
	if cases, err := Load(suiteFS(map[string]string{"x.y.json": goodCase})); err != nil || len(cases) != 1 {
		t.Errorf("Load(good case) = %d cases, %v; want 1, nil", len(cases), err)
	}
}

// TestPatch checks the catalog patch operations on the synthetic catalog.
func TestPatch(t *testing.T) {
	tests := []struct {
		patch, want string
		reason      string
	}{
		{`[{"op":"replace","path":"/0/name","value":"c.d"}]`, `[{"name":"c.d","family":"f","effect":"read","enabled":true,"fields":{"x":{"type":"string","required":true,"max_length":3}}}]`, "replace keeps the member's place"},
		{`[{"op":"add","path":"/0/extra","value":1}]`, `[{"name":"a.b","family":"f","effect":"read","enabled":true,"fields":{"x":{"type":"string","required":true,"max_length":3}},"extra":1}]`, "add appends a new member"},
		{`[{"op":"remove","path":"/0/fields/x"}]`, `[{"name":"a.b","family":"f","effect":"read","enabled":true,"fields":{}}]`, "remove deletes a member"},
		{`[{"op":"add","path":"/0","value":0},{"op":"add","path":"/-","value":2}]`, `[0,{"name":"a.b","family":"f","effect":"read","enabled":true,"fields":{"x":{"type":"string","required":true,"max_length":3}}},2]`, "add inserts before an index, or appends at -"},
		{`[{"op":"add","path":"/0/fields/a~1b~0c","value":true}]`, `[{"name":"a.b","family":"f","effect":"read","enabled":true,"fields":{"x":{"type":"string","required":true,"max_length":3},"a/b~c":true}}]`, "JSON Pointer escapes ~1 and ~0"},
		{`[{"op":"remove","path":"/0"}]`, `[]`, "remove an array element"},
	}
	for _, tt := range tests {
		ref := mustParse(`{"$ref":"synthetic-catalog.json","patch":` + tt.patch + `}`)
		got, err := resolveCatalog(ref, mustParse(miniCatalog))
		if err != nil {
			t.Errorf("patch %s: %v (%s)", tt.patch, err, tt.reason)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("patch %s gives\n%s\nwant\n%s\n(%s: compared as text, so member order counts)", tt.patch, got, tt.want, tt.reason)
		}
	}
	// The synthetic catalog itself is never changed by a patch.
	syn := mustParse(miniCatalog)
	if _, err := resolveCatalog(mustParse(`{"$ref":"synthetic-catalog.json","patch":[{"op":"remove","path":"/0"}]}`), syn); err != nil {
		t.Fatal(err)
	}
	if syn.String() != miniCatalog {
		t.Errorf("patching changed the synthetic catalog to %s", syn)
	}
}

// TestStandardLibraryOnly enforces that this package with its tests, and
// every package of this module it imports (without their tests), import
// only the standard library and packages of this module: an extracted
// release runs go test ./conformance/... offline with an empty module cache,
// which works only for such packages. It reads the import lines of every .go
// file (whatever its build tags) and follows the module's own imports. The
// catalog and records packages are checked with their tests too: the release
// verifier re-runs those offline as well.
func TestStandardLibraryOnly(t *testing.T) {
	const module = "github.com/catalogkit/catalogkit"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	queue := []string{"conformance", "catalog", "records"}
	withTests := map[string]bool{"conformance": true, "catalog": true, "records": true}
	// Subpackages of conformance, if any, are covered too.
	filepath.WalkDir(filepath.Join(root, "conformance"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && path != filepath.Join(root, "conformance") && d.Name() != "testdata" {
			if rel, err := filepath.Rel(root, path); err == nil {
				queue = append(queue, filepath.ToSlash(rel))
				withTests[filepath.ToSlash(rel)] = true
			}
		}
		return nil
	})
	checked := 0
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") && !withTests[dir] {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				switch first, _, _ := strings.Cut(path, "/"); {
				case strings.HasPrefix(path, module+"/"):
					queue = append(queue, strings.TrimPrefix(path, module+"/"))
				case path == "C" || strings.Contains(first, "."):
					t.Errorf("%s imports %q: only the standard library and %s/... may be imported", file, path, module)
				}
			}
		}
	}
	if checked == 0 || !seen["catalog"] || !seen["records"] {
		t.Fatalf("checked %d files, want the conformance, catalog and records packages", checked)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
}
