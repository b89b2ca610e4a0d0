package verify

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/archive"
	"github.com/catalogkit/catalogkit/internal/provenance"
	"github.com/catalogkit/catalogkit/internal/sign"
)

// SumsSignature is the name of the minisign signature of SHA256SUMS, found
// beside it.
const SumsSignature = "SHA256SUMS.minisig"

// maxSig bounds a signature or provenance file read beside SHA256SUMS.
const maxSig = 1 << 20

// signErr turns a refusal of package sign or provenance into a step-1
// error, keeping its stable code.
func signErr(file string, err error) *archive.Error {
	var se *sign.Error
	if !errors.As(err, &se) {
		se = &sign.Error{Code: "SIGNATURE", Detail: err.Error()}
	}
	return &archive.Error{Code: archive.Code(se.Code), Entry: file, Offset: -1, Detail: se.Detail, Err: se.Err}
}

// readBeside reads a small regular file; missing reports whether it does
// not exist.
func readBeside(path string) (data []byte, missing bool, aerr *archive.Error) {
	f, _, oerr := openRegular(path, "signature file")
	if oerr != nil {
		var pe *os.PathError
		if errors.As(oerr.Err, &pe) && os.IsNotExist(pe) {
			return nil, true, oerr
		}
		return nil, false, oerr
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSig+1))
	if err != nil {
		return nil, false, ioErr(path, "cannot read", err)
	}
	if len(data) > maxSig {
		return nil, false, errf(CodeSumsSyntax, path, "larger than 1 MiB")
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

// checkSumsSignature checks SHA256SUMS.minisig beside the sums file over
// the exact bytes sums with the --key keys, before the archive is read. The
// trusted comment must be catalogkit's, for SHA256SUMS, at the archive's
// version.
func (v *verifier) checkSumsSignature(sums []byte) *archive.Error {
	sigPath := filepath.Join(filepath.Dir(v.opts.SumsFile), SumsSignature)
	sig, missing, aerr := readBeside(sigPath)
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
	if err := got.Comment.Check("SHA256SUMS", archiveVersion(name)); err != nil {
		return signErr(sigPath, err)
	}
	v.signer, v.signed = got.KeyID, &got.Comment
	return nil
}

// checkProvenance checks the provenance statement and its signature if they
// are beside the sums file, once the archive's sha256 is known. Absent, it
// returns "", nil; present, the commit it names.
func (v *verifier) checkProvenance(sha string) (string, *archive.Error) {
	name := filepath.Base(v.rep.Archive)
	ver := archiveVersion(name)
	if ver == "" {
		return "", nil
	}
	p := filepath.Join(filepath.Dir(v.opts.SumsFile), provenance.Name(ver))
	stmt, missing, aerr := readBeside(p)
	if missing {
		return "", nil
	}
	if aerr != nil {
		return "", aerr
	}
	sig, missing, aerr := readBeside(p + ".minisig")
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
	return got.Commit, nil
}
