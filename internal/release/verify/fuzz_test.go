package verify

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// FuzzVerify runs the verifier (without the test re-run) on arbitrary bytes
// and checks that it never panics, never writes outside its directory or
// changes its input, and reports success only for a canonical archive: one
// that Go's archive/zip opens, whose extraction the packager repacks to the
// very same bytes (an oracle independent of the verifier's own reader).
func FuzzVerify(f *testing.F) {
	f.Add(goodOnce())
	for _, h := range hostileCorpus() {
		if strings.Contains(h.name, "bomb") || h.name == "lying-uncompressed-size" {
			continue // 300 KiB seeds slow the mutator; smallBomb stands in
		}
		f.Add(h.build("/nonexistent-fuzz-sandbox"))
	}
	f.Add(smallBomb())
	f.Fuzz(func(t *testing.T, data []byte) {
		sb := newSandbox(t, data)
		sum := sha256.Sum256(data)
		opts := Options{
			SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, NoExec: true,
			Limits: archive.Limits{MaxEntries: 64, MaxFileSize: 1 << 20, MaxTotalSize: 1 << 20, MaxRatio: 100},
		}
		rep := Verify(context.Background(), sb.archive, opts)
		sb.check(t, data)
		if parse := rep.Step(StepParse); parse.Status == Passed {
			// The strict reader accepts a subset of what archive/zip accepts.
			if _, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err != nil {
				t.Fatalf("strict parse passed, archive/zip fails: %v", err)
			}
		}
		if !rep.OK() {
			if rep.FailedStep() == nil {
				t.Fatalf("not ok but no failed step:\n%s", text(rep))
			}
			return
		}
		for _, s := range rep.Steps[:5] {
			if s.Status != Passed {
				t.Fatalf("ok with step %s %s", s.Step, s.Status)
			}
		}
		if got := repackWithStdlib(t, data); !bytes.Equal(got, data) {
			t.Fatalf("verify passed, but extracting with archive/zip and repacking gives other bytes")
		}
	})
}

// smallBomb is a 2 MiB file of zeros declaring its true size: over the fuzz
// limits.
func smallBomb() []byte {
	a := canonical()
	var b bytes.Buffer
	w, _ := newBombWriter(&b)
	w.Write(make([]byte, 2<<20))
	w.Close()
	e := newEntry(testRoot+"/zeros", nil, false)
	e.data = b.Bytes()
	e.both(func(h *hdr) {
		h.method, h.csize, h.usize, h.crc = archive.MethodDeflate, uint32(b.Len()), 2<<20, zeroCRC(2<<20)
	})
	a.ents = append(a.ents, e)
	return a.bytes()
}

// repackWithStdlib extracts data with archive/zip and packs the tree with
// the packager.
func repackWithStdlib(t *testing.T, data []byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("archive/zip: %v", err)
	}
	dir := t.TempDir()
	var top string
	for _, f := range zr.File {
		if !filepath.IsLocal(f.Name) {
			t.Fatalf("verify passed a non-local name %q", f.Name)
		}
		top, _, _ = strings.Cut(f.Name, "/")
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, f.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if _, err := archive.Pack(context.Background(), filepath.Join(dir, top), &out, archive.Options{}); err != nil {
		t.Fatalf("verify passed, the packager refuses the tree: %v", err)
	}
	return out.Bytes()
}
