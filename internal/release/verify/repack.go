package verify

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"path/filepath"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// stepRepack packs the extracted tree again with the writer, on all cores,
// and compares the bytes as they stream with the archive's as the hash step read
// them, then their SHA-256 with the hash step's.
func (v *verifier) stepRepack(s *StepResult) []*archive.Error {
	repack := v.opts.Repack
	if repack == nil {
		repack = func(ctx context.Context, dir string, w io.Writer) (*archive.Result, error) {
			return archive.Pack(ctx, dir, w, archive.Options{Limits: v.lim})
		}
	}
	want := bufio.NewReaderSize(io.NewSectionReader(v.src, 0, v.rep.Size+1), 256<<10)
	cw := &compareWriter{want: want, h: sha256.New(), diff: -1}
	res, err := repack(v.ctx, filepath.Join(v.dir, v.root), cw)
	if err != nil {
		return []*archive.Error{{Code: CodeRepackFailed, Entry: v.root, Offset: -1, Detail: "the writer refused the extracted tree", Err: err}}
	}
	if cw.diff < 0 {
		if n, _ := io.Copy(io.Discard, cw.want); n > 0 {
			cw.diff = cw.n
		}
	}
	got := hex.EncodeToString(cw.h.Sum(nil))
	switch {
	case cw.diff >= 0:
		return []*archive.Error{{Code: CodeRepackMismatch, Entry: v.arch.EntryAt(cw.diff), Offset: cw.diff,
			Detail: fmt.Sprintf("repacking the extracted tree gives different bytes (%d bytes, archive has %d)", cw.n, v.rep.Size)}}
	case res.TreeHash != v.rep.TreeHash:
		return []*archive.Error{errf(CodeRepackMismatch, v.root, "repacked tree hash %s, manifest's %s", res.TreeHash, v.rep.TreeHash)}
	case got != v.rep.SHA256:
		// Same bytes as the file now, but not as hashed in the hash step: the file changed.
		return []*archive.Error{errf(CodeRepackMismatch, "", "repacked sha256 %s is not the archive's %s: the archive changed during verification", got, v.rep.SHA256)}
	}
	s.Summary = fmt.Sprintf("repacking the extracted tree gives the same %d bytes (sha256 %s)", cw.n, got)
	return nil
}

// compareWriter compares what is written with the bytes of want, records the
// offset of the first difference, and hashes what is written.
type compareWriter struct {
	want *bufio.Reader
	h    hash.Hash
	n    int64
	diff int64
	buf  []byte
}

func (c *compareWriter) Write(p []byte) (int, error) {
	c.h.Write(p)
	if c.diff < 0 {
		if cap(c.buf) < len(p) {
			c.buf = make([]byte, len(p))
		}
		b := c.buf[:len(p)]
		k, _ := io.ReadFull(c.want, b)
		if i := mismatch(p, b[:k]); i >= 0 {
			c.diff = c.n + int64(i)
		}
	}
	c.n += int64(len(p))
	return len(p), nil
}

// mismatch returns the first index where a and b differ, counting a shorter b
// as differing at its end, or -1.
func mismatch(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
