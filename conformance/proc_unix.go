//go:build unix

package conformance

import (
	"os/exec"
	"syscall"
)

// setGroup starts the port in its own process group, so that ending it also
// ends what it started (a shell script's interpreter, say).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the port's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig)
		if sig == syscall.SIGKILL {
			_ = cmd.Process.Kill()
		}
	}
}
