package main

import (
	"encoding/json"
	"errors"

	"github.com/catalogkit/catalogkit/internal/zipdiff"
)

const diffExample = `
catalogkit diff dist/catalogkit-0.1.0.zip rebuild/catalogkit-0.1.0.zip
catalogkit diff --json a.zip b.zip | jq '.differences[] | .kind'`

// runDiff explains why two archives differ: see package zipdiff. Exit status
// 0 identical, 1 different, 2 bad usage, 3 an archive cannot be read.
func runDiff(c *cli, args []string) int {
	fset := c.flags("diff", "[--json] A.zip B.zip", diffExample)
	asJSON := fset.Bool("json", false, "print the report as JSON")
	lim := zipdiff.DefaultLimits
	fset.Int64Var(&lim.MaxArchiveSize, "max-size", lim.MaxArchiveSize, "most bytes an archive may have")
	code, ok := c.parse(fset, args, true)
	if !ok {
		return code
	}
	hint := "run 'catalogkit diff -h' for usage"
	switch {
	case fset.NArg() != 2:
		return c.usageError(hint, "diff needs two archives, A.zip and B.zip; got %d argument(s)", fset.NArg())
	case lim.MaxArchiveSize <= 0:
		return c.usageError(hint, "--max-size must be positive")
	}
	rep, err := zipdiff.DiffFiles(fset.Arg(0), fset.Arg(1), lim)
	if err != nil {
		h := ""
		var ze *zipdiff.Error
		if errors.As(err, &ze) {
			switch ze.Code {
			case zipdiff.CodeNotZip, zipdiff.CodeTruncated, zipdiff.CodeCorrupt:
				h = "diff compares two ZIP archives: if this one was downloaded, download it again"
			case zipdiff.CodeTooLarge:
				h = "raise --max-size if you mean to compare archives this large"
			}
		}
		c.printError(h, "cannot read an archive: %v", err)
		return 3
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			c.printError("", "failed to write the report: %v", err)
			return 3
		}
	} else {
		rep.WriteText(c.stdout)
	}
	if rep.Identical {
		return 0
	}
	return 1
}
