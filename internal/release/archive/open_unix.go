//go:build unix

package archive

import (
	"errors"
	"syscall"
)

// noFollow makes an open fail on a symbolic link and not block on a FIFO.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLink reports whether err is an open's refusal of a symbolic link.
func isLink(err error) bool { return errors.Is(err, syscall.ELOOP) }
