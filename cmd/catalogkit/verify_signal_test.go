//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/sandbox"
	"github.com/catalogkit/catalogkit/internal/testlib/proctest"
)

// holdTest is a test file whose init() makes the archive's test binary
// deaf to SIGINT and SIGTERM, and starts, in a new session, a process that
// holds go test's standard output (verify's pipe) open: %q is the sleep
// argument that names it.
const holdTest = `package conformance

import (
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
)

func init() {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	out, err := os.OpenFile("/proc/"+strconv.Itoa(os.Getppid())+"/fd/1", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	c := exec.Command("sleep", %q)
	c.Stdout = out
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	c.Start()
}
`

// TestVerifySignalHeldOutput sends SIGTERM or SIGINT to a real catalogkit
// verify while the archive's tests run, deaf to both, and a process they
// started in a new session holds verify's output: verify must still end
// promptly with 143 or 130, sandboxed or not, and, sandboxed, leave no
// process behind.
func TestVerifySignalHeldOutput(t *testing.T) {
	bin := buildCatalogkit(t)
	cache := t.TempDir() // shared, so that only the first run compiles the standard library
	tests := []struct {
		sandbox string
		sig     syscall.Signal
		want    int
	}{
		{"auto", syscall.SIGTERM, 143},
		{"off", syscall.SIGTERM, 143},
		{"off", syscall.SIGINT, 130},
	}
	for _, tt := range tests {
		t.Run(tt.sandbox+"-"+tt.sig.String(), func(t *testing.T) {
			arg := fmt.Sprintf("300.%d", time.Now().UnixNano()%1000000000)
			tree := releaseTree(t, time.Minute)
			if err := os.WriteFile(filepath.Join(tree, "conformance", "hold_test.go"), fmt.Appendf(nil, holdTest, arg), 0o644); err != nil {
				t.Fatal(err)
			}
			archive, sums := release(t, tree)
			tmp := t.TempDir()
			cmd := exec.Command(bin, "verify", "--exec", "--sandbox", tt.sandbox, "--sums", sums, archive)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_CACHE_HOME="+cache, "HOME="+t.TempDir())
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := waitStarted(t, cmd, tmp, &stdout, &stderr)
			cmd.Process.Signal(tt.sig)
			signalled := time.Now()
			select {
			case <-done:
				t.Logf("verify --sandbox %s ended %v after %v", tt.sandbox, time.Since(signalled), tt.sig)
				if code := cmd.ProcessState.ExitCode(); code != tt.want {
					t.Errorf("exit %d, want %d\n%s\n%s", code, tt.want, stdout.String(), stderr.String())
				}
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("verify did not end within 30s of %v\n%s", tt.sig, stdout.String())
			}
			time.Sleep(100 * time.Millisecond)
			for _, pid := range sleepingArg(arg) {
				if tt.sandbox == "auto" && sandbox.Check() == nil {
					t.Errorf("sandboxed, process %d the tests started outlived verify", pid)
				} else {
					t.Logf("unsandboxed, process %d the tests started in a new session outlived verify (killed)", pid)
				}
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

// sleepingArg returns the processes running sleep arg.
func sleepingArg(arg string) []int { return proctest.Sleeping(arg) }
