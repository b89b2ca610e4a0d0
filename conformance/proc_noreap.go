//go:build !linux

package conformance

import "os/exec"

// Without /proc and a child subreaper, the runner ends a port's process group
// only (see proc_unix.go).

func becomeSubreaper() {}

// startProcess starts a port's process in its own process group.
func startProcess(cmd *exec.Cmd) error {
	setGroup(cmd)
	return cmd.Start()
}

func endDescendants(marker string, leader int) {}

// EndChildren does nothing here: it ends the children of the calling process
// on Linux only.
func EndChildren() {}
