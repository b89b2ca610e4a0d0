//go:build unix

package archive

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// lockDir takes an exclusive flock on the file at name, creating it, and
// writes this process's id into it. It fails with ErrLocked at once if
// another process holds the lock. The kernel releases the lock when the
// process ends, however it ends, so a killed run never leaves it held.
func lockDir(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("failed to open the lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := lockHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w%s: wait for it to finish, then run again (lock file %s)", ErrLocked, holder, name)
		}
		return nil, fmt.Errorf("failed to lock %s: %w", name, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}
