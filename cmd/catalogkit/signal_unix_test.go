//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignals starts catalogkit in a child process where it blocks (opening
// a FIFO that has no writer, reading a FIFO or stdin that never ends), sends
// it SIGINT or SIGTERM, and checks that it exits with 130 or 143, says why,
// and leaves no temporary file. The deadline is generous for a loaded
// machine: the point is that it exits at all, not how fast (the command
// allows itself 300 ms).
func TestSignals(t *testing.T) {
	bin := buildCatalogkit(t)
	synthetic, err := filepath.Abs(filepath.Join("..", "..", "conformance", "synthetic-catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		// setup prepares dir (the working directory) and returns what to
		// close once the child is gone.
		setup  func(t *testing.T, dir string) []*os.File
		stdin  bool // give the child a stdin pipe that stays open
		signal syscall.Signal
		want   int
		reason string
	}{
		{"catalog FIFO without writer", []string{"validate", "--catalog", "fifo", "--name", "page.read", "--arguments", "{}"},
			mkfifo(false), false, syscall.SIGINT, 130, "opening a FIFO waits for a writer"},
		{"discover FIFO without writer", []string{"discover", "--catalog", "fifo", "--family", "all"},
			mkfifo(false), false, syscall.SIGTERM, 143, "the same for discover, and SIGTERM"},
		{"arguments FIFO never closed", []string{"validate", "--catalog", synthetic, "--name", "page.read", "--arguments", "@fifo"},
			mkfifo(true), false, syscall.SIGTERM, 143, "a writer that never writes or closes"},
		{"catalog on stdin", []string{"discover", "--catalog", "-", "--family", "all"},
			nil, true, syscall.SIGINT, 130, "stdin that never ends"},
		{"port", []string{"port"},
			nil, true, syscall.SIGTERM, 143, "a port waits on stdin for the next line"},
		{"records", []string{"records", "--catalog", "fifo", "--out", "."},
			inRepository(mkfifo(false)), false, syscall.SIGINT, 130, "records reading its catalog (inside a repository: one outside is refused before it is read)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var closers []*os.File
			if tt.setup != nil {
				closers = tt.setup(t, dir)
			}
			defer func() {
				for _, f := range closers {
					f.Close()
				}
			}()
			var made []string // what setup made: the command must add nothing
			if ents, err := os.ReadDir(dir); err == nil {
				for _, e := range ents {
					made = append(made, e.Name())
				}
			}
			cmd := exec.Command(bin, tt.args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if tt.stdin {
				w, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			time.Sleep(300 * time.Millisecond) // let it block
			select {
			case err := <-exited:
				t.Fatalf("exited before the signal: %v\n%s", err, stderr.String())
			default:
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tt.signal); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(time.Minute): // it blocks forever unless the signal ends it
				cmd.Process.Kill()
				<-exited
				t.Fatalf("still running a minute after %v (%s)\n%s", tt.signal, tt.reason, stderr.String())
			}
			t.Logf("exited %v after %v", time.Since(sent).Round(time.Millisecond), tt.signal)
			if got := cmd.ProcessState.ExitCode(); got != tt.want {
				t.Errorf("exit status %d, want %d (%s)\n%s", got, tt.want, tt.reason, stderr.String())
			}
			if !strings.Contains(stderr.String(), "stopped by SIG") {
				t.Errorf("stderr does not say why the command stopped:\n%s", stderr.String())
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if !slices.Contains(made, e.Name()) {
					t.Errorf("left %s behind", e.Name())
				}
			}
		})
	}
}

// mkfifo returns a setup that makes a FIFO named "fifo", and with writer
// opens it for writing (without writing), as a producer that stalls would.
func mkfifo(writer bool) func(t *testing.T, dir string) []*os.File {
	return func(t *testing.T, dir string) []*os.File {
		path := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
		if !writer {
			return nil
		}
		// O_RDWR opens at once, with no reader yet, and keeps a writer.
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		return []*os.File{f}
	}
}

// inRepository is setup with a go.mod beside what it makes, so that the
// folder is a repository root.
func inRepository(setup func(t *testing.T, dir string) []*os.File) func(t *testing.T, dir string) []*os.File {
	return func(t *testing.T, dir string) []*os.File {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return setup(t, dir)
	}
}
