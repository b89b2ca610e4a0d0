package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/provenance"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/release/zipdiff"
	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
)

// commitFiles writes files into the git checkout dir (made if it is new),
// commits them all and returns the commit's hash.
func commitFiles(t *testing.T, dir string, files []tfile) string {
	t.Helper()
	if err := writeTree(dir, files); err != nil {
		t.Fatal(err)
	}
	return gittest.Commit(t, dir, "commit")
}

// releaseOf packs the checkout dir as catalogkit pack does, into a sandbox.
func releaseOf(t *testing.T, dir string) *sandbox {
	t.Helper()
	out := t.TempDir()
	res, err := archive.WriteRelease(context.Background(), dir, out, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, res.Name))
	if err != nil {
		t.Fatal(err)
	}
	return newSandbox(t, data)
}

// TestRebuild checks --rebuild: a commit that packs to the archive's very
// bytes passes the hash step with no other expected hash; another commit, a
// revision or folder that is not there, and a commit the packager refuses
// each fail the hash step with their code, with nothing extracted; a mismatch
// comes with zipdiff's explanation.
func TestRebuild(t *testing.T) {
	gittest.Need(t)
	src := t.TempDir()
	first := commitFiles(t, src, goodFiles())
	sb := releaseOf(t, src)
	data, _ := os.ReadFile(sb.archive)
	second := commitFiles(t, src, []tfile{{path: "README.md", data: []byte("changed\n")}})
	// A commit with a symlink: a tree the packager refuses.
	refused := t.TempDir()
	commitFiles(t, refused, goodFiles())
	if err := os.Symlink("../README.md", filepath.Join(refused, "conformance", "link.md")); err != nil {
		t.Fatal(err)
	}
	commitFiles(t, refused, nil)

	tests := []struct {
		name, reason string
		src          RebuildSource
		wantCode     archive.Code // "" means the hash step passes
		wantCommit   string
	}{
		{name: "first", reason: "the commit the archive was packed from", src: RebuildSource{Dir: src, Rev: first}, wantCommit: first},
		{name: "branch~1", reason: "any revision git resolves", src: RebuildSource{Dir: src, Rev: "main~1"}, wantCommit: first},
		{name: "head", reason: "HEAD has another README.md", src: RebuildSource{Dir: src}, wantCode: CodeRebuildMismatch, wantCommit: second},
		{name: "no-such-rev", reason: "a revision that is not in the checkout", src: RebuildSource{Dir: src, Rev: "v9.9.9"}, wantCode: archive.CodeRebuildSource},
		{name: "option-rev", reason: "a revision that looks like an option is a revision", src: RebuildSource{Dir: src, Rev: "--output=/tmp/x"}, wantCode: archive.CodeRebuildSource},
		{name: "not-git", reason: "a folder that is not a git checkout", src: RebuildSource{Dir: t.TempDir()}, wantCode: archive.CodeRebuildSource},
		{name: "refused", reason: "a commit with a symlink cannot be packed", src: RebuildSource{Dir: refused}, wantCode: CodeRebuildRefused},
	}
	before := snapshot(t, src)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			rep := Verify(context.Background(), sb.archive, Options{Rebuild: &src, TempDir: sb.tmp, NoExec: true})
			t.Logf("report:\n%s", text(rep))
			hash := rep.Step(StepHash)
			switch {
			case tt.wantCode == "" && (!rep.OK() || hash.Status != Passed || !hash.Requested):
				t.Fatalf("%s: the hash step %s [%s], want passed", tt.reason, hash.Status, hash.Code())
			case tt.wantCode != "" && hash.Code() != tt.wantCode:
				t.Fatalf("%s: the hash step %s [%s], want [%s]", tt.reason, hash.Status, hash.Code(), tt.wantCode)
			}
			if tt.wantCode != "" {
				for _, s := range rep.Steps[1:5] {
					if s.Status != NotRun {
						t.Errorf("step %s %s after a failed rebuild, want not run", s.Step, s.Status)
					}
				}
			}
			if tt.wantCommit != "" && (rep.Rebuild == nil || rep.Rebuild.Commit != tt.wantCommit) {
				t.Errorf("rebuilt %+v, want commit %s", rep.Rebuild, tt.wantCommit)
			}
			if tt.wantCode == CodeRebuildMismatch {
				d := rep.Rebuild.Diff
				if d == nil || !hasDiff(d, zipdiff.KindContent, testRoot+"/README.md") {
					t.Errorf("a mismatch without zipdiff's content difference for README.md: %+v", d)
				}
				if !strings.Contains(text(rep), "-catalogkit is a small, exact core.") {
					t.Errorf("the text report does not show the line diff")
				}
			}
			sb.check(t, data)
		})
	}
	if after := snapshot(t, src); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("the rebuilds changed the checkout they rebuilt from:\nbefore %q\n after %q", before, after)
	}
}

// snapshot lists every path under dir, its .git included, with its size,
// mode and modification time: what a rebuild must leave as it was.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %v %d %d", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hasDiff(r *zipdiff.Report, kind zipdiff.Kind, entry string) bool {
	for _, d := range r.Differences {
		if d.Kind == kind && d.Entry == entry {
			return true
		}
	}
	return false
}

// TestRebuildIsolated checks that the rebuild's checkout ignores this
// machine's git configuration and the variables that point git elsewhere:
// a user's core.autocrlf would otherwise turn every LF into CR LF, and
// GIT_DIR (set in git hooks) would make git answer about another
// repository.
func TestRebuildIsolated(t *testing.T) {
	gittest.Need(t)
	src := t.TempDir()
	commitFiles(t, src, goodFiles())
	sb := releaseOf(t, src)
	cfgDir := t.TempDir()
	cfg, attrs, ran := filepath.Join(cfgDir, "gitconfig"), filepath.Join(cfgDir, "attributes"), filepath.Join(cfgDir, "fsmonitor-ran")
	if err := os.WriteFile(attrs, []byte("* filter=evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// autocrlf would turn every LF into CR LF; the clean filter would make
	// every file of the fresh clone look changed; fsmonitor would run a
	// command of the user's configuration.
	config := "[core]\n\tautocrlf = true\n\teol = crlf\n\tattributesFile = " + attrs +
		"\n\tfsmonitor = touch " + ran + "; exit 1\n[filter \"evil\"]\n\tclean = tr a b\n"
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	commitFiles(t, other, []tfile{{path: "VERSION", data: []byte("9.9.9\n")}})
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	rep := Verify(context.Background(), sb.archive, Options{Rebuild: &RebuildSource{Dir: src}, TempDir: sb.tmp, NoExec: true})
	if !rep.OK() {
		t.Fatalf("the machine's git settings changed the rebuild:\n%s", text(rep))
	}
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("the user's core.fsmonitor command ran during the rebuild")
	}
}

// TestRebuildSignedCommit checks that without @REV the rebuild is of the
// commit the signed trusted comment names, not HEAD, and that a rebuild
// that matches is an identity for the tests step even without a key or hash.
func TestRebuildSignedCommit(t *testing.T) {
	gittest.Need(t)
	key, pub := testKey(t)
	src := t.TempDir()
	released := commitFiles(t, src, fakeRelease(21, nil))
	in := testInputs()
	in.Commit = released
	dist := t.TempDir()
	res, err := archive.WriteRelease(context.Background(), src, dist, archive.Options{Sign: provenance.Signer(key, in)})
	if err != nil {
		t.Fatal(err)
	}
	commitFiles(t, src, []tfile{{path: "README.md", data: []byte("after the release\n")}})
	zip := filepath.Join(dist, res.Name)
	sums := filepath.Join(dist, archive.SumsName)

	rep := Verify(context.Background(), zip, Options{Keys: []sign.PublicKey{pub}, SumsFile: sums, Rebuild: &RebuildSource{Dir: src}, TempDir: t.TempDir(), NoExec: true})
	if !rep.OK() || rep.Rebuild.Commit != released || !strings.Contains(rep.Rebuild.Why, "signed") {
		t.Fatalf("rebuild %+v, want the signed commit %s\n%s", rep.Rebuild, released, text(rep))
	}

	plan := ReleaseTests()
	plan.GOCACHE = userGOCACHE(t)
	rep = Verify(context.Background(), zip, Options{Rebuild: &RebuildSource{Dir: src, Rev: released}, TempDir: t.TempDir(), Tests: plan})
	if s := rep.Step(StepTests); !rep.OK() || s.Status != Passed {
		t.Fatalf("a matching rebuild is the archive's identity, so the tests step runs: %s\n%s", s.Status, text(rep))
	}
}

func TestParseRebuild(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "a@b")
	os.Mkdir(at, 0o755)
	// Both x and x@main are folders: x@main could be either.
	os.Mkdir(filepath.Join(dir, "x"), 0o755)
	os.Mkdir(filepath.Join(dir, "x@main"), 0o755)
	for _, tt := range []struct {
		arg     string
		want    RebuildSource
		wantErr string
	}{
		{arg: dir, want: RebuildSource{Dir: dir}},
		{arg: dir + "@v0.1.0", want: RebuildSource{Dir: dir, Rev: "v0.1.0"}},
		{arg: dir + "@HEAD@{1}", want: RebuildSource{Dir: dir, Rev: "HEAD@{1}"}},
		{arg: at, want: RebuildSource{Dir: at}},
		{arg: at + "@main", want: RebuildSource{Dir: at, Rev: "main"}},
		{arg: dir + "@", wantErr: "nothing after the @"},
		{arg: filepath.Join(dir, "x@main"), wantErr: "is ambiguous"},
		{arg: filepath.Join(dir, "x@main") + "/", want: RebuildSource{Dir: filepath.Join(dir, "x@main") + "/"}},
		{arg: filepath.Join(dir, "x") + "/@main", want: RebuildSource{Dir: filepath.Join(dir, "x") + "/", Rev: "main"}},
		{arg: filepath.Join(dir, "b@c"), wantErr: "is not a folder"},
		{arg: filepath.Join(dir, "missing"), wantErr: "is not a folder"},
	} {
		got, err := ParseRebuild(tt.arg)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParseRebuild(%q) = %+v, %v; want an error with %q", tt.arg, got, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("ParseRebuild(%q) = %+v, %v; want %+v", tt.arg, got, err, tt.want)
		}
	}
}
