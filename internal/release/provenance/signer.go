package provenance

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// FromCheckout returns the Inputs that do not depend on the archive: the
// canonical [Repository], the commit of the git checkout dir and whether it
// is clean, the manifest rules, and the Go toolchain and compressor that
// built the running binary. [Signer] fills in the rest.
func FromCheckout(dir string) (Inputs, error) {
	// The top of the checkout, as archive.CheckCheckout requires: git
	// would otherwise answer for a checkout that merely contains dir.
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err != nil {
		return Inputs{}, &sign.Error{Code: CodeInputs, Detail: fmt.Sprintf("signing needs the git commit the release is packed from: %s is not the top of a git checkout (no .git)", dir)}
	}
	co, err := ReadCheckout(dir)
	if err != nil {
		return Inputs{}, &sign.Error{Code: CodeInputs, Detail: "signing needs the git commit the release is packed from: " + err.Error()}
	}
	bi, _ := debug.ReadBuildInfo()
	comp, err := Compressor(bi, archive.CompressModule)
	if err != nil {
		return Inputs{}, err
	}
	return Inputs{
		Repository: Repository,
		Commit:     co.Commit,
		Clean:      co.Clean,
		Rules:      archive.ManifestFormat,
		GoVersion:  runtime.Version(),
		Compressor: comp,
	}, nil
}

// Signer returns the [archive.Signer] of a signed release: the signature of
// SHA256SUMS, the provenance statement of the archive (in, completed with
// the archive's name, SHA-256, tree hash and version) and its signature, all
// with key. Each trusted comment names its file, the version, the tree hash
// and the commit.
func Signer(key *sign.SecretKey, in Inputs) archive.Signer {
	return func(res *archive.Result, sums []byte) ([]archive.Sidecar, error) {
		in.ArchiveName, in.ArchiveSHA256, in.TreeHash, in.Version = res.Name, res.SHA256, res.TreeHash, res.Version
		stmt, err := Build(in)
		if err != nil {
			return nil, err
		}
		stmtSig, err := Sign(key, stmt, in)
		if err != nil {
			return nil, err
		}
		sumsSig, err := sign.Sign(key, sums, sign.Comment{File: archive.SumsName, Version: in.Version, TreeHash: in.TreeHash, Commit: in.Commit})
		if err != nil {
			return nil, err
		}
		name := Name(in.Version)
		return []archive.Sidecar{
			{Name: name + archive.SigSuffix, Data: stmtSig},
			{Name: name, Data: stmt},
			{Name: archive.SumsSigName, Data: sumsSig},
		}, nil
	}
}
