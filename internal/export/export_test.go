package export

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/mcpimport"
	"github.com/catalogkit/catalogkit/internal/testlib/vendorcheck"
)

// checkers are the vendor checkers, written from each vendor's documents
// (internal/testlib/vendorcheck), not from this package.
var checkers = map[string]func([]byte) []vendorcheck.Problem{
	OpenAI: vendorcheck.OpenAI, Anthropic: vendorcheck.Anthropic, Gemini: vendorcheck.Gemini, MCP: vendorcheck.MCP,
}

// realCatalogs imports each real server of internal/mcpimport/testdata.
func realCatalogs(t *testing.T) map[string]*catalog.Catalog {
	files, err := filepath.Glob(filepath.Join("..", "mcpimport", "testdata", "servers", "*.json"))
	if err != nil || len(files) < 6 {
		t.Fatalf("want the six servers of internal/mcpimport/testdata/servers, found %d (%v)", len(files), err)
	}
	out := map[string]*catalog.Catalog{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		server := strings.TrimSuffix(filepath.Base(f), ".json")
		res, err := mcpimport.Import(data, mcpimport.Options{Family: server, Server: server})
		if err != nil {
			t.Fatal(err)
		}
		c, err := catalog.Parse(res.Catalog)
		if err != nil {
			t.Fatal(err)
		}
		out[server] = c
	}
	return out
}

// TestRealServersPassVendorCheckers exports every real server's tools for
// every vendor and runs the vendor's checker on the document.
func TestRealServersPassVendorCheckers(t *testing.T) {
	for server, c := range realCatalogs(t) {
		for _, vendor := range Vendors {
			res, err := Export(c, vendor, "all")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range checkers[vendor](res.Document) {
				t.Errorf("%s for %s: %s", server, vendor, p)
			}
		}
	}
}

// TestEachToolStrict exports each real tool alone, for each vendor with a
// strict mode, and requires the document to be strict and to pass the
// vendor's checker, strict subset included: the share of strict definitions
// is 100%, or the test names the tool and why.
func TestEachToolStrict(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "mcpimport", "testdata", "servers", "*.json"))
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Each tool in a family of its own, so that it exports alone.
		first, err := mcpimport.Import(data, mcpimport.Options{Family: "x", Server: "s"})
		if err != nil {
			t.Fatal(err)
		}
		fams := map[string]string{}
		for i, l := range first.Lines {
			fams[l.Tool] = "t" + strconv.Itoa(i)
		}
		res, err := mcpimport.Import(data, mcpimport.Options{Families: fams, Server: "s"})
		if err != nil {
			t.Fatal(err)
		}
		c, err := catalog.Parse(res.Catalog)
		if err != nil {
			t.Fatal(err)
		}
		descs, _ := c.Discover("all")
		for _, d := range descs {
			total++
			for _, vendor := range []string{OpenAI, Anthropic} {
				res, err := Export(c, vendor, d.Family)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Strict {
					t.Errorf("%s alone for %s: not strict: %s", d.Name, vendor, res.Why)
				}
				for _, p := range checkers[vendor](res.Document) {
					t.Errorf("%s alone for %s: %s", d.Name, vendor, p)
				}
			}
		}
	}
	if total < 80 {
		t.Errorf("%d tools exported alone, want the real servers' 86", total)
	}
}

// TestRawSchemasFailStrict: the checkers are not vacuous on these tools:
// the catalog's own schemas, given as they are to a vendor's strict mode,
// break its subset for many of them (what the export exists to fix).
func TestRawSchemasFailStrict(t *testing.T) {
	failed := map[string]int{}
	total := 0
	for _, c := range realCatalogs(t) {
		descs, _ := c.Discover("all")
		for _, d := range descs {
			total++
			schema, _ := d.InputSchema2()
			name := strings.ReplaceAll(d.Name, ".", "_")
			openai := `{"tools":[{"type":"function","name":"` + name + `","description":"","parameters":` + schema.String() + `,"strict":true}]}`
			anthropic := `{"tools":[{"name":"` + name + `","description":"","input_schema":` + schema.String() + `,"strict":true}]}`
			if len(vendorcheck.OpenAI([]byte(openai))) > 0 {
				failed[OpenAI]++
			}
			if len(vendorcheck.Anthropic([]byte(anthropic))) > 0 {
				failed[Anthropic]++
			}
		}
	}
	t.Logf("of %d real tools, as the catalog writes them: %d break OpenAI's strict subset, %d Anthropic's; exported, none does (TestEachToolStrict)", total, failed[OpenAI], failed[Anthropic])
	if failed[OpenAI] == 0 || failed[Anthropic] == 0 {
		t.Errorf("no raw schema breaks a strict subset (%v): the checkers would pass anything", failed)
	}
}

// TestHostRoundTrip: what a host does with an OpenAI export. A call the
// model makes in strict mode (every property present, optional ones null)
// goes back to the catalog's name, loses the nulls the export lists, and
// is checked by the catalog, which still holds what left the schema: a
// path over maxLength is refused though the strict schema no longer says
// maxLength.
func TestHostRoundTrip(t *testing.T) {
	cat, err := catalog.Parse([]byte(`{"format": "catalogkit/2", "tools": [
	 {"name": "files.read", "family": "files", "effect": "read", "enabled": true, "description": "Read a file.",
	  "inputSchema": {"type": "object", "properties": {
	    "path": {"type": "string", "maxLength": 8, "description": "Where."},
	    "head": {"type": "integer", "minimum": 1},
	    "mode": {"type": "string", "enum": ["text", "base64"], "default": "text"}},
	   "required": ["path"], "additionalProperties": false}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Export(cat, OpenAI, "all")
	if err != nil {
		t.Fatal(err)
	}
	if p := vendorcheck.OpenAI(res.Document); len(p) > 0 {
		t.Fatalf("the export breaks OpenAI's rules: %v", p)
	}
	var doc struct {
		Tools []struct {
			Tools []struct {
				Name       string
				Parameters struct {
					Properties map[string]struct {
						Type        any
						Enum        []any
						Description string
						MaxLength   *int `json:"maxLength"`
					}
					Required []string
				}
			}
		}
		Catalogkit struct {
			Names            map[string]string
			NullableOptional map[string][]string `json:"nullable_optional"`
		}
	}
	if err := json.Unmarshal(res.Document, &doc); err != nil {
		t.Fatal(err)
	}
	fn := doc.Tools[0].Tools[0]
	props := fn.Parameters.Properties
	switch {
	case fn.Name != "files_read" || doc.Catalogkit.Names["files_read"] != "files.read":
		t.Errorf("name %q, names %v: want files_read, mapped back to files.read", fn.Name, doc.Catalogkit.Names)
	case props["path"].MaxLength != nil || !strings.Contains(props["path"].Description, "maxLength 8"):
		t.Errorf("path: %+v, want maxLength moved into the description", props["path"])
	case len(fn.Parameters.Required) != 3:
		t.Errorf("required %v, want every property", fn.Parameters.Required)
	case len(props["mode"].Enum) != 3 || props["mode"].Enum[2] != nil:
		t.Errorf("mode's enum %v, want null added", props["mode"].Enum)
	}
	if got := doc.Catalogkit.NullableOptional["files_read"]; strings.Join(got, " ") != "arguments.head arguments.mode" {
		t.Errorf("nullable_optional %v", got)
	}
	// The model's call, as strict mode makes it, and the host's steps.
	call := map[string]any{"path": "/srv/notes.md", "head": nil, "mode": nil}
	for _, p := range doc.Catalogkit.NullableOptional[fn.Name] {
		if k := strings.TrimPrefix(p, "arguments."); call[k] == nil {
			delete(call, k)
		}
	}
	args, _ := json.Marshal(call)
	v, _ := catalog.ParseJSON(args)
	_, err = cat.ValidateArguments(doc.Catalogkit.Names[fn.Name], v)
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Code != catalog.InvalidArgumentValue || ce.Path != "arguments.path" {
		t.Errorf("a path of 13 characters: %v, want INVALID_ARGUMENT_VALUE at arguments.path (maxLength 8, still the catalog's)", err)
	}
	v, _ = catalog.ParseJSON([]byte(`{"path": "/srv/a"}`))
	if _, err := cat.ValidateArguments("files.read", v); err != nil {
		t.Errorf("the call without its nulls: %v", err)
	}
}

// TestFormat1PassesVendorCheckers: a format-1 catalog (dotted labels for
// names, maxLength on every string) exports for every vendor, and each
// document passes the vendor's checker.
func TestFormat1PassesVendorCheckers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "conformance", "synthetic-catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, vendor := range Vendors {
		res, err := Export(c, vendor, "all")
		if err != nil {
			t.Fatal(err)
		}
		if (vendor == OpenAI || vendor == Anthropic) && !res.Strict {
			t.Errorf("%s: not strict: %s", vendor, res.Why)
		}
		for _, p := range checkers[vendor](res.Document) {
			t.Errorf("%s: %s", vendor, p)
		}
	}
}
