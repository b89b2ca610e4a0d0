package benchdata

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// Tree returns a generated release-shaped tree of about 8 MB in 402 files,
// the same on every call: VERSION (holding version), go.mod, and 400 files
// of Go-like text of varied sizes, eight of them 400 kB and ten of them
// random bytes that do not compress. The second result is the bytes of the
// 400 files. The archive and verify benchmarks pack it.
func Tree(version string) ([]File, int64) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("func return if else for range package import type struct interface map chan go defer select case switch var const err nil true false string int byte error")
	files := []File{{"VERSION", []byte(version + "\n")}, {"go.mod", []byte("module x\n")}}
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
		files = append(files, File{fmt.Sprintf("internal/p%02d/f%03d.go", i%20, i), data})
		total += int64(len(data))
	}
	return files, total
}

// LiveBytes returns the heap bytes that the value load returns keeps once
// load is over: the heap in use after a collection with the value alive,
// less the heap in use before load.
func LiveBytes[T any](tb testing.TB, load func() (T, error)) uint64 {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := load()
	if err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}
