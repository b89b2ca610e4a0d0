package verify

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchArchive packs a generated release-shaped tree of about 8 MB in 400
// files (Go-like text, a few incompressible files) and writes it to disk.
func benchArchive(b *testing.B) (string, int64) {
	b.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("func return if else for range package import type struct interface map chan go defer select case switch var const err nil")
	files := []tfile{{path: "VERSION", data: []byte(testVersion + "\n")}, {path: "go.mod", data: []byte("module x\n")}}
	var total int64
	for i := range 400 {
		var sb strings.Builder
		n := 1000 + rng.IntN(40000)
		for sb.Len() < n {
			fmt.Fprintf(&sb, "%s %s_%d(%s)\n", words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.IntN(1000), words[rng.IntN(len(words))])
		}
		data := []byte(sb.String())
		if i%40 == 7 {
			for j := range data {
				data[j] = byte(rng.UintN(256))
			}
		}
		files = append(files, tfile{path: fmt.Sprintf("internal/p%02d/f%03d.go", i%20, i), data: data})
		total += int64(len(data))
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
