package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a clean git checkout with one commit in a temporary folder,
// makes it the working directory and gives the test its own cache folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache-outside"))
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("CI", "")
	for _, args := range [][]string{
		{"init", "-q"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "one"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// The cache is outside the tree as far as git is concerned.
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte(".cache-outside/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// skipper is a command that passes after reporting one skip.
var skipper = []string{"sh", "-c", `echo "pkg/x: 3 tests skipped: no Chromium; install: apt-get install chromium" >> "$CATALOGKIT_SKIP_REPORT"; echo ran`}

func runOnce(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestWarningsShowAndStampIsReused(t *testing.T) {
	gitRepo(t)
	code, out, errs := runOnce(t, append([]string{"--"}, skipper...)...)
	if code != 0 || !strings.Contains(out, "ran") {
		t.Fatalf("first run: exit %d, stdout %q, want 0 and the command's output", code, out)
	}
	const warning = "WARNING: pkg/x: 3 tests skipped: no Chromium; install: apt-get install chromium"
	if !strings.Contains(errs, warning) {
		t.Errorf("first run: stderr %q, want the skip as %q", errs, warning)
	}
	code, out, errs = runOnce(t, append([]string{"-reuse", "--"}, skipper...)...)
	if code != 0 || strings.Contains(out, "ran\n") || !strings.Contains(out, "reusing the passing run") {
		t.Errorf("reuse: exit %d, stdout %q, want 0, no new run and a line saying what was reused", code, out)
	}
	if !strings.Contains(errs, warning) {
		t.Errorf("reuse: stderr %q, want the recorded warning again", errs)
	}
}

func TestNoStamp(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		first   []string
		reason  string
	}{
		{
			name:    "control: a passing run of a clean tree",
			prepare: func(*testing.T, string) {},
			first:   []string{"true"},
			reason:  "(this one is reused: the check below expects it)",
		},
		{
			name:    "failed run",
			prepare: func(*testing.T, string) {},
			first:   []string{"sh", "-c", "exit 1"},
			reason:  "only a passing run is recorded",
		},
		{
			name: "untracked file",
			prepare: func(t *testing.T, dir string) {
				if err := os.WriteFile(filepath.Join(dir, "scratch.go"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			first:  []string{"true"},
			reason: "a tree with an untracked file is not the commit",
		},
		{
			name:    "tree changed during the run",
			prepare: func(*testing.T, string) {},
			first:   []string{"sh", "-c", "echo x > new.txt"},
			reason:  "the run must have tested the commit it is recorded for",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gitRepo(t)
			tt.prepare(t, dir)
			runOnce(t, append([]string{"--"}, tt.first...)...)
			// Back to the clean commit: only a stamp written by the first
			// run could now be reused.
			for _, f := range []string{"scratch.go", "new.txt"} {
				os.Remove(filepath.Join(dir, f))
			}
			_, out, _ := runOnce(t, append([]string{"-reuse", "--"}, tt.first...)...)
			reused := strings.Contains(out, "reusing the passing run")
			if reused != strings.HasPrefix(tt.name, "control") {
				t.Errorf("stdout %q: reused %v (%s)", out, reused, tt.reason)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	gitRepo(t)
	tests := []struct {
		name   string
		args   []string
		want   int
		reason string
	}{
		{"command status", []string{"--", "sh", "-c", "exit 7"}, 7, "the command's own status"},
		{"no command", nil, 2, "bad usage"},
		{"cannot start", []string{"--", "/nonexistent/go"}, 3, "could not run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, _, _ := runOnce(t, tt.args...); code != tt.want {
				t.Errorf("run(%q) = %d, want %d (%s)", tt.args, code, tt.want, tt.reason)
			}
		})
	}
}
