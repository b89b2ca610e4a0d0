//go:build !linux

package sandbox

import (
	"errors"
	"os"
)

// seccompFile is not needed where the sandbox does not run.
func seccompFile() (*os.File, error) { return nil, errors.New("no seccomp here") }
