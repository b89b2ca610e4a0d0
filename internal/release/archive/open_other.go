//go:build !unix

package archive

// noFollow is 0 where the system has no O_NOFOLLOW: Select has refused
// links, and the open file is checked to be a regular file.
const noFollow = 0

func isLink(err error) bool { return false }
