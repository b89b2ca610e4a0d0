package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/provenance"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/testlib/signtest"
)

// testKey makes an unencrypted key pair (no scrypt: tests stay fast).
func testKey(t *testing.T) (*sign.SecretKey, sign.PublicKey) {
	_, sk, pk := signtest.Key(t, "test")
	return sk, pk
}

// testInputs are provenance inputs for a release packed from a made-up
// commit.
func testInputs() provenance.Inputs {
	return provenance.Inputs{
		Repository: provenance.Repository,
		Commit:     strings.Repeat("c0ffee", 6) + "0123",
		Clean:      true,
		Rules:      archive.ManifestFormat,
		GoVersion:  runtime.Version(),
		Compressor: provenance.Module{Path: archive.CompressModule, Version: archive.CompressVersion},
	}
}

// signedRelease packs files into a new folder with WriteRelease, signed by
// key, and returns the folder.
func signedRelease(t *testing.T, files []tfile, key *sign.SecretKey) string {
	t.Helper()
	return signedReleaseWith(t, files, key, testInputs())
}

// signedReleaseWith is signedRelease with the provenance inputs in.
func signedReleaseWith(t *testing.T, files []tfile, key *sign.SecretKey, in provenance.Inputs) string {
	t.Helper()
	tree := t.TempDir()
	if err := writeTree(tree, files); err != nil {
		t.Fatal(err)
	}
	dist := t.TempDir()
	if _, err := archive.WriteRelease(context.Background(), tree, dist, archive.Options{Sign: provenance.Signer(key, in)}); err != nil {
		t.Fatal(err)
	}
	return dist
}

// copyDir copies the regular files of src into a new folder.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if data, err := os.ReadFile(filepath.Join(src, e.Name())); err == nil {
			os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644)
		}
	}
	return dst
}

// TestSignedSums checks the hash step with --key on a signed release and on every
// kind of bad signature, key or provenance: each is refused at the hash step with
// its stable code, and nothing is extracted or run.
func TestSignedSums(t *testing.T) {
	key, pub := testKey(t)
	otherKey, otherPub := testKey(t)
	dist := signedRelease(t, goodFiles(), key)
	zip := archive.ArchiveName(testVersion)
	prov := archive.ProvenanceName(testVersion)
	// Another archive of the same version, signed by the same key.
	otherFiles := goodFiles()
	otherFiles[1].data = []byte("other bytes\n") // README.md
	otherDist := signedRelease(t, otherFiles, key)

	read := func(t *testing.T, p string) []byte {
		t.Helper()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	write := func(t *testing.T, p string, data []byte) {
		t.Helper()
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resign := func(c sign.Comment) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			sig, err := sign.Sign(key, read(t, filepath.Join(dir, archive.SumsName)), c)
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, archive.SumsSigName), sig)
		}
	}
	// signed returns the trusted comment of the signature file sig in dir.
	signed := func(t *testing.T, dir, file string) sign.Comment {
		t.Helper()
		v, err := sign.Verify(read(t, filepath.Join(dir, file)), read(t, filepath.Join(dir, file+archive.SigSuffix)), []sign.PublicKey{pub})
		if err != nil {
			t.Fatal(err)
		}
		return v.Comment
	}
	resignWith := func(k *sign.SecretKey, file string, edit func(*sign.Comment)) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			c := signed(t, dir, file)
			edit(&c)
			sig, err := sign.Sign(k, read(t, filepath.Join(dir, file)), c)
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, file+archive.SigSuffix), sig)
		}
	}
	noProvenance := func(t *testing.T, dir string) {
		os.Remove(filepath.Join(dir, prov))
		os.Remove(filepath.Join(dir, prov+archive.SigSuffix))
	}
	good := sign.Comment{File: archive.SumsName, Version: testVersion, TreeHash: "h1:" + base64.StdEncoding.EncodeToString(make([]byte, 32)), Commit: testInputs().Commit}
	lie := good
	lie.Version = "9.9.9"
	otherFile := good
	otherFile.File = prov

	tests := []struct {
		name   string
		reason string
		mutate func(t *testing.T, dir string)
		keys   []sign.PublicKey
		code   archive.Code // "" when the hash step must pass
		step   string       // the step that fails with code: the hash step unless set
		// wantSummary is more that the hash step's summary says when it passes.
		wantSummary string
		rename      string // the archive's name in the folder, if not its own
	}{
		{name: "signed", reason: "the release as packed", keys: []sign.PublicKey{pub}},
		{name: "one-of-two-keys", reason: "--key is repeatable: one matching key is enough", keys: []sign.PublicKey{otherPub, pub}},
		{name: "wrong-key", reason: "signed by a key the user did not give", keys: []sign.PublicKey{otherPub}, code: sign.CodeUnknownKey},
		{
			name: "attacker-sums", reason: "an archive with other bytes and a SHA256SUMS naming them, beside the real signature",
			mutate: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, zip), read(t, filepath.Join(otherDist, zip)))
				write(t, filepath.Join(dir, archive.SumsName), read(t, filepath.Join(otherDist, archive.SumsName)))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeBadSignature,
		},
		{
			name: "signature-of-another-file", reason: "the provenance statement's signature renamed to SHA256SUMS.minisig",
			mutate: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, archive.SumsSigName), read(t, filepath.Join(dir, prov+archive.SigSuffix)))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeBadSignature,
		},
		{
			name: "truncated", reason: "the signature file without its last line",
			mutate: func(t *testing.T, dir string) {
				p := filepath.Join(dir, archive.SumsSigName)
				lines := strings.SplitAfter(string(read(t, p)), "\n")
				write(t, p, []byte(strings.Join(lines[:3], "")))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeSigFormat,
		},
		{
			name: "crlf", reason: "the signature file re-encoded with CRLF line ends",
			mutate: func(t *testing.T, dir string) {
				p := filepath.Join(dir, archive.SumsSigName)
				write(t, p, bytes.ReplaceAll(read(t, p), []byte("\n"), []byte("\r\n")))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeSigFormat,
		},
		{
			name: "other-algorithm", reason: "a signature line whose algorithm is neither ED nor Ed",
			mutate: func(t *testing.T, dir string) {
				p := filepath.Join(dir, archive.SumsSigName)
				lines := strings.Split(string(read(t, p)), "\n")
				raw, _ := base64.StdEncoding.DecodeString(lines[1])
				copy(raw, "XY")
				lines[1] = base64.StdEncoding.EncodeToString(raw)
				write(t, p, []byte(strings.Join(lines, "\n")))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeSigAlgorithm,
		},
		{
			name: "forged-comment", reason: "the trusted comment edited after signing",
			mutate: func(t *testing.T, dir string) {
				p := filepath.Join(dir, archive.SumsSigName)
				write(t, p, bytes.Replace(read(t, p), []byte("version:"+testVersion), []byte("version:9.9.9"), 1))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeCommentForged,
		},
		{name: "comment-lies-about-version", reason: "a real signature whose comment names another version", mutate: resign(lie), keys: []sign.PublicKey{pub}, code: sign.CodeVersionMismatch},
		{name: "comment-names-another-file", reason: "a real signature of these bytes made for another file", mutate: resign(otherFile), keys: []sign.PublicKey{pub}, code: sign.CodeWrongFile},
		{
			name: "no-signature", reason: "--key given, no SHA256SUMS.minisig",
			mutate: func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, archive.SumsSigName)) },
			keys:   []sign.PublicKey{pub}, code: CodeNoSignature,
		},
		{
			name: "provenance-of-another-archive", reason: "a signed provenance statement of another archive of the same version",
			mutate: func(t *testing.T, dir string) {
				for _, n := range []string{prov, prov + archive.SigSuffix} {
					write(t, filepath.Join(dir, n), read(t, filepath.Join(otherDist, n)))
				}
			},
			keys: []sign.PublicKey{pub}, code: provenance.CodeDigest,
		},
		{
			name: "provenance-unsigned", reason: "a provenance statement without its signature",
			mutate: func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, prov+archive.SigSuffix)) },
			keys:   []sign.PublicKey{pub}, code: CodeNoSignature,
		},
		{
			name: "provenance-by-another-key", reason: "the provenance signed by another of the given keys than SHA256SUMS",
			mutate: resignWith(otherKey, prov, func(*sign.Comment) {}),
			keys:   []sign.PublicKey{pub, otherPub}, code: CodeProvenanceKey,
		},
		{
			name: "sums-comment-names-another-commit", reason: "SHA256SUMS signed with another commit than the provenance names",
			mutate: resignWith(key, archive.SumsName, func(c *sign.Comment) { c.Commit = strings.Repeat("d", 40) }),
			keys:   []sign.PublicKey{pub}, code: provenance.CodeCommentMismatch,
		},
		{
			name: "sums-comment-names-another-tree", reason: "SHA256SUMS signed with another tree hash than the archive's files have, with no provenance to compare",
			mutate: func(t *testing.T, dir string) {
				noProvenance(t, dir)
				resignWith(key, archive.SumsName, func(c *sign.Comment) { c.TreeHash = good.TreeHash })(t, dir)
			},
			keys: []sign.PublicKey{pub}, code: CodeCommentTree, step: StepManifest,
		},
		{
			name: "renamed-archive", reason: "the archive under another name than catalogkit-<version>.zip",
			mutate: func(t *testing.T, dir string) {
				c := signed(t, dir, archive.SumsName)
				os.Rename(filepath.Join(dir, zip), filepath.Join(dir, "release.zip"))
				p := filepath.Join(dir, archive.SumsName)
				sums := bytes.Replace(read(t, p), []byte(zip), []byte("release.zip"), 1)
				sig, err := sign.Sign(key, sums, c)
				if err != nil {
					t.Fatal(err)
				}
				write(t, p, sums)
				write(t, p+archive.SigSuffix, sig)
			},
			rename: "release.zip", keys: []sign.PublicKey{pub}, code: sign.CodeVersionMismatch,
		},
		{
			name: "signature-too-large", reason: "a signature file far larger than any minisign writes",
			mutate: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, archive.SumsSigName), bytes.Repeat([]byte("A"), 5000))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeSigFormat,
		},
		{
			name: "provenance-unclean", reason: "a provenance saying the checkout was not clean is reported as such",
			mutate: func(t *testing.T, dir string) {
				in := testInputs()
				in.Clean = false
				unclean := signedReleaseWith(t, goodFiles(), key, in)
				for _, n := range []string{prov, prov + archive.SigSuffix} {
					write(t, filepath.Join(dir, n), read(t, filepath.Join(unclean, n)))
				}
			},
			keys: []sign.PublicKey{pub}, wantSummary: "packed from a checkout that was not clean",
		},
		{
			name: "provenance-edited", reason: "the statement's commit changed after signing",
			mutate: func(t *testing.T, dir string) {
				p := filepath.Join(dir, prov)
				write(t, p, bytes.Replace(read(t, p), []byte(testInputs().Commit), []byte(strings.Repeat("d", 40)), 1))
			},
			keys: []sign.PublicKey{pub}, code: sign.CodeBadSignature,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyDir(t, dist)
			if tt.mutate != nil {
				tt.mutate(t, dir)
			}
			tmp := t.TempDir()
			name := zip
			if tt.rename != "" {
				name = tt.rename
			}
			rep := Verify(context.Background(), filepath.Join(dir, name), Options{
				SumsFile: filepath.Join(dir, archive.SumsName), Keys: tt.keys, TempDir: tmp,
				// A signed release would re-run its tests; the gate is
				// checked in TestTrustGate.
				NoExec: tt.code == "",
			})
			hash := rep.Step(StepHash)
			if tt.code == "" {
				if !rep.OK() {
					t.Fatalf("%s: failed:\n%s", tt.reason, text(rep))
				}
				if rep.SignedBy != pub.ID() || rep.Commit != testInputs().Commit {
					t.Errorf("report signed by %q, commit %q; want %q, %q", rep.SignedBy, rep.Commit, pub.ID(), testInputs().Commit)
				}
				for _, want := range []string{"signed by key " + pub.ID(), "provenance names commit " + testInputs().Commit, tt.wantSummary} {
					if !strings.Contains(hash.Summary, want) {
						t.Errorf("the hash step summary %q lacks %q", hash.Summary, want)
					}
				}
				return
			}
			step := StepHash
			if tt.step != "" {
				step = tt.step
			}
			failed := rep.FailedStep()
			if failed == nil || stepCode(failed) != step+"/"+string(tt.code) {
				t.Fatalf("%s: %q, want step %s failed with %s:\n%s", tt.reason, stepCode(failed), step, tt.code, text(rep))
			}
			later := false
			for _, s := range rep.Steps {
				if later && s.Status != NotRun {
					t.Errorf("step %s: %s, want not run after a refused signature", s.Step, s.Status)
				}
				later = later || s == failed
			}
			if l := listing(t, tmp); len(l) != 1 {
				t.Errorf("something was written: %q", l)
			}
		})
	}
}

// TestTrustGate is the attack of an archive whose test code reads an
// environment variable and writes it to disk from init(), when it runs.
// Its code runs only on an identity the user gave (a signature by a --key,
// a --sha256, or an explicit --exec), and then never sees the caller's
// variables: the re-run's environment is an allow-list.
func TestTrustGate(t *testing.T) {
	const secret = "hunter2-not-for-the-archive"
	t.Setenv("CATALOGKIT_ATTACK_SECRET", secret)
	loot := filepath.Join(t.TempDir(), "loot")
	attack := tfile{path: "conformance/attack_test.go", data: fmt.Appendf(nil, `package conformance

import "os"

func init() {
	f, _ := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	f.WriteString("secret=" + os.Getenv("CATALOGKIT_ATTACK_SECRET") + "\n")
	f.Close()
}
`, loot)}
	key, pub := testKey(t)
	_, otherPub := testKey(t)
	dist := signedRelease(t, fakeRelease(21, nil, attack), key)
	zip := filepath.Join(dist, archive.ArchiveName(testVersion))
	data, err := os.ReadFile(zip)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	unsigned := copyDir(t, dist)
	os.Remove(filepath.Join(unsigned, archive.SumsSigName))

	tests := []struct {
		name   string
		reason string
		opts   Options
		ran    bool // the tests step runs (and passes)
		hash   Status
	}{
		{name: "unsigned-sums", reason: "an unsigned SHA256SUMS is integrity, not identity", opts: Options{SumsFile: filepath.Join(unsigned, archive.SumsName)}, hash: Passed},
		{name: "unsigned-sums-exec", reason: "--exec runs it anyway, without the caller's variables", opts: Options{SumsFile: filepath.Join(unsigned, archive.SumsName), Exec: true}, ran: true, hash: Passed},
		{name: "sha256", reason: "a --sha256 the user typed is identity", opts: Options{SHA256: hex.EncodeToString(sum[:])}, ran: true, hash: Passed},
		{name: "signed", reason: "a signature by a --key is identity", opts: Options{SumsFile: filepath.Join(dist, archive.SumsName), Keys: []sign.PublicKey{pub}}, ran: true, hash: Passed},
		{name: "signed-by-another-key", reason: "a signature by a key the user did not give stops at the hash step", opts: Options{SumsFile: filepath.Join(dist, archive.SumsName), Keys: []sign.PublicKey{otherPub}}, hash: Failed},
	}
	plan := ReleaseTests()
	plan.GOCACHE = userGOCACHE(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(loot)
			opts := tt.opts
			opts.Tests, opts.TempDir = plan, t.TempDir()
			// Unsandboxed, so that the loot can be written where the test
			// reads it: the allow-list is checked on its own here
			// (TestSandboxHostile checks the sandbox).
			opts.Sandbox = SandboxOff
			rep := Verify(context.Background(), zip, opts)
			t.Logf("report:\n%s", text(rep))
			if got := rep.Step(StepHash).Status; got != tt.hash {
				t.Fatalf("%s: the hash step %s, want %s", tt.reason, got, tt.hash)
			}
			s := rep.Step(StepTests)
			got, err := os.ReadFile(loot)
			switch {
			case tt.ran && (s.Status != Passed || !rep.OK()):
				t.Errorf("%s: tests %s, want passed", tt.reason, s.Status)
			case tt.ran && string(got) != "secret=\n":
				t.Errorf("%s: the archive's init() wrote %q (%v), want it to have run without the caller's variable", tt.reason, got, err)
			case !tt.ran && (s.Status != NotRun || err == nil):
				t.Errorf("%s: tests %s and the archive's init() wrote %q; want not run and nothing written", tt.reason, s.Status, got)
			case tt.name == "unsigned-sums" && (!rep.OK() || s.Requested || !strings.Contains(s.Summary, "--key PUBFILE")):
				t.Errorf("%s: ok %v, the tests step %+v; want ok with the tests step not requested, saying what to give", tt.reason, rep.OK(), s)
			}
			if strings.Contains(string(got), secret) {
				t.Errorf("the caller's variable reached the archive's code: %q", got)
			}
		})
	}
}
