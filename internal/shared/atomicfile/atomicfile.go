// Package atomicfile is catalogkit's one way of writing a file that others
// may read at any moment or that must survive a crash: the bytes go to a
// temporary file in the target's own folder, are synced and closed, and the
// file is then renamed (or linked, for a file that must not be replaced)
// into place, and the folder synced. A reader sees the old file or the new
// one, whole, never a part; after a crash the target is one or the other.
//
// [WriteFile] and [WriteNew] do it all for one file. A caller that puts
// several files in place in an order of its own (a release, the records)
// writes each with [Write], renames them itself and calls [SyncDir].
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write creates a temporary file in dir named by pattern (as
// [os.CreateTemp]), writes to it with write (unbuffered: a caller that
// writes in small pieces buffers them), gives it perm, syncs and closes it,
// and returns its path: also on error once the file exists, so that the
// caller can remove it; "" when it could not be created.
func Write(dir, pattern string, perm fs.FileMode, write func(w io.Writer) error) (tmp string, err error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	err = write(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return f.Name(), err
}

// Bytes returns a write function for [Write] that writes data.
func Bytes(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// SyncDir makes the entries of the folder dir durable, so that a rename
// into it is on disk before anything done after it.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteFile writes data to the file at path with perm, replacing it
// atomically if it exists: a temporary file in its folder, synced, renamed
// over it, and the folder synced. On error path is as it was.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := Write(dir, "."+filepath.Base(path)+".tmp-*", perm, Bytes(data))
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		if tmp != "" {
			os.Remove(tmp)
		}
		return err
	}
	return SyncDir(dir)
}

// ErrCreate wraps the error of a temporary file that could not be created
// in the target's folder (the folder is missing or not writable).
var ErrCreate = errors.New("cannot create a file in")

// WriteNew creates the file at path with data and perm atomically, failing
// with an error that wraps [fs.ErrExist] if path exists: the temporary file
// is linked into place, which never replaces a file, then removed.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := Write(dir, "."+filepath.Base(path)+".tmp-*", perm, Bytes(data))
	if tmp == "" {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // the temporary name means nothing to the user
		}
		return fmt.Errorf("%w %s: %w", ErrCreate, dir, err)
	}
	defer os.Remove(tmp) // the link, if made, keeps the data
	if err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fs.ErrExist
		}
		return err
	}
	return SyncDir(dir)
}
