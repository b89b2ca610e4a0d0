package verify

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/provenance"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

// SumsSignature is the name of the minisign signature of SHA256SUMS, found
// beside it.
const SumsSignature = "SHA256SUMS.minisig"

// signErr turns a refusal of package sign or provenance into a step-1
// error, keeping its stable code.
func signErr(file string, err error) *archive.Error {
	var se *sign.Error
	if !errors.As(err, &se) {
		se = &sign.Error{Code: "SIGNATURE", Detail: err.Error()}
	}
	return &archive.Error{Code: se.Code, Entry: file, Offset: -1, Detail: se.Detail, Err: se.Err}
}

// ReadSmall reads the small regular file at path, what it is for messages
// ("signature", "provenance statement", "public key", "secret key"),
// refusing with tooLarge a file of more than max bytes (each far larger than
// any real one: sign.MaxSignatureSize, provenance.MaxSize,
// sign.MaxKeyFileSize). Like the archive, it must be a
// regular file, checked before it is opened, so that a FIFO or a device
// (/dev/zero) is never read. missing reports whether it does not exist.
func ReadSmall(path, what string, max int, tooLarge archive.Code) (data []byte, missing bool, aerr *archive.Error) {
	f, _, oerr := openRegular(path, what)
	if oerr != nil {
		var pe *os.PathError
		return nil, errors.As(oerr.Err, &pe) && os.IsNotExist(pe), oerr
	}
	defer f.Close()
	data, err := regfile.ReadAll(f, nil, int64(max))
	if err != nil {
		return nil, false, ioErr(path, "cannot read the "+what, err)
	}
	if len(data) > max {
		return nil, false, errf(tooLarge, path, "the %s is larger than %d bytes: not a file catalogkit or minisign writes", what, max)
	}
	return data, false, nil
}

// archiveVersion returns the version in a release archive's name
// catalogkit-<version>.zip, or "".
func archiveVersion(name string) string {
	v, ok := strings.CutPrefix(name, "catalogkit-")
	v, ok2 := strings.CutSuffix(v, ".zip")
	if !ok || !ok2 {
		return ""
	}
	return v
}

// skipSumsSignature skips the signature check without --key or without a
// SHA256SUMS file.
func (v *verifier) skipSumsSignature() (bool, string) {
	return len(v.opts.Keys) == 0 || !v.fromSums(), ""
}

// checkSumsSignature checks SHA256SUMS.minisig beside the sums file over
// its exact bytes with the --key keys, before the archive is read. The
// trusted comment must be catalogkit's, for SHA256SUMS, at the archive's
// version.
func (v *verifier) checkSumsSignature(*StepResult) []*archive.Error {
	if err := v.sumsSignature(); err != nil {
		return []*archive.Error{err}
	}
	return nil
}

func (v *verifier) sumsSignature() *archive.Error {
	sums := v.sums
	sigPath := filepath.Join(filepath.Dir(v.opts.SumsFile), SumsSignature)
	sig, missing, aerr := ReadSmall(sigPath, "signature", sign.MaxSignatureSize, sign.CodeSigFormat)
	if missing {
		return errf(CodeNoSignature, sigPath, "no signature beside %s: download %s from the release page (a --key needs it)", v.opts.SumsFile, SumsSignature)
	}
	if aerr != nil {
		return aerr
	}
	got, err := sign.Verify(sums, sig, v.opts.Keys)
	if err != nil {
		return signErr(sigPath, err)
	}
	name := filepath.Base(v.rep.Archive)
	if archiveVersion(name) == "" {
		return errf(sign.CodeVersionMismatch, name, "not named catalogkit-<version>.zip, so the version the signature names (%q) cannot be checked against it: give the archive under its published name", got.Comment.Version)
	}
	if err := got.Comment.Check("SHA256SUMS", archiveVersion(name)); err != nil {
		return signErr(sigPath, err)
	}
	v.signer, v.signed = got.KeyID, &got.Comment
	return nil
}

// skipProvenance skips the provenance when no signature was checked, and
// then says so of a signature that is beside the sums file.
func (v *verifier) skipProvenance() (bool, string) {
	if v.signer != "" {
		return false, ""
	}
	if v.opts.SumsFile != "" {
		if _, err := os.Lstat(filepath.Join(filepath.Dir(v.opts.SumsFile), SumsSignature)); err == nil {
			return true, SumsSignature + " is beside it but was not checked: give --key with the maintainers' public key"
		}
	}
	return true, ""
}

// checkProvenance checks the provenance statement beside the sums file
// ([verifier.provenance]) and reports who signed the release.
func (v *verifier) checkProvenance(s *StepResult) []*archive.Error {
	said, err := v.provenance(v.rep.SHA256)
	if err != nil {
		return []*archive.Error{err}
	}
	v.rep.SignedBy, v.rep.Commit = v.signer, v.signed.Commit
	s.say(said)
	return nil
}

// provenance checks the provenance statement and its signature if they
// are beside the sums file, once the archive's sha256 is known. It must be
// signed by the key that signed SHA256SUMS, and name the commit and tree
// hash that signature's trusted comment names. It returns what the hash
// step says of it.
func (v *verifier) provenance(sha string) (string, *archive.Error) {
	name := filepath.Base(v.rep.Archive)
	p := filepath.Join(filepath.Dir(v.opts.SumsFile), provenance.Name(archiveVersion(name)))
	stmt, missing, aerr := ReadSmall(p, "provenance statement", provenance.MaxSize, provenance.CodeFormat)
	if missing {
		return "signed comment names commit " + v.signed.Commit + " (no provenance statement beside " + filepath.Base(v.opts.SumsFile) + ")", nil
	}
	if aerr != nil {
		return "", aerr
	}
	sig, missing, aerr := ReadSmall(p+".minisig", "signature", sign.MaxSignatureSize, sign.CodeSigFormat)
	if missing {
		return "", errf(CodeNoSignature, p+".minisig", "the provenance statement is not signed: download its .minisig from the release page")
	}
	if aerr != nil {
		return "", aerr
	}
	got, err := provenance.Check(stmt, sig, v.opts.Keys, name, sha)
	if err != nil {
		return "", signErr(p, err)
	}
	switch {
	case got.KeyID != v.signer:
		return "", errf(CodeProvenanceKey, p, "signed by key %s, but SHA256SUMS by key %s: a release is signed by one key", got.KeyID, v.signer)
	case got.Commit != v.signed.Commit || got.TreeHash != v.signed.TreeHash:
		return "", errf(provenance.CodeCommentMismatch, p, "names commit %s and tree %s, but the signature of SHA256SUMS names commit %s and tree %s",
			got.Commit, got.TreeHash, v.signed.Commit, v.signed.TreeHash)
	}
	if !got.Clean {
		return "signed provenance names commit " + got.Commit + ", packed from a checkout that was not clean (git status showed changed or untracked files outside the release)", nil
	}
	return "signed provenance names commit " + got.Commit, nil
}
