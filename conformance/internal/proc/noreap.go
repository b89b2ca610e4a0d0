//go:build !linux

package proc

import "os/exec"

// Without /proc and a child subreaper, the runner ends a port's process group
// only (see proc_unix.go).

func BecomeSubreaper() {}

// Start starts a port's process in its own process group. Its start time
// is not known here (0).
func Start(cmd *exec.Cmd) (born uint64, err error) {
	SetGroup(cmd)
	return 0, cmd.Start()
}

func EndDescendants(marker string, leader int, born uint64) {}

// EndChildren does nothing here: it ends the children of the calling process
// on Linux only.
func EndChildren() {}
