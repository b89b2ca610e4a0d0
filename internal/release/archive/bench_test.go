package archive

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/benchdata"
)

// benchTree writes benchdata's generated tree of about 8 MB in 402 files.
func benchTree(b *testing.B) (string, int64) {
	b.Helper()
	gen, total := benchdata.Tree("0.1.0")
	files := make([]tfile, len(gen))
	for i, f := range gen {
		files[i] = tfile{path: f.Name, data: f.Data}
	}
	dir := filepath.Join(b.TempDir(), "tree")
	writeTree(b, dir, files, plain)
	return dir, total
}

// BenchmarkPack packs a generated tree with one worker and with GOMAXPROCS
// workers. MB/s is of uncompressed file bytes.
func BenchmarkPack(b *testing.B) {
	dir, total := benchTree(b)
	for _, c := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("concurrency=%d", c), func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				if _, err := Pack(context.Background(), dir, io.Discard, Options{Concurrency: c}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
