package zipdiff

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"flag"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	kflate "github.com/klauspost/compress/flate"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/zipfmt"
)

// file describes one entry for makeZip.
type file struct {
	name    string
	body    string
	mode    os.FileMode // 0 means 0644
	method  uint16      // zip.Store or zip.Deflate
	level   int         // deflate level; 0 means 8
	mtime   time.Time   // zero means 1980-01-01
	extra   []byte
	comment string
	stream  bool // written with a data descriptor (zip.Writer.CreateHeader)
	kp      bool // deflated with catalogkit's compressor (klauspost/compress at archive.FlateLevel)
}

// makeZip writes an archive the way catalogkit's packager does (no data
// descriptors, fixed times) unless a file asks otherwise.
func makeZip(t *testing.T, comment string, files ...file) []byte {
	return makeZipAt(t, nil, comment, files...)
}

func makeZipAt(t *testing.T, stub []byte, comment string, files ...file) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.Write(stub)
	zw := zip.NewWriter(&buf)
	zw.SetOffset(int64(len(stub)))
	if err := zw.SetComment(comment); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: f.method, Extra: f.extra, Comment: f.comment, Flags: 0x800}
		mtime := f.mtime
		if mtime.IsZero() {
			mtime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		// The MS-DOS fields themselves, on purpose: setting Modified
		// would make archive/zip add an extended-timestamp extra field,
		// and these archives must carry exactly the extras a test gives.
		//lint:ignore SA1019 see above
		h.ModifiedDate = uint16((mtime.Year()-1980)<<9 | int(mtime.Month())<<5 | mtime.Day())
		//lint:ignore SA1019 see above
		h.ModifiedTime = uint16(mtime.Hour()<<11 | mtime.Minute()<<5 | mtime.Second()/2)
		mode := f.mode
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		if f.stream {
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, f.body)
			continue
		}
		data := []byte(f.body)
		if f.method == zip.Deflate {
			level := f.level
			if level == 0 {
				level = 8
			}
			var z bytes.Buffer
			if f.kp {
				fw, _ := kflate.NewWriter(&z, archive.FlateLevel)
				fw.Write(data)
				fw.Close()
			} else {
				fw, _ := flate.NewWriter(&z, level)
				fw.Write(data)
				fw.Close()
			}
			data = z.Bytes()
		}
		h.CRC32 = crc32.ChecksumIEEE([]byte(f.body))
		h.CompressedSize64, h.UncompressedSize64 = uint64(len(data)), uint64(len(f.body))
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// diffBytes writes two archives to files and compares them.
func diffBytes(t *testing.T, a, b []byte) (*Report, error) {
	t.Helper()
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.zip"), filepath.Join(dir, "b.zip")
	os.WriteFile(pa, a, 0o644)
	os.WriteFile(pb, b, 0o644)
	return DiffFiles(pa, pb, DefaultLimits)
}

const readme = "# catalogkit\n\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n"

var base = []file{
	{name: "catalogkit-0.1.0/MANIFEST.sha256", body: "# catalogkit-manifest/1\n", method: zip.Store},
	{name: "catalogkit-0.1.0/README.md", body: readme, method: zip.Deflate},
	{name: "catalogkit-0.1.0/run.sh", body: "#!/bin/sh\necho hi\n", method: zip.Store},
}

// edit returns a copy of base with f applied to the entry named name.
func edit(name string, f func(*file)) []file {
	out := append([]file(nil), base...)
	for i := range out {
		if out[i].name == name {
			f(&out[i])
		}
	}
	return out
}

func TestCompare(t *testing.T) {
	big := strings.Repeat("catalogkit compresses this line well. ", 200)
	tests := []struct {
		name, reason string
		a, b         []byte
		want         []Difference
		wantIn       string // a substring of FirstDiffIn
	}{
		{name: "identical", reason: "the same bytes", a: makeZip(t, "", base...), b: makeZip(t, "", base...)},
		{name: "content-text", reason: "one line of a text file changed: a line diff with context",
			a: makeZip(t, "", base...),
			b: makeZip(t, "", edit("catalogkit-0.1.0/README.md", func(f *file) { f.body = strings.Replace(readme, "line 5", "line five", 1) })...),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindContent, Entry: "catalogkit-0.1.0/README.md", A: "X", B: "X",
					Diff: []string{"@@ -3,5 +3,5 @@", " line 3", " line 4", "-line 5", "+line five", " line 6", " line 7"}},
			},
			wantIn: "local header of entry 1 \"catalogkit-0.1.0/README.md\", byte 14 of its fixed fields (CRC-32)",
		},
		{name: "added-removed", reason: "a file renamed",
			a: makeZip(t, "", base...),
			b: makeZip(t, "", edit("catalogkit-0.1.0/run.sh", func(f *file) { f.name = "catalogkit-0.1.0/run2.sh" })...),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindRemoved, Entry: "catalogkit-0.1.0/run.sh"},
				{Kind: KindAdded, Entry: "catalogkit-0.1.0/run2.sh"},
			},
			wantIn: "local header of entry 2",
		},
		{name: "mode", reason: "the executable bit",
			a: makeZip(t, "", base...),
			b: makeZip(t, "", edit("catalogkit-0.1.0/run.sh", func(f *file) { f.mode = 0o755 })...),
			want: []Difference{
				{Kind: KindMode, Entry: "catalogkit-0.1.0/run.sh", A: "100644", B: "100755"},
			},
			wantIn: "central directory",
		},
		{name: "mtime", reason: "a file's modification time, in both headers",
			a: makeZip(t, "", base...),
			b: makeZip(t, "", edit("catalogkit-0.1.0/run.sh", func(f *file) { f.mtime = time.Date(2024, 5, 1, 12, 30, 0, 0, time.UTC) })...),
			want: []Difference{
				{Kind: KindHeader, Entry: "catalogkit-0.1.0/run.sh", Field: "modified (central and local)", A: "1980-01-01 00:00:00", B: "2024-05-01 12:30:00"},
			},
			wantIn: "fixed fields (time)",
		},
		{name: "method", reason: "stored instead of deflated",
			a: makeZip(t, "", base...),
			b: makeZip(t, "", edit("catalogkit-0.1.0/README.md", func(f *file) { f.method = zip.Store })...),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindMethod, Entry: "catalogkit-0.1.0/README.md", A: "X", B: "X"},
			},
			wantIn: "fixed fields (method)",
		},
		{name: "compressor", reason: "the same content deflated at another level",
			a: makeZip(t, "", file{name: "big.txt", body: big, method: zip.Deflate, level: 1}),
			b: makeZip(t, "", file{name: "big.txt", body: big, method: zip.Deflate, level: 9}),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindCompressed, Entry: "big.txt", A: "X", B: "X",
					Note: "neither side's compressed bytes are what catalogkit's compressor (" + compressorName + ") makes of this content"},
			},
			wantIn: "fixed fields (compressed size)",
		},
		{name: "compressor-catalogkit", reason: "A deflated by catalogkit's compressor, B by compress/flate at the same level",
			a: makeZip(t, "", file{name: "big.txt", body: big, method: zip.Deflate, kp: true}),
			b: makeZip(t, "", file{name: "big.txt", body: big, method: zip.Deflate, level: 8}),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindCompressed, Entry: "big.txt", A: "X", B: "X",
					Note: "B's compressed bytes are not what catalogkit's compressor (github.com/klauspost/compress " + archive.CompressVersion + ", level 8) makes of this content; A's are"},
			},
			wantIn: "fixed fields (compressed size)",
		},
		{name: "order", reason: "the same entries in another order",
			a: makeZip(t, "", base...),
			b: makeZip(t, "", base[1], base[0], base[2]),
			want: []Difference{
				{Kind: KindOrder, Field: "position 0 of the entries both have", A: "catalogkit-0.1.0/MANIFEST.sha256", B: "catalogkit-0.1.0/README.md"},
			},
			wantIn: "fixed fields (method)",
		},
		{name: "data-descriptor", reason: "streamed with a data descriptor: flags and versions differ",
			a: makeZip(t, "", base[2]),
			b: makeZip(t, "", file{name: base[2].name, body: base[2].body, method: zip.Store, stream: true}),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindHeader, Entry: "catalogkit-0.1.0/run.sh", Field: "version made by (central)", A: "X", B: "X"},
				{Kind: KindHeader, Entry: "catalogkit-0.1.0/run.sh", Field: "version needed (central and local)", A: "X", B: "X"},
				{Kind: KindHeader, Entry: "catalogkit-0.1.0/run.sh", Field: "flags (central and local)", A: "0x0800 (UTF-8 names)", B: "0x0808 (data descriptor, UTF-8 names)"},
				{Kind: KindHeader, Entry: "catalogkit-0.1.0/run.sh", Field: "data descriptor", A: "none",
					B: "signature, the CRC-32 and sizes of the central record (zero in the local header)"},
			},
			wantIn: "fixed fields (version needed)",
		},
		{name: "comment-and-extra", reason: "an archive comment and an entry's extra field",
			a: makeZip(t, "", base...),
			b: makeZip(t, "built by hand", edit("catalogkit-0.1.0/run.sh", func(f *file) { f.extra = []byte{0xfe, 0xca, 0, 0} })...),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindArchive, Field: "comment", A: `""`, B: `"built by hand"`},
				{Kind: KindHeader, Entry: "catalogkit-0.1.0/run.sh", Field: "extra field (central and local)", A: "none", B: "4 bytes: feca0000"},
			},
			wantIn: "extra",
		},
		{name: "prefix", reason: "bytes before the first entry (a self-extracting stub)",
			a: makeZip(t, "", base...),
			b: prefixed(t, []byte("#!/bin/sh\nexit 0\n"), base),
			want: []Difference{
				{Kind: KindArchive, Field: "size", A: "X", B: "X"},
				{Kind: KindArchive, Field: "bytes before the first entry", A: "0", B: "17"},
			},
			wantIn: "fixed fields (signature)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := diffBytes(t, tt.a, tt.b)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Identical != (tt.want == nil) {
				t.Fatalf("%s: identical %v, want %v", tt.reason, rep.Identical, tt.want == nil)
			}
			// "X" in want stands for any value: sizes and hashes.
			got := append([]Difference(nil), rep.Differences...)
			for i := range got {
				if i < len(tt.want) {
					if tt.want[i].A == "X" {
						got[i].A = "X"
					}
					if tt.want[i].B == "X" {
						got[i].B = "X"
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: differences (-want +got)\n%s", tt.reason, diff)
			}
			if tt.want != nil && !strings.Contains(rep.FirstDiffIn, tt.wantIn) {
				t.Errorf("%s: first difference at %d in %q, want it in %q", tt.reason, rep.FirstDiff, rep.FirstDiffIn, tt.wantIn)
			}
			if tt.want == nil && rep.FirstDiff != -1 {
				t.Errorf("identical files: first difference %d", rep.FirstDiff)
			}
		})
	}
}

// prefixed returns an archive of files preceded by stub, its offsets
// counted from the start of the file as a self-extracting archive's are.
func prefixed(t *testing.T, stub []byte, files []file) []byte {
	return makeZipAt(t, stub, "", files...)
}

func TestReadRefuses(t *testing.T) {
	good := makeZip(t, "", base...)
	end := bytes.LastIndex(good, []byte("PK\x05\x06"))
	cdOff := int(zipfmt.LE32(good[end+16:]))
	tooManyLim := DefaultLimits
	tooManyLim.MaxEntries = 2
	smallLim := DefaultLimits
	smallLim.MaxArchiveSize = 100
	badLocal := append([]byte(nil), good...)
	copy(badLocal[cdOff+42:], []byte{0xff, 0xff, 0, 0}) // first entry's local header offset
	zip64 := append([]byte(nil), good...)
	copy(zip64[end+16:], []byte{0xff, 0xff, 0xff, 0xff})
	tests := []struct {
		name, reason string
		data         []byte
		lim          Limits
		wantCode     Code
	}{
		{name: "empty", reason: "a zero-byte download", data: nil, wantCode: archive.CodeNotZip},
		{name: "text", reason: "not an archive at all", data: []byte("<html>404 not found</html>\n"), wantCode: archive.CodeNotZip},
		{name: "truncated-end", reason: "cut before the end record", data: good[:len(good)-10], wantCode: archive.CodeNotZip},
		{name: "truncated-half", reason: "the second half is missing", data: good[:len(good)/2], wantCode: archive.CodeNotZip},
		{name: "central-past-end", reason: "a central directory that overruns the end record", data: append(append([]byte(nil), good[:cdOff]...), good[end:]...), wantCode: archive.CodeTruncated},
		{name: "bad-local-offset", reason: "a central record pointing into the central directory", data: badLocal, wantCode: archive.CodeOverlap},
		{name: "zip64", reason: "ZIP64 markers", data: zip64, wantCode: archive.CodeZip64},
		{name: "prepended-unadjusted", reason: "bytes before the archive, offsets not adjusted: not_zip to this lenient reader, prepended_data to verify's strict parse (README's diff paragraph; verify's corpus row prepended-bytes-unadjusted)",
			data: append([]byte("MZ stub"), good...), wantCode: archive.CodeNotZip},
		{name: "too-many", reason: "more entries than the limit", data: good, lim: tooManyLim, wantCode: archive.CodeTooManyEntries},
		{name: "too-large", reason: "a file larger than the limit", data: good, lim: smallLim, wantCode: archive.CodeTooLarge},
	}
	for _, tt := range tests {
		lim := tt.lim
		if lim == (Limits{}) {
			lim = DefaultLimits
		}
		_, err := Read(tt.name, bytes.NewReader(tt.data), int64(len(tt.data)), lim)
		var e *Error
		if !asError(err, &e) || e.Code != tt.wantCode {
			t.Errorf("%s: %s: err %v, want code %s", tt.name, tt.reason, err, tt.wantCode)
		}
	}
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}

// TestUnreadableContent: entries whose data lies are reported, not fatal.
func TestUnreadableContent(t *testing.T) {
	good := makeZip(t, "", base...)
	badCRC := append([]byte(nil), good...)
	end := bytes.LastIndex(badCRC, []byte("PK\x05\x06"))
	cdOff := int(zipfmt.LE32(badCRC[end+16:]))
	badCRC[cdOff+16] ^= 0xff // the first entry's central CRC-32
	rep, err := diffBytes(t, good, badCRC)
	if err != nil {
		t.Fatal(err)
	}
	want := []Difference{{Kind: KindUnreadable, Entry: "catalogkit-0.1.0/MANIFEST.sha256", A: "read", B: "X"}, {Kind: KindHeader, Entry: "catalogkit-0.1.0/MANIFEST.sha256", Field: "CRC-32 (central)", A: "X", B: "X"}}
	if len(rep.Differences) == 0 || !strings.Contains(rep.Differences[0].B, "CRC-32") {
		t.Errorf("the unreadable entry's reason: %+v, want the CRC-32 mismatch", rep.Differences)
	}
	if !strings.Contains(rep.FirstDiffIn, "central directory") {
		t.Errorf("first difference in %q, want the central directory", rep.FirstDiffIn)
	}
	got := rep.Differences
	for i := range got {
		if i < len(want) && want[i].B == "X" {
			got[i].B = "X"
		}
		if i < len(want) && want[i].A == "X" {
			got[i].A = "X"
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestLineDiff: the diff of an entry is package linediff's, cut short.
func TestLineDiff(t *testing.T) {
	if diff := cmp.Diff([]string{"@@ -1,5 +1,5 @@", " 1", " 2", "-3", "+three", " 4", " 5"}, lineDiff([]byte("1\n2\n3\n4\n5\n"), []byte("1\n2\nthree\n4\n5\n"))); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	many := lineDiff([]byte(strings.Repeat("a\nx\nx\nx\nx\nx\n", 60)), []byte(strings.Repeat("b\nx\nx\nx\nx\nx\n", 60)))
	if len(many) != maxDiffLines+1 || !strings.Contains(many[maxDiffLines], "more lines") {
		t.Errorf("a long diff is %d lines, want %d and a note", len(many), maxDiffLines+1)
	}
}

// FuzzRead: no input makes Read or Compare panic or exceed the limits.
func FuzzRead(f *testing.F) {
	f.Add(makeZip(&testing.T{}, "", base...))
	f.Add(makeZip(&testing.T{}, "c", file{name: "s", body: "x", stream: true}))
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	lim := Limits{MaxArchiveSize: 1 << 20, MaxEntries: 64, MaxEntrySize: 1 << 20, MaxTextSize: 1 << 10, MaxTotalSize: 4 << 20}
	other := makeZip(&testing.T{}, "", base...)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read("fuzz", bytes.NewReader(data), int64(len(data)), lim)
		if err != nil {
			return
		}
		b, err := Read("other", bytes.NewReader(other), int64(len(other)), lim)
		if err != nil {
			t.Fatal(err)
		}
		rep := Compare(a, b)
		rep.WriteText(io.Discard)
		if read := readBudget(a.Size) - a.read; read > readBudget(a.Size) || a.read < 0 {
			t.Fatalf("read %d bytes, over the budget", read)
		}
		if a.left < 0 {
			t.Fatalf("inflated %d bytes, over the total limit", lim.MaxTotalSize-a.left)
		}
		for _, e := range a.Entries {
			a.Where(e.DataAt)
		}
	})
}

var update = flag.Bool("update", false, "rewrite the fixtures in testdata")

// TestFixtures keeps the hostile archives the CLI transcripts read
// (cmd/catalogkit/testdata/diff.ct) equal to what this test makes.
func TestFixtures(t *testing.T) {
	good := makeZip(t, "", base...)
	end := bytes.LastIndex(good, []byte("PK\x05\x06"))
	cdOff := int(zipfmt.LE32(good[end+16:]))
	fixtures := map[string][]byte{
		"truncated.zip":       good[:len(good)*3/5],                                           // a download cut short
		"central-cut.zip":     append(append([]byte(nil), good[:cdOff+10]...), good[end:]...), // end record kept, central directory cut
		"three-entries.zip":   good,
		"three-reordered.zip": makeZip(t, "", base[2], base[0], base[1]),
		"trailing.zip":        append(append([]byte(nil), good...), "appended\n"...), // bytes after the end record
		// Names and content that would act on a terminal.
		"hostile-names.zip": rawZip(nil, "", storedEntry(base[0].name, base[0].body),
			storedEntry("catalogkit-0.1.0/\x1b[31mRED\x1b[0m.txt", "x\n"),
			storedEntry("catalogkit-0.1.0/run.sh (only in A)\nidentical: the two files have the same bytes", "x\n"),
			storedEntry("catalogkit-0.1.0/\xff\u202etxt.exe", "x\n")),
	}
	for name, data := range fixtures {
		path := filepath.Join("testdata", name)
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s differs from what the test makes (err %v): run go test -update", path, err)
		}
	}
}
