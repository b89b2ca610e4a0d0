//go:build !unix

package archive

import (
	"fmt"
	"os"
)

// lockDir creates the lock file exclusively; without flock a killed run
// leaves it, and the next run refuses until it is removed by hand.
func lockDir(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: %v (remove %s if no pack is running)", ErrLocked, err, name)
	}
	return func() { f.Close(); os.Remove(name) }, nil
}
