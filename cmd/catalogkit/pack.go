package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/provenance"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/release/verify"
)

// runPack builds the deterministic release archive, its manifest and
// SHA256SUMS. Exit status: 0 written; 1 the tree was refused (every problem
// listed); 2 bad usage; 3 could not run (git cannot say what is committed,
// another pack holds the output folder, an I/O error); 130/143 after
// SIGINT/SIGTERM, with the temporary files removed and the output folder as
// it was.
func runPack(c *cli, args []string) int {
	fs := c.flags("pack", "[--dir .] [--out dist] [--sign KEYFILE [--password-file FILE | --password-fd N]] [--json]", `
catalogkit pack --out dist
cd dist && sha256sum -c SHA256SUMS
catalogkit pack --sign ~/.catalogkit/release.key --out dist
minisign -Vm dist/SHA256SUMS -p release.pub`)
	dir := fs.String("dir", ".", "release tree to pack (the repo root or an extracted release)")
	out := fs.String("out", "dist", "directory to write catalogkit-<version>.zip and SHA256SUMS to (locked while writing)")
	keyFile := fs.String("sign", "", "sign with the minisign secret key `KEYFILE`: adds SHA256SUMS.minisig and catalogkit-<version>.provenance.json with its .minisig (dir must be a git checkout)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	var pw passwordFlags
	pw.register(fs)
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}
	if err := pw.check(); err != nil {
		return c.badUsage("%v", err)
	}
	if pw.given() && *keyFile == "" {
		return c.badUsage("a password is for the secret key of --sign: give --sign KEYFILE too")
	}
	pw.warnReadable(c)

	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		c.printError("give the release tree with --dir", "cannot read %q: %v", *dir, err)
		return exitCannotRun
	}
	if err := archive.CheckOutDir(*dir, *out); err != nil {
		return c.usageError("give --out a folder outside the release tree, or dist", "%v", err)
	}
	ctx, stop, signalled := interruptible()
	defer stop()
	var opts archive.Options
	var key *sign.SecretKey
	if *keyFile != "" {
		var code int
		if key, code = c.readSecretKey(ctx, *keyFile, pw); key == nil {
			if s := signalled(); s != 0 {
				return s
			}
			return code
		}
		in, err := provenance.FromCheckout(*dir)
		if err != nil {
			return c.cannotRun("sign from the git checkout the release is made of; pack without --sign for an extracted release", "cannot sign: %v", err)
		}
		opts.Sign = provenance.Signer(key, in)
		if !in.Clean {
			fmt.Fprintf(c.stderr, "catalogkit: note: %s has changed or untracked files outside the release (git status shows them): the signed provenance will say checkoutClean false\n", *dir)
		}
	}
	err := archive.CheckCheckout(*dir)
	var res *archive.Result
	if err == nil {
		res, err = archive.WriteRelease(ctx, *dir, *out, opts)
	}
	if code := signalled(); code != 0 {
		c.printError("", "interrupted: %s left as it was, temporary files removed", *out)
		return code
	}
	var re *archive.RefusalError
	switch {
	case errors.As(err, &re) && re.Problems[0].Code == archive.CodeGitFailed:
		c.printError("run 'git status' in "+*dir+" to see why; for \"dubious ownership\", pack as the checkout's owner", "refusing to pack %q: %v", *dir, re.Problems[0])
		return exitCannotRun
	case errors.As(err, &re):
		var list strings.Builder
		for _, p := range re.Problems {
			fmt.Fprintf(&list, "\n  %q: %s [%s]", p.Entry, p.Detail, p.Code)
		}
		return c.errorf("a release is exactly a commit of regular files with portable names: rename, remove, replace or commit these files",
			"refusing to pack %q: %d problem(s):%s", *dir, len(re.Problems), list.String())
	case errors.Is(err, archive.ErrLocked):
		c.printError("two packs into one folder at once would mix their files; wait for the other to finish", "%v", err)
		return exitCannotRun
	case err != nil:
		c.printError("", "failed to pack %q: %v", *dir, err)
		return exitCannotRun
	}

	zip := filepath.Join(*out, res.Name)
	sums := filepath.Join(*out, archive.SumsName)
	type signed struct {
		KeyID      string `json:"key_id"`
		Signature  string `json:"signature"`
		Provenance string `json:"provenance"`
	}
	var sig *signed
	if key != nil {
		sig = &signed{key.ID(), filepath.Join(*out, archive.SumsSigName), filepath.Join(*out, archive.ProvenanceName(res.Version))}
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Archive    string  `json:"archive"`
			Sums       string  `json:"sums"`
			Version    string  `json:"version"`
			Size       int64   `json:"size"`
			SHA256     string  `json:"sha256"`
			TreeHash   string  `json:"tree_hash"`
			TreeSHA256 string  `json:"tree_sha256"`
			Files      int     `json:"files"`
			Signed     *signed `json:"signed"`
		}{zip, sums, res.Version, res.Size, res.SHA256, res.TreeHash, res.TreeSHA256, len(res.Files), sig}); err != nil {
			c.printError("", "failed to write result: %v", err)
			return exitCannotRun
		}
		return exitOK
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", zip)
	fmt.Fprintf(c.stdout, "  size:      %d bytes\n", res.Size)
	fmt.Fprintf(c.stdout, "  sha256:    %s\n", res.SHA256)
	fmt.Fprintf(c.stdout, "  tree hash: %s\n", res.TreeHash)
	fmt.Fprintf(c.stdout, "  files:     %d, plus %s\n", len(res.Files), archive.ManifestName)
	fmt.Fprintf(c.stdout, "wrote %s\n", sums)
	if sig == nil {
		fmt.Fprintf(c.stdout, "release NOT signed (no --sign KEYFILE): no %s or provenance written, any earlier ones of %s removed;\n  third parties can check these bytes, not who made them\n", archive.SumsSigName, res.Version)
		return exitOK
	}
	fmt.Fprintf(c.stdout, "wrote %s: signed by key %s\n", sig.Signature, sig.KeyID)
	fmt.Fprintf(c.stdout, "wrote %s and its %s\n", sig.Provenance, archive.SigSuffix)
	return exitOK
}

// readSecretKey reads and decrypts the secret key at path, asking for its
// password as pw says. Decryption takes seconds of scrypt, so it runs aside
// and ctx's cancellation (Ctrl-C) ends the wait at once. On failure it
// reports the error and returns nil and the exit status.
func (c *cli) readSecretKey(ctx context.Context, path string, pw passwordFlags) (*sign.SecretKey, int) {
	// Regular files only, bounded: a FIFO would wait for a writer and
	// /dev/zero would be read until memory ran out.
	data, _, rerr := verify.ReadSmall(path, "secret key", sign.MaxKeyFileSize, sign.CodeKeyFormat)
	switch {
	case rerr != nil && (rerr.Code == archive.CodeIO || rerr.Code == verify.CodeNotFile):
		return nil, c.cannotRun("give the secret key file catalogkit keygen wrote (PREFIX.key)", "%v", rerr)
	case rerr != nil:
		return nil, c.usageError("give a minisign secret key file (catalogkit keygen or minisign -G writes one)", "%s: %v", rerr.Code, rerr)
	}
	type result struct {
		key *sign.SecretKey
		err error
	}
	done := make(chan result, 1)
	go func() {
		k, err := sign.ParseSecretKey(path, data, pw.source("Password for "+path+": ", false))
		done <- result{k, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return nil, 0
	}
	var se *sign.Error
	var me *sign.MemoryError
	switch {
	case r.err == nil:
		return r.key, 0
	case errors.As(r.err, &me):
		return nil, c.memoryError(r.err)
	case errors.As(r.err, &se) && se.Code == sign.CodePassword:
		return nil, c.usageError("give the password the key was made with", "%v", r.err)
	case errors.As(r.err, &se):
		return nil, c.usageError("give a minisign secret key file (catalogkit keygen or minisign -G writes one)", "%v", r.err)
	}
	return nil, c.passwordError(r.err)
}
