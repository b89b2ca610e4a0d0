package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/catalogkit/catalogkit/internal/archive"
)

// inMemory is the largest archive step 1 reads into memory, so that the
// later steps parse exactly the bytes it hashed. A larger one is hashed as
// it streams through one reused buffer (faulting in a fresh buffer of tens
// of megabytes costs more system time than the hash itself) and read again
// by the later steps; the repack's final SHA-256 comparison with step 1's
// then catches any change to the file in between.
const inMemory = 8 << 20

// stepHash opens the archive, checks that it is a regular file of a size the
// format allows, computes its SHA-256 and compares it with the expected
// value.
func (v *verifier) stepHash(s *StepResult) []*archive.Error {
	want, label, herr := v.expectedHash()
	if herr != nil {
		v.noExpected = true
		return []*archive.Error{herr}
	}
	f, fi, err := openRegular(v.rep.Archive, "archive")
	if err != nil {
		return []*archive.Error{err}
	}
	v.f = f
	if fi.Size() > archive.MaxSize {
		return []*archive.Error{errf(archive.CodeTooLarge, filepath.Base(v.rep.Archive), "%d bytes: no archive of this format reaches 4 GiB (it never uses ZIP64), so it was not read", fi.Size())}
	}
	var got string
	var n int64
	var rerr error
	if fi.Size() <= inMemory {
		// Read it once, hash those bytes and parse the very same bytes:
		// nothing read later can differ from what was hashed, and the
		// later steps make no more reads of the file.
		data := make([]byte, fi.Size())
		if _, rerr = io.ReadFull(f, data); rerr == nil {
			if k, _ := f.Read(make([]byte, 1)); k > 0 {
				rerr = errors.New("the archive grew while it was read")
			}
		}
		sum := sha256.Sum256(data)
		got, n, v.src = hex.EncodeToString(sum[:]), int64(len(data)), bytes.NewReader(data)
	} else {
		got, n, rerr = HashFile(f)
		v.src = f
	}
	if rerr != nil {
		return []*archive.Error{ioErr(v.rep.Archive, "reading archive", rerr)}
	}
	v.rep.Size, v.rep.SHA256 = n, got
	switch {
	case want == "" && v.opts.Rebuild != nil:
		s.Summary = "archive sha256 " + got // the rebuild is the expected value
	case want == "":
		s.Requested = false
		s.Summary = "no --sha256, --sums or --rebuild given: the archive's identity was not checked (its sha256 is " + got + ")"
	case got != want:
		return []*archive.Error{errf(CodeArchiveHash, filepath.Base(v.rep.Archive), "sha256 is %s, %s says %s", got, label, want)}
	default:
		s.Summary = "archive sha256 " + got + " matches " + label
	}
	if v.signer != "" {
		said, perr := v.checkProvenance(got)
		if perr != nil {
			v.refused = true
			return []*archive.Error{perr}
		}
		v.rep.SignedBy, v.rep.Commit = v.signer, v.signed.Commit
		s.Summary += "; " + said
	} else if v.opts.SumsFile != "" {
		if _, err := os.Lstat(filepath.Join(filepath.Dir(v.opts.SumsFile), SumsSignature)); err == nil {
			s.Summary += "; " + SumsSignature + " is beside it but was not checked: give --key with the maintainers' public key"
		}
	}
	if v.opts.Rebuild != nil {
		if err := v.stepRebuild(); err != nil {
			return []*archive.Error{err}
		}
		s.Summary += "; " + v.rep.Rebuild.summary()
	}
	return nil
}

// hashStop says why the later steps did not run after step 1 failed.
func (v *verifier) hashStop(s *StepResult) string {
	switch c := s.Code(); {
	case v.refused:
		return "the release's signature or provenance did not check out (" + string(c) + "), so nothing in the archive was extracted or run"
	case c == archive.CodeRebuildSource:
		return "the rebuild's source could not be used (" + string(c) + "), so nothing in the archive was extracted or run"
	case c == CodeRebuildRefused:
		return "the rebuild's commit is not a tree the packager accepts (" + string(c) + "), so nothing in the archive was extracted or run"
	case v.rep.Rebuild.failed():
		return "the archive is not what its source commit packs to (" + string(c) + "), so nothing in it was extracted or run"
	case c == CodeArchiveHash:
		return "the archive hash did not match"
	case v.noExpected:
		return "the expected hash could not be read (" + string(c) + ")"
	default:
		return "the archive could not be read (" + string(c) + ")"
	}
}

// expectedHash returns the expected hex hash and where it came from.
func (v *verifier) expectedHash() (string, string, *archive.Error) {
	if v.opts.SHA256 != "" {
		want := strings.ToLower(v.opts.SHA256)
		if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
			return "", "", errf(CodeSumsSyntax, "", "--sha256 %q is not 64 hex digits", v.opts.SHA256)
		}
		return want, "--sha256", nil
	}
	if v.opts.SumsFile == "" {
		if len(v.opts.Keys) > 0 {
			return "", "", errf(CodeKeyNeedsSums, "", "--key checks the signature of a SHA256SUMS file: give --sums too")
		}
		return "", "", nil
	}
	data, err := readSumsFile(v.opts.SumsFile)
	if err != nil {
		return "", "", err
	}
	if len(v.opts.Keys) > 0 {
		if err := v.checkSumsSignature(data); err != nil {
			v.refused = true
			return "", "", err
		}
	}
	want, err := parseSums(data, v.opts.SumsFile, filepath.Base(v.rep.Archive))
	label := filepath.Base(v.opts.SumsFile)
	if v.signer != "" {
		label += " (signed by key " + v.signer + ")"
	}
	return want, label, err
}

// HashFile returns the hex SHA-256 of everything r yields and its length:
// step 1, exported for the benchmark.
func HashFile(r io.Reader) (string, int64, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	n, err := io.CopyBuffer(h, struct{ io.Reader }{r}, buf)
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// openRegular opens the file at name for reading only if it is a regular
// file. It asks Stat first, so that a FIFO, a device or a directory is
// refused without being opened (opening a FIFO for reading blocks until a
// writer comes); then it opens with O_NONBLOCK, so that a file swapped for a
// FIFO in between cannot block the open either, and checks with Fstat that
// what it opened is that same regular file. what names the file in errors.
func openRegular(name, what string) (*os.File, os.FileInfo, *archive.Error) {
	before, err := os.Stat(name)
	if err != nil {
		code := archive.CodeIO
		return nil, nil, &archive.Error{Code: code, Entry: name, Offset: -1, Detail: "cannot read " + what, Err: err}
	}
	if !before.Mode().IsRegular() {
		return nil, nil, errf(CodeNotFile, name, "%s is not a regular file (%s), so it was not opened", what, typeName(before.Mode()))
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, &archive.Error{Code: archive.CodeIO, Entry: name, Offset: -1, Detail: "cannot read " + what, Err: err}
	}
	after, err := f.Stat()
	if err == nil && (!after.Mode().IsRegular() || !os.SameFile(before, after)) {
		err = errors.New("replaced while it was being opened")
	}
	if err != nil {
		f.Close()
		return nil, nil, &archive.Error{Code: CodeNotFile, Entry: name, Offset: -1, Detail: what + " is not the regular file it was", Err: err}
	}
	return f, after, nil
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}
