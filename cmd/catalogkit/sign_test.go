package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// gitCheckout makes a git repository in a new folder with the files
// committed, and returns the folder.
func gitCheckout(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	gittest.Commit(t, dir, "release")
	return dir
}

// TestPackSignMinisign checks the signed release with the real minisign
// tool both ways: what `catalogkit pack --sign` writes verifies with
// `minisign -Vm` and shows catalogkit's trusted comment, with a key that
// minisign made; and a SHA256SUMS that a maintainer signs with `minisign -S`
// and catalogkit's trusted comment verifies with `catalogkit verify --key`.
func TestPackSignMinisign(t *testing.T) {
	tool := skipreport.Tool(t, "minisign", "cmd/catalogkit: minisign is not installed, so pack --sign was NOT checked with the real tool; install it: sudo apt-get install minisign")
	keys := t.TempDir()
	minisign := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command(tool, args...)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "HOME="+keys) // never the user's ~/.minisign
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("minisign %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	pub, sec := filepath.Join(keys, "k.pub"), filepath.Join(keys, "k.key")
	minisign("", "-G", "-W", "-p", pub, "-s", sec)

	tree := gitCheckout(t, smallTree)
	out := filepath.Join(t.TempDir(), "dist")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"pack", "--dir", tree, "--sign", sec, "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("pack --sign: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, file := range []string{"SHA256SUMS", "catalogkit-0.1.0.provenance.json"} {
		got := minisign("", "-V", "-p", pub, "-m", filepath.Join(out, file))
		if want := "Trusted comment: catalogkit-signature/1\tfile:" + file + "\tversion:0.1.0\ttree:h1:"; !strings.Contains(got, want) {
			t.Errorf("minisign -V of %s:\n%s\nwant it to show %q", file, got, want)
		}
	}
	verify := func(dir string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"verify", "--key", pub, "--sums", filepath.Join(dir, "SHA256SUMS"), "--no-exec", filepath.Join(dir, "catalogkit-0.1.0.zip")}, nil, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	if code, report := verify(out); code != 0 {
		t.Fatalf("verify --key of pack --sign's release: exit %d\n%s", code, report)
	}

	// A maintainer signs with minisign itself, catalogkit's comment given
	// with -t; the provenance is left out (it is optional).
	sig, err := os.ReadFile(filepath.Join(out, "SHA256SUMS.minisig"))
	if err != nil {
		t.Fatal(err)
	}
	comment := strings.TrimPrefix(strings.Split(string(sig), "\n")[2], "trusted comment: ")
	byTool := t.TempDir()
	for _, name := range []string{"SHA256SUMS", "catalogkit-0.1.0.zip"} {
		data, _ := os.ReadFile(filepath.Join(out, name))
		os.WriteFile(filepath.Join(byTool, name), data, 0o644)
	}
	minisign("", "-S", "-s", sec, "-t", comment, "-m", filepath.Join(byTool, "SHA256SUMS"))
	if code, report := verify(byTool); code != 0 || !strings.Contains(report, "signed by key") {
		t.Errorf("verify --key of a SHA256SUMS signed by minisign -S: exit %d\n%s", code, report)
	}
	// minisign's own default comment is not catalogkit's: refused.
	minisign("", "-S", "-s", sec, "-m", filepath.Join(byTool, "SHA256SUMS"))
	if code, report := verify(byTool); code != 1 || !strings.Contains(report, "TRUSTED_COMMENT_FORMAT") {
		t.Errorf("verify --key of a signature with minisign's default comment: exit %d\n%s", code, report)
	}
}

// TestPasswordFileReadable checks that a password file other users can read
// is warned about, and one only its owner can read is not.
func TestPasswordFileReadable(t *testing.T) {
	for _, tt := range []struct {
		mode os.FileMode
		warn bool
	}{{0o600, false}, {0o400, false}, {0o640, true}, {0o644, true}, {0o604, true}} {
		p := filepath.Join(t.TempDir(), "pw")
		if err := os.WriteFile(p, []byte("secret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, tt.mode)
		var stderr bytes.Buffer
		pw := passwordFlags{file: p, fd: -1}
		pw.warnReadable(&cli{stderr: &stderr})
		if got := strings.Contains(stderr.String(), "can be read by other users"); got != tt.warn {
			t.Errorf("mode %04o: warned %t, want %t (stderr %q)", tt.mode, got, tt.warn, stderr.String())
		}
	}
}

// TestPackSignUnderHook packs and signs one checkout with git's variables
// pointing at another repository, as they do inside a git hook run in that
// other repository: the provenance and the trusted comment must name the
// commit of the checkout packed, since every git question catalogkit asks
// clears them.
func TestPackSignUnderHook(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	keys := testKeyFiles(t)
	sec := filepath.Join(t.TempDir(), "test.key")
	if err := os.WriteFile(sec, keys["test.key"], 0o600); err != nil {
		t.Fatal(err)
	}
	tree := gitCheckout(t, smallTree)
	other := gitCheckout(t, map[string]string{"other.txt": "another repository\n"})
	head := func(dir string) string { return gittest.Run(t, dir, "rev-parse", "HEAD") }
	want, otherCommit := head(tree), head(other)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
	out := filepath.Join(t.TempDir(), "dist")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"pack", "--dir", tree, "--sign", sec, "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("pack --sign under a hook's GIT_DIR: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, file := range []string{"catalogkit-0.1.0.provenance.json", "SHA256SUMS.minisig"} {
		data, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want) || strings.Contains(string(data), otherCommit) {
			t.Errorf("%s names commit %s of the hook's repository or not %s of the checkout packed:\n%s", file, otherCommit, want, data)
		}
	}
}

// TestSignNotRegular: sign refuses a FILE that is not a regular file (a
// FIFO would wait for a writer, and there is nothing to put FILE.minisig
// beside), with exit status 3, before it asks for the key.
func TestSignNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "catalog.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, file := range []string{fifo, dir} {
		var stdout, stderr bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run([]string{"sign", "--key", filepath.Join(dir, "no.key"), file}, strings.NewReader(""), &stdout, &stderr)
		}()
		select {
		case code := <-done:
			if code != exitCannotRun || !strings.Contains(stderr.String(), "not a regular file") {
				t.Errorf("sign %s: exit %d, %s; want 3, not a regular file", file, code, stderr.String())
			}
		case <-time.After(time.Minute):
			t.Fatalf("sign %s still waits after a minute", file)
		}
	}
}
