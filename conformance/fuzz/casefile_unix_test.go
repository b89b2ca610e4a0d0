//go:build unix

package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/catalogkit/catalogkit/conformance"
)

// TestLoadDirRefusesSpecialFiles: a case file that is a FIFO would wait for
// a writer, and /dev/zero would never end; both are refused before a byte
// is read, in a folder of cases and in one laid out as the suite (cases/
// beside the synthetic catalog).
func TestLoadDirRefusesSpecialFiles(t *testing.T) {
	for _, layout := range []string{".", "cases"} {
		for name, want := range map[string]string{"fifo": "not a regular file (a FIFO)", "zero": "not a regular file (a character device)"} {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, layout), 0o755)
			os.WriteFile(filepath.Join(dir, conformance.CatalogFile), []byte("[]"), 0o644)
			p := filepath.Join(dir, layout, name+".json")
			if name == "fifo" {
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("LoadDir with %s/%s.json: %v, want an error containing %q", layout, name, err, want)
			}
		}
	}
}
