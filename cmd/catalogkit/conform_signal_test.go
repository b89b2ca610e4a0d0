//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConformSignal runs catalogkit conform as a child process against a
// port that never says hello, and a process that port left in a new session,
// then sends the runner SIGINT or SIGTERM: it must exit 130 or 143, and no
// process of the port may survive it (checked in /proc).
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
			dir := t.TempDir()
			portPid, orphanPid := filepath.Join(dir, "port"), filepath.Join(dir, "orphan")
			script := `echo $$ > "$PORTPID"; setsid sh -c 'echo $$ > "$ORPHANPID"; exec sleep 300' </dev/null >/dev/null 2>&1 & exec sleep 300`
			cmd := exec.Command(exe, "conform", "--", "sh", "-c", script)
			cmd.Env = append(os.Environ(), "CATALOGKIT_TEST_AS_MAIN=1", "PORTPID="+portPid, "ORPHANPID="+orphanPid)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pids := []int{waitPidFile(t, portPid), waitPidFile(t, orphanPid)}
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.wantCode {
				t.Errorf("conform after %v: %v, want exit status %d", tt.sig, err, tt.wantCode)
			}
			for _, pid := range pids {
				if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
					t.Errorf("process %d of the port survived conform", pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}

func waitPidFile(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil {
			return pid
		}
	}
	t.Fatalf("no pid in %s", path)
	return 0
}
