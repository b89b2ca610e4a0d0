package zipdiff

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/zipfmt"
	"github.com/catalogkit/catalogkit/internal/shared/linediff"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// rawEntry describes one entry for rawZip, which writes the bytes it is
// told to, however wrong.
type rawEntry struct {
	name   string
	data   []byte // the stored bytes
	method uint16
	flags  uint16 // 0 means 0x0800
	crc    uint32 // of the content
	size   uint32 // of the content
	// sameAs, if not 0, makes the central record point at the local
	// header of entry sameAs-1 instead of writing one.
	sameAs int
}

// stored is a rawEntry holding body as is.
func storedEntry(name, body string) rawEntry {
	return rawEntry{name: name, data: []byte(body), crc: crc32.ChecksumIEEE([]byte(body)), size: uint32(len(body))}
}

// deflated is a rawEntry holding body deflated.
func deflatedEntry(name, body string) rawEntry {
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, 9)
	io.WriteString(fw, body)
	fw.Close()
	return rawEntry{name: name, data: z.Bytes(), method: 8, crc: crc32.ChecksumIEEE([]byte(body)), size: uint32(len(body))}
}

func rawZip(prefix []byte, comment string, entries ...rawEntry) []byte {
	out := append([]byte(nil), prefix...)
	offsets := make([]int, len(entries))
	entries = append([]rawEntry(nil), entries...) // the caller's slice stays as it was
	for i := range entries {
		if entries[i].flags == 0 {
			entries[i].flags = 0x800 // UTF-8 names, in both headers
		}
	}
	for i, e := range entries {
		if e.sameAs > 0 {
			offsets[i] = offsets[e.sameAs-1]
			continue
		}
		offsets[i] = len(out)
		out = append(zipfmt.AppendLocal(out, e.header()), e.data...)
	}
	cdAt := len(out)
	for i, e := range entries {
		h := e.header()
		h.CreatorVersion, h.ExternalAttrs, h.Offset = 3<<8|20, 0o100644<<16, uint32(offsets[i])
		out = zipfmt.AppendCentral(out, h)
	}
	n := uint16(len(entries))
	return zipfmt.AppendEnd(out, zipfmt.End{DiskEntries: n, Entries: n, CentralSize: uint32(len(out) - cdAt), CentralAt: uint32(cdAt)}, comment)
}

// header is e's fields as both its headers write them.
func (e rawEntry) header() zipfmt.Header {
	return zipfmt.Header{
		ReaderVersion: 20, Flags: e.flags, Method: e.method, ModDate: 0x21,
		CRC32: e.crc, CompressedSize: uint32(len(e.data)), Size: e.size, Name: e.name,
	}
}

// compareBytes reads and compares two archives in memory.
func compareBytes(t *testing.T, a, b []byte) *Report {
	t.Helper()
	ra, err := Read("a.zip", bytes.NewReader(a), int64(len(a)), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Read("b.zip", bytes.NewReader(b), int64(len(b)), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return Compare(ra, rb)
}

// kinds lists the differences as "kind entry field", for comparing.
func kinds(ds []Difference) []string {
	var out []string
	for _, d := range ds {
		parts := []string{string(d.Kind)}
		for _, p := range []string{d.Entry, d.Field} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// TestDiffHostile: what the reviewer's hostile archives showed wrong, each
// made here.
func TestDiffHostile(t *testing.T) {
	hello, world := storedEntry("t/a.txt", "hello\n"), storedEntry("t/b.txt", "world\n")
	m12 := func(data string, crc, size uint32) rawEntry {
		return rawEntry{name: "t/a.txt", data: []byte(data), method: 12, crc: crc, size: size}
	}
	enc := func(data string) rawEntry {
		return rawEntry{name: "t/a.txt", data: []byte(data), flags: 0x801, crc: 5, size: 4}
	}
	tests := []struct {
		name, reason string
		a, b         []byte
		want         []string
		check        func(t *testing.T, rep *Report)
	}{
		{name: "method-12", reason: "both unreadable with the same error, other stored bytes: reported, not 'no field differs'",
			a: rawZip(nil, "", m12("AAAAAAAAAA", 5, 100), world), b: rawZip(nil, "", m12("BBBBBBBBBB", 5, 100), world),
			want: []string{"data t/a.txt"},
			check: func(t *testing.T, rep *Report) {
				if d := rep.Differences[0]; !strings.Contains(d.Note, "compression method 12") {
					t.Errorf("the note does not say why the content was not compared: %+v", d)
				}
			}},
		{name: "method-12-fields", reason: "the CRC-32 and size fields of unreadable content are not implied",
			a: rawZip(nil, "", m12("AAAAAAAAAA", 5, 100), world), b: rawZip(nil, "", m12("BBBBBBBBBB", 6, 200), world),
			want: []string{"data t/a.txt", "header t/a.txt CRC-32 (central and local)", "header t/a.txt size (central and local)"}},
		{name: "encrypted", reason: "both encrypted, other bytes",
			a: rawZip(nil, "", enc("xxxxxxxxxxxxAAAA"), world), b: rawZip(nil, "", enc("xxxxxxxxxxxxBBBB"), world),
			want: []string{"data t/a.txt"}},
		{name: "prefix-bytes", reason: "prepended bytes of the same length that differ",
			a: rawZip([]byte("#!/bin/sh\nexit 0\n"), "", hello, world), b: rawZip([]byte("#!/bin/sh\nexit 1\n"), "", hello, world),
			want: []string{"archive bytes before the first entry differ"}},
		{name: "duplicate", reason: "a name given twice is a duplicate, not an added entry",
			a: rawZip(nil, "", hello, world), b: rawZip(nil, "", hello, world, storedEntry("t/a.txt", "evil\n")),
			want: []string{"archive size", "archive entries", "duplicate t/a.txt"}},
		{name: "duplicate-first", reason: "the duplicate first: its first entry is compared with A's",
			a: rawZip(nil, "", hello, world), b: rawZip(nil, "", storedEntry("t/a.txt", "evil\n"), hello, world),
			want: []string{"archive size", "archive entries", "duplicate t/a.txt", "content t/a.txt"},
			check: func(t *testing.T, rep *Report) {
				if d := rep.Differences[3]; d.Occurrence != 1 {
					t.Errorf("the content difference of a repeated name has occurrence %d, want 1", d.Occurrence)
				}
			}},
		{name: "overlap", reason: "central records sharing one local header are reported and not read",
			a:    rawZip(nil, "", hello, world),
			b:    rawZip(nil, "", hello, world, rawEntry{name: "t/c.txt", sameAs: 1, crc: hello.crc, size: hello.size, data: hello.data}),
			want: []string{"archive size", "archive entries", "archive entries overlapping another's bytes", "added t/c.txt"}},
		{name: "file-order", reason: "the same central directory order, the local headers in another order in the file",
			a:    rawZip(nil, "", hello, world),
			b:    swapLocals(t, rawZip(nil, "", world, hello)),
			want: []string{"order position 0 in the file (local headers) of the entries both have"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := compareBytes(t, tt.a, tt.b)
			if diff := cmp.Diff(tt.want, kinds(rep.Differences)); diff != "" {
				t.Errorf("%s: (-want +got)\n%s", tt.reason, diff)
			}
			if tt.check != nil && len(rep.Differences) == len(tt.want) {
				tt.check(t, rep)
			}
		})
	}
}

// swapLocals rewrites a two-entry archive so that its central directory
// lists the entries in the other order (the local headers stay).
func swapLocals(t *testing.T, z []byte) []byte {
	t.Helper()
	a, err := Read("z", bytes.NewReader(z), int64(len(z)), DefaultLimits)
	if err != nil || len(a.Entries) != 2 {
		t.Fatal(err)
	}
	e0, e1 := a.Entries[0], a.Entries[1]
	rec := func(e *Entry) []byte {
		return z[e.CentralAt : e.CentralAt+zipfmt.CentralLen+int64(len(e.Central.Name))]
	}
	out := append([]byte(nil), z[:a.CentralAt]...)
	out = append(append(out, rec(e1)...), rec(e0)...)
	return append(out, z[a.EndAt:]...)
}

// TestZipDataDescriptor: a descriptor's fields are compared, and a byte in one
// is located as such.
func TestZipDataDescriptor(t *testing.T) {
	a := makeZip(t, "", file{name: "s.txt", body: "streamed\n", method: zip.Deflate, stream: true})
	b := append([]byte(nil), a...)
	ra, err := Read("a", bytes.NewReader(a), int64(len(a)), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	e := ra.Entries[0]
	if e.Descriptor == nil || !e.Descriptor.Signature {
		t.Fatalf("no data descriptor parsed: %+v", e)
	}
	b[e.DescAt+4] ^= 0xff // its CRC-32
	rep := compareBytes(t, a, b)
	if diff := cmp.Diff([]string{"header s.txt data descriptor CRC-32"}, kinds(rep.Differences)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if w := ra.Where(e.DescAt + 4); !strings.Contains(w, "data descriptor of entry 0") || !strings.Contains(w, "(CRC-32)") {
		t.Errorf("Where(descriptor CRC-32) = %q", w)
	}
}

// TestDiffEveryByteExplained flips each byte of an archive with a prefix, a
// comment, extra fields, a data descriptor and unused bytes: either B cannot
// be read, or the report lists a difference, never none.
func TestDiffEveryByteExplained(t *testing.T) {
	good := makeZipAt(t, []byte("stub"), "a comment", file{name: "a.txt", body: "hello\n", extra: []byte{0xfe, 0xca, 1, 0, 7}, comment: "c"},
		file{name: "s.txt", body: "streamed text\n", method: zip.Deflate, stream: true})
	// Unused bytes between the entries: move the second entry along.
	ra, err := Read("good", bytes.NewReader(good), int64(len(good)), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	s := ra.Entries[1].HeaderAt
	withGap := append(append(append([]byte(nil), good[:s]...), "GAP!"...), good[s:]...)
	le := binary.LittleEndian
	le.PutUint32(withGap[ra.Entries[1].CentralAt+4+42:], uint32(s+4))
	le.PutUint32(withGap[ra.EndAt+4+16:], uint32(ra.CentralAt+4))
	if _, err := Read("gap", bytes.NewReader(withGap), int64(len(withGap)), DefaultLimits); err != nil {
		t.Fatal(err)
	}
	for _, base := range [][]byte{good, withGap} {
		a, _ := Read("a", bytes.NewReader(base), int64(len(base)), DefaultLimits)
		for off := range base {
			for _, x := range []byte{0x01, 0x80} {
				b := append([]byte(nil), base...)
				b[off] ^= x
				rb, err := Read("b", bytes.NewReader(b), int64(len(b)), DefaultLimits)
				if err != nil {
					continue
				}
				a2, _ := Read("a", bytes.NewReader(base), int64(len(base)), DefaultLimits)
				if rep := Compare(a2, rb); len(rep.Differences) == 0 {
					t.Errorf("byte %d (%s) ^ %#x: no difference listed", off, a.Where(int64(off)), x)
				}
			}
		}
	}
}

// TestDiffTextEscaped: nothing an archive controls reaches the text report as a
// control character, and a name cannot forge a line.
func TestDiffTextEscaped(t *testing.T) {
	names := []string{
		"t/\x1b[31mRED\x1b[0m.txt",
		"t/\xc2\x9b31mX",
		"t/b.txt\rremoved: fake",
		"t/b.txt (only in A)\nidentical: the two files have the same bytes",
		"t/\u202eexe.txt",
		"t/\xff\xfeinvalid",
	}
	text := ""
	var rep *Report
	for _, name := range names {
		a := rawZip(nil, "\x1b]0;title\x07", storedEntry("t/text.txt", "one\ntwo\n"), storedEntry(name, "x\n"))
		b := rawZip(nil, "", storedEntry("t/text.txt", "one\nw\x1b]0;pwned\x07\x1b[2J\u009b\u202eo\r\n"), storedEntry("t/other", ""))
		rep = compareBytes(t, a, b)
		var out bytes.Buffer
		rep.WriteText(&out)
		text += out.String()
	}
	if !utf8.ValidString(text) {
		t.Errorf("the report is not UTF-8:\n%s", text)
	}
	for _, r := range text {
		if r != '\n' && r != '\t' && termsafe.Unsafe(r) {
			t.Errorf("the report has the character %U:\n%s", r, text)
			break
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		ok := false
		for _, p := range []string{"A: ", "B: ", "archive:", "removed:", "added:", "            ", "content:", "first differing byte"} {
			ok = ok || strings.HasPrefix(line, p)
		}
		if !ok {
			t.Errorf("a line no report writes: %q", line)
		}
	}
	for _, want := range []string{`t/\x1b[31mRED\x1b[0m.txt`, `t/\u009b31mX`, `t/b.txt\x0dremoved: fake`, `\x0aidentical`, `t/\u202eexe.txt`, `t/\xff\xfeinvalid`, `+w\x1b]0;pwned\x07\x1b[2J\u009b\u202eo\r`} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not show %s:\n%s", want, text)
		}
	}

	// JSON: valid, safe on a terminal too, and an invalid name keeps its
	// bytes.
	var out bytes.Buffer
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.String() {
		if r != '\n' && termsafe.Unsafe(r) {
			t.Errorf("the JSON has the character %U", r)
		}
	}
	var back Report
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range back.Differences {
		if d.EntryHex != "" {
			found = true
			if d.Entry != `t/\xff\xfeinvalid` || d.EntryHex != "742ffffe696e76616c6964" {
				t.Errorf("the invalid name in JSON: entry %q, entry_hex %q", d.Entry, d.EntryHex)
			}
		}
		if strings.ContainsRune(d.Entry, utf8.RuneError) {
			t.Errorf("a name lost its bytes: %q", d.Entry)
		}
	}
	if !found {
		t.Errorf("no entry_hex for the invalid name")
	}
	if len(back.Differences) != len(rep.Differences) || back.Differences[len(back.Differences)-1].A != rep.Differences[len(rep.Differences)-1].A {
		t.Errorf("the JSON does not round-trip: %+v", back.Differences)
	}
}

// TestDiffIdenticalJSON: identical archives have "differences": [], so that
// jq '.differences[]' works.
func TestDiffIdenticalJSON(t *testing.T) {
	z := makeZip(t, "", base...)
	rep, err := diffBytes(t, z, z)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"differences": [],`) {
		t.Errorf("identical: %s", out.String())
	}
	rep = compareBytes(t, z, z)
	if rep.Differences == nil {
		t.Errorf("Compare: nil differences")
	}
}

// TestZipTrailingBytes: bytes after the end record are named as such.
func TestZipTrailingBytes(t *testing.T) {
	z := append(makeZip(t, "", base...), "appended by someone"...)
	_, err := Read("t.zip", bytes.NewReader(z), int64(len(z)), DefaultLimits)
	var e *Error
	if !asError(err, &e) || e.Code != archive.CodeTrailing || !strings.Contains(e.Detail, "19 bytes after the end of central directory record") {
		t.Errorf("err %v, want %s and the count", err, archive.CodeTrailing)
	}
	// A truncated archive is still not one with trailing bytes.
	cut := z[:len(z)/2]
	if _, err := Read("cut.zip", bytes.NewReader(cut), int64(len(cut)), DefaultLimits); !asError(err, &e) || e.Code != archive.CodeNotZip {
		t.Errorf("truncated: %v", err)
	}
}

// TestDiffGroupedText: a field changed the same way on many entries is one
// line of the text report, and one difference per entry in the report.
func TestDiffGroupedText(t *testing.T) {
	var fa, fb []file
	for i := range 10 {
		f := file{name: fmt.Sprintf("d/f%d.txt", i), body: strings.Repeat("x", i+1), method: zip.Store}
		fa = append(fa, f)
		f.extra = []byte{0xfe, 0xca, 0, 0}
		fb = append(fb, f)
	}
	fb[0].mode = 0o755
	rep := compareBytes(t, makeZip(t, "", fa...), makeZip(t, "", fb...))
	n := 0
	for _, d := range rep.Differences {
		if d.Kind == KindHeader {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d header differences, want one per entry: %v", n, kinds(rep.Differences))
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	want := "header:     all 10 entries: extra field (central and local): none -> 4 bytes: feca0000\n"
	if !strings.Contains(out.String(), want) || strings.Count(out.String(), "extra field") != 1 {
		t.Errorf("want the line %q once:\n%s", want, out.String())
	}
}

// TestLineDiffSameAsLinediff: setting aside the common lines first gives
// linediff's own hunks.
func TestLineDiffSameAsLinediff(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a\n", "b\n", "c\n", "d\n", "a", "\n", "b b\n"}
	text := func(n int) []byte {
		var b []byte
		for range n {
			b = append(b, words[rng.Intn(len(words))]...)
		}
		return b
	}
	for i := range 3000 {
		a := text(rng.Intn(30))
		b := append([]byte(nil), a...)
		switch rng.Intn(3) {
		case 0:
			b = append(text(rng.Intn(3)), b...)
		case 1:
			b = append(b, text(rng.Intn(3))...)
		}
		if len(b) > 0 {
			at := rng.Intn(len(b))
			b = append(append(append([]byte(nil), b[:at]...), text(rng.Intn(4))...), b[min(len(b), at+rng.Intn(6)):]...)
		}
		if bytes.Equal(a, b) {
			continue
		}
		full := strings.Split(strings.TrimSuffix(linediff.Unified(a, b), "\n"), "\n")
		if len(full) > maxDiffLines {
			continue
		}
		if diff := cmp.Diff(full, lineDiff(a, b)); diff != "" {
			t.Fatalf("case %d: %q -> %q: (-linediff +lineDiff)\n%s", i, a, b, diff)
		}
	}
}

// TestLineDiffBounded: a long line and a long change are cut.
func TestLineDiffBounded(t *testing.T) {
	long := lineDiff([]byte("x\n"), []byte(strings.Repeat("é", 1000)+"\n"))
	if l := long[len(long)-1]; len(l) > maxLineBytes+40 || !strings.Contains(l, "more bytes)") || !utf8.ValidString(l) {
		t.Errorf("a long line: %q", l)
	}
	big := lineDiff([]byte(strings.Repeat("a\n", 1<<19)), []byte(strings.Repeat("b\n", 1<<19)))
	if len(big) != maxDiffLines+1 || !strings.Contains(big[maxDiffLines], "524288 lines in A and 524288 in B") {
		t.Errorf("a long change: %d lines, last %q", len(big), big[len(big)-1])
	}
}

// measure returns the bytes allocated by f, and the heap in use after it,
// with what f returns still reachable.
func measure(f func() any) (total, kept uint64) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	v := f()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(v)
	return m1.TotalAlloc - m0.TotalAlloc, m1.HeapAlloc - min(m0.HeapAlloc, m1.HeapAlloc)
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.ReaderAt
	n int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// TestDiffBounded: hostile archives cost memory and reading bounded by the
// budgets, not by what they claim. It measures bytes allocated and read,
// not time.
func TestDiffBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds archives of a few MiB")
	}
	mib := 1 << 20
	textA, textB := strings.Repeat("a\n", mib/2), strings.Repeat("b\n", mib/2)
	overlap := func(body string, n int) []byte {
		e := deflatedEntry("t/f0", body)
		entries := []rawEntry{e}
		for i := 1; i < n; i++ {
			c := e
			c.name, c.sameAs = fmt.Sprintf("t/f%d", i), 1
			entries = append(entries, c)
		}
		return rawZip(nil, "", entries...)
	}
	// n entries of their own (not overlapping), each e's bytes.
	distinct := func(e rawEntry, n int) []byte {
		var entries []rawEntry
		for i := range n {
			e.name = fmt.Sprintf("t/f%d", i)
			entries = append(entries, e)
		}
		return rawZip(nil, "", entries...)
	}
	entryA, entryB := deflatedEntry("", textA), deflatedEntry("", textB)
	fast := entryA
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, 1)
	io.WriteString(fw, textA)
	fw.Close()
	fast.data = z.Bytes()
	tests := []struct {
		name, reason string
		a, b         []byte
		maxAlloc     uint64 // bytes allocated by Read and Compare
		maxKept      uint64 // bytes of the report
	}{
		{name: "overlapping-text", reason: "4096 central records pointing at one deflated MiB of text, on each side",
			a: overlap(textA, 4096), b: overlap(textB, 4096), maxAlloc: 32 << 20, maxKept: 4 << 20},
		{name: "many-texts", reason: "64 differing MiB texts, each line different",
			a: distinct(entryA, 64), b: distinct(entryB, 64), maxAlloc: 64 << 20, maxKept: 1 << 20},
		{name: "same-texts", reason: "64 MiB texts the same on both sides, other compressed bytes",
			a: distinct(entryA, 64), b: distinct(fast, 64), maxAlloc: 16 << 20, maxKept: 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ca, cb := &countingReader{r: bytes.NewReader(tt.a)}, &countingReader{r: bytes.NewReader(tt.b)}
			var rep *Report
			total, kept := measure(func() any {
				a, err := Read("a", ca, int64(len(tt.a)), DefaultLimits)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Read("b", cb, int64(len(tt.b)), DefaultLimits)
				if err != nil {
					t.Fatal(err)
				}
				rep = Compare(a, b)
				return rep
			})
			t.Logf("%s: %d differences, %d KiB allocated, %d KiB kept, read %d and %d bytes of %d and %d", tt.reason,
				len(rep.Differences), total>>10, kept>>10, ca.n, cb.n, len(tt.a), len(tt.b))
			if total > tt.maxAlloc {
				t.Errorf("%s: %d MiB allocated, want at most %d", tt.reason, total>>20, tt.maxAlloc>>20)
			}
			if kept > tt.maxKept {
				t.Errorf("%s: the report keeps %d KiB, want at most %d", tt.reason, kept>>10, tt.maxKept>>10)
			}
			for _, c := range []struct {
				n, size int64
			}{{ca.n, int64(len(tt.a))}, {cb.n, int64(len(tt.b))}} {
				if c.n > 3*c.size+2<<20 {
					t.Errorf("%s: read %d bytes of a %d-byte archive", tt.reason, c.n, c.size)
				}
			}
		})
	}
}

// TestDiffIdenticalReadsNoEntry: DiffFiles of one file and a copy parses the
// structures and reads no entry's data.
func TestDiffIdenticalReadsNoEntry(t *testing.T) {
	var files []file
	for i := range 16 {
		files = append(files, file{name: fmt.Sprintf("f%d.txt", i), body: strings.Repeat(fmt.Sprintf("line %d\n", i), 1<<16), method: zip.Deflate})
	}
	z := makeZip(t, "", files...)
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.zip"), filepath.Join(dir, "b.zip")
	os.WriteFile(pa, z, 0o644)
	os.WriteFile(pb, z, 0o644)
	var rep *Report
	total, _ := measure(func() any {
		var err error
		rep, err = DiffFiles(pa, pb, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	})
	if !rep.Identical || rep.A.Entries != 16 {
		t.Fatalf("report %+v", rep)
	}
	if total > 1<<20 {
		t.Errorf("%d KiB allocated comparing identical files of %d KiB content: entries were read", total>>10, 16*len(files[0].body)>>10)
	}
}

// TestDiffTotalLimit: past MaxTotalSize an entry's content is not compared, and
// the report says so.
func TestDiffTotalLimit(t *testing.T) {
	body := func(c string) string { return strings.Repeat(c+"\n", 1<<19) }
	a := rawZip(nil, "", deflatedEntry("one", body("a")), deflatedEntry("two", body("a")))
	b := rawZip(nil, "", deflatedEntry("one", body("b")), deflatedEntry("two", body("b")))
	lim := DefaultLimits
	lim.MaxTotalSize = 1 << 20
	ra, _ := Read("a", bytes.NewReader(a), int64(len(a)), lim)
	rb, _ := Read("b", bytes.NewReader(b), int64(len(b)), lim)
	rep := Compare(ra, rb)
	if diff := cmp.Diff([]string{"content one", "data two", "header two CRC-32 (central and local)"}, kinds(rep.Differences)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	if n := rep.Differences[1].Note; !strings.Contains(n, "the limit of 1048576 bytes inflated from this archive was reached") {
		t.Errorf("note %q", n)
	}
}
