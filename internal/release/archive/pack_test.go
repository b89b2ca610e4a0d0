package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	_ "time/tzdata" // so that TZ=Pacific/Kiritimati works without a zoneinfo database

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/flate"
)

var execLookPath = exec.LookPath

// summary is what a failed byte comparison prints.
type summary struct {
	Size   int
	SHA256 string
	Names  []string
}

func summarize(archive []byte) summary {
	s := summary{Size: len(archive)}
	sum := sha256.Sum256(archive)
	s.SHA256 = hex.EncodeToString(sum[:])
	if zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive))); err == nil {
		for _, f := range zr.File {
			s.Names = append(s.Names, fmt.Sprintf("%s %v m%d crc%08x %d/%d", f.Name, f.Mode(), f.Method, f.CRC32, f.CompressedSize64, f.UncompressedSize64))
		}
	}
	return s
}

// TestReproducible packs the same tree under hostile differences and requires
// identical bytes.
func TestReproducible(t *testing.T) {
	base := filepath.Join(t.TempDir(), "a")
	writeTree(t, base, sampleTree(), plain)
	want, _ := packBytes(t, base, Options{Concurrency: 8})

	tests := []struct {
		name     string
		reason   string
		layout   layout
		opts     Options
		setup    func(t *testing.T) // changes process state for one run; restores with t.Cleanup
		relative bool               // pack by a relative path from another working directory
	}{
		{
			name:   "same tree again",
			reason: "packing is a pure function of the tree",
			layout: plain,
			opts:   Options{Concurrency: 8},
		},
		{
			name:   "hostile layout, one worker",
			reason: "mtimes, permission bits other than exec, creation order, litter, a deeper absolute path and Concurrency 1 must not matter",
			layout: hostile,
			opts:   Options{Concurrency: 1},
		},
		{
			name:   "far time zone, GOMAXPROCS 1",
			reason: "Go's zip writer does not convert times to UTC; the packager never uses the local zone",
			layout: hostile,
			opts:   Options{},
			setup: func(t *testing.T) {
				old := time.Local
				time.Local = time.FixedZone("UTC+14", 14*3600)
				t.Cleanup(func() { time.Local = old })
				prev := runtime.GOMAXPROCS(1)
				t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
			},
		},
		{
			name:     "relative path",
			reason:   "the working directory and the spelling of dir must not matter",
			layout:   hostile,
			relative: true,
		},
		{
			name:   "many workers",
			reason: "more workers than files, under GOMAXPROCS 8",
			layout: hostile,
			opts:   Options{Concurrency: 64},
			setup: func(t *testing.T) {
				prev := runtime.GOMAXPROCS(8)
				t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
			},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup(t)
			}
			dir := filepath.Join(t.TempDir(), "deeper", fmt.Sprint("path", i), "b")
			writeTree(t, dir, sampleTree(), tt.layout)
			if tt.relative {
				t.Chdir(filepath.Dir(dir))
				dir = filepath.Base(dir)
			}
			got, _ := packBytes(t, dir, tt.opts)
			if !bytes.Equal(got, want) {
				t.Errorf("archive bytes differ (%s); (-want +got):\n%s", tt.reason, cmp.Diff(summarize(want), summarize(got)))
			}
		})
	}
}

// TestReproducibleSubprocess packs in a separate process with TZ set to a far
// zone, GOMAXPROCS=1, umask 077, and the hostile layout.
func TestReproducibleSubprocess(t *testing.T) {
	base := filepath.Join(t.TempDir(), "a")
	writeTree(t, base, sampleTree(), plain)
	want, _ := packBytes(t, base, Options{})

	tmp := t.TempDir()
	out := filepath.Join(tmp, "out.zip")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		"CATALOGKIT_PACK_HELPER=1",
		"PACK_DIR="+filepath.Join(tmp, "elsewhere", "tree"),
		"PACK_OUT="+out,
		"TZ=Pacific/Kiritimati",
		"GOMAXPROCS=1",
	)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper process failed: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("archive bytes differ under TZ=Pacific/Kiritimati GOMAXPROCS=1 umask 077; (-want +got):\n%s", cmp.Diff(summarize(want), summarize(got)))
	}
}

// TestHelperProcess is the packing process of TestReproducibleSubprocess.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("CATALOGKIT_PACK_HELPER") != "1" {
		t.Skip("helper process for TestReproducibleSubprocess")
	}
	if _, off := time.Now().Zone(); off != 14*3600 {
		t.Fatalf("TZ was not applied: offset %d", off)
	}
	if runtime.GOMAXPROCS(0) != 1 {
		t.Fatalf("GOMAXPROCS is %d, want 1", runtime.GOMAXPROCS(0))
	}
	syscall.Umask(0o077)
	dir := os.Getenv("PACK_DIR")
	writeTree(t, dir, sampleTree(), hostile)
	f, err := os.Create(os.Getenv("PACK_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pack(context.Background(), dir, f, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRepackExtracted extracts an archive and packs the extracted tree again.
func TestRepackExtracted(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		dir    func(t *testing.T) string
	}{
		{
			name:   "sample tree",
			reason: "the extracted tree holds MANIFEST.sha256, which must be regenerated, not packed",
			dir: func(t *testing.T) string {
				dir := t.TempDir()
				writeTree(t, dir, sampleTree(), hostile)
				return dir
			},
		},
		{
			name:   "this repository",
			reason: "the selection of the repo root and of its extracted release must be identical in effect",
			dir:    func(t *testing.T) string { return repoRoot(t) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, res := packBytes(t, tt.dir(t), Options{})
			top := extract(t, first, t.TempDir())
			if got, want := filepath.Base(top), strings.TrimSuffix(TopFolder(res.Version), "/"); got != want {
				t.Fatalf("top folder %q, want %q", got, want)
			}
			second, res2 := packBytes(t, top, Options{})
			if !bytes.Equal(first, second) {
				t.Errorf("repack of the extracted tree differs (%s); (-first +second):\n%s", tt.reason, cmp.Diff(summarize(first), summarize(second)))
			}
			if diff := cmp.Diff(res, res2); diff != "" {
				t.Errorf("results differ (-first +second):\n%s", diff)
			}
		})
	}
}

// TestArchiveLayout walks the archive byte by byte and checks every header
// field against the format constants.
func TestArchiveLayout(t *testing.T) {
	dir := t.TempDir()
	files := sampleTree()
	writeTree(t, dir, files, hostile)
	archive, res := packBytes(t, dir, Options{})

	top := TopFolder("0.1.0")
	content := map[string][]byte{top + ManifestName: res.Manifest}
	exec := map[string]bool{}
	var wantNames []string
	for _, f := range files {
		content[top+f.path] = f.data
		exec[top+f.path] = f.exec
	}
	for name := range content {
		wantNames = append(wantNames, name)
	}
	sort.Strings(wantNames)

	type local struct {
		name                 string
		method               uint16
		crc, csize, usize    uint32
		offset               uint32
		version, flags, time uint16
		date                 uint16
	}
	le := binary.LittleEndian
	var locals []local
	var names []string
	off := 0
	methods := map[uint16]int{}
	for le.Uint32(archive[off:]) == 0x04034b50 {
		h := archive[off:]
		l := local{
			version: le.Uint16(h[4:]), flags: le.Uint16(h[6:]), method: le.Uint16(h[8:]),
			time: le.Uint16(h[10:]), date: le.Uint16(h[12:]),
			crc: le.Uint32(h[14:]), csize: le.Uint32(h[18:]), usize: le.Uint32(h[22:]),
			offset: uint32(off),
		}
		nlen, xlen := int(le.Uint16(h[26:])), int(le.Uint16(h[28:]))
		l.name = string(h[30 : 30+nlen])
		if xlen != 0 {
			t.Errorf("%s: local extra field of %d bytes", l.name, xlen)
		}
		data := h[30+nlen : 30+nlen+int(l.csize)]
		raw := data
		if l.method == MethodDeflate {
			var err error
			raw, err = io.ReadAll(flate.NewReader(bytes.NewReader(data)))
			if err != nil {
				t.Fatalf("%s: inflate: %v", l.name, err)
			}
			if len(data) >= len(raw) {
				t.Errorf("%s: deflated to %d bytes from %d: should be stored", l.name, len(data), len(raw))
			}
		} else if l.method != MethodStore {
			t.Errorf("%s: method %d", l.name, l.method)
		}
		methods[l.method]++
		if !bytes.Equal(raw, content[l.name]) {
			t.Errorf("%s: content differs", l.name)
		}
		if crc32.ChecksumIEEE(raw) != l.crc || uint32(len(raw)) != l.usize {
			t.Errorf("%s: crc/size mismatch", l.name)
		}
		if diff := cmp.Diff([]uint16{ReaderVersion, Flags, DOSTime, DOSDate}, []uint16{l.version, l.flags, l.time, l.date}); diff != "" {
			t.Errorf("%s: version, flags, time, date (-want +got):\n%s", l.name, diff)
		}
		locals = append(locals, l)
		names = append(names, l.name)
		off += 30 + nlen + int(l.csize)
	}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("entry names (-want +got):\n%s", diff)
	}
	if methods[MethodStore] == 0 || methods[MethodDeflate] == 0 {
		t.Errorf("want both stored and deflated entries, got %v", methods)
	}
	cdStart := off
	for i := 0; le.Uint32(archive[off:]) == 0x02014b50; i++ {
		h := archive[off:]
		nlen, xlen, clen := int(le.Uint16(h[28:])), int(le.Uint16(h[30:])), int(le.Uint16(h[32:]))
		name := string(h[46 : 46+nlen])
		if i >= len(locals) {
			t.Fatalf("more central records than local headers")
		}
		l := locals[i]
		wantAttrs := ExternalAttrs(0o644)
		if exec[name] {
			wantAttrs = ExternalAttrs(0o755)
		}
		got := []any{le.Uint16(h[4:]), le.Uint16(h[6:]), le.Uint16(h[8:]), le.Uint16(h[10:]), le.Uint16(h[12:]), le.Uint16(h[14:]),
			le.Uint32(h[16:]), le.Uint32(h[20:]), le.Uint32(h[24:]), xlen, clen, le.Uint16(h[34:]), le.Uint16(h[36:]), le.Uint32(h[38:]), le.Uint32(h[42:]), name}
		want := []any{CreatorVersion, l.version, l.flags, l.method, l.time, l.date,
			l.crc, l.csize, l.usize, 0, 0, uint16(0), uint16(0), wantAttrs, l.offset, l.name}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("central record %d differs from its local header or the rules (-want +got):\n%s", i, diff)
		}
		off += 46 + nlen + xlen + clen
	}
	end := archive[off:]
	if len(end) != 22 || le.Uint32(end) != 0x06054b50 {
		t.Fatalf("want a 22-byte end record right after the central directory, got %d bytes", len(end))
	}
	got := []uint32{uint32(le.Uint16(end[4:])), uint32(le.Uint16(end[6:])), uint32(le.Uint16(end[8:])), uint32(le.Uint16(end[10:])),
		le.Uint32(end[12:]), le.Uint32(end[16:]), uint32(le.Uint16(end[20:]))}
	want := []uint32{0, 0, uint32(len(locals)), uint32(len(locals)), uint32(off - cdStart), uint32(cdStart), 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("end record (-want +got):\n%s", diff)
	}
	if res.Size != int64(len(archive)) {
		t.Errorf("Result.Size = %d, archive has %d bytes", res.Size, len(archive))
	}
	if sum := sha256.Sum256(archive); res.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("Result.SHA256 = %s, archive hashes to %x", res.SHA256, sum)
	}
}

// TestGoReader opens the archive with the standard library's reader and
// compares what it sees with the tree and the result.
func TestGoReader(t *testing.T) {
	dir := t.TempDir()
	files := sampleTree()
	writeTree(t, dir, files, hostile)
	archive, res := packBytes(t, dir, Options{})
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		Name     string
		Mode     fs.FileMode
		Modified time.Time
		Extra    int
		Comment  string
	}
	var got, want []seen
	var wantFiles []File
	top := TopFolder("0.1.0")
	want = append(want, seen{Name: top + ManifestName, Mode: 0o644, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
	for _, f := range files {
		mode := fs.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		sum := sha256.Sum256(f.data)
		want = append(want, seen{Name: top + f.path, Mode: mode, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		wantFiles = append(wantFiles, File{Path: f.path, Size: int64(len(f.data)), Mode: mode, SHA256: hex.EncodeToString(sum[:])})
	}
	sort.Slice(want, func(i, j int) bool { return want[i].Name < want[j].Name })
	sort.Slice(wantFiles, func(i, j int) bool { return wantFiles[i].Path < wantFiles[j].Path })
	for _, f := range zr.File {
		got = append(got, seen{Name: f.Name, Mode: f.Mode(), Modified: f.Modified.UTC(), Extra: len(f.Extra), Comment: f.Comment})
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			t.Errorf("%s: %v", f.Name, err) // archive/zip checks the CRC at EOF
		}
		rc.Close()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries seen by archive/zip (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantFiles, res.Files); diff != "" {
		t.Errorf("Result.Files (-want +got):\n%s", diff)
	}
	if zr.Comment != "" {
		t.Errorf("archive comment %q", zr.Comment)
	}
}

// TestBuildWriteError checks that a failing writer fails the build.
func TestBuildWriteError(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, sampleTree(), plain)
	_, err := Pack(context.Background(), dir, failingWriter{after: 100}, Options{})
	if err == nil || !strings.Contains(err.Error(), "failed to write archive") {
		t.Fatalf("Pack to a failing writer: got %v, want a write error", err)
	}
}

type failingWriter struct{ after int }

func (w failingWriter) Write(p []byte) (int, error) {
	return 0, fmt.Errorf("disk full")
}

// TestCompressVersionMatchesGoMod keeps CompressVersion, which the manifest
// records, equal to the version go.mod pins.
func TestCompressVersionMatchesGoMod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == CompressModule {
			got = fields[1]
		}
		if len(fields) >= 3 && fields[0] == "require" && fields[1] == CompressModule {
			got = fields[2]
		}
	}
	if got != CompressVersion {
		t.Errorf("go.mod requires %s %q, CompressVersion is %q: update the constant (and the manifest format docs)", CompressModule, got, CompressVersion)
	}
	// The module actually linked into this binary, where the build records it.
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path != CompressModule {
				continue
			}
			if dep.Replace != nil {
				t.Errorf("%s is replaced by %s %s: the manifest would name the wrong compressor", CompressModule, dep.Replace.Path, dep.Replace.Version)
			}
			if dep.Version != CompressVersion {
				t.Errorf("linked %s is %s, CompressVersion is %s", CompressModule, dep.Version, CompressVersion)
			}
		}
	}
}
