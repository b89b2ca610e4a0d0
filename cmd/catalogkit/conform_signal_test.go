//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
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
