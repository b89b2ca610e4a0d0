//go:build !linux

package conformance

// Without /proc and a child subreaper, the runner ends a port's process group
// only (see proc_unix.go).

func becomeSubreaper() {}

func endDescendants(marker string, leader int) {}

// EndChildren does nothing here: it ends the children of the calling process
// on Linux only.
func EndChildren() {}
