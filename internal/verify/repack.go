package verify

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
)

func (v *verifier) stepRepack() (string, []*Error) {
	repack := v.opts.Repack
	if repack == nil {
		repack = defaultRepack
	}
	f, err := os.Open(v.rep.Archive)
	if err != nil {
		return "", []*Error{{Code: CodeIO, Offset: -1, Detail: "reopening archive", Err: err}}
	}
	defer f.Close()
	cw := &compareWriter{want: bufio.NewReaderSize(f, 256<<10), h: sha256.New(), diff: -1}
	res, err := repack(filepath.Join(v.dir, v.root), cw)
	if err != nil {
		return "", []*Error{{Code: CodeRepackFailed, Entry: v.root, Offset: -1, Detail: "the packager refused the extracted tree", Err: err}}
	}
	if cw.diff < 0 {
		if n, _ := io.Copy(io.Discard, cw.want); n > 0 {
			cw.diff = cw.n
		}
	}
	got := hex.EncodeToString(cw.h.Sum(nil))
	switch {
	case cw.diff >= 0:
		return "", []*Error{errAt(CodeRepackMismatch, v.entryAt(cw.diff), cw.diff, "repacking the extracted tree gives different bytes (%d bytes, archive has %d)", cw.n, v.rep.Size)}
	case res.TreeHash != v.rep.TreeHash:
		return "", []*Error{errf(CodeRepackMismatch, v.root, "repacked tree hash %s, manifest's %s", res.TreeHash, v.rep.TreeHash)}
	case got != v.rep.SHA256:
		// Same bytes as the file now, but not as hashed in step 1: the file changed.
		return "", []*Error{errAt(CodeRepackMismatch, "", -1, "repacked sha256 %s is not the archive's %s: the archive changed during verification", got, v.rep.SHA256)}
	}
	return fmt.Sprintf("repacking the extracted tree gives the same %d bytes (sha256 %s)", cw.n, got), nil
}

// entryAt names the entry whose local header or data holds byte off, or ""
// for the central directory.
func (v *verifier) entryAt(off int64) string {
	name := ""
	for _, e := range v.arch.entries {
		if e.Offset > off {
			break
		}
		if off < e.DataOffset+int64(e.CSize) {
			name = e.Name
		}
	}
	return name
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
