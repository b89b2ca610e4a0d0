//go:build !linux

package proc

import "os/exec"

// Without /proc and a child subreaper, the runner ends a port's process group
// only (see proc_unix.go).

func BecomeSubreaper() {}

// Start starts a port's process in its own process group.
func Start(cmd *exec.Cmd) error {
	SetGroup(cmd)
	return cmd.Start()
}

func EndDescendants(marker string, leader int) {}

// EndChildren does nothing here: it ends the children of the calling process
// on Linux only.
func EndChildren() {}
