package main

import (
	"errors"
	"flag"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/zipdiff"
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
	paths, code, ok := parseWithArgs(c, fset, args)
	if !ok {
		return code
	}
	switch {
	case len(paths) != 2:
		return c.badUsage("diff needs two archives, A.zip and B.zip; got %d argument(s)", len(paths))
	case lim.MaxArchiveSize <= 0:
		return c.badUsage("--max-size must be positive")
	}
	rep, err := zipdiff.DiffFiles(paths[0], paths[1], lim)
	if err != nil {
		h := ""
		var ze *zipdiff.Error
		if errors.As(err, &ze) {
			switch ze.Code {
			case archive.CodeNotZip, archive.CodeTruncated, archive.CodeOverlap, archive.CodeHeaderMismatch:
				h = "diff compares two ZIP archives: if this one was downloaded, download it again"
			case archive.CodeTrailing:
				h = "something appended bytes to this archive after its end: it is not the file a packager wrote"
			case archive.CodeTooLarge:
				h = "raise --max-size if you mean to compare archives this large"
			}
		}
		c.printError(h, "cannot read an archive: %v", err)
		return exitCannotRun
	}
	write := rep.WriteText
	if *asJSON {
		write = rep.WriteJSON
	}
	if code, ok := c.writeReport(write); !ok {
		return code
	}
	if rep.Identical {
		return exitOK
	}
	return exitCheckFailed
}

// parseWithArgs parses flags before, between and after the positional
// arguments, so that "diff --json A B", "diff A --json B" and "diff A B
// --json" all work (as parseWithOneArg does for verify's one argument). An
// argument after "--" is positional whatever it looks like.
func parseWithArgs(c *cli, fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var paths []string
	for {
		code, ok := c.parse(fs, args, true)
		if !ok {
			return nil, code, false
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(paths, rest...), 0, true
		}
		if len(rest) == 0 {
			return paths, 0, true
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}
