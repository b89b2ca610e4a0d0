package main

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/records"
)

const recordsExample = `catalogkit records            # from the repository root: rewrite records/
catalogkit records --check    # exit 1 if records/ differs from a fresh generation`

func runRecords(c *cli, args []string) int {
	fs := c.flags("records", "[--out DIR] [--catalog FILE] [--check]", recordsExample)
	out := fs.String("out", "records", "existing output folder `DIR`; only the generated files in it are written")
	catalogFile := fs.String("catalog", filepath.FromSlash(records.DefaultCatalogPath), "the synthetic catalog `FILE`, inside the repository")
	check := fs.Bool("check", false, "write nothing: compare DIR with a fresh generation and exit 1 listing every missing, extra or stale file")
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}

	// A catalog outside a repository is refused before it is read (a FIFO
	// would wait for a writer first); a missing one is said as missing.
	recorded, rerr := repoPath(*catalogFile)
	outside := errors.Is(rerr, errOutsideRepository)
	if _, err := os.Stat(*catalogFile); outside && err == nil {
		return c.usageError(outsideHint, "%v", rerr)
	}
	data, err := c.readInput(*catalogFile)
	if err != nil {
		hint := "check the --catalog path"
		if !flagSet(fs, "catalog") {
			hint = "run 'catalogkit records' from the repository root, or give --catalog and --out"
		}
		return c.cannotRun(hint, "failed to read catalog: %v", err)
	}
	switch {
	case outside:
		return c.usageError(outsideHint, "%v", rerr)
	case rerr != nil:
		return c.cannotRun("", "%v", rerr)
	}
	set, err := records.Generate(data, recorded)
	if err != nil {
		var ce *catalog.Error
		if errors.As(err, &ce) {
			return c.contractError(ce, source{"catalog", *catalogFile}, *catalogFile, "")
		}
		return c.errorf("the records are made from the synthetic catalog: a change to it must keep what each record shows", "%v", err)
	}

	if *check {
		problems, err := set.Check(*out)
		if err != nil {
			return c.cannotRun("check the --out path", "%v", err)
		}
		if len(problems) > 0 {
			return c.reportProblems(problems, *out)
		}
		fmt.Fprintf(c.stdout, "ok: the %d files in %s match a fresh generation\n", len(set.Files), *out)
		return exitOK
	}

	// Write removes its temporary files when it fails; a signal that ends
	// the run while it writes removes them too.
	before := temps(*out, set)
	defer c.onSignal(func() { removeTemps(*out, set, before) })()
	if err := set.Write(*out); err != nil {
		hint := ""
		switch {
		case !flagSet(fs, "out"):
			hint = "run 'catalogkit records' from the repository root, or give --out"
		case errors.Is(err, iofs.ErrNotExist):
			hint = "create the output folder first: 'catalogkit records' writes only inside an existing folder"
		case errors.Is(err, iofs.ErrPermission):
			hint = "you need write permission on the output folder; the old files are untouched"
		}
		return c.cannotRun(hint, "%v", err)
	}
	for _, f := range set.Files {
		fmt.Fprintf(c.stdout, "wrote %s\n", filepath.Join(*out, f.Name))
	}
	// Read back what is now on disk: the files just written, and any record
	// file the generator no longer makes.
	problems, err := set.Check(*out)
	if err != nil {
		return c.cannotRun("", "%v", err)
	}
	if len(problems) > 0 {
		return c.reportProblems(problems, *out)
	}
	return exitOK
}

// outsideHint says why records refuses a catalog outside a repository.
const outsideHint = "the records name the catalog by its path from the repository root (the folder with go.mod)"

// tempPattern is the name pattern of the temporary file that records.Set.Write
// writes for the file name before renaming it into place.
func tempPattern(name string) string { return "." + name + ".tmp-*" }

// temps returns the temporary files of set's files in dir.
func temps(dir string, set *records.Set) map[string]bool {
	found := map[string]bool{}
	for _, f := range set.Files {
		matches, _ := filepath.Glob(filepath.Join(dir, tempPattern(f.Name)))
		for _, m := range matches {
			found[m] = true
		}
	}
	return found
}

// removeTemps removes the temporary files of set's files in dir that were
// not there before the run.
func removeTemps(dir string, set *records.Set, before map[string]bool) {
	for t := range temps(dir, set) {
		if !before[t] {
			os.Remove(t)
		}
	}
}

// reportProblems prints every problem of a check, with a (-want +got) diff
// for each stale file, and returns exit status 1.
func (c *cli) reportProblems(problems []records.Problem, dir string) int {
	regenerate, extra := false, false
	for _, p := range problems {
		switch p.Kind {
		case records.Stale:
			fmt.Fprintf(c.stdout, "%s (-want +got):\n", p)
			for _, line := range strings.SplitAfter(strings.TrimSuffix(p.Diff(), "\n"), "\n") {
				fmt.Fprintf(c.stdout, "    %s", line)
			}
			fmt.Fprintln(c.stdout)
			regenerate = true
		case records.Extra:
			fmt.Fprintln(c.stdout, p)
			extra = true
		default:
			fmt.Fprintln(c.stdout, p)
			regenerate = true
		}
	}
	var hints []string
	if regenerate {
		hints = append(hints, "run 'catalogkit records' to regenerate (a hand edit is overwritten: change the generator or the catalog instead)")
	}
	if extra {
		hints = append(hints, "delete extra files by hand if they are old records")
	}
	msg := fmt.Sprintf("%d files in %q do not match a fresh generation", len(problems), dir)
	if len(problems) == 1 {
		msg = fmt.Sprintf("1 file in %q does not match a fresh generation", dir)
	}
	return c.errorf(strings.Join(hints, "; "), "%s", msg)
}

// errOutsideRepository is repoPath's error for a catalog outside any
// repository.
var errOutsideRepository = errors.New("not inside a repository: no folder above it holds go.mod")

// repoPath returns the path of file from the repository root, the nearest
// folder above it that holds go.mod, with forward slashes: the path the
// records name the catalog by, the same from whatever folder the command runs.
func repoPath(file string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	for dir := filepath.Dir(abs); ; {
		if info, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && info.Mode().IsRegular() {
			rel, err := filepath.Rel(dir, abs)
			if err != nil {
				return "", err
			}
			return filepath.ToSlash(rel), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("catalog %q is %w", file, errOutsideRepository)
		}
		dir = parent
	}
}
