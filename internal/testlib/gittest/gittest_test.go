package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCommitIsReproducible: the same files committed in two folders, with
// the caller's GIT_DIR and author pointing elsewhere, give one hash, and
// the commit is in the folder named.
func TestCommitIsReproducible(t *testing.T) {
	Need(t)
	elsewhere := t.TempDir()
	Run(t, elsewhere, "init", "-q")
	t.Setenv("GIT_DIR", filepath.Join(elsewhere, ".git"))
	t.Setenv("GIT_AUTHOR_NAME", "Someone Else")
	var hashes []string
	for range 2 {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, Commit(t, dir, "one"))
		if got := Run(t, dir, "log", "-1", "--format=%an %ad", "--date=iso-strict"); got != "Test 2026-01-02T03:04:05+00:00" {
			t.Errorf("the commit's author and date: %q, want the fixed ones", got)
		}
	}
	if hashes[0] != hashes[1] || len(hashes[0]) < 40 {
		t.Errorf("two commits of the same files: %q and %q, want one hash", hashes[0], hashes[1])
	}
	if out := Run(t, elsewhere, "rev-list", "--all"); out != "" {
		t.Errorf("the repository GIT_DIR named got commits: %q", out)
	}
}
