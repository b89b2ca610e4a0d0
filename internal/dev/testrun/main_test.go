package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
)

// gitRepo makes a clean git checkout with one commit in a temporary folder,
// makes it the working directory and gives the test its own cache folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	gittest.Need(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache-outside"))
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("CI", "")
	gittest.Commit(t, dir, "one")
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
	// The command's output and testrun's own lines reach the same
	// writers from two goroutines, as they reach a terminal.
	var out, errb syncBuffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// syncBuffer is a buffer two goroutines may write: only Write, so that
// exec copies into it with Write, never with a ReadFrom that races.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
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

// echoTest is a go-test-like command that prints its arguments and two
// package result lines.
var echoTest = []string{"sh", "-c", `echo "args: $*"; printf 'ok  \tpkg/a\t0.1s\n?   \tpkg/b\t[no test files]\nok  \tpkg/c\t0.2s\n'`, "sh", "test", "./..."}

func TestRace(t *testing.T) {
	tests := []struct {
		name     string
		cc, ci   string
		wantCode int
		wantArgs string // "" when the command must not run
		wantErr  string
		reason   string
	}{
		{
			name: "compiler installed", cc: "sh", wantArgs: "args: test -race ./...",
			reason: "-race goes right after test when cgo can run",
		},
		{
			name: "no compiler", cc: "no-such-cc", wantArgs: "args: test ./...",
			wantErr: `WARNING: the tests ran WITHOUT the race detector (go test -race), so data races were NOT checked: it needs a C compiler and "no-such-cc" is not installed; install it: sudo apt-get install gcc`,
			reason:  "without a C compiler the tests still run, and the ending says what was not checked and how to fix it",
		},
		{
			name: "no compiler under CI", cc: "no-such-cc", ci: "true", wantCode: 1,
			wantErr: "and CI=true",
			reason:  "CI must not pass without the race detector",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gitRepo(t)
			t.Setenv("CC", tt.cc)
			t.Setenv("CGO_ENABLED", "1")
			t.Setenv("CI", tt.ci)
			code, out, errs := runOnce(t, append([]string{"-race", "--"}, echoTest...)...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (%s); stderr:\n%s", code, tt.wantCode, tt.reason, errs)
			}
			if tt.wantArgs == "" && strings.Contains(out, "args:") {
				t.Errorf("stdout %q: the command ran (%s)", out, tt.reason)
			}
			if tt.wantArgs != "" && !strings.Contains(out, tt.wantArgs+"\n") {
				t.Errorf("stdout %q, want %q (%s)", out, tt.wantArgs, tt.reason)
			}
			if !strings.Contains(errs, tt.wantErr) {
				t.Errorf("stderr %q, want %q (%s)", errs, tt.wantErr, tt.reason)
			}
		})
	}
}

func TestSummaryLine(t *testing.T) {
	tests := []struct {
		name    string
		dirty   bool
		command []string
		want    string
		reason  string
	}{
		{
			name: "passed and recorded", command: echoTest,
			want:   "make test: passed: 2 packages tested, nothing skipped; recorded for 'make release' (commit ",
			reason: "the ending says what ran and that make release will reuse it",
		},
		{
			name: "passed, untracked files", dirty: true, command: echoTest,
			want:   "make test: passed: 2 packages tested, nothing skipped; not recorded for 'make release': the tree has changes or untracked files, so it is not the commit: conformance.xml, notes.txt (commit them, remove them, or add them to .gitignore)",
			reason: "the files that keep the pass from being recorded are named",
		},
		{
			name: "failed", command: []string{"sh", "-c", `printf 'ok  \tpkg/a\t0.1s\nFAIL\tpkg/b\t0.3s\nFAIL\n'; exit 1`},
			want:   "make test: FAILED: 1 of 2 packages failed (pkg/b), nothing skipped; not recorded for 'make release'",
			reason: "a failure names the packages that failed",
		},
		{
			name: "a report's FAIL lines", command: []string{"sh", "-c", `printf 'FAIL    fuzz.seed-1.call-5: outcome differs\nok  \tpkg/a\t0.1s\n'; exit 1`},
			want:   "make test: FAILED (exit status 1): 1 package passed before it stopped",
			reason: "only go test's own package lines (with a tab) count: a conformance report's FAIL lines name no package",
		},
		{
			name: "timed out", command: []string{"sh", "-c", `printf 'ok  \tpkg/a\t0.1s\npanic: test timed out after 40m0s\nrunning tests:\n\tTestBrokenPorts (35m0s)\n\ngoroutine 1 [running]:\nFAIL\tpkg/b\t2400.1s\n'; exit 1`},
			want:   "make test: FAILED: 1 of 2 packages failed (pkg/b); a test binary hit go test's timeout of 40m0s while running TestBrokenPorts (35m0s): on a busy machine, try 'make test TEST_P=1' or a quieter machine",
			reason: "a timeout says which test ran how long, and what to try, after the goroutine dump",
		},
		{
			name: "skip reported", command: skipper,
			want:   "make test: passed: 0 packages tested, 1 check skipped (the WARNING above); recorded for",
			reason: "skips are counted and point at their WARNINGs",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gitRepo(t)
			if tt.dirty {
				for _, f := range []string{"conformance.xml", "notes.txt"} {
					if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			_, out, _ := runOnce(t, append([]string{"--"}, tt.command...)...)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, tt.want) {
				t.Errorf("last line of stdout:\n%s\nwant it to start with:\n%s\n(%s)", last, tt.want, tt.reason)
			}
		})
	}
}

// TestInterruptStopsStubbornTests: one SIGINT stops the tests even when a
// test binary ignores it (its group is killed after stopGrace), and the
// last line says INTERRUPTED, not FAILED.
func TestInterruptStopsStubbornTests(t *testing.T) {
	gitRepo(t)
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 100 * time.Millisecond
	started := filepath.Join(t.TempDir(), "started")
	stubborn := []string{"sh", "-c", `trap "" INT; printf 'ok  \tpkg/a\t0.1s\n'; touch "` + started + `"; sleep 600`}
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := runOnce(t, append([]string{"--"}, stubborn...)...)
		done <- result{code, out, errs}
	}()
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	r := <-done
	if r.code != 130 || !strings.Contains(r.out, "make test: INTERRUPTED (SIGINT): the tests were stopped; 1 package had passed") {
		t.Errorf("exit %d, stdout %q; want 130 and the summary saying the run was interrupted", r.code, r.out)
	}
	if !strings.Contains(r.err, "killed") {
		t.Errorf("stderr %q, stdout %q, want it to say the stubborn tests were killed", r.err, r.out)
	}
}

// TestThen: the commands after --then run after the first, as one run: the
// race detector is added to the first only, a failing first does not stop
// the second, the first failure's status is the run's, and a package that
// both test is counted once (failed if either failed).
func TestThen(t *testing.T) {
	gitRepo(t)
	t.Setenv("CC", "sh")
	t.Setenv("CGO_ENABLED", "1")
	first := []string{"sh", "-c", `echo "first: $*"; printf 'ok  \tpkg/a\t0.1s\nFAIL\tpkg/b\t0.3s\n'; exit 1`, "sh", "test", "./..."}
	second := []string{"sh", "-c", `echo "second: $*"; printf 'ok  \tpkg/a\t0.1s\nok  \tpkg/c\t0.2s\n'; exit 0`, "sh", "test", "-run", "X", "./pkg/a"}
	args := append(append(append([]string{"-race", "--"}, first...), "--then"), second...)
	code, out, errs := runOnce(t, args...)
	if code != 1 {
		t.Errorf("exit %d, want 1 (the first command's failure); stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"first: test -race ./...\n",
		"second: test -run X ./pkg/a\n",
		"make test: FAILED: 1 of 3 packages failed (pkg/b), nothing skipped; not recorded for 'make release'\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// Both pass: the stamp's command is both, and a second run reuses it.
	second[2] = `printf 'ok  \tpkg/a\t0.1s\n'`
	first[2] = `printf 'ok  \tpkg/a\t0.1s\nok  \tpkg/b\t0.1s\n'`
	args = append(append(append([]string{"-race", "--"}, first...), "--then"), second...)
	if code, out, _ := runOnce(t, args...); code != 0 || !strings.Contains(out, "make test: passed: 2 packages tested, nothing skipped; recorded") {
		t.Fatalf("exit %d, stdout:\n%s", code, out)
	}
	if code, out, _ := runOnce(t, append([]string{"-reuse"}, args...)...); code != 0 || !strings.Contains(out, "--then") || !strings.Contains(out, "(reused)") {
		t.Errorf("-reuse: exit %d, stdout:\n%s", code, out)
	}
}
