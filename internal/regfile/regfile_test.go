package regfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
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
