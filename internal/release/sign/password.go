package sign

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// MaxPasswordSize is the longest password accepted, minisign's own limit.
const MaxPasswordSize = 1024

// PasswordFile returns a [PasswordFunc] that reads the password from the
// first line of the file at path: one line, LF- or CRLF-terminated or not.
func PasswordFile(path string) PasswordFunc {
	return func() (string, error) {
		f, err := os.Open(path)
		if err != nil {
			return "", &Error{Code: CodePassword, Detail: "failed to open the password file", Err: err}
		}
		defer f.Close()
		return readPassword(f, fmt.Sprintf("password file %q", path))
	}
}

// PasswordFD returns a [PasswordFunc] that reads the password from the open
// file descriptor fd (a pipe from a secret store, say) until end of file,
// then closes it.
func PasswordFD(fd int) PasswordFunc {
	return func() (string, error) {
		if fd < 0 {
			return "", errorf(CodePassword, "file descriptor %d is not valid", fd)
		}
		f := os.NewFile(uintptr(fd), fmt.Sprintf("fd %d", fd))
		if f == nil {
			return "", errorf(CodePassword, "file descriptor %d is not open", fd)
		}
		defer f.Close()
		return readPassword(f, fmt.Sprintf("file descriptor %d", fd))
	}
}

// readPassword reads one line of at most MaxPasswordSize bytes from r.
func readPassword(r io.Reader, name string) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPasswordSize+3))
	if err != nil {
		return "", &Error{Code: CodePassword, Detail: "failed to read the password from " + name, Err: err}
	}
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	switch {
	case len(rest) > 0:
		return "", errorf(CodePassword, "%s has more than one line: put the password alone on the first line", name)
	case len(line) > MaxPasswordSize:
		return "", errorf(CodePassword, "the password in %s is longer than %d bytes", name, MaxPasswordSize)
	case len(line) == 0:
		return "", errorf(CodePassword, "the password in %s is empty", name)
	}
	return string(line), nil
}

// PasswordTerminal returns a [PasswordFunc] that asks for the password on
// the controlling terminal (/dev/tty), without echo, so that standard input
// and output stay free for data. With confirm it asks twice and refuses a
// mismatch, for a new key.
func PasswordTerminal(prompt string, confirm bool) PasswordFunc {
	return func() (string, error) {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return "", errorf(CodePassword, "no terminal to ask for the password on: give --password-file or --password-fd")
		}
		defer tty.Close()
		return askPassword(tty, int(tty.Fd()), prompt, confirm)
	}
}

// askPassword prompts on rw and reads without echo from the terminal fd.
func askPassword(rw io.ReadWriter, fd int, prompt string, confirm bool) (string, error) {
	read := func(p string) (string, error) {
		fmt.Fprint(rw, p)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(rw)
		if err != nil {
			return "", &Error{Code: CodePassword, Detail: "failed to read the password from the terminal", Err: err}
		}
		if len(b) == 0 || len(b) > MaxPasswordSize {
			return "", errorf(CodePassword, "the password must be 1 to %d bytes", MaxPasswordSize)
		}
		return string(b), nil
	}
	pw, err := read(prompt)
	if err != nil || !confirm {
		return pw, err
	}
	again, err := read("Again: ")
	if err != nil {
		return "", err
	}
	if again != pw {
		return "", errorf(CodePassword, "the two passwords differ")
	}
	return pw, nil
}
