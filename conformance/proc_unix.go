//go:build unix

package conformance

import (
	"os/exec"
	"syscall"
)

// setGroup starts the port in its own process group, so that killing it
// also kills what it started (a shell script's interpreter, say).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
