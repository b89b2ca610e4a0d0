// Package regfile opens a file for reading only if it is a regular file,
// without ever blocking on a FIFO: the one way catalogkit opens a file a
// user names (an archive, a signature, a catalog to serve). [ReadAll] is the
// one way it reads a file, or stdin, whole and bounded.
package regfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
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
