//go:build !unix

package proc

import (
	"os/exec"
	"syscall"
)

func SetGroup(cmd *exec.Cmd) {}

// SignalGroup ends the port's process: without process groups, only the
// process itself, and any signal kills it.
func SignalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
