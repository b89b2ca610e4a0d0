package archive

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestCheckCheckout checks that a git checkout packs only as committed:
// untracked and changed files that the rules would pack are listed, files
// the rules leave out are not, and a tree that is not a checkout is not
// checked at all.
func TestCheckCheckout(t *testing.T) {
	gitPath := needTool(t, "git")
	dir := t.TempDir()
	writeTree(t, dir, sampleTree(), plain)
	if err := CheckCheckout(dir); err != nil {
		t.Fatalf("a tree that is not a git checkout: %v, want no check", err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(gitPath, append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	run("add", "-A")
	run("commit", "-q", "-m", "release")
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
