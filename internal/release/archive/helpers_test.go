package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// A tfile is one file of a generated test tree.
type tfile struct {
	path string
	data []byte
	exec bool
}

// sampleTree returns a small release tree that exercises every entry kind:
// an executable, an empty file, an incompressible file (Stored), a file larger
// than the Deflate window, nested directories, and non-ASCII and spaced names.
func sampleTree() []tfile {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	var big bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&big, "line %d of a file larger than the deflate window: %d\n", i, i*i%977)
	}
	return []tfile{
		{path: "VERSION", data: []byte("0.1.0\n")},
		{path: "go.mod", data: []byte("module example.com/x\n\ngo 1.26.0\n")},
		{path: "README.md", data: []byte("# x\n\nA test tree.\n")},
		{path: "Makefile", data: []byte("all:\n\ttrue\n")},
		{path: "catalog/catalog.go", data: []byte("package catalog\n")},
		{path: "catalog/empty.txt", data: nil},
		{path: "conformance/cases/001.json", data: []byte(`{"id":"001"}` + "\n")},
		{path: "conformance/random.bin", data: random},
		{path: "internal/big/big.txt", data: big.Bytes()},
		{path: "internal/run.sh", data: []byte("#!/bin/sh\necho hi\n"), exec: true},
		{path: "records/naïve café.json", data: []byte("{}\n")},
		{path: "testdata/a b/c.txt", data: []byte("spaced\n")},
		{path: "dist/README.md", data: []byte("dist readme\n")},
	}
}

// litter is files that the exclusion rules must leave out.
var litter = []tfile{
	{path: ".git/HEAD", data: []byte("ref: refs/heads/main\n")},
	{path: ".gitignore", data: []byte("bin/\n")},
	{path: "bin/catalogkit", data: []byte("\x7fELF"), exec: true},
	{path: "dist/catalogkit-0.1.0.zip", data: []byte("old archive")},
	{path: "dist/SHA256SUMS", data: []byte("old sums\n")},
	{path: "MANIFEST.sha256", data: []byte("# stale manifest\n")},
	{path: "catalog/.DS_Store", data: []byte("mac")},
	{path: "catalog/catalog.go~", data: []byte("backup")},
	{path: "catalog/.catalog.go.swp", data: []byte("vim")},
	{path: "catalog/catalog.test", data: []byte("binary")},
	{path: "catalog/cover.out", data: []byte("coverage")},
	{path: "conformance/ports/python/__pycache__/x.pyc", data: []byte("pyc")},
	{path: "internal/browser/go.mod", data: []byte("module example.com/browser\n")},
	{path: "internal/browser/main.go", data: []byte("package main\n")},
	{path: "testdata/fuzz-cache/FuzzX/abc", data: []byte("go test fuzz v1\n")},
	{path: "notes.txt", data: []byte("not allowlisted\n")},
}

// layout says how a test tree is written to disk: everything that must not
// change the archive's bytes.
type layout struct {
	reverse bool                        // create files in reverse order
	perm    func(exec bool) fs.FileMode // permission bits
	mtime   func(i int) time.Time       // modification times
	litter  bool                        // also write the litter files
}

var plain = layout{
	perm: func(exec bool) fs.FileMode {
		if exec {
			return 0o755
		}
		return 0o644
	},
	mtime: func(int) time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
}

var hostile = layout{
	reverse: true,
	perm: func(exec bool) fs.FileMode {
		if exec {
			return 0o700 // only the owner's exec bit
		}
		return 0o660 // group-writable, not world-readable
	},
	mtime: func(i int) time.Time {
		return time.Date(2001, 2, 3, 4, 5, 6, 0, time.FixedZone("x", -11*3600)).Add(time.Duration(i) * 7919 * time.Second)
	},
	litter: true,
}

// writeTree writes files under root as l says.
func writeTree(t testing.TB, root string, files []tfile, l layout) {
	t.Helper()
	if l.litter {
		files = append(append([]tfile(nil), files...), litter...)
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
		if l.reverse {
			order[i] = len(files) - 1 - i
		}
	}
	for _, i := range order {
		f := files[i]
		name := filepath.Join(root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, f.data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, l.perm(f.exec)); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, l.mtime(i), l.mtime(i)); err != nil {
			t.Fatal(err)
		}
	}
}

// packBytes packs dir in memory.
func packBytes(t testing.TB, dir string, opts Options) ([]byte, *Result) {
	t.Helper()
	var buf bytes.Buffer
	res, err := Pack(context.Background(), dir, &buf, opts)
	if err != nil {
		t.Fatalf("Pack(%q): %v", dir, err)
	}
	return buf.Bytes(), res
}

// extract writes the archive's files under dir with their modes, using the
// standard library's reader, and returns the path of the top folder.
func extract(t testing.TB, archive []byte, dir string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatalf("archive/zip cannot open the archive: %v", err)
	}
	top := ""
	for _, f := range zr.File {
		first, _, _ := strings.Cut(f.Name, "/")
		if top == "" {
			top = first
		}
		if first != top || !fs.ValidPath(f.Name) {
			t.Fatalf("unexpected entry name %q", f.Name)
		}
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("reading %q: %v", f.Name, err)
		}
		if err := os.WriteFile(name, data, f.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, f.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, top)
}

// repoRoot returns the root of the catalogkit tree this test runs in.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("cannot find the repo root: %v", err)
	}
	return root
}

// needTool returns the path of an external tool, or, when it is missing,
// skips the test with a WARNING at the end of 'make test' naming the
// command that installs it (skipreport.Tool), failing instead under CI=true.
func needTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := execLookPath(name); err == nil {
		return p
	}
	pkg := map[string]string{"zipinfo": "unzip", "sha256sum": "coreutils"}[name]
	if pkg == "" {
		pkg = name
	}
	return skipreport.Tool(t, name, fmt.Sprintf("internal/release/archive: %s is not installed, so the archive was NOT checked with it; install it: sudo apt-get install %s", name, pkg))
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }
