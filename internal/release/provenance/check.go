package provenance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// Verified is what a checked provenance statement says, and the key that
// signed it.
type Verified struct {
	Inputs
	KeyID string
}

// Check verifies the signature sig of statement with keys, then that the
// statement is catalogkit's provenance of the archive archiveName whose
// SHA-256 is archiveSHA256 (lower-case hex), and returns what it says: the
// commit, the repository, whether the checkout was clean. The refusals and
// their order are in the package documentation.
func Check(statement, sig []byte, keys []sign.PublicKey, archiveName, archiveSHA256 string) (*Verified, error) {
	version, ok := strings.CutPrefix(archiveName, "catalogkit-")
	version, ok2 := strings.CutSuffix(version, ".zip")
	if !ok || !ok2 || version == "" {
		return nil, &sign.Error{Code: CodeOtherArchive, Detail: fmt.Sprintf("%q is not a catalogkit release archive name (catalogkit-<version>.zip)", archiveName)}
	}
	if len(statement) > MaxSize {
		return nil, &sign.Error{Code: CodeFormat, Detail: fmt.Sprintf("the provenance is %d bytes, more than %d", len(statement), MaxSize)}
	}
	v, err := sign.Verify(statement, sig, keys)
	if err != nil {
		return nil, err
	}
	in, err := parse(statement)
	if err != nil {
		return nil, err
	}
	switch {
	case in.ArchiveName != archiveName:
		return nil, &sign.Error{Code: CodeOtherArchive, Detail: fmt.Sprintf("the provenance is for %q, not %q", in.ArchiveName, archiveName)}
	case in.ArchiveSHA256 != archiveSHA256:
		return nil, &sign.Error{Code: CodeDigest, Detail: fmt.Sprintf("the provenance is for a %s with SHA-256 %s, but this archive's is %s: it describes other bytes", in.ArchiveName, in.ArchiveSHA256, archiveSHA256)}
	}
	if again, err := Build(*in); err != nil || !bytes.Equal(again, statement) {
		return nil, &sign.Error{Code: CodeFormat, Detail: "the provenance is not in the form catalogkit writes (fields changed, added or re-encoded)"}
	}
	if err := v.Comment.Check(Name(version), version); err != nil {
		return nil, err
	}
	if in.Commit != v.Comment.Commit || in.TreeHash != v.Comment.TreeHash {
		return nil, &sign.Error{Code: CodeCommentMismatch, Detail: fmt.Sprintf("the statement says commit %s, tree %s; its signed comment says %s, %s",
			in.Commit, in.TreeHash, v.Comment.Commit, v.Comment.TreeHash)}
	}
	return &Verified{Inputs: *in, KeyID: v.KeyID}, nil
}

// parse reads a statement strictly: no unknown fields, catalogkit's types,
// one subject. Check then requires it to be exactly what Build writes for the
// values it holds.
func parse(data []byte) (*Inputs, error) {
	bad := func(format string, args ...any) error {
		return &sign.Error{Code: CodeFormat, Detail: fmt.Sprintf(format, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st statement
	if err := dec.Decode(&st); err != nil {
		return nil, bad("the provenance is not a catalogkit provenance statement: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("the provenance has data after the statement")
	}
	bd, rd := st.Predicate.BuildDefinition, st.Predicate.RunDetails
	switch {
	case st.Type != StatementType:
		return nil, &sign.Error{Code: CodeType, Detail: fmt.Sprintf("statement type %q, want %q", st.Type, StatementType)}
	case st.PredicateType != PredicateType:
		return nil, &sign.Error{Code: CodeType, Detail: fmt.Sprintf("predicate type %q, want %q", st.PredicateType, PredicateType)}
	case bd.BuildType != BuildType:
		return nil, &sign.Error{Code: CodeType, Detail: fmt.Sprintf("build type %q, want %q", bd.BuildType, BuildType)}
	case len(st.Subject) != 1:
		return nil, bad("the statement has %d subjects, want exactly the archive", len(st.Subject))
	case len(rd.Builder.BuilderDependencies) != 2:
		return nil, bad("the builder has %d dependencies, want the Go toolchain and the compressor", len(rd.Builder.BuilderDependencies))
	}
	goDep, zDep := rd.Builder.BuilderDependencies[0], rd.Builder.BuilderDependencies[1]
	zVersion := zDep.URI[strings.LastIndexByte(zDep.URI, '@')+1:]
	in := &Inputs{
		ArchiveName:   st.Subject[0].Name,
		ArchiveSHA256: st.Subject[0].Digest["sha256"],
		TreeHash:      st.Subject[0].Annotations["treeHash"],
		Version:       bd.ExternalParameters.Version,
		Repository:    bd.ExternalParameters.Repository,
		Commit:        bd.ExternalParameters.Commit,
		Clean:         bd.InternalParameters.CheckoutClean,
		Rules:         bd.InternalParameters.Rules,
		GoVersion:     strings.TrimPrefix(goDep.URI, "pkg:golang/stdlib@"),
		Compressor:    Module{Path: zDep.Name, Version: zVersion},
	}
	return in, nil
}
