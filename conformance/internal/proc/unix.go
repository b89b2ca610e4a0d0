//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// SetGroup starts the port in its own process group, so that ending it also
// ends what it started (a shell script's interpreter, say).
func SetGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// SignalGroup sends sig to the port's process group.
func SignalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig)
		if sig == syscall.SIGKILL {
			_ = cmd.Process.Kill()
		}
	}
}
