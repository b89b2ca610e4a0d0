package archive

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// benchTree writes a generated tree of about 8 MB in 400 files: Go-like
// source text of varied sizes and a few incompressible files.
func benchTree(b *testing.B) (string, int64) {
	b.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("func return if else for range package import type struct interface map chan go defer select case switch var const err nil true false string int byte error")
	files := []tfile{{path: "VERSION", data: []byte("0.1.0\n")}, {path: "go.mod", data: []byte("module x\n")}}
	var total int64
	for i := range 400 {
		var sb strings.Builder
		n := 1000 + rng.IntN(40000)
		if i%50 == 0 {
			n = 400000
		}
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
