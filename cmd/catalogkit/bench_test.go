package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/benchdata"
)

// BenchmarkCLIMaxCatalog runs catalogkit in-process on the catalog at the
// contract's maxima (internal/testlib/benchdata, the bytes the catalog package's
// benchmarks measure, pinned by testdata/bench/SHA256SUMS): the whole
// command, reading the 3 MB file, parsing and compiling it, and the call.
// Compare with the catalog package's BenchmarkParse to see what the command
// line adds.
func BenchmarkCLIMaxCatalog(b *testing.B) {
	dir := b.TempDir()
	catalogFile := filepath.Join(dir, benchdata.Max+".json")
	argsFile := filepath.Join(dir, benchdata.ArgumentsName+".json")
	if err := os.WriteFile(catalogFile, benchdata.MustCatalog(benchdata.Max), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(argsFile, benchdata.Arguments(), 0o644); err != nil {
		b.Fatal(err)
	}
	calls := []struct {
		name string
		args []string
	}{
		{"validate", []string{"validate", "--catalog", catalogFile, "--name", "tool.0999", "--arguments", "@" + argsFile}},
		{"discover-family", []string{"discover", "--catalog", catalogFile, "--family", "family.019"}},
	}
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			var stderr bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				if code := run(c.args, nil, io.Discard, &stderr); code != 0 {
					b.Fatalf("catalogkit %q: exit %d: %s", c.args, code, stderr.String())
				}
			}
		})
	}
}
