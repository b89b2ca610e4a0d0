package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/internal/export"
)

const exportExample = `
catalogkit export --for openai --catalog catalog.json --out tools.openai.json
catalogkit export --for anthropic --catalog catalog.json --family files`

// runExport writes a catalog's enabled tools as a vendor's tool
// definitions, with a line on stderr for everything the export changed.
func runExport(c *cli, args []string) int {
	fset := c.flags("export", "--for VENDOR --catalog FILE [--family F] [--out FILE]", exportExample)
	vendor := fset.String("for", "", "the `VENDOR` whose API takes the definitions: "+strings.Join(export.Vendors, ", "))
	file := fset.String("catalog", "", "the catalog `FILE` (format 1 or 2); - reads stdin")
	family := fset.String("family", "all", "export the enabled tools of family `F` only")
	out := fset.String("out", "", "write the document to `FILE` (atomically) instead of stdout")
	if code, ok := c.parse(fset, args, false); !ok {
		return code
	}
	switch {
	case *vendor == "" || *file == "":
		return c.badUsage("export needs --for VENDOR and --catalog FILE")
	case !slices.Contains(export.Vendors, *vendor):
		return c.badUsage("--for %q: want one of %s", *vendor, strings.Join(export.Vendors, ", "))
	}
	cat, code, ok := c.loadCatalog(*file)
	if !ok {
		return code
	}
	res, err := export.Export(cat, *vendor, *family)
	if err != nil {
		return c.contractError(err, source{}, *file, "")
	}
	for _, l := range res.Lines {
		fmt.Fprintln(c.stderr, l)
	}
	if code, ok := c.writeOut(*out, res.Document); !ok {
		return code
	}
	what := fmt.Sprintf("%d tools for %s", res.Tools, *vendor)
	switch {
	case res.Strict:
		what += ", strict"
	case res.Why != "":
		what += ", not strict: " + res.Why + " (the schemas are within the strict subset all the same; export one --family to stay within the limits)"
	}
	fmt.Fprintf(c.stderr, "exported %s\n", what)
	return exitOK
}
