package verify

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/catalogkit/catalogkit/internal/release/archive"

	"github.com/klauspost/compress/flate"
)

// This file builds ZIP archives byte by byte for the tests: the canonical
// layout the packager writes, and every field open to mutation, so that each
// hostile archive of the corpus is a small, readable change to a good one.

// hdr holds the fields of a local header or a central record.
type hdr struct {
	madeBy, needed, flags, method, mtime, mdate uint16
	crc                                         uint32
	csize, usize                                uint32
	name                                        string
	extra, comment                              []byte
	disk, iattr                                 uint16
	eattr                                       uint32
}

// zent is one entry: its two headers, the bytes stored after the local
// header, and optionally a data descriptor after them.
type zent struct {
	local, central hdr
	data           []byte
	descriptor     []byte
	offsetDelta    int64 // added to the central record's offset
}

// zarc is a whole archive.
type zarc struct {
	ents          []*zent
	prefix        []byte // before the first entry
	fixOffsets    bool   // whether offsets account for prefix (as a self-extracting archive's do)
	beforeCD      []byte // between the last entry and the central directory
	suffix        []byte // after the end record
	comment       []byte
	countOverride int // if > 0, the entry count written in the end record
}

// tfile is one file of a test tree.
type tfile struct {
	path string // relative to the top folder
	data []byte
	exec bool
}

const testVersion = "0.1.0"
const testRoot = archive.TopPrefix + testVersion

// newEntry returns the canonical entry for name, data and mode: Deflate at a
// fixed level if that is strictly smaller, else Store.
func newEntry(name string, data []byte, exec bool) *zent {
	comp := deflate(data)
	method, stored := uint16(archive.MethodDeflate), comp
	if len(comp) >= len(data) {
		method, stored = archive.MethodStore, data
	}
	attrs := uint32(archive.AttrsRegular)
	if exec {
		attrs = archive.AttrsExec
	}
	h := hdr{
		madeBy: archive.CreatorVersion, needed: archive.ReaderVersion, flags: archive.Flags, method: method,
		mtime: archive.DOSTime, mdate: archive.DOSDate, crc: crc32.ChecksumIEEE(data),
		csize: uint32(len(stored)), usize: uint32(len(data)), name: name, eattr: attrs,
	}
	return &zent{local: h, central: h, data: stored}
}

func deflate(data []byte) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, 8)
	if err != nil {
		panic(err)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// packTree writes files into a fresh directory and packs it with the
// packager, so that the good archive of the tests is the real format.
func packTree(files []tfile) []byte {
	dir, err := os.MkdirTemp("", "verify-tree-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := writeTree(dir, files); err != nil {
		panic(err)
	}
	var b bytes.Buffer
	if _, err := archive.Pack(context.Background(), dir, &b, archive.Options{}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// writeTree writes files under dir, 0755 where exec is set, else 0644.
func writeTree(dir string, files []tfile) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		if err := os.WriteFile(p, f.data, mode); err != nil {
			return err
		}
	}
	return nil
}

// fromBytes splits a canonical archive into entries that tests can mutate
// and serialize again.
func fromBytes(b []byte) *zarc {
	arch, err := archive.NewReader(bytes.NewReader(b), int64(len(b)), archive.DefaultLimits)
	if err != nil {
		panic(err)
	}
	a := &zarc{}
	for _, e := range arch.Entries {
		h := hdr{
			madeBy: e.MadeBy, needed: archive.ReaderVersion, flags: e.Flags, method: e.Method,
			mtime: archive.DOSTime, mdate: archive.DOSDate, crc: e.CRC32, csize: uint32(e.CSize), usize: uint32(e.USize),
			name: e.Name, eattr: e.Attrs,
		}
		data := append([]byte(nil), b[e.DataOffset:e.DataOffset+int64(e.CSize)]...)
		a.ents = append(a.ents, &zent{local: h, central: h, data: data})
	}
	return a
}

var goodOnce = sync.OnceValue(func() []byte { return packTree(goodFiles()) })

// canonical returns the good archive, split into entries.
func canonical() *zarc { return fromBytes(goodOnce()) }

// content returns the uncompressed data of e.
func (e *zent) content() []byte {
	if e.central.method == archive.MethodStore {
		return append([]byte(nil), e.data...)
	}
	b, err := io.ReadAll(flate.NewReader(bytes.NewReader(e.data)))
	if err != nil {
		panic(err)
	}
	return b
}

// goodFiles is a small release-like tree.
func goodFiles() []tfile {
	return []tfile{
		{path: "VERSION", data: []byte(testVersion + "\n")},
		{path: "README.md", data: []byte(strings.Repeat("catalogkit is a small, exact core.\n", 40))},
		{path: "go.mod", data: []byte("module example.com/m\n\ngo 1.26.0\n")},
		{path: "cmd/tool/run.sh", data: []byte("#!/bin/sh\necho hi\n"), exec: true},
		{path: "testdata/empty.txt", data: nil},
		{path: "conformance/cases/a.json", data: []byte(`{"id": "a"}` + "\n")},
	}
}

func (h *hdr) appendLocal(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, sigLocal)
	for _, v := range []uint16{h.needed, h.flags, h.method, h.mtime, h.mdate} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	for _, v := range []uint32{h.crc, h.csize, h.usize} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h.name)))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h.extra)))
	b = append(b, h.name...)
	return append(b, h.extra...)
}

func (h *hdr) appendCentral(b []byte, offset uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, sigCentral)
	for _, v := range []uint16{h.madeBy, h.needed, h.flags, h.method, h.mtime, h.mdate} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	for _, v := range []uint32{h.crc, h.csize, h.usize} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, v := range []uint16{uint16(len(h.name)), uint16(len(h.extra)), uint16(len(h.comment)), h.disk, h.iattr} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	b = binary.LittleEndian.AppendUint32(b, h.eattr)
	b = binary.LittleEndian.AppendUint32(b, offset)
	b = append(b, h.name...)
	b = append(b, h.extra...)
	return append(b, h.comment...)
}

// bytes serializes the archive.
func (a *zarc) bytes() []byte {
	b := append([]byte(nil), a.prefix...)
	base := int64(0)
	if a.fixOffsets {
		base = 0
	} else {
		base = -int64(len(a.prefix))
	}
	offsets := make([]int64, len(a.ents))
	for i, e := range a.ents {
		offsets[i] = int64(len(b)) + base + e.offsetDelta
		b = e.local.appendLocal(b)
		b = append(b, e.data...)
		b = append(b, e.descriptor...)
	}
	b = append(b, a.beforeCD...)
	cdOff := int64(len(b)) + base
	for i, e := range a.ents {
		b = e.central.appendCentral(b, uint32(offsets[i]))
	}
	cdSize := int64(len(b)) + base - cdOff
	n := len(a.ents)
	if a.countOverride > 0 {
		n = a.countOverride
	}
	b = binary.LittleEndian.AppendUint32(b, sigEnd)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(n))
	b = binary.LittleEndian.AppendUint16(b, uint16(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(cdSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(cdOff))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(a.comment)))
	b = append(b, a.comment...)
	return append(b, a.suffix...)
}

// find returns the entry named testRoot/p.
func (a *zarc) find(p string) *zent {
	for _, e := range a.ents {
		if e.central.name == testRoot+"/"+p {
			return e
		}
	}
	panic("no entry " + p)
}

// rename sets both headers' name.
func (e *zent) rename(name string) { e.local.name, e.central.name = name, name }

// both applies f to both headers.
func (e *zent) both(f func(h *hdr)) { f(&e.local); f(&e.central) }

// add appends a new canonical entry, without listing it in the manifest.
func (a *zarc) add(name string, data []byte) *zent {
	e := newEntry(name, data, false)
	a.ents = append(a.ents, e)
	return e
}

// setManifest replaces the manifest entry's content.
func (a *zarc) setManifest(data []byte) {
	e := a.find(archive.ManifestName)
	*e = *newEntry(e.central.name, data, false)
}

func newBombWriter(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) }

func newLevelWriter(w io.Writer, level int) (io.WriteCloser, error) { return flate.NewWriter(w, level) }

// ZIP record signatures, as the specification (APPNOTE.TXT) numbers them.
const (
	sigLocal   = 0x04034b50
	sigCentral = 0x02014b50
	sigEnd     = 0x06054b50
)
