//go:build !unix

package verify

import "os/exec"

// setProcessGroup leaves cmd as is: cancelling kills the go command only.
func setProcessGroup(cmd *exec.Cmd) {}
