package export

import (
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
