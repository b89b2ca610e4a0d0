//go:build unix

package verify

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs cmd in its own process group and makes cancelling it
// kill the whole group, so that test binaries go test started die with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
