package provenance

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// The fixed type URIs of the statement.
const (
	StatementType = "https://in-toto.io/Statement/v1"
	PredicateType = "https://slsa.dev/provenance/v1"
	// BuildType names this packager's build, described in dist/SIGNING.md;
	// its last element is the version of the build type, raised when the
	// parameters change meaning.
	BuildType = "https://github.com/catalogkit/catalogkit/blob/main/dist/SIGNING.md#build-type-v1"
	// BuilderID names the builder: catalogkit pack run by a maintainer.
	BuilderID = "https://github.com/catalogkit/catalogkit/cmd/catalogkit#pack"
	// Repository is the canonical source repository, the same for every
	// clone, so that two maintainers' provenance of one commit is the same.
	Repository = "git+https://github.com/catalogkit/catalogkit"
)

// MaxSize bounds a provenance file read; a real one is about 2 KiB.
const MaxSize = 64 << 10

// The codes of this package; signature refusals keep package sign's codes.
const (
	CodeFormat          sign.Code = "PROVENANCE_FORMAT"
	CodeType            sign.Code = "PROVENANCE_TYPE"
	CodeOtherArchive    sign.Code = "PROVENANCE_OTHER_ARCHIVE"
	CodeDigest          sign.Code = "PROVENANCE_DIGEST"
	CodeCommentMismatch sign.Code = "PROVENANCE_COMMENT_MISMATCH"
	CodeInputs          sign.Code = "PROVENANCE_INPUTS"
)

// Name returns the provenance file name of a version.
func Name(version string) string { return archive.ProvenanceName(version) }

// A Module is a Go module path and version.
type Module struct {
	Path, Version string
}

// Inputs is everything the statement says; the same Inputs give the same
// bytes.
type Inputs struct {
	ArchiveName   string // "catalogkit-0.1.0.zip"
	ArchiveSHA256 string // lower-case hex
	TreeHash      string // "h1:..."
	Version       string // "0.1.0"
	Repository    string // source repository URI, usually [Repository]
	Commit        string // full git commit hash, lower-case hex
	Clean         bool   // the checkout had no changed or untracked files
	Rules         string // the manifest format, e.g. "catalogkit-manifest/1"
	GoVersion     string // runtime.Version(), e.g. "go1.26.0"
	Compressor    Module // from the build info, see [Compressor]
}

// The statement's JSON shape. Field names are the in-toto and SLSA ones;
// Build re-encodes through maps so that keys come out sorted.
type statement struct {
	Type          string     `json:"_type"`
	Subject       []resource `json:"subject"`
	PredicateType string     `json:"predicateType"`
	Predicate     predicate  `json:"predicate"`
}

type resource struct {
	Name        string            `json:"name,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Digest      map[string]string `json:"digest,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type predicate struct {
	BuildDefinition buildDefinition `json:"buildDefinition"`
	RunDetails      runDetails      `json:"runDetails"`
}

type buildDefinition struct {
	BuildType            string             `json:"buildType"`
	ExternalParameters   externalParameters `json:"externalParameters"`
	InternalParameters   internalParameters `json:"internalParameters"`
	ResolvedDependencies []resource         `json:"resolvedDependencies"`
}

type externalParameters struct {
	Repository string `json:"repository"`
	Commit     string `json:"commit"`
	Version    string `json:"version"`
}

type internalParameters struct {
	Rules         string `json:"rules"`
	CheckoutClean bool   `json:"checkoutClean"`
}

type runDetails struct {
	Builder builder `json:"builder"`
}

type builder struct {
	ID                  string            `json:"id"`
	Version             map[string]string `json:"version"`
	BuilderDependencies []resource        `json:"builderDependencies"`
}

// Build returns the provenance statement of in: canonical JSON text (see the
// package documentation), or a [CodeInputs] refusal naming the bad input.
func Build(in Inputs) ([]byte, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	st := statement{
		Type: StatementType,
		Subject: []resource{{
			Name:        in.ArchiveName,
			Digest:      map[string]string{"sha256": in.ArchiveSHA256},
			Annotations: map[string]string{"treeHash": in.TreeHash},
		}},
		PredicateType: PredicateType,
		Predicate: predicate{
			BuildDefinition: buildDefinition{
				BuildType:          BuildType,
				ExternalParameters: externalParameters{Repository: in.Repository, Commit: in.Commit, Version: in.Version},
				InternalParameters: internalParameters{Rules: in.Rules, CheckoutClean: in.Clean},
				ResolvedDependencies: []resource{{
					URI:    in.Repository + "@" + in.Commit,
					Digest: map[string]string{"gitCommit": in.Commit},
				}},
			},
			RunDetails: runDetails{Builder: builder{
				ID:      BuilderID,
				Version: map[string]string{"catalogkit": in.Version},
				BuilderDependencies: []resource{
					{Name: "go", URI: "pkg:golang/stdlib@" + in.GoVersion},
					{Name: in.Compressor.Path, URI: "pkg:golang/" + in.Compressor.Path + "@" + in.Compressor.Version},
				},
			}},
		},
	}
	return canonical(st)
}

// canonical encodes v with every object's keys sorted: it goes through
// map[string]any, whose keys encoding/json sorts.
func canonical(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(generic); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (in Inputs) validate() error {
	bad := func(field, value, want string) error {
		return &sign.Error{Code: CodeInputs, Detail: fmt.Sprintf("%s %q: want %s", field, value, want)}
	}
	switch {
	case in.Version == "" || strings.ContainsAny(in.Version, " \t\n/"):
		return bad("version", in.Version, "a release version such as 0.1.0")
	case in.ArchiveName != archive.ArchiveName(in.Version):
		return bad("archive name", in.ArchiveName, fmt.Sprintf("%q", archive.ArchiveName(in.Version)))
	case !isHex(in.ArchiveSHA256, 64):
		return bad("archive sha256", in.ArchiveSHA256, "64 lower-case hex digits")
	case !strings.HasPrefix(in.TreeHash, "h1:"):
		return bad("tree hash", in.TreeHash, "\"h1:\" and base64")
	case !isHex(in.Commit, 40) && !isHex(in.Commit, 64):
		return bad("commit", in.Commit, "a full git commit hash (40 or 64 lower-case hex digits)")
	case !cleanURI(in.Repository):
		return bad("repository", in.Repository, "a URI with a scheme and host, and no user name, password, query or fragment")
	case in.Rules == "":
		return bad("rules", in.Rules, "the manifest format, such as catalogkit-manifest/1")
	case !strings.HasPrefix(in.GoVersion, "go"):
		return bad("Go version", in.GoVersion, "runtime.Version(), such as go1.26.0")
	case in.Compressor.Path == "" || !strings.HasPrefix(in.Compressor.Version, "v"):
		return bad("compressor", in.Compressor.Path+"@"+in.Compressor.Version, "a module path and version from the build info")
	}
	return nil
}

// cleanURI reports whether s is an absolute URI with a host and nothing a
// remote URL could leak or vary by (credentials, query, fragment).
func cleanURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != "" && u.User == nil && u.RawQuery == "" && u.Fragment == "" &&
		!strings.ContainsAny(s, " \t\n@")
}

func isHex(s string, n int) bool {
	if len(s) != n || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// Sign signs a statement that Build wrote for in with key: the signature
// file catalogkit-<version>.provenance.json.minisig, whose trusted comment
// names that file, the version, the tree hash and the commit.
func Sign(key *sign.SecretKey, statement []byte, in Inputs) ([]byte, error) {
	return sign.Sign(key, statement, in.comment())
}

func (in Inputs) comment() sign.Comment {
	return sign.Comment{File: Name(in.Version), Version: in.Version, TreeHash: in.TreeHash, Commit: in.Commit}
}
