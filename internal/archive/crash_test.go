//go:build unix

package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writePoints are WriteRelease's write points, in order.
var writePoints = []string{"selected", "locked", "zip-written", "sums-written", "sums-removed", "zip-renamed", "sums-renamed"}

// pairState describes what a reader of dir finds: "none" (no SHA256SUMS),
// "sums names a missing zip", "mismatch", or "pair <sha256 prefix>". It also
// returns the temporary files lying there.
func pairState(t *testing.T, dir string) (state string, temps []string) {
	t.Helper()
	temps, _ = filepath.Glob(filepath.Join(dir, tempPattern))
	sums, err := os.ReadFile(filepath.Join(dir, SumsName))
	if errors.Is(err, os.ErrNotExist) {
		return "none", temps
	}
	if err != nil {
		t.Fatal(err)
	}
	sum, name, ok := ParseSumLine(strings.TrimSuffix(string(sums), "\n"), false)
	if !ok {
		t.Fatalf("SHA256SUMS is not one sha256sum line: %q", sums)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return "sums names a missing zip", temps
	}
	got := sha256.Sum256(data)
	if hex.EncodeToString(got[:]) != sum {
		return "mismatch", temps
	}
	return "pair " + name + " " + sum[:12], temps
}

// TestWriteReleaseCrash kills a real pack process (SIGKILL, as a crash) at
// each write point, starting from an empty folder, from an older version's
// pair, and from a pair of the same version with other bytes. A reader must
// find the old pair or the new one (or, only while a same-version archive
// is being replaced, the zip without SHA256SUMS), never a mismatched pair;
// the next run removes the killed run's temporary files and writes the new
// pair.
func TestWriteReleaseCrash(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "tree")
	writeTree(t, tree, sampleTree(), plain)
	newDist := t.TempDir()
	res, err := WriteRelease(context.Background(), tree, newDist, Options{})
	if err != nil {
		t.Fatal(err)
	}
	newPair, _ := pairState(t, newDist)

	older := func(version string, extra string) func(t *testing.T, out string) {
		return func(t *testing.T, out string) {
			old := filepath.Join(t.TempDir(), "old")
			writeTree(t, old, sampleTree(), plain)
			os.WriteFile(filepath.Join(old, "VERSION"), []byte(version+"\n"), 0o644)
			os.WriteFile(filepath.Join(old, "README.md"), []byte(extra), 0o644)
			if _, err := WriteRelease(context.Background(), old, out, Options{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name        string
		reason      string
		setup       func(t *testing.T, out string)
		replacement bool // the same version with other bytes is already there
	}{
		{name: "empty", reason: "a first release", setup: func(*testing.T, string) {}},
		{name: "older-version", reason: "a new version beside an older pair", setup: older("0.0.9", "old\n")},
		{name: "same-version", reason: "the same version rebuilt from other files", setup: older("0.1.0", "other bytes\n"), replacement: true},
	}
	for _, tt := range tests {
		for _, point := range writePoints {
			t.Run(tt.name+"/"+point, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "dist")
				os.MkdirAll(out, 0o755)
				tt.setup(t, out)
				oldPair, _ := pairState(t, out)

				cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
				cmd.Env = append(os.Environ(), "CATALOGKIT_CRASH_AT="+point, "CRASH_TREE="+tree, "CRASH_OUT="+out)
				b, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					if point != "sums-removed" || tt.replacement {
						t.Fatalf("helper was not killed at %s: %v\n%s", point, err, b)
					}
				}
				state, _ := pairState(t, out)
				allowed := []string{oldPair, newPair}
				if tt.replacement {
					allowed = append(allowed, "none")
				}
				if !contains(allowed, state) {
					t.Errorf("%s: killed at %s, a reader finds %q; want one of %q", tt.reason, point, state, allowed)
				}

				if _, err := WriteRelease(context.Background(), tree, out, Options{}); err != nil {
					t.Fatalf("the next run failed: %v", err)
				}
				state, temps := pairState(t, out)
				if state != newPair || len(temps) > 0 {
					t.Errorf("after the next run: %q with temporary files %q; want %q and none", state, temps, newPair)
				}
				if data, err := os.ReadFile(filepath.Join(out, res.Name)); err != nil || len(data) != int(res.Size) {
					t.Errorf("the new archive is not complete: %d bytes, %v", len(data), err)
				}
			})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestCrashHelper is the pack process TestWriteReleaseCrash kills: it sends
// itself SIGKILL at the write point named by CATALOGKIT_CRASH_AT.
func TestCrashHelper(t *testing.T) {
	at := os.Getenv("CATALOGKIT_CRASH_AT")
	if at == "" {
		t.Skip("helper process for TestWriteReleaseCrash")
	}
	testHookPoint = func(point string) error {
		if point == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
	if _, err := WriteRelease(context.Background(), os.Getenv("CRASH_TREE"), os.Getenv("CRASH_OUT"), Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestWriteReleaseLocked checks that a second pack into a folder another
// holds is refused at once, saying why, and writes nothing.
func TestWriteReleaseLocked(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, sampleTree(), plain)
	out := t.TempDir()
	unlock, err := lockDir(filepath.Join(out, LockName))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = WriteRelease(context.Background(), tree, out, Options{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "(process ") {
		t.Fatalf("WriteRelease into a locked folder: %v, want ErrLocked naming the holder", err)
	}
	if diff := cmp.Diff([]string{LockName}, listDir(t, out)); diff != "" {
		t.Errorf("a refused pack changed the folder (-want +got):\n%s", diff)
	}
}

// TestWriteReleaseCancelled checks that a cancelled pack removes its
// temporary files and leaves the older pair as it was.
func TestWriteReleaseCancelled(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, sampleTree(), plain)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, SumsName), []byte("old\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	testHookPoint = func(point string) error {
		if point == "locked" {
			cancel()
		}
		return nil
	}
	t.Cleanup(func() { testHookPoint = nil })
	if _, err := WriteRelease(ctx, tree, out, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled WriteRelease: %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{LockName, SumsName}, listDir(t, out)); diff != "" {
		t.Errorf("a cancelled pack left (-want +got):\n%s", diff)
	}
}
