package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

// inMemory is the largest archive the hash step reads into memory, so that the
// later steps parse exactly the bytes it hashed. A larger one is hashed as
// it streams through one reused buffer (faulting in a fresh buffer of tens
// of megabytes costs more system time than the hash itself) and read again
// by the later steps; the repack's final SHA-256 comparison with the hash step's
// then catches any change to the file in between.
const inMemory = 8 << 20

// The hash step's checks, in the order of [steps]: the expected value and
// its signature before a byte of the archive is read, then the archive's
// own SHA-256, then what the signature's provenance and a rebuild add.

// fromSums reports whether the expected hash comes from a SHA256SUMS file.
func (v *verifier) fromSums() bool { return v.opts.SHA256 == "" && v.opts.SumsFile != "" }

// readExpected reads the expected hash given as --sha256, or the
// SHA256SUMS file that lists it.
func (v *verifier) readExpected(*StepResult) []*archive.Error {
	switch {
	case v.opts.SHA256 != "":
		want := strings.ToLower(v.opts.SHA256)
		if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
			return []*archive.Error{errf(CodeSumsSyntax, "", "--sha256 %q is not 64 hex digits", v.opts.SHA256)}
		}
		v.want, v.label = want, "--sha256"
	case v.opts.SumsFile != "":
		data, err := readSumsFile(v.opts.SumsFile)
		if err != nil {
			return []*archive.Error{err}
		}
		v.sums = data
	case len(v.opts.Keys) > 0:
		return []*archive.Error{errf(CodeKeyNeedsSums, "", "--key checks the signature of a SHA256SUMS file: give --sums too")}
	}
	return nil
}

// skipSumsEntry skips finding the archive's line when there is no
// SHA256SUMS file.
func (v *verifier) skipSumsEntry() (bool, string) { return !v.fromSums(), "" }

// findSum finds the archive's line in the SHA256SUMS file.
func (v *verifier) findSum(*StepResult) []*archive.Error {
	want, err := parseSums(v.sums, v.opts.SumsFile, filepath.Base(v.rep.Archive))
	if err != nil {
		return []*archive.Error{err}
	}
	v.want, v.label = want, filepath.Base(v.opts.SumsFile)
	if v.signer != "" {
		v.label += " (signed by key " + v.signer + ")"
	}
	return nil
}

// readArchive opens the archive, checks that it is a regular file of a size
// the format allows, and computes its SHA-256.
func (v *verifier) readArchive(*StepResult) []*archive.Error {
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
	return nil
}

// compareHash compares the archive's SHA-256 with the expected value.
// Without one the step is not run, unless a rebuild gives the value.
func (v *verifier) compareHash(s *StepResult) []*archive.Error {
	got := v.rep.SHA256
	switch {
	case v.want == "" && v.opts.Rebuild != nil:
		s.say("archive sha256 " + got) // the rebuild is the expected value
	case v.want == "":
		s.Requested = false
		s.say("no --sha256, --sums or --rebuild given: the archive's identity was not checked (its sha256 is " + got + ")")
	case got != v.want:
		return []*archive.Error{errf(CodeArchiveHash, filepath.Base(v.rep.Archive), "sha256 is %s, %s says %s", got, v.label, v.want)}
	default:
		s.say("archive sha256 " + got + " matches " + v.label)
	}
	return nil
}

// skipRebuild skips the rebuild when --rebuild was not given.
func (v *verifier) skipRebuild() (bool, string) { return v.opts.Rebuild == nil, "" }

// checkRebuild rebuilds the archive from its source commit ([verifier.rebuild]).
func (v *verifier) checkRebuild(s *StepResult) []*archive.Error {
	if err := v.rebuild(); err != nil {
		return []*archive.Error{err}
	}
	s.say(v.rep.Rebuild.summary())
	return nil
}

// rebuildStop says why the later steps did not run after the rebuild failed.
func (v *verifier) rebuildStop(s *StepResult) string {
	switch c := s.Code(); c {
	case archive.CodeRebuildSource:
		return "the rebuild's source could not be used (" + string(c) + ")" + nothingRun
	case CodeRebuildRefused:
		return "the rebuild's commit is not a tree the packager accepts (" + string(c) + ")" + nothingRun
	default:
		return "the archive is not what its source commit packs to (" + string(c) + "), so nothing in it was extracted or run"
	}
}

// HashFile returns the hex SHA-256 of everything r yields and its length:
// the hash step, exported for the benchmark.
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
// file, never blocking on a FIFO ([regfile.Open]); what names the file in
// errors.
func openRegular(name, what string) (*os.File, os.FileInfo, *archive.Error) {
	f, fi, err := regfile.Open(name)
	if nr, ok := regfile.AsNotRegular(err); ok {
		if nr.Replaced {
			return nil, nil, &archive.Error{Code: CodeNotFile, Entry: name, Offset: -1, Detail: what + " is not the regular file it was", Err: errors.New("replaced while it was being opened")}
		}
		return nil, nil, errf(CodeNotFile, name, "%s is not a regular file (%s), so it was not opened", what, regfile.Kind(nr.Mode))
	}
	if err != nil {
		return nil, nil, &archive.Error{Code: archive.CodeIO, Entry: name, Offset: -1, Detail: "cannot read " + what, Err: err}
	}
	return f, fi, nil
}
