package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/benchdata"
)

// benchArchive packs benchdata's generated release-shaped tree of about
// 8 MB in 402 files and writes it to disk.
func benchArchive(b *testing.B) (string, int64) {
	b.Helper()
	gen, total := benchdata.Tree(testVersion)
	files := make([]tfile, len(gen))
	for i, f := range gen {
		files[i] = tfile{path: f.Name, data: f.Data}
	}
	p := filepath.Join(b.TempDir(), "catalogkit-"+testVersion+".zip")
	if err := os.WriteFile(p, packTree(files), 0o644); err != nil {
		b.Fatal(err)
	}
	return p, total
}

// BenchmarkHash is the hash step alone; MB/s of archive bytes.
func BenchmarkHash(b *testing.B) {
	p, _ := benchArchive(b)
	info, _ := os.Stat(p)
	b.SetBytes(info.Size())
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := HashFile(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkVerify runs every step before tests; MB/s of uncompressed file bytes. The
// side-by-side comparison with sha256sum and unzip is bench.sh.
func BenchmarkVerify(b *testing.B) {
	p, total := benchArchive(b)
	f, _ := os.Open(p)
	sum, _, _ := HashFile(f)
	f.Close()
	tmp := b.TempDir()
	b.SetBytes(total)
	for b.Loop() {
		rep := Verify(context.Background(), p, Options{SHA256: sum, NoExec: true, TempDir: tmp})
		if !rep.OK() {
			b.Fatalf("verify failed:\n%s", text(rep))
		}
	}
}
