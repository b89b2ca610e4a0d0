//go:build unix

package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// TestNotRegularFiles checks that an archive or SHA256SUMS that is not a
// regular file is refused before it is opened for reading (a FIFO would
// block the open forever), and that an archive larger than the format
// allows is refused before it is hashed.
func TestNotRegularFiles(t *testing.T) {
	good := filepath.Join(t.TempDir(), "catalogkit-0.1.0.zip")
	os.WriteFile(good, goodOnce(), 0o644)
	fifo := filepath.Join(t.TempDir(), "catalogkit-0.1.0.zip")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("SKIPPED: cannot make a FIFO here: %v", err)
	}
	huge := filepath.Join(t.TempDir(), "catalogkit-0.1.0.zip")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else {
		err = f.Truncate(archive.MaxSize + 1)
		f.Close()
		if err != nil {
			t.Skipf("SKIPPED: cannot make a sparse file here: %v", err)
		}
	}
	tests := []struct {
		name     string
		reason   string
		archive  string
		sums     string
		wantCode archive.Code
	}{
		{name: "fifo-archive", reason: "a FIFO is never opened", archive: fifo, wantCode: CodeNotFile},
		{name: "fifo-sums", reason: "a FIFO as SHA256SUMS is never opened", archive: good, sums: fifo, wantCode: CodeNotFile},
		{name: "directory", reason: "a directory is not an archive", archive: t.TempDir(), wantCode: CodeNotFile},
		{name: "device", reason: "a device is not an archive", archive: "/dev/zero", wantCode: CodeNotFile},
		{name: "too-large", reason: "no archive of the format reaches 4 GiB: refused before hashing", archive: huge, wantCode: archive.CodeTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan *Report, 1)
			go func() {
				done <- Verify(context.Background(), tt.archive, Options{SumsFile: tt.sums, NoExec: true, TempDir: t.TempDir()})
			}()
			select {
			case rep := <-done:
				if f := rep.FailedStep(); f == nil || f.Step != StepHash || f.Code() != tt.wantCode {
					t.Errorf("%s: failed at %s, want hash/%s\n%s", tt.reason, stepCode(f), tt.wantCode, text(rep))
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: Verify still running after 10s (blocked reading?)", tt.reason)
			}
		})
	}
}

// TestStreaming checks that Options.OnStep sees each step once, in order,
// as it ends: the report holds that step's outcome and none of a later one.
func TestStreaming(t *testing.T) {
	data := goodOnce()
	sb := newSandbox(t, data)
	sum := sha256.Sum256(data)
	var seen []string
	opts := Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, NoExec: true}
	opts.OnStep = func(r *Report, s *StepResult) {
		i := len(seen)
		if r.Steps[i] != s {
			t.Errorf("call %d is for step %s, want %s", i, s.Step, r.Steps[i].Step)
		}
		for _, later := range r.Steps[i+1:] {
			if later.Status != NotRun || later.Summary != "" {
				t.Errorf("when step %s ended, step %s was already %s %q", s.Step, later.Step, later.Status, later.Summary)
			}
		}
		seen = append(seen, s.Step+"="+string(s.Status))
	}
	Verify(context.Background(), sb.archive, opts)
	want := "hash=passed parse=passed extract=passed manifest=passed repack=passed tests=not run"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("steps seen:\n got %s\nwant %s", got, want)
	}
}
