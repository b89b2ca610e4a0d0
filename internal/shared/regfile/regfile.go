// Package regfile opens a file for reading only if it is a regular file,
// without ever blocking on a FIFO: the one way catalogkit opens a file a
// user names (an archive, a signature, a catalog to serve). [ReadAll] is the
// one way it reads a file, or stdin, whole and bounded.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// A NotRegularError is a file [Open] refused: it is not a regular file, or
// it was replaced by another file while it was being opened.
type NotRegularError struct {
	Path     string
	Mode     fs.FileMode // what the path was when it was refused
	Replaced bool        // it was a regular file at first, then not the same one
}

func (e *NotRegularError) Error() string {
	if e.Replaced {
		return e.Path + ": replaced while it was being opened"
	}
	return e.Path + ": not a regular file (" + Kind(e.Mode) + ")"
}

// Open opens the file at name (following links) for reading if it is a
// regular file. It asks Stat first, so that a FIFO, a device or a folder is
// refused without being opened (opening a FIFO for reading waits for a
// writer); then it opens with O_NONBLOCK, so that a file swapped for a FIFO
// in between cannot block the open either, and checks with Fstat that what
// it opened is that same regular file. A refusal is a *[NotRegularError];
// any other failure is the error of os.Stat, os.OpenFile or File.Stat.
func Open(name string) (*os.File, fs.FileInfo, error) {
	before, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: name, Mode: before.Mode()}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	after, err := f.Stat()
	if err == nil && (!after.Mode().IsRegular() || !os.SameFile(before, after)) {
		err = &NotRegularError{Path: name, Mode: after.Mode(), Replaced: true}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, after, nil
}

// AsNotRegular reports whether err is, or wraps, a *[NotRegularError].
func AsNotRegular(err error) (*NotRegularError, bool) {
	var nr *NotRegularError
	ok := errors.As(err, &nr)
	return nr, ok
}

// Kind names the type of a file that is not regular, as an error message
// says it: "a directory", "a FIFO", "a device", "a socket", a symbolic link
// or anything else by its mode.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// ReadAll reads r to its end, or to limit+1 bytes when r has more than
// limit, so that the caller (not a silent cut) reports what is too large.
// It reads into buf's spare capacity and grows it only when it is full: a
// buf of the file's size plus one byte (to see the end) reads a regular
// file with one allocation, where io.ReadAll and bytes.Buffer double. What
// it returns shares buf's storage when it fits there.
func ReadAll(r io.Reader, buf []byte, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit+1)
	b := buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadFile reads the regular file at name whole, as [Open] opens it, if it
// has at most limit bytes. A larger file, or one that grows past limit
// while it is read, is an error that says both sizes.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, info, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > limit {
		return nil, tooLarge(name, fmt.Sprintf("%d bytes", info.Size()), limit)
	}
	b, err := ReadAll(f, make([]byte, 0, info.Size()+1), limit)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(name, "grew while it was read, to", limit)
	}
	return b, nil
}

func tooLarge(name, size string, limit int64) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%s, more than the limit of %d bytes", size, limit)}
}

// DirFS is [os.DirFS](dir) with every file read by [ReadFile]: a FIFO, a
// device or a file of more than limit bytes in it (or linked from it) is an
// error, not a read that waits or never ends. Folders are listed as
// os.DirFS lists them; Open opens regular files and folders only.
func DirFS(dir string, limit int64) fs.FS {
	return dirFS{base: os.DirFS(dir), dir: dir, limit: limit}
}

type dirFS struct {
	base  fs.FS
	dir   string
	limit int64
}

func (d dirFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

func (d dirFS) ReadFile(name string) ([]byte, error) {
	p, err := d.path("read", name)
	if err != nil {
		return nil, err
	}
	return ReadFile(p, d.limit)
}

func (d dirFS) Open(name string) (fs.File, error) {
	info, err := fs.Stat(d.base, name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return d.base.Open(name)
	}
	p, err := d.path("open", name)
	if err != nil {
		return nil, err
	}
	f, _, err := Open(p)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.base, name) }
func (d dirFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(d.base, name) }
