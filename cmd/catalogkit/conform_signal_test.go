//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConformSignal runs catalogkit conform as a child process against a
// port that never says hello, and a process that port left in a new session,
// then sends the runner SIGINT or SIGTERM: it must exit 130 or 143, and no
// process of the port may survive it (found in /proc by a variable of its environment).
func TestConformSignal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	tests := []struct {
		sig      syscall.Signal
		wantCode int
	}{
		{syscall.SIGINT, 130},
		{syscall.SIGTERM, 143},
	}
	for _, tt := range tests {
		t.Run(tt.sig.String(), func(t *testing.T) {
			token := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
			script := `setsid sh -c 'exec sleep 300' </dev/null >/dev/null 2>&1 & exec sleep 300`
			cmd := exec.Command(exe, "conform", "--", "sh", "-c", script)
			cmd.Env = append(os.Environ(), "CATALOGKIT_TEST_AS_MAIN=1", "PORT_TOKEN="+token)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The port and the process it left in a new session.
			waitFor(t, func() bool { return len(withEnv("PORT_TOKEN="+token)) >= 2 })
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.wantCode {
				t.Errorf("conform after %v: %v, want exit status %d", tt.sig, err, tt.wantCode)
			}
			for _, pid := range withEnv("PORT_TOKEN=" + token) {
				t.Errorf("process %d of the port survived conform", pid)
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

// TestConformFuzzSignal interrupts conform --fuzz against a port with a
// bug: it must exit 130, list the disagreements found by then (none of them
// the CRASH the interrupt itself made of the calls in flight) and print a
// re-run line that finds the first one again and writes its case file.
func TestConformFuzzSignal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	env := append(os.Environ(), "CATALOGKIT_TEST_AS_MAIN=1")
	// The interrupt comes once the runner says it has found a
	// disagreement: the handler is installed (the port is started after
	// it) and the disagreement is the runner's own, however slow the
	// machine and however many calls are in flight.
	disagreed := filepath.Join(t.TempDir(), "disagreed")
	cmd := exec.Command(exe, "conform", "--fuzz", "100000000", "--seed", "1", "--jobs", "2", "--fuzz-out", t.TempDir(), "--", exe, "broken-port")
	cmd.Env = append(env, foundEnv+"="+disagreed)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(disagreed); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("conform --fuzz after SIGINT: %v, want exit status 130\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stdout.String(), "before the interrupt") {
		t.Fatalf("after SIGINT:\n%s%s\nwant how far the run got", stdout.Bytes(), stderr.Bytes())
	}
	if strings.Contains(stdout.String(), "CRASH") {
		t.Errorf("the interrupt was taken for the port's crash:\n%s", stdout.Bytes())
	}
	out := stdout.Bytes()
	if !bytes.Contains(out, []byte("DISAGREE call ")) {
		t.Fatalf("no disagreement reported after the interrupt, though the port had answered wrong:\n%s", out)
	}
	m := regexp.MustCompile(`re-run: \S+ conform --fuzz (\d+) --seed 1 -- `).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no re-run line:\n%s", out)
	}
	dir := t.TempDir()
	cmd = exec.Command(exe, "conform", "--fuzz", string(m[1]), "--seed", "1", "--fuzz-out", dir, "--", exe, "broken-port")
	cmd.Env = env
	again, err := cmd.CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !bytes.Contains(again, []byte("wrote 1 case file(s)")) {
		t.Errorf("the re-run line: %v\n%s\nwant the disagreement found again and its case written", err, again)
	}
}
