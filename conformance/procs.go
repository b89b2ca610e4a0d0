package conformance

import "github.com/catalogkit/catalogkit/conformance/internal/proc"

// EndChildren ends every child process the runner still has (a port's
// orphans, which a child subreaper adopts), before the runner exits: see
// internal/proc.
func EndChildren() { proc.EndChildren() }
