package readmetest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// within reports whether the package path pkg is dir or below it.
func within(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// product reports whether pkg is part of the product: every package of the
// module but the tests' helpers and suites and the development programs.
func product(pkg string) bool {
	const module = "github.com/catalogkit/catalogkit"
	return !within(pkg, module+"/internal/testlib") && !within(pkg, module+"/internal/suites") && !within(pkg, module+"/internal/dev")
}

// maxFileLines is the most lines a non-test Go file may have
// (CONTRIBUTING.md, "Layers").
const maxFileLines = 800

// TestLayers holds the layering docs/architecture.md states, on what `go
// list` says each package imports (test files aside): catalog imports no
// package of the module; no package but cmd/catalogkit, conformance's own
// and internal/suites/fuzzgate imports conformance; the product imports no
// test helper, suite or development program; a shared helper imports only
// shared helpers; the release kit depends on neither the MCP server nor the
// records; and no non-test Go file is longer than maxFileLines.
func TestLayers(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goBin, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/catalogkit/catalogkit"
	conformance := module + "/conformance"
	may := func(pkg string) bool {
		return pkg == module+"/cmd/catalogkit" || pkg == module+"/internal/suites/fuzzgate" ||
			pkg == conformance || strings.HasPrefix(pkg, conformance+"/")
	}
	seen := 0
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		pkg, imports := f[0], f[1:]
		seen++
		for _, imp := range imports {
			switch {
			case pkg == module+"/catalog" && strings.HasPrefix(imp, module+"/"):
				t.Errorf("catalog imports %s: the core imports nothing of the module", imp)
			case (imp == conformance || strings.HasPrefix(imp, conformance+"/")) && !may(pkg):
				t.Errorf("%s imports %s: below cmd/, only internal/suites/fuzzgate (and tests) may import the conformance suite", pkg, imp)
			case product(pkg) && (within(imp, module+"/internal/testlib") || within(imp, module+"/internal/suites") || within(imp, module+"/internal/dev")):
				t.Errorf("%s imports %s: the product imports no test helper, test suite or development program (docs/architecture.md)", pkg, imp)
			case within(pkg, module+"/internal/shared") && strings.HasPrefix(imp, module+"/") && !within(imp, module+"/internal/shared"):
				t.Errorf("%s imports %s: a shared helper imports nothing of the module but other shared helpers", pkg, imp)
			case within(pkg, module+"/internal/release") && (within(imp, module+"/internal/mcpserve") || within(imp, module+"/records")):
				t.Errorf("%s imports %s: the release kit does not depend on the MCP server or the records", pkg, imp)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("go list named %d packages, want the module's (is the root %s?)", seen, root)
	}

	files := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if n := bytes.Count(b, []byte("\n")); n > maxFileLines {
			t.Errorf("%s has %d lines, more than %d: split it by what its parts do", path, n, maxFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("found %d non-test Go files under %s", files, root)
	}
}
