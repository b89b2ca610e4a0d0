//go:build unix

package mcpserve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMCPReloadNotAFile: a catalog replaced by something that is not a
// regular file, or by a file far over the text limit, is refused at once
// (a FIFO with no writer does not block the reload) with bounded memory,
// and the old catalog is still served.
func TestMCPReloadNotAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.json")
	data, err := os.ReadFile(syntheticPath)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		make   func() error
	}{
		{"a FIFO with no writer", func() error { return syscall.Mkfifo(path, 0o644) }},
		{"a directory", func() error { return os.Mkdir(path, 0o755) }},
		{"a symbolic link to /dev/zero", func() error { return os.Symlink("/dev/zero", path) }},
		{"a sparse file of 2 GiB", func() error {
			f, err := os.Create(path)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(2 << 30)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			os.RemoveAll(path)
			writeCatalog(t, path, data)
			var log bytes.Buffer
			s, err := New(path, nil, Options{Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			good := s.Snapshot().SHA256()
			os.RemoveAll(path)
			if err := tt.make(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- s.Reload() }()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("reload succeeded, want refused")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("reload still running after 10s, want refused at once")
			}
			if got := s.Snapshot().SHA256(); got != good {
				t.Errorf("serving %s after a refused reload, want %s", got, good)
			}
			if !strings.Contains(log.String(), "refused, still serving sha256 "+good) {
				t.Errorf("log %q, want the refusal", log.String())
			}
		})
	}
}
