package archive

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
)

// TestCheckCheckout checks that a git checkout packs only as committed:
// untracked and changed files that the rules would pack are listed, files
// the rules leave out are not, and a tree that is not a checkout is not
// checked at all.
func TestCheckCheckout(t *testing.T) {
	needTool(t, "git")
	dir := t.TempDir()
	writeTree(t, dir, sampleTree(), plain)
	if err := CheckCheckout(dir); err != nil {
		t.Fatalf("a tree that is not a git checkout: %v, want no check", err)
	}
	gittest.Commit(t, dir, "release")
	if err := CheckCheckout(dir); err != nil {
		t.Fatalf("a clean checkout: %v", err)
	}
	files, err := Select(dir)
	if err != nil {
		t.Fatal(err)
	}
	changed := files[0].Path
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(changed)), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"catalog/scratch.go", "bin/left-out", "catalog/.notes"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err = CheckCheckout(dir)
	se, ok := err.(*RefusalError)
	if !ok {
		t.Fatalf("CheckCheckout = %v, want a *RefusalError", err)
	}
	var got []string
	for _, p := range se.Problems {
		got = append(got, p.Entry)
	}
	want := []string{changed, "catalog/scratch.go"}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("problems for %q, want %q (bin/ and dot-files are never packed, so never listed)", got, want)
	}
}

// TestCheckCheckoutGitFails checks that a checkout where git cannot answer
// is refused with CodeGitFailed and git's own words, never packed
// unchecked: a broken .git, no git on PATH, and a checkout git distrusts
// ("dubious ownership", as when another user runs pack).
func TestCheckCheckoutGitFails(t *testing.T) {
	needTool(t, "git")
	tests := []struct {
		name   string
		reason string
		setup  func(t *testing.T, dir string)
		want   string // in the error
	}{
		{
			name:   "broken .git",
			reason: "a .git file pointing nowhere",
			setup: func(t *testing.T, dir string) {
				os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: /nonexistent\n"), 0o644)
			},
			want: "not a git repository",
		},
		{
			name:   "no git",
			reason: "git is not installed",
			setup: func(t *testing.T, dir string) {
				gittest.Run(t, dir, "init", "-q")
				t.Setenv("PATH", t.TempDir())
			},
			want: "executable file not found",
		},
		{
			name:   "dubious ownership",
			reason: "safe.directory refuses a checkout owned by someone else",
			setup: func(t *testing.T, dir string) {
				gittest.Run(t, dir, "init", "-q")
				// git compares the owner with the effective user; giving
				// the checkout another owner needs root. No global config,
				// so no safe.directory entry trusts it.
				if os.Geteuid() != 0 {
					t.Skip("SKIPPED: needs root to give the checkout another owner")
				}
				filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
					if err == nil {
						os.Lchown(p, 12345, 12345)
					}
					return nil
				})
				t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "none"))
			},
			want: "dubious ownership",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, sampleTree(), plain)
			tt.setup(t, dir)
			err := CheckCheckout(dir)
			var re *RefusalError
			if !errors.As(err, &re) || len(re.Problems) != 1 || re.Problems[0].Code != CodeGitFailed {
				t.Fatalf("%s: CheckCheckout = %v, want one %s refusal", tt.reason, err, CodeGitFailed)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: the refusal does not say why (%q):\n%v", tt.reason, tt.want, err)
			}
		})
	}
}

// TestCheckoutBytesWhateverAutocrlf checks the repository's .gitattributes:
// a clone made by someone whose git sets core.autocrlf holds the committed
// bytes, so that records --check and pack see what a release is made of.
func TestCheckoutBytesWhateverAutocrlf(t *testing.T) {
	gitPath := needTool(t, "git")
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not run from a git checkout")
	}
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(cfg, []byte("[core]\n\tautocrlf = true\n\teol = crlf\n"), 0o644)
	clone := filepath.Join(t.TempDir(), "clone")
	cmd := exec.Command(gitPath, "clone", "-q", "--", root, clone)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	for _, name := range []string{"VERSION", "README.md", "records/01-family-listing.json"} {
		want, err := exec.Command(gitPath, "-C", root, "show", "HEAD:"+name).Output()
		if err != nil {
			t.Fatalf("git show HEAD:%s: %v", name, err)
		}
		got, err := os.ReadFile(filepath.Join(clone, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s in a clone under core.autocrlf differs from the commit (CR LF added: %t)", name, strings.Contains(string(got), "\r\n"))
		}
	}
}
