// Package gittest runs git for the tests that make repositories: through
// [gitcmd.Env] (no GIT_ variable of the caller, no system or global
// configuration), with one fixed author, committer and date, so that a
// test's commits have the same hashes on every machine and no developer's
// configuration (a signing key, a hook path, autocrlf) reaches them.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/shared/gitcmd"
)

// identity is every commit's author, committer and date.
var identity = []string{
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z",
}

// Need skips tb when git is not installed.
func Need(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
}

// Setenv sets, for the rest of the test, the environment [Run] gives git
// in this process's own: for the git that the command under test, or a
// transcript's git line, starts with this process's environment.
func Setenv(t *testing.T) {
	t.Helper()
	for _, kv := range append([]string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull}, identity...) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// Run runs git -C dir args and returns its standard output without the
// white space around it; it fails tb with git's own words if git fails.
func Run(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(gitcmd.Env(), identity...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return strings.TrimSpace(string(out))
}

// Commit makes dir a repository (branch main) if it is not one yet,
// commits everything in it, hooks not run, and returns the commit's hash.
func Commit(tb testing.TB, dir, message string) string {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		Run(tb, dir, "-c", "init.defaultBranch=main", "init", "-q")
	}
	Run(tb, dir, "add", "-A")
	Run(tb, dir, "commit", "-q", "--allow-empty", "--no-verify", "-m", message)
	return Run(tb, dir, "rev-parse", "HEAD")
}
