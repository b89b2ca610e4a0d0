package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/sign"
)

const keygenExample = `
catalogkit keygen --out ~/.catalogkit/release        # asks for a password twice
catalogkit keygen --unencrypted --out ci-release     # for CI: the file is the secret
minisign -Vm dist/SHA256SUMS -p release.pub          # what third parties run`

// runKeygen writes a new minisign key pair: PREFIX.key and PREFIX.pub.
func runKeygen(c *cli, args []string) int {
	fset := c.flags("keygen", "[--unencrypted] [--password-file FILE | --password-fd N] --out PREFIX", keygenExample)
	out := fset.String("out", "", "write the secret key to `PREFIX`.key (mode 0600) and the public key to PREFIX.pub; never overwrites")
	unencrypted := fset.Bool("unencrypted", false, "write the secret key without a password (for CI, where the key file itself is the secret)")
	asJSON := fset.Bool("json", false, "print the result as JSON")
	var pw passwordFlags
	pw.register(fset)
	if code, ok := c.parse(fset, args, false); !ok {
		return code
	}
	switch {
	case *out == "":
		return c.badUsage("keygen needs --out PREFIX")
	case strings.HasSuffix(*out, "/") || strings.HasSuffix(*out, string(filepath.Separator)) || isDir(*out):
		return c.badUsage("--out %s is a folder: give a prefix of file names, such as %s", *out, filepath.Join(*out, "release"))
	case *unencrypted && pw.given():
		return c.badUsage("--unencrypted takes no password: give one or the other")
	}
	if err := pw.check(); err != nil {
		return c.badUsage("%v", err)
	}
	pw.warnReadable(c)
	for _, p := range []string{*out + sign.SecretKeySuffix, *out + sign.PublicKeySuffix} {
		if _, err := os.Lstat(p); err == nil {
			return c.errorf("choose another --out, or move the old key pair away first: keygen never replaces a key", "refusing to overwrite %s", p)
		}
	}

	opts := sign.KeyOptions{Unencrypted: *unencrypted}
	if !*unencrypted {
		if err := sign.CheckScryptMemory(sign.ScryptMemory); err != nil {
			return c.memoryError(err)
		}
		p, err := pw.source("Password for the new secret key: ", true)()
		if err != nil {
			return c.passwordError(err)
		}
		opts.Password = p
	}
	// Encrypting takes seconds of scrypt: Ctrl-C must still end the run at
	// once. Nothing is on disk until WriteKeyPair, which is quick.
	ctx, stop, signalled := interruptible()
	defer stop()
	type result struct {
		kp  *sign.KeyPair
		err error
	}
	done := make(chan result, 1)
	go func() {
		kp, err := sign.GenerateKey(opts)
		done <- result{kp, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return signalled()
	}
	var me *sign.MemoryError
	switch {
	case errors.As(r.err, &me):
		return c.memoryError(r.err)
	case r.err != nil:
		return c.cannotRun("", "failed to generate a key: %v", r.err)
	}
	secret, public, err := sign.WriteKeyPair(*out, r.kp)
	switch {
	case errors.Is(err, fs.ErrExist):
		return c.errorf("choose another --out: keygen never replaces a key", "%v", err)
	case err != nil:
		return c.cannotRun("", "%v", err)
	}

	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			SecretKey string `json:"secret_key"`
			PublicKey string `json:"public_key"`
			KeyID     string `json:"key_id"`
			Encrypted bool   `json:"encrypted"`
		}{secret, public, r.kp.ID, !*unencrypted})
		return exitOK
	}
	how := "encrypted with your password"
	if *unencrypted {
		how = "NOT encrypted: anyone who reads it can sign"
	}
	fmt.Fprintf(c.stdout, "wrote %s: the secret key, %s; keep it private\n", secret, how)
	fmt.Fprintf(c.stdout, "wrote %s: the public key; publish it where users get it from you, not beside the releases\n", public)
	return exitOK
}

// passwordFlags are the ways to give the password of a secret key: never as
// an argument, which other users and shell history see.
type passwordFlags struct {
	file string
	fd   int
}

func (p *passwordFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.file, "password-file", "", "read the secret key's password from the first line of `FILE` (default: ask on the terminal)")
	p.fd = -1
	fs.Func("password-fd", "read the secret key's password from open file descriptor `N`, e.g. 3 with 3<secret", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("not a file descriptor number: %q", s)
		}
		p.fd = n
		return nil
	})
}

func (p *passwordFlags) given() bool { return p.file != "" || p.fd >= 0 }

func (p *passwordFlags) check() error {
	if p.file != "" && p.fd >= 0 {
		return errors.New("give at most one of --password-file and --password-fd")
	}
	return nil
}

// warnReadable warns when the password file can be read by other users:
// the password is as secret as the key it opens.
func (p *passwordFlags) warnReadable(c *cli) {
	if fi, err := os.Stat(p.file); p.file != "" && err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(c.stderr, "catalogkit: warning: the password file %s can be read by other users (mode %04o): chmod 600 %s\n", p.file, fi.Mode().Perm(), p.file)
	}
}

// source returns where the password comes from; the terminal asks with
// prompt (twice with confirm).
func (p *passwordFlags) source(prompt string, confirm bool) sign.PasswordFunc {
	switch {
	case p.file != "":
		return sign.PasswordFile(p.file)
	case p.fd >= 0:
		return sign.PasswordFD(p.fd)
	}
	return sign.PasswordTerminal(prompt, confirm)
}

// passwordError reports a password that could not be had: a missing file is
// an I/O error (3), anything else is bad usage (2).
func (c *cli) passwordError(err error) int {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return c.cannotRun("", "%v", err)
	}
	return c.usageError("give the password on the first line of --password-file or --password-fd, or run on a terminal", "%v", err)
}

// memoryError reports a *sign.MemoryError: exit status 3.
func (c *cli) memoryError(err error) int {
	return c.cannotRun("raise the limit (ulimit -v, or the container's memory limit) to let scrypt run, or use a key made with keygen --unencrypted where the key file itself is the secret (CI)", "%v", err)
}

// isDir reports whether path names a folder (a link to one included).
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
