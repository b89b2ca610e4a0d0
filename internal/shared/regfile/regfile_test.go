package regfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"testing/iotest"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("content"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != "content" || fi.Size() != 7 {
		t.Errorf("Open(file) read %q, size %d, err %v; want the file", b, fi.Size(), err)
	}

	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if f, _, err := Open(link); err != nil {
		t.Errorf("Open(a link to a regular file) = %v, want the file", err)
	} else {
		f.Close()
	}

	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want fs.ErrNotExist", err)
	}

	refused := map[string]string{dir: "a directory"}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		refused[fifo] = "a FIFO" // opening it would block: the test would hang
		if _, err := os.Stat("/dev/null"); err == nil {
			refused["/dev/null"] = "a character device"
		}
	}
	for path, kind := range refused {
		_, _, err := Open(path)
		nr, ok := AsNotRegular(err)
		if !ok || nr.Replaced || Kind(nr.Mode) != kind {
			t.Errorf("Open(%s) = %v, want a NotRegularError for %s", path, err, kind)
			continue
		}
		if want := path + ": not a regular file (" + kind + ")"; err.Error() != want {
			t.Errorf("Open(%s) says %q, want %q", path, err, want)
		}
	}
}

func TestKind(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		fs.ModeDir | 0o755:                "a directory",
		fs.ModeNamedPipe:                  "a FIFO",
		fs.ModeDevice | fs.ModeCharDevice: "a character device",
		fs.ModeDevice:                     "a device",
		fs.ModeSocket:                     "a socket",
		fs.ModeSymlink:                    "a symbolic link",
		fs.ModeIrregular:                  "mode ?---------",
	} {
		if got := Kind(m); got != want {
			t.Errorf("Kind(%v) = %q, want %q", m, got, want)
		}
	}
}

// oneByte reads one byte at a time, as a terminal or a pipe may.
type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

func TestReadAll(t *testing.T) {
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(i)
	}
	for _, tc := range []struct {
		name  string
		r     func() io.Reader
		cap   int
		limit int64
		want  []byte
	}{
		{"fits", func() io.Reader { return bytes.NewReader(data) }, len(data) + 1, 10000, data},
		{"grows from empty", func() io.Reader { return bytes.NewReader(data) }, 0, 10000, data},
		{"one byte at a time", func() io.Reader { return oneByte{bytes.NewReader(data)} }, 16, 10000, data},
		{"at the limit", func() io.Reader { return bytes.NewReader(data) }, 1, int64(len(data)), data},
		{"over the limit: limit+1 bytes", func() io.Reader { return bytes.NewReader(data) }, 1, 100, data[:101]},
		{"empty", func() io.Reader { return bytes.NewReader(nil) }, 0, 100, []byte{}},
	} {
		got, err := ReadAll(tc.r(), make([]byte, 0, tc.cap), tc.limit)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: ReadAll read %d bytes, err %v; want %d bytes", tc.name, len(got), err, len(tc.want))
		}
	}

	boom := errors.New("boom")
	if got, err := ReadAll(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)), nil, 10000); !errors.Is(err, boom) || got != nil {
		t.Errorf("ReadAll of a failing reader = %d bytes, %v; want nil, boom", len(got), err)
	}

	// A buffer of the size plus one byte is the only allocation: the end is
	// seen in the spare byte, not after growing (bytes.Buffer.ReadFrom
	// doubles there, as its MinRead asks for 512 free bytes).
	buf := make([]byte, 0, len(data)+1)
	rd := bytes.NewReader(data)
	if n := testing.AllocsPerRun(20, func() {
		rd.Reset(data)
		if b, err := ReadAll(rd, buf, 10000); err != nil || len(b) != len(data) {
			t.Fatal(len(b), err)
		}
	}); n > 1 { // the io.LimitedReader
		t.Errorf("ReadAll into a buffer of size+1 allocated %v times; want at most 1 (the io.LimitedReader)", n)
	}
}

func TestReadFileAndDirFS(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", "12345")
	write("big.json", "123456789")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("sub/b.json", "{}")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Fatal(err)
	}

	if b, err := ReadFile(filepath.Join(dir, "a.json"), 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadFile(a.json, 5) = %q, %v; want the file", b, err)
	}
	_, err := ReadFile(filepath.Join(dir, "big.json"), 5)
	if err == nil || !strings.Contains(err.Error(), "9 bytes, more than the limit of 5 bytes") {
		t.Errorf("ReadFile(big.json, 5) error = %v; want it to say 9 bytes and the limit", err)
	}

	fsys := DirFS(dir, 5)
	if b, err := fs.ReadFile(fsys, "sub/b.json"); err != nil || string(b) != "{}" {
		t.Errorf("fs.ReadFile(sub/b.json) = %q, %v", b, err)
	}
	names, err := fs.Glob(fsys, "*.json")
	if want := []string{"a.json", "big.json", "fifo.json", "zero.json"}; err != nil || !slices.Equal(names, want) {
		t.Errorf("fs.Glob = %q, %v; want %q", names, err, want)
	}
	for name, want := range map[string]string{"fifo.json": "a FIFO", "zero.json": "a character device", "big.json": "more than the limit"} {
		if _, err := fs.ReadFile(fsys, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fs.ReadFile(%s) error = %v; want it to say %q", name, err, want)
		}
		if f, err := fsys.Open(name); name != "big.json" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("Open(%s) error = %v; want it to say %q", name, err, want)
			if f != nil {
				f.Close()
			}
		}
	}
	if _, err := fs.ReadFile(fsys, "../a.json"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("fs.ReadFile(../a.json) error = %v; want fs.ErrInvalid", err)
	}
	if err := fstest.TestFS(DirFS(filepath.Join(dir, "sub"), 5), "b.json"); err != nil {
		t.Error(err)
	}
}
