package main

import (
	"github.com/catalogkit/catalogkit/internal/release/verify"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// releaseTree writes a small release-shaped tree: 21 case files and a
// conformance test whose subtests sleep for sleep each.
func releaseTree(t *testing.T, sleep time.Duration) string {
	t.Helper()
	dir := t.TempDir()
	goMod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"VERSION":   "0.1.0\n",
		"go.mod":    string(goMod),
		"README.md": "catalogkit\n",
		"conformance/conformance_test.go": fmt.Sprintf(`package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestConformance(t *testing.T) {
	files, _ := filepath.Glob("cases/*.json")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var c struct{ ID string }
		json.Unmarshal(data, &c)
		t.Run(c.ID, func(t *testing.T) {
			// HOME is the fresh folder verify makes for the re-run
			// (no variable of the caller's reaches this code).
			os.WriteFile(filepath.Join(os.Getenv("HOME"), %q), nil, 0o644)
			time.Sleep(%d)
		})
	}
}
`, startedMarker, sleep),
		"records/records_test.go": "package records\n\nimport \"testing\"\n\nfunc TestRecordsUpToDate(t *testing.T) {}\n",
	}
	for i := 1; i <= 21; i++ {
		files[fmt.Sprintf("conformance/cases/c%02d.json", i)] = fmt.Sprintf("{\"id\": \"c%02d\"}\n", i)
	}
	// The repository's own test plan, as a release states it.
	plan, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(verify.PlanFile)))
	if err != nil {
		t.Fatal(err)
	}
	files[verify.PlanFile] = string(plan)
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// waitStarted waits until a test of the archive that cmd verifies has
// started (its marker is under tmp), however long compiling takes, and
// fails at once if verify ended first. It returns the channel that gets
// cmd's Wait.
func waitStarted(t *testing.T, cmd *exec.Cmd, tmp string, stdout, stderr *bytes.Buffer) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for !found(tmp, startedMarker) {
		select {
		case err := <-done:
			t.Fatalf("verify ended (%v) before the archive's tests started\n%s\n%s", err, stdout.String(), stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return done
}

// release packs a release tree into a dist directory and returns the
// archive's and SHA256SUMS's paths.
func release(t *testing.T, tree string) (zip, sums string) {
	t.Helper()
	dist := t.TempDir()
	res, err := archive.WriteRelease(context.Background(), tree, dist, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dist, res.Name), filepath.Join(dist, archive.SumsName)
}

func TestVerifyCommand(t *testing.T) {
	zip, sums := release(t, releaseTree(t, 0))
	tampered := filepath.Join(t.TempDir(), filepath.Base(zip))
	data, _ := os.ReadFile(zip)
	data = append(data, "trailing"...)
	os.WriteFile(tampered, data, 0o644)
	nonEmpty := t.TempDir()
	os.WriteFile(filepath.Join(nonEmpty, "x"), nil, 0o644)
	keep := filepath.Join(t.TempDir(), "kept")
	// Key files that are not small regular files: refused unread, a FIFO
	// without ever blocking on its open.
	fifo := filepath.Join(t.TempDir(), "key.pub")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	bigKey := filepath.Join(t.TempDir(), "big.pub")
	os.WriteFile(bigKey, bytes.Repeat([]byte("A"), 5000), 0o644)

	tests := []struct {
		name       string
		reason     string
		args       []string
		wantCode   int
		wantOut    []string // substrings of stdout
		wantErr    []string // substrings of stderr
		wantNotOut []string
	}{
		{name: "sums", reason: "the third party's path, without running code",
			args: []string{"--sums", sums, "--no-exec", zip}, wantCode: 0,
			wantOut:    []string{"1 hash     passed", "4 manifest passed  hashes match", "5 repack   passed", "6 tests    not run --no-exec given", "result   ok"},
			wantNotOut: []string{"tests passed"}},
		{name: "flags-after-archive", reason: "flags may follow the archive",
			args: []string{zip, "--no-exec"}, wantCode: 0,
			wantOut: []string{"1 hash     not run no --sha256, --sums or --rebuild given: the archive's identity was not checked"}},
		{name: "no-identity-no-exec-flag", reason: "code from an unidentified archive is not run, and that is not success",
			args: []string{zip}, wantCode: 1,
			wantOut: []string{"6 tests    not run the archive's identity was not checked"},
			wantErr: []string{"catalogkit: error: verification incomplete", "hint: give --key with --sums, --sha256 or --rebuild"}},
		{name: "wrong-hash", reason: "hash mismatch fails the hash step and nothing else runs",
			args: []string{"--sha256", strings.Repeat("0", 64), "--no-exec", zip}, wantCode: 1,
			wantOut: []string{"1 hash     failed", "[archive_hash_mismatch]", "2 parse    not run the archive hash did not match"},
			wantErr: []string{"catalogkit: error: verification failed at step hash", "hint: the archive is not the published one"}},
		{name: "trailing-bytes", reason: "a hostile archive fails the strict parse",
			args: []string{"--no-exec", tampered}, wantCode: 1,
			wantOut: []string{"2 parse    failed", "[trailing_data]"}},
		{name: "keep", reason: "--keep leaves the tree in a new directory",
			args: []string{"--keep", keep, "--sums", sums, "--no-exec", zip}, wantCode: 0,
			wantOut: []string{"kept     extracted tree left in"}},
		{name: "keep-not-empty", reason: "--keep must not name a non-empty directory",
			args: []string{"--keep", nonEmpty, "--no-exec", zip}, wantCode: 2,
			wantErr: []string{"is not empty"}},
		{name: "keep-no-parent", reason: "a --keep folder that cannot be created is about the folder, not a damaged archive",
			args: []string{"--keep", filepath.Join(t.TempDir(), "no", "such"), "--sums", sums, "--no-exec", zip}, wantCode: 3,
			wantOut: []string{"[keep_dir]"},
			wantErr: []string{"cannot create --keep directory", "hint: give --keep a new folder in one that exists"}},
		{name: "both-hashes", reason: "--sha256 and --sums exclude each other",
			args: []string{"--sha256", strings.Repeat("0", 64), "--sums", sums, zip}, wantCode: 2},
		{name: "bad-sha256", reason: "--sha256 must be 64 hex digits",
			args: []string{"--sha256", "abc", zip}, wantCode: 2},
		{name: "no-archive", reason: "the archive is required",
			args: []string{"--no-exec"}, wantCode: 2, wantErr: []string{"missing ARCHIVE"}},
		{name: "two-archives", reason: "only one archive",
			args: []string{zip, zip}, wantCode: 2},
		{name: "key-fifo", reason: "a --key that is a FIFO is not opened",
			args: []string{"--key", fifo, "--sums", sums, "--no-exec", zip}, wantCode: 3,
			wantErr: []string{"public key is not a regular file (a FIFO)"}},
		{name: "key-device", reason: "a --key that is a device (/dev/zero) is not read",
			args: []string{"--key", os.DevNull, "--sums", sums, "--no-exec", zip}, wantCode: 3,
			wantErr: []string{"public key is not a regular file (a character device)"}},
		{name: "key-too-large", reason: "a --key file far larger than a key is refused",
			args: []string{"--key", bigKey, "--sums", sums, "--no-exec", zip}, wantCode: 1,
			wantErr: []string{"larger than 4096 bytes", "[KEY_FORMAT]"}},
		{name: "help", reason: "-h shows usage and an example",
			args: []string{"-h"}, wantCode: 0, wantOut: []string{"usage: catalogkit verify", "example:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"verify"}, tt.args...), nil, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tt.reason, code, tt.wantCode, stdout.String(), stderr.String())
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("%s: stdout lacks %q:\n%s", tt.reason, s, stdout.String())
				}
			}
			for _, s := range tt.wantNotOut {
				if strings.Contains(stdout.String(), s) {
					t.Errorf("%s: stdout has %q:\n%s", tt.reason, s, stdout.String())
				}
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("%s: stderr lacks %q:\n%s", tt.reason, s, stderr.String())
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(keep, "catalogkit-0.1.0", archive.ManifestName)); err != nil {
		t.Errorf("--keep: %v", err)
	}
}

func TestVerifyJSON(t *testing.T) {
	archive, sums := release(t, releaseTree(t, 0))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"verify", "--json", "--no-exec", "--sums", sums, archive}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		SHA256   string `json:"sha256"`
		TreeHash string `json:"tree_hash"`
		Steps    []struct {
			Step, Status string
			Requested    bool
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	var got []string
	for _, s := range rep.Steps {
		got = append(got, fmt.Sprintf("%s=%s/%t", s.Step, s.Status, s.Requested))
	}
	want := "hash=passed/true parse=passed/true extract=passed/true manifest=passed/true repack=passed/true tests=not run/false"
	if strings.Join(got, " ") != want {
		t.Errorf("steps:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(rep.SHA256) != 64 || !strings.HasPrefix(rep.TreeHash, "h1:") {
		t.Errorf("sha256 %q, tree hash %q", rep.SHA256, rep.TreeHash)
	}
}

// startedMarker is the file the tests of releaseTree create in their HOME
// when they start.
const startedMarker = "catalogkit-test-started"

// found reports whether a file named name exists anywhere under dir.
func found(dir, name string) bool {
	hit := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == name {
			hit = true
			return filepath.SkipAll
		}
		return nil
	})
	return hit
}

// TestVerifyInterrupt sends Ctrl-C (SIGINT) to a real catalogkit process
// while the archive's tests run (each sleeps a minute, after touching a
// marker file), and requires it to stop, kill the tests and remove every
// directory it and the go command made.
func TestVerifyInterrupt(t *testing.T) {
	bin := buildCatalogkit(t)
	archive, sums := release(t, releaseTree(t, time.Minute))
	tmp := t.TempDir()
	cmd := exec.Command(bin, "verify", "--exec", "--sums", sums, archive)
	// An empty user cache folder: catalogkit's build cache goes there, not
	// into the real one.
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until a test from the archive runs (after compiling the standard
	// library into an empty cache).
	done := waitStarted(t, cmd, tmp, &stdout, &stderr)
	cmd.Process.Signal(syscall.SIGINT)
	signalled := time.Now()
	select {
	case err := <-done:
		t.Logf("catalogkit ended %v after SIGINT", time.Since(signalled))
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("exit %d (%v), want 130 (SIGINT)", code, err)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("catalogkit did not stop within 30s of SIGINT")
	}
	if !strings.Contains(stdout.String(), "[interrupted]") {
		t.Errorf("report lacks the interruption:\n%s", stdout.String())
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("left behind in TMPDIR: %s", e.Name())
	}
}
