//go:build unix

package verify

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup runs cmd in its own process group. Cancelling sends
// SIGTERM to the whole group (the go command and the test binaries it
// started), so the go command can clean up; after a grace period the
// process is killed. The returned function, called after Wait, kills
// whatever of the group is left.
func setProcessGroup(cmd *exec.Cmd) (reap func()) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 500 * time.Millisecond
	return func() {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}
