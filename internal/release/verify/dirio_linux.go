package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// A dirHandle is an open folder of the extracted tree, in which the extract and
// manifest steps create and read files by their last name element. On Linux it uses the
// folder's descriptor directly: each file costs one openat (never following
// a link), its reads or writes, and a close. An *os.File would add four
// fcntl calls and a failed epoll_ctl per file, to set up non-blocking I/O
// that a regular file never uses; on thousands of files that was a large
// part of the system time.
type dirHandle struct {
	f  *os.File
	fd int
}

// openDir opens the folder rel under r.
func openDir(r *os.Root, rel string) (*dirHandle, error) {
	f, err := r.Open(rel)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, fd: int(f.Fd())}, nil
}

func (d *dirHandle) close() { d.f.Close() }

// create creates the file name exclusively with mode perm and writes what
// src yields into it, through buf.
func (d *dirHandle) create(name string, perm fs.FileMode, src io.Reader, buf []byte) error {
	fd, err := retry(func() (int, error) {
		return syscall.Openat(d.fd, name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, uint32(perm))
	})
	if err != nil {
		return &fs.PathError{Op: "create", Path: name, Err: err}
	}
	_, err = io.CopyBuffer(fdWriter(fd), src, buf)
	if cerr := syscall.Close(fd); err == nil && cerr != nil {
		err = &fs.PathError{Op: "close", Path: name, Err: cerr}
	}
	return err
}

// hash returns the size, mode and SHA-256 of the regular file name, read
// through buf.
func (d *dirHandle) hash(name string, buf []byte) (archive.File, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Openat(d.fd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return archive.File{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return archive.File{}, &fs.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return archive.File{}, errors.New("not a regular file")
	}
	h := sha256.New()
	n, err := io.CopyBuffer(h, fdReader(fd), buf)
	if err != nil {
		return archive.File{}, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return archive.File{Size: n, Mode: fs.FileMode(st.Mode & 0o777), SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// retry calls fn again while it fails with EINTR.
func retry(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

type fdWriter int

func (w fdWriter) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := retry(func() (int, error) { return syscall.Write(int(w), p[written:]) })
		if err != nil {
			return written, err
		}
		written += n
	}
	return written, nil
}

type fdReader int

func (r fdReader) Read(p []byte) (int, error) {
	n, err := retry(func() (int, error) { return syscall.Read(int(r), p) })
	switch {
	case err != nil:
		return 0, err
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	return n, nil
}
