package zipfmt

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRoundTrip: what Append* writes, Decode* reads back, field for field,
// with the variable fields after the fixed part at the lengths it declares.
func TestRoundTrip(t *testing.T) {
	h := Header{
		CreatorVersion: 0x0314, ReaderVersion: 20, Flags: 0x0800, Method: 8, ModTime: 0x1234, ModDate: 0x5678,
		CRC32: 0xdeadbeef, CompressedSize: 70000, Size: 1 << 31, Name: "catalogkit-0.1.0/README.md",
		Extra: []byte{1, 2, 3}, Comment: "a comment", DiskStart: 2, InternalAttrs: 1, ExternalAttrs: 0o100644 << 16, Offset: 0xfffffffe,
	}
	c := AppendCentral([]byte("x"), h)[1:]
	if len(c) != CentralLen+len(h.Name)+len(h.Extra)+len(h.Comment) || LE32(c) != SigCentral {
		t.Fatalf("AppendCentral wrote %d bytes starting %#x", len(c), LE32(c))
	}
	got, l := DecodeCentral(c)
	v := c[CentralLen:]
	got.Name, got.Extra, got.Comment = string(v[:l.Name]), v[l.Name:l.Name+l.Extra], string(v[l.Name+l.Extra:l.Total()])
	if diff := cmp.Diff(h, got); diff != "" {
		t.Errorf("central record round trip (-want +got):\n%s", diff)
	}

	loc := AppendLocal(nil, h)
	if len(loc) != LocalLen+len(h.Name)+len(h.Extra) || LE32(loc) != SigLocal {
		t.Fatalf("AppendLocal wrote %d bytes starting %#x", len(loc), LE32(loc))
	}
	lh, ll := DecodeLocal(loc)
	want := Header{ReaderVersion: h.ReaderVersion, Flags: h.Flags, Method: h.Method, ModTime: h.ModTime, ModDate: h.ModDate,
		CRC32: h.CRC32, CompressedSize: h.CompressedSize, Size: h.Size}
	if diff := cmp.Diff(want, lh); diff != "" || ll != (Lens{Name: len(h.Name), Extra: len(h.Extra)}) {
		t.Errorf("local header round trip (-want +got):\n%s, lengths %+v", diff, ll)
	}

	e := End{Disk: 1, CentralDisk: 2, DiskEntries: 3, Entries: 4, CentralSize: 5, CentralAt: 6, CommentLen: 7}
	eb := AppendEnd(nil, e, "seven!!")
	if len(eb) != EndLen+7 || LE32(eb) != SigEnd {
		t.Fatalf("AppendEnd wrote %d bytes", len(eb))
	}
	if got := DecodeEnd(eb); got != e {
		t.Errorf("end record round trip: got %+v, want %+v", got, e)
	}
}

// TestStandardReader: an archive written with Append* alone is read by
// archive/zip with the same entry, so the fields sit where APPNOTE puts them.
func TestStandardReader(t *testing.T) {
	data := []byte("hello, world\n")
	h := Header{CreatorVersion: 0x0314, ReaderVersion: 20, Flags: 0x0800, ModTime: 0, ModDate: 0x21,
		CRC32: 0xf4247453, CompressedSize: uint32(len(data)), Size: uint32(len(data)), Name: "a/b.txt", ExternalAttrs: 0o100644 << 16}
	b := append(AppendLocal(nil, h), data...)
	cdAt := len(b)
	b = AppendCentral(b, h)
	b = AppendEnd(b, End{DiskEntries: 1, Entries: 1, CentralSize: uint32(len(b) - cdAt), CentralAt: uint32(cdAt)}, "")
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 1 || zr.File[0].Name != h.Name || zr.File[0].Mode().Perm() != 0o644 {
		t.Fatalf("archive/zip read %+v", zr.File)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc) // archive/zip checks the CRC-32 at the end
	if err != nil || !bytes.Equal(got, data) {
		t.Errorf("archive/zip read %q, %v; want %q", got, err, data)
	}
}
