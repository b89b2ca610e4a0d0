package zipdiff

import (
	"archive/zip"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDiffFiles compares two release-sized archives (400 entries,
// about 4 MiB of text, one line changed in one entry) with DiffFiles, and,
// as the anchor a maintainer would otherwise reach for, with cmp(1), which
// only finds the first differing byte.
func BenchmarkDiffFiles(b *testing.B) {
	dir := b.TempDir()
	rng := rand.New(rand.NewSource(1))
	var files []file
	for i := 0; i < 400; i++ {
		var sb strings.Builder
		for sb.Len() < 10<<10 {
			fmt.Fprintf(&sb, "line %d of file %d: %x\n", sb.Len(), i, rng.Int63())
		}
		files = append(files, file{name: fmt.Sprintf("catalogkit-0.1.0/f%03d.txt", i), body: sb.String(), method: zip.Deflate})
	}
	pa, pb := filepath.Join(dir, "a.zip"), filepath.Join(dir, "b.zip")
	t := &testing.T{}
	os.WriteFile(pa, makeZip(t, "", files...), 0o644)
	files[200].body = strings.Replace(files[200].body, "line 0", "line zero", 1)
	os.WriteFile(pb, makeZip(t, "", files...), 0o644)

	b.Run("zipdiff", func(b *testing.B) {
		for b.Loop() {
			rep, err := DiffFiles(pa, pb, DefaultLimits)
			if err != nil || rep.Identical || len(rep.Differences) == 0 {
				b.Fatalf("err %v, report %+v", err, rep)
			}
		}
	})
	b.Run("cmp-anchor", func(b *testing.B) {
		if _, err := exec.LookPath("cmp"); err != nil {
			b.Skip("cmp is not installed")
		}
		for b.Loop() {
			if err := exec.Command("cmp", "-s", pa, pb).Run(); err == nil {
				b.Fatal("cmp found the files equal")
			}
		}
	})
}
