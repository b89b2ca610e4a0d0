//go:build !unix

package verify

import (
	"os/exec"
	"time"
)

// setProcessGroup lets cancelling kill the go command only.
func setProcessGroup(cmd *exec.Cmd) (reap func()) {
	cmd.WaitDelay = 500 * time.Millisecond
	return func() {}
}
