package archive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// listDir returns the names in dir, sorted ("" entries if dir is missing).
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// TestWriteRelease checks the files written and the SHA256SUMS line.
func TestWriteRelease(t *testing.T) {
	_, out, res := writeSample(t)
	if diff := cmp.Diff([]string{LockName, SumsName, "catalogkit-0.1.0.zip"}, listDir(t, out)); diff != "" {
		t.Errorf("output directory (-want +got):\n%s", diff)
	}
	sums, err := os.ReadFile(filepath.Join(out, SumsName))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.SHA256+"  catalogkit-0.1.0.zip\n", string(sums)); diff != "" {
		t.Errorf("SHA256SUMS (-want +got):\n%s", diff)
	}
	fi, err := os.Stat(filepath.Join(out, res.Name))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != res.Size || fi.Mode().Perm() != 0o644 {
		t.Errorf("archive file: size %d mode %v, want %d 0644", fi.Size(), fi.Mode().Perm(), res.Size)
	}
}

// TestWriteReleaseAtomic checks that a failing release leaves no file under
// a final name, keeps an older release intact, and leaves no temporary file.
func TestWriteReleaseAtomic(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		break_ func(t *testing.T, dir string) // makes the release fail
		old    bool                           // an older release is already in the output directory
	}{
		{
			name:   "refused file",
			reason: "refusals are found before anything is written",
			break_: func(t *testing.T, dir string) { symlink(t, "x", filepath.Join(dir, "catalog", "link")) },
		},
		{
			name:   "invalid VERSION",
			reason: "the version is read before anything is written",
			break_: func(t *testing.T, dir string) {
				if err := os.WriteFile(filepath.Join(dir, "VERSION"), []byte("1.0 beta\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name:   "failure after both temporary files are complete",
			reason: "nothing is renamed until everything is written and synced",
			break_: func(t *testing.T, dir string) {
				testHookPoint = func(point string) error {
					if point == "sums-written" {
						return errors.New("injected failure")
					}
					return nil
				}
				t.Cleanup(func() { testHookPoint = nil })
			},
			old: true,
		},
		{
			name:   "file vanishes between selection and reading",
			reason: "a read error aborts the archive being written",
			break_: func(t *testing.T, dir string) {
				testHookPoint = func(point string) error {
					if point == "selected" {
						os.Remove(filepath.Join(dir, "internal", "big", "big.txt"))
					}
					return nil
				}
				t.Cleanup(func() { testHookPoint = nil })
			},
			old: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, sampleTree(), plain)
			out := filepath.Join(t.TempDir(), "dist")
			var before []string
			if tt.old {
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
				for _, n := range []string{"catalogkit-0.1.0.zip", SumsName} {
					if err := os.WriteFile(filepath.Join(out, n), []byte("old "+n), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				before = listDir(t, out)
			}
			tt.break_(t, dir)
			if _, err := WriteRelease(context.Background(), dir, out, Options{}); err == nil {
				t.Fatalf("WriteRelease succeeded, want a failure (%s)", tt.reason)
			}
			got := listDir(t, out)
			if len(got) > 0 && got[0] == LockName {
				got = got[1:] // the lock file stays, by design
			}
			if diff := cmp.Diff(before, got); diff != "" {
				t.Errorf("output directory after a failure (%s) (-want +got):\n%s", tt.reason, diff)
			}
			if tt.old {
				for _, n := range []string{"catalogkit-0.1.0.zip", SumsName} {
					b, err := os.ReadFile(filepath.Join(out, n))
					if err != nil || string(b) != "old "+n {
						t.Errorf("older %s was changed: %q, %v", n, b, err)
					}
				}
			}
		})
	}
}
