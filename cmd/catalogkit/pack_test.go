package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeFiles writes a small release tree under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var smallTree = map[string]string{
	"VERSION":            "0.1.0\n",
	"go.mod":             "module example.com/x\n",
	"README.md":          "# x\n",
	"catalog/catalog.go": "package catalog\n",
}

var treeHashRE = regexp.MustCompile(`(?m)^  tree hash: h1:[A-Za-z0-9+/]{43}=$`)

func TestPackCommand(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, smallTree)
	out := filepath.Join(t.TempDir(), "dist")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"pack", "--dir", dir, "--out", out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	archive := filepath.Join(out, "catalogkit-0.1.0.zip")
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(data))
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sum+"  catalogkit-0.1.0.zip\n", string(sums)); diff != "" {
		t.Errorf("SHA256SUMS (-want +got):\n%s", diff)
	}
	// The tree hash's value is checked by internal/release/archive's tests.
	if !treeHashRE.MatchString(stdout.String()) {
		t.Errorf("stdout has no tree hash line:\n%s", stdout.String())
	}
	want := strings.Join([]string{
		"wrote " + archive,
		fmt.Sprintf("  size:      %d bytes", len(data)),
		"  sha256:    " + sum,
		"  tree hash: h1:...",
		"  files:     4, plus MANIFEST.sha256",
		"wrote " + filepath.Join(out, "SHA256SUMS"),
		"release NOT signed (no --sign KEYFILE): no SHA256SUMS.minisig or provenance written, any earlier ones of 0.1.0 removed;",
		"  third parties can check these bytes, not who made them",
		"",
	}, "\n")
	got := treeHashRE.ReplaceAllString(stdout.String(), "  tree hash: h1:...")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}

	// --json reports the same archive.
	stdout.Reset()
	if code := run([]string{"pack", "--dir", dir, "--out", out, "--json"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("--json: exit %d, stderr:\n%s", code, stderr.String())
	}
	var res struct {
		Archive string `json:"archive"`
		SHA256  string `json:"sha256"`
		Size    int    `json:"size"`
		Files   int    `json:"files"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout.String())
	}
	if diff := cmp.Diff([]any{archive, sum, len(data), 4}, []any{res.Archive, res.SHA256, res.Size, res.Files}); diff != "" {
		t.Errorf("--json (-want +got):\n%s", diff)
	}
}

func TestPackCommandErrors(t *testing.T) {
	defer func(name string) { os.Args[0] = name }(os.Args[0])
	os.Args[0] = "catalogkit" // the name the hints give, as the user typed it
	tests := []struct {
		name       string
		reason     string
		args       func(dir string) []string
		extra      map[string]string
		wantCode   int
		wantStdout []string // substrings
		wantStderr []string // substrings
	}{
		{
			name:       "help",
			reason:     "-h shows usage with an example on stdout",
			args:       func(string) []string { return []string{"pack", "-h"} },
			wantCode:   0,
			wantStdout: []string{"usage: catalogkit pack", "example:", "sha256sum -c SHA256SUMS"},
		},
		{
			name:       "bad flag",
			reason:     "bad usage exits 2",
			args:       func(string) []string { return []string{"pack", "--bogus"} },
			wantCode:   2,
			wantStderr: []string{"catalogkit: error:", "hint: run 'catalogkit pack -h'"},
		},
		{
			name:       "stray argument",
			reason:     "the tree is given with --dir",
			args:       func(dir string) []string { return []string{"pack", dir} },
			wantCode:   2,
			wantStderr: []string{"unexpected argument"},
		},
		{
			name:   "refused files",
			reason: "every offending path is printed, and the check failed: exit 1",
			args:   func(dir string) []string { return []string{"pack", "--dir", dir, "--out", filepath.Join(dir, "dist")} },
			extra: map[string]string{
				"catalog/Catalog.go":   "x",
				"internal/nul.txt":     "x",
				"testdata/back\\slash": "x",
			},
			wantCode: 1,
			wantStderr: []string{
				"catalogkit: error: refusing to pack", "4 problem(s)",
				`"catalog/Catalog.go": collides with "catalog/catalog.go"`, `"catalog/catalog.go": collides with "catalog/Catalog.go"`, "[case_collision]",
				`"internal/nul.txt": name is reserved or invalid on Windows`, "[windows_name]",
				`"testdata/back\\slash": name contains a backslash [backslash]`,
				"hint:",
			},
		},
		{
			name:   "missing tree",
			reason: "a missing input is could-not-run: exit 3",
			args: func(dir string) []string {
				return []string{"pack", "--dir", filepath.Join(dir, "nope"), "--out", filepath.Join(dir, "dist")}
			},
			wantCode:   3,
			wantStderr: []string{"catalogkit: error: cannot read", "no such file or directory"},
		},
		{
			name:   "tree without VERSION",
			reason: "VERSION names the top folder: the tree is refused, every problem listed",
			args: func(dir string) []string {
				os.Remove(filepath.Join(dir, "VERSION"))
				return []string{"pack", "--dir", dir, "--out", filepath.Join(dir, "dist")}
			},
			wantCode:   1,
			wantStderr: []string{"catalogkit: error: refusing to pack", `"VERSION": required file is missing or not a regular file [required_missing]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, smallTree)
			writeFiles(t, dir, tt.extra)
			var stdout, stderr bytes.Buffer
			code := run(tt.args(dir), nil, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (%s)\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, tt.reason, stdout.String(), stderr.String())
			}
			for _, s := range tt.wantStdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q (%s):\n%s", s, tt.reason, stdout.String())
				}
			}
			for _, s := range tt.wantStderr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr lacks %q (%s):\n%s", s, tt.reason, stderr.String())
				}
			}
			if tt.wantCode != 0 {
				if _, err := os.Stat(filepath.Join(dir, "dist")); !os.IsNotExist(err) {
					t.Errorf("a failed pack created the output directory")
				}
			}
		})
	}
}

// TestPackSignal sends SIGTERM to a real catalogkit pack while it
// compresses, and requires exit 143, the temporary files removed and the
// output folder as it was (here: the lock file alone).
func TestPackSignal(t *testing.T) {
	bin := buildCatalogkit(t)
	dir := t.TempDir()
	writeFiles(t, dir, smallTree)
	// 48 MiB of varied text: seconds of Deflate at level 8. Written as it
	// is made, never held: under the race detector a 48 MiB string and
	// its builder's growth took this test binary to 0.5 GB.
	writeFiles(t, dir, map[string]string{"testdata/big.txt": ""})
	f, err := os.OpenFile(filepath.Join(dir, "testdata", "big.txt"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i, n := 0, 0; n < 48<<20; i++ {
		m, _ := fmt.Fprintf(w, "line %d: %x\n", i, sha256.Sum256([]byte(strconv.Itoa(i))))
		n += m
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command(bin, "pack", "--dir", dir, "--out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	// The signal goes once pack has begun writing: its temporary file is
	// the event, however slow the machine.
	for {
		if tmp, _ := filepath.Glob(filepath.Join(out, ".catalogkit-*.tmp")); len(tmp) > 0 {
			break
		}
		select {
		case <-done:
			t.Fatalf("pack ended before it began writing: %v\n%s", cmd.ProcessState, stderr.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	signalled := time.Now()
	<-done
	t.Logf("pack ended %v after SIGTERM", time.Since(signalled))
	if code := cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit %d, want 143 (SIGTERM)\n%s", code, stderr.String())
	}
	left, _ := os.ReadDir(out)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{".catalogkit.lock"}, names); diff != "" {
		t.Errorf("left in the output folder (-want +got):\n%s", diff)
	}
}
