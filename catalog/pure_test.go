package catalog

import (
	goparser "go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbidden are standard-library packages that would give the core I/O,
// processes, a clock or a way around the type system.
var forbidden = []string{"os", "net", "os/exec", "syscall", "unsafe", "time", "io/ioutil", "io/fs", "plugin", "runtime/cgo", "C", "embed", "log"}

// TestPure enforces the package's purity: its non-test files import only the
// standard library, and none of the forbidden packages or their subpackages.
func TestPure(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(token.NewFileSet(), name, nil, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %q: package catalog imports only the standard library", name, path)
			}
			for _, bad := range forbidden {
				if path == bad || strings.HasPrefix(path, bad+"/") {
					t.Errorf("%s imports %q: package catalog does no I/O, process or clock access", name, path)
				}
			}
		}
	}
	if checked == 0 {
		wd, _ := os.Getwd()
		t.Fatalf("no Go files checked in %s", wd)
	}
}
