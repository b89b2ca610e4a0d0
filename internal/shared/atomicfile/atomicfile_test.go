package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteFile checks that WriteFile replaces a file whole, with the mode
// given, and leaves no temporary file behind.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "stamp.json")
	for _, data := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteFile(p, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(data, string(got)); diff != "" {
			t.Errorf("after WriteFile (-want +got):\n%s", diff)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", fi.Mode().Perm())
		}
	}
	if names := list(t, dir); len(names) != 1 {
		t.Errorf("folder holds %q, want only the file", names)
	}
}

// TestWriteNew checks that WriteNew never replaces a file and says why.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "k.key")
	if err := WriteNew(p, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(p, []byte("two\n"), 0o600); !errors.Is(err, fs.ErrExist) || errors.Is(err, ErrCreate) {
		t.Errorf("WriteNew over a file: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "one\n" {
		t.Errorf("the file was replaced: %q", got)
	}
	if err := WriteNew(filepath.Join(dir, "missing", "k.key"), nil, 0o600); !errors.Is(err, ErrCreate) {
		t.Errorf("WriteNew in a missing folder: %v, want ErrCreate", err)
	}
	if names := list(t, dir); len(names) != 1 {
		t.Errorf("folder holds %q, want only the file", names)
	}
}

func list(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
