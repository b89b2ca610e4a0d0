//go:build !linux

package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// A dirHandle is an open folder of the extracted tree, in which the extract and
// manifest steps create and read files by their last name element (an [os.Root], so
// never through a link).
type dirHandle struct{ r *os.Root }

// openDir opens the folder rel under r.
func openDir(r *os.Root, rel string) (*dirHandle, error) {
	sub, err := r.OpenRoot(rel)
	if err != nil {
		return nil, err
	}
	return &dirHandle{r: sub}, nil
}

func (d *dirHandle) close() { d.r.Close() }

// create creates the file name exclusively with mode perm and writes what
// src yields into it, through buf.
func (d *dirHandle) create(name string, perm fs.FileMode, src io.Reader, buf []byte) error {
	f, err := d.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.CopyBuffer(f, src, buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// hash returns the size, mode and SHA-256 of the regular file name, read
// through buf.
func (d *dirHandle) hash(name string, buf []byte) (archive.File, error) {
	f, err := d.r.Open(name)
	if err != nil {
		return archive.File{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return archive.File{}, err
	}
	if !fi.Mode().IsRegular() {
		return archive.File{}, errors.New("not a regular file")
	}
	h := sha256.New()
	n, err := io.CopyBuffer(h, struct{ io.Reader }{f}, buf)
	if err != nil {
		return archive.File{}, err
	}
	return archive.File{Size: n, Mode: fi.Mode().Perm(), SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
