//go:build !unix

package verify

import (
	"os/exec"
	"time"
)

// setProcessGroup lets cancelling kill the go command only.
func setProcessGroup(cmd *exec.Cmd) (reap func()) {
	cmd.WaitDelay = 3 * time.Second
	return func() {}
}
