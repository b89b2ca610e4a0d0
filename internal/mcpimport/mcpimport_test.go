package mcpimport

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/catalogkit/catalog"
)

var update = flag.Bool("update", false, "rewrite testdata/servers/*.report from what Import says")

// TestRealServers imports the tools/list of each real server of
// testdata/servers: the report (one line a tool, then the count) is the one
// kept beside it, every tool not refused is in the catalog written, and
// the catalog checks.
func TestRealServers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "servers", "*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("want at least five servers in testdata/servers, found %d (%v)", len(files), err)
	}
	total := map[Outcome]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Import(data, Options{Family: "server"})
			if err != nil {
				t.Fatal(err)
			}
			var report strings.Builder
			for _, l := range res.Lines {
				report.WriteString(l.String() + "\n")
				total[l.Outcome]++
			}
			golden := strings.TrimSuffix(f, ".json") + ".report"
			if *update {
				if err := os.WriteFile(golden, []byte(report.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if diff := cmp.Diff(string(want), report.String()); diff != "" {
				t.Errorf("the report differs from %s (-want +got):\n%s", golden, diff)
			}
			c, err := catalog.Parse(res.Catalog)
			if err != nil {
				t.Fatal(err)
			}
			descs, err := c.Discover("all")
			if err != nil {
				t.Fatal(err)
			}
			if len(descs) != len(res.Lines)-res.Count(Refused) {
				t.Errorf("the catalog has %d tools, the report says %d imported", len(descs), len(res.Lines)-res.Count(Refused))
			}
			// The same input gives the same bytes.
			again, _ := Import(data, Options{Family: "server"})
			if string(again.Catalog) != string(res.Catalog) {
				t.Error("two imports of the same input differ")
			}
		})
	}
	t.Logf("%d tools: %d imported exactly, %d with a change, %d refused", total[Exact]+total[Changed]+total[Refused], total[Exact], total[Changed], total[Refused])
}

// TestImportLines: what each way a tool can go is reported as.
func TestImportLines(t *testing.T) {
	input := `{"tools": [
	 {"name": "a", "description": "exact", "annotations": {"readOnlyHint": true, "title": "A"},
	  "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false}},
	 {"name": "b", "inputSchema": {"type": "object", "properties": {"y": {"type": "object", "properties": {}}}}},
	 {"name": "c", "description": "", "inputSchema": {"type": "object", "properties": {"z": {"type": "string", "pattern": "^a"}}, "additionalProperties": false}},
	 {"name": "a", "description": "twice", "inputSchema": {"type": "object", "additionalProperties": false}},
	 {"name": "not a name", "description": "", "inputSchema": {"type": "object", "additionalProperties": false}},
	 {"name": "d", "description": "", "inputSchema": {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "additionalProperties": true}}
	]}`
	res, err := Import([]byte(input), Options{Families: map[string]string{"a": "alpha"}, Family: "rest"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`imported exactly       a (effect read: readOnlyHint)`,
		`imported with a change b: no description: imported as ""; additionalProperties: false added at inputSchema.properties.y (a key the schema does not name is now refused); additionalProperties: false added at inputSchema (a key the schema does not name is now refused) (effect change: the server does not say readOnlyHint)`,
		`refused                c: INVALID_SPEC at inputSchema.properties.z.pattern: pattern is refused: patterns are outside the subset: regular-expression dialects differ between languages, so a pattern cannot be checked alike everywhere (effect change: the server does not say readOnlyHint)`,
		`refused                a: DUPLICATE_TOOL: an earlier tool has this name`,
		`refused                not a name: INVALID_LABEL: the name is not a format-2 tool name (^[A-Za-z][A-Za-z0-9._-]{0,127}$)`,
		`imported with a change d: $schema "http://json-schema.org/draft-04/schema#" dropped (the subset is 2020-12 and draft-07); additionalProperties made false at inputSchema (a key the schema does not name is now refused) (effect change: the server does not say readOnlyHint)`,
	}
	var got []string
	for _, l := range res.Lines {
		got = append(got, l.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	c, err := catalog.Parse(res.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.DiscoverTool("alpha", "a")
	if err != nil || d[0].Title != "A" {
		t.Errorf("tool a in family alpha with its title: %v %+v", err, d)
	}
}

// TestImportInput: what is not a tools/list result is refused as a whole.
func TestImportInput(t *testing.T) {
	for _, in := range []string{`[]`, `{"tools": {}}`, `{"result": {"content": []}}`} {
		if _, err := Import([]byte(in), Options{Family: "f"}); err == nil {
			t.Errorf("Import(%s): no error", in)
		}
	}
	if _, err := Import([]byte(`{"tools": [], "tools": []}`), Options{Family: "f"}); err == nil || !strings.Contains(err.Error(), "INVALID_JSON") {
		t.Errorf("a duplicate key: %v, want INVALID_JSON", err)
	}
	res, err := Import([]byte(`{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}`), Options{Family: "f"})
	if err != nil || len(res.Lines) != 0 {
		t.Errorf("a JSON-RPC response: %v", err)
	}
}

// TestImportOrigin: with a server named, every imported tool records its
// origin, the server and the tool's name there; discovery returns it.
func TestImportOrigin(t *testing.T) {
	input := `{"tools": [{"name": "getTinyImage", "description": "An image.", "inputSchema": {"type": "object"}}]}`
	res, err := Import([]byte(input), Options{Family: "demo", Server: "everything"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Parse(res.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.DiscoverTool("demo", "getTinyImage")
	if err != nil {
		t.Fatal(err)
	}
	if o := d[0].Origin; o == nil || *o != (catalog.Origin{Server: "everything", Tool: "getTinyImage"}) {
		t.Errorf("origin %+v, want everything's getTinyImage", o)
	}
	res, _ = Import([]byte(input), Options{Family: "demo"})
	if strings.Contains(string(res.Catalog), "origin") {
		t.Errorf("no server, yet an origin:\n%s", res.Catalog)
	}
}
