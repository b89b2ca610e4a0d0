//go:build unix

package zipdiff

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// TestDiffFilesRefusesFIFO: a FIFO named as an archive is refused before it
// is opened (opening it for reading would wait for a writer for ever).
func TestDiffFilesRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "release.zip")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := DiffFiles(fifo, fifo, DefaultLimits)
	var e *Error
	if !errors.As(err, &e) || e.Code != archive.CodeIO || !strings.Contains(e.Detail, "not a regular file (a FIFO)") {
		t.Fatalf("DiffFiles(FIFO) = %v, want an IO error naming a FIFO", err)
	}
}
