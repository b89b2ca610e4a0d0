//go:build !unix

package conformance

import (
	"os/exec"
	"syscall"
)

func setGroup(cmd *exec.Cmd) {}

// signalGroup ends the port's process: without process groups, only the
// process itself, and any signal kills it.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
