package provenance

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
	"github.com/catalogkit/catalogkit/internal/testlib/schemacheck"
	"github.com/catalogkit/catalogkit/internal/testlib/signtest"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite testdata/provenance.golden.json")

var testInputs = Inputs{
	ArchiveName:   "catalogkit-0.1.0.zip",
	ArchiveSHA256: strings.Repeat("5e", 32),
	TreeHash:      "h1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=",
	Version:       "0.1.0",
	Repository:    Repository,
	Commit:        strings.Repeat("c0", 20),
	Clean:         true,
	Rules:         "catalogkit-manifest/1",
	GoVersion:     "go1.26.0",
	Compressor:    Module{Path: "github.com/klauspost/compress", Version: "v1.20.4"},
}

// TestBuildGolden: the statement is exactly the golden file, twice over
// (the same inputs give the same bytes), and passes the schema.
func TestBuildGolden(t *testing.T) {
	got, err := Build(testInputs)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Build(testInputs)
	if err != nil || !bytes.Equal(got, again) {
		t.Fatalf("two builds of the same inputs differ (err %v)", err)
	}
	golden := filepath.Join("testdata", "provenance.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("Build (-want +got); run go test -update if the change is meant\n%s", diff)
	}
	validateSchema(t, got)
}

// statementSchema is testdata/statement.schema.json compiled.
func statementSchema(t *testing.T) *jsonschema.Schema {
	return schemacheck.Load(t, "", filepath.Join("testdata", "statement.schema.json"))[0]
}

func validateSchema(t *testing.T, statement []byte) {
	t.Helper()
	sch := statementSchema(t)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(statement))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the statement does not match the in-toto v1 / SLSA v1 schema: %v", err)
	}
}

// TestSchemaRejects shows the schema check can fail.
func TestSchemaRejects(t *testing.T) {
	good, err := Build(testInputs)
	if err != nil {
		t.Fatal(err)
	}
	schemacheck.Rejects(t, statementSchema(t), string(good), []schemacheck.Edit{
		{Old: StatementType, New: "https://in-toto.io/Statement/v0.1", Reason: "the v0.1 statement type"},
		{Old: testInputs.ArchiveSHA256, New: "abc", Reason: "a sha256 that is not 64 hex digits"},
		{Old: `"buildType"`, New: `"buildKind"`, Reason: "buildType is required"},
	})
}

func TestBuildKeysSorted(t *testing.T) {
	got, err := Build(testInputs)
	if err != nil {
		t.Fatal(err)
	}
	// Walk the JSON tokens: within each object, keys ascend.
	dec := json.NewDecoder(bytes.NewReader(got))
	type frame struct {
		object bool
		last   string
		key    bool // next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{object: v == '{', key: v == '{'})
				continue
			case '}', ']':
				stack = stack[:len(stack)-1]
				continue
			}
		case string:
			if top != nil && top.object && top.key {
				if v <= top.last && top.last != "" {
					t.Errorf("key %q after %q: keys are not sorted", v, top.last)
				}
				top.last, top.key = v, false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
	if !bytes.HasSuffix(got, []byte("}\n")) || bytes.Contains(got, []byte(`\u003c`)) {
		t.Errorf("want one final newline and no HTML escaping")
	}
}

func TestBuildInputs(t *testing.T) {
	tests := []struct {
		name, reason string
		edit         func(*Inputs)
	}{
		{"name-version", "the archive name must be the version's", func(in *Inputs) { in.ArchiveName = "catalogkit-0.2.0.zip" }},
		{"short-sha", "a truncated digest", func(in *Inputs) { in.ArchiveSHA256 = in.ArchiveSHA256[:10] }},
		{"upper-sha", "hex is lower-case", func(in *Inputs) { in.ArchiveSHA256 = strings.ToUpper(in.ArchiveSHA256) }},
		{"short-commit", "an abbreviated commit", func(in *Inputs) { in.Commit = in.Commit[:7] }},
		{"credentials", "a remote URL with a token must never reach a published file", func(in *Inputs) { in.Repository = "https://user:ghp_secret@github.com/catalogkit/catalogkit" }},
		{"scp-remote", "an scp-like remote is not a URI", func(in *Inputs) { in.Repository = "git@github.com:catalogkit/catalogkit.git" }},
		{"no-compressor", "the compressor version is required", func(in *Inputs) { in.Compressor.Version = "" }},
		{"no-rules", "the rules version is required", func(in *Inputs) { in.Rules = "" }},
		{"tree-hash", "a tree hash without h1:", func(in *Inputs) { in.TreeHash = "abc" }},
		{"go-version", "runtime.Version() starts with go", func(in *Inputs) { in.GoVersion = "1.26" }},
	}
	for _, tt := range tests {
		in := testInputs
		tt.edit(&in)
		if _, err := Build(in); sign.CodeOf(err) != CodeInputs {
			t.Errorf("%s: %s: err %v, want code %s", tt.name, tt.reason, err, CodeInputs)
		}
	}
}

func newKey(t *testing.T) (*sign.SecretKey, sign.PublicKey) {
	_, sk, pk := signtest.Key(t, "k")
	return sk, pk
}

func TestCheck(t *testing.T) {
	sk, pk := newKey(t)
	_, otherPK := newKey(t)
	statement, err := Build(testInputs)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Sign(sk, statement, testInputs)
	if err != nil {
		t.Fatal(err)
	}
	// signed builds a statement from edited inputs and signs it with a
	// comment from (possibly other) inputs.
	signed := func(stmt []byte, commentOf Inputs) ([]byte, []byte) {
		s, err := sign.Sign(sk, stmt, commentOf.comment())
		if err != nil {
			t.Fatal(err)
		}
		return stmt, s
	}
	build := func(edit func(*Inputs)) []byte {
		in := testInputs
		edit(&in)
		b, err := Build(in)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	v020 := testInputs
	v020.Version, v020.ArchiveName = "0.2.0", "catalogkit-0.2.0.zip"
	otherCommit := testInputs
	otherCommit.Commit = strings.Repeat("d1", 20)
	sumsComment := testInputs.comment()
	sumsComment.File = "SHA256SUMS"
	sumsSig, _ := sign.Sign(sk, statement, sumsComment)
	reindented, reSig := signed(bytes.ReplaceAll(statement, []byte("  "), []byte("\t")), testInputs)
	unknownField, ufSig := signed(bytes.Replace(statement, []byte(`"_type"`), []byte(`"extra": 1,
  "_type"`), 1), testInputs)
	otherType, otSig := signed(bytes.Replace(statement, []byte(PredicateType), []byte("https://slsa.dev/provenance/v0.2"), 1), testInputs)
	mismatch, mmSig := signed(statement, otherCommit)
	otherArchive, oaSig := signed(build(func(in *Inputs) { *in = v020 }), v020)
	_, lieSig := signed(statement, v020)
	if _, err := Check(otherArchive, oaSig, []sign.PublicKey{pk}, v020.ArchiveName, v020.ArchiveSHA256); err != nil {
		t.Errorf("the 0.2.0 statement checked for its own archive: %v", err)
	}
	huge := append(bytes.Repeat([]byte(" "), MaxSize), statement...)

	tests := []struct {
		name, reason   string
		statement, sig []byte
		keys           []sign.PublicKey
		archive, sha   string
		wantCode       sign.Code
	}{
		{name: "ok", reason: "the statement and signature pack writes", statement: statement, sig: sig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256},
		{name: "wrong-key", reason: "signed by a key the user does not trust", statement: statement, sig: sig, keys: []sign.PublicKey{otherPK}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: sign.CodeUnknownKey},
		{name: "edited", reason: "one byte of the signed statement changed", statement: bytes.Replace(statement, []byte("true"), []byte("fals"), 1), sig: sig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: sign.CodeBadSignature},
		{name: "sums-signature", reason: "a signature whose comment is for SHA256SUMS", statement: statement, sig: sumsSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: sign.CodeWrongFile},
		{name: "other-version", reason: "the 0.1.0 provenance given for a 0.2.0 archive", statement: statement, sig: sig, keys: []sign.PublicKey{pk}, archive: "catalogkit-0.2.0.zip", sha: testInputs.ArchiveSHA256, wantCode: CodeOtherArchive},
		{name: "other-archive", reason: "a valid statement for 0.2.0 given for the 0.1.0 archive", statement: otherArchive, sig: oaSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: CodeOtherArchive},
		{name: "lying-comment", reason: "a 0.1.0 statement whose signed comment says 0.2.0", statement: statement, sig: lieSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: sign.CodeWrongFile},
		{name: "other-digest", reason: "the statement for this name but other bytes", statement: statement, sig: sig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: strings.Repeat("00", 32), wantCode: CodeDigest},
		{name: "comment-mismatch", reason: "the statement's commit differs from its signed comment's", statement: mismatch, sig: mmSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: CodeCommentMismatch},
		{name: "reindented", reason: "signed, but not the canonical form", statement: reindented, sig: reSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: CodeFormat},
		{name: "unknown-field", reason: "signed, with a field catalogkit does not write", statement: unknownField, sig: ufSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: CodeFormat},
		{name: "other-predicate", reason: "signed, SLSA v0.2 provenance", statement: otherType, sig: otSig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: CodeType},
		{name: "too-large", reason: "bounded before anything is parsed", statement: huge, sig: sig, keys: []sign.PublicKey{pk}, archive: testInputs.ArchiveName, sha: testInputs.ArchiveSHA256, wantCode: CodeFormat},
		{name: "not-an-archive-name", reason: "the archive argument must be a release name", statement: statement, sig: sig, keys: []sign.PublicKey{pk}, archive: "evil.zip", sha: testInputs.ArchiveSHA256, wantCode: CodeOtherArchive},
	}
	for _, tt := range tests {
		got, err := Check(tt.statement, tt.sig, tt.keys, tt.archive, tt.sha)
		want := tt.wantCode
		if code := sign.CodeOf(err); code != want {
			t.Errorf("%s: %s: code %q, want %q (err: %v)", tt.name, tt.reason, code, want, err)
			continue
		}
		if err == nil {
			if diff := cmp.Diff(&Verified{Inputs: testInputs, KeyID: pk.ID()}, got); diff != "" {
				t.Errorf("%s: (-want +got)\n%s", tt.name, diff)
			}
		}
	}
}

// TestCheckOtherArchiveSameVersion: a statement for another archive file of
// the same version (a renamed file), signed by the key, is refused by name.
func TestCheckOtherArchiveSameVersion(t *testing.T) {
	sk, pk := newKey(t)
	statement, err := Build(testInputs)
	if err != nil {
		t.Fatal(err)
	}
	// Hand-edit the subject's name and sign that: Build refuses such inputs,
	// a hostile signer need not.
	edited := bytes.Replace(statement, []byte(`"name": "catalogkit-0.1.0.zip"`), []byte(`"name": "catalogkit-0.1.0-evil.zip"`), 1)
	sig, err := sign.Sign(sk, edited, testInputs.comment())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Check(edited, sig, []sign.PublicKey{pk}, testInputs.ArchiveName, testInputs.ArchiveSHA256); sign.CodeOf(err) != CodeOtherArchive {
		t.Errorf("err %v, want %s", err, CodeOtherArchive)
	}
}

func TestCompressor(t *testing.T) {
	const path = "github.com/klauspost/compress"
	tests := []struct {
		name, reason string
		bi           *debug.BuildInfo
		want         Module
		wantCode     sign.Code
	}{
		{name: "dep", reason: "the usual build", bi: &debug.BuildInfo{Deps: []*debug.Module{{Path: "x/y", Version: "v1.0.0"}, {Path: path, Version: "v1.20.4"}}}, want: Module{path, "v1.20.4"}},
		{name: "replaced", reason: "a replace directive to a fork and version", bi: &debug.BuildInfo{Deps: []*debug.Module{{Path: path, Version: "v1.20.4", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.20.5"}}}}, want: Module{"example.com/fork", "v1.20.5"}},
		{name: "local-replace", reason: "a replace to a directory has no version", bi: &debug.BuildInfo{Deps: []*debug.Module{{Path: path, Version: "v1.20.4", Replace: &debug.Module{Path: "../compress"}}}}, wantCode: CodeInputs},
		{name: "missing", reason: "not linked in", bi: &debug.BuildInfo{}, wantCode: CodeInputs},
		{name: "no-info", reason: "a binary without build info", wantCode: CodeInputs},
	}
	for _, tt := range tests {
		got, err := Compressor(tt.bi, path)
		if code := sign.CodeOf(err); code != tt.wantCode || got != tt.want {
			t.Errorf("%s: %s: got %v, code %q; want %v, code %q", tt.name, tt.reason, got, code, tt.want, tt.wantCode)
		}
	}
}

func TestReadCheckout(t *testing.T) {
	gittest.Need(t)
	dir := t.TempDir()
	run := func(args ...string) { gittest.Run(t, dir, args...) }
	if _, err := ReadCheckout(dir); err == nil {
		t.Errorf("ReadCheckout of a directory that is not a checkout: no error")
	}
	run("init", "-q")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	run("add", "a.txt")
	run("commit", "-q", "-m", "one")
	got, err := ReadCheckout(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Commit) != 40 && len(got.Commit) != 64 || !got.Clean {
		t.Errorf("after a commit: %+v, want a full hash and clean", got)
	}
	os.WriteFile(filepath.Join(dir, "scratch.txt"), []byte("x\n"), 0o644)
	if got, _ := ReadCheckout(dir); got.Clean {
		t.Errorf("with an untracked file: clean")
	}
	os.Remove(filepath.Join(dir, "scratch.txt"))
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("b\n"), 0o644)
	if got, _ := ReadCheckout(dir); got.Clean {
		t.Errorf("with a changed file: clean")
	}
}
