package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/catalogkit/catalogkit/internal/archive"
)

// runPack builds the deterministic release archive, its manifest and
// SHA256SUMS. Exit status: 0 written; 1 the tree was refused (every problem
// listed); 2 bad usage; 3 could not run (git cannot say what is committed,
// another pack holds the output folder, an I/O error); 130/143 after
// SIGINT/SIGTERM, with the temporary files removed and the output folder as
// it was.
func runPack(c *cli, args []string) int {
	fs := c.flags("pack", "[--dir .] [--out dist] [--json]", `
catalogkit pack --out dist
cd dist && sha256sum -c SHA256SUMS`)
	dir := fs.String("dir", ".", "release tree to pack (the repo root or an extracted release)")
	out := fs.String("out", "dist", "directory to write catalogkit-<version>.zip and SHA256SUMS to (locked while writing)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}

	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		c.printError("give the release tree with --dir", "cannot read %q: %v", *dir, err)
		return 3
	}
	ctx, stop, signalled := interruptible()
	defer stop()
	err := archive.CheckCheckout(*dir)
	var res *archive.Result
	if err == nil {
		res, err = archive.WriteRelease(ctx, *dir, *out, archive.Options{})
	}
	if code := signalled(); code != 0 {
		c.printError("", "interrupted: %s left as it was, temporary files removed", *out)
		return code
	}
	var re *archive.RefusalError
	switch {
	case errors.As(err, &re) && re.Problems[0].Code == archive.CodeGitFailed:
		c.printError("run 'git status' in "+*dir+" to see why; for \"dubious ownership\", pack as the checkout's owner", "refusing to pack %q: %v", *dir, re.Problems[0])
		return 3
	case errors.As(err, &re):
		fmt.Fprintf(c.stderr, "catalogkit: error: refusing to pack %q: %d problem(s):\n", *dir, len(re.Problems))
		for _, p := range re.Problems {
			fmt.Fprintf(c.stderr, "  %q: %s [%s]\n", p.Entry, p.Detail, p.Code)
		}
		fmt.Fprintf(c.stderr, "hint: a release is exactly a commit of regular files with portable names: rename, remove, replace or commit these files\n")
		return 1
	case errors.Is(err, archive.ErrLocked):
		c.printError("two packs into one folder at once would mix their files; wait for the other to finish", "%v", err)
		return 3
	case err != nil:
		c.printError("", "failed to pack %q: %v", *dir, err)
		return 3
	}

	zip := filepath.Join(*out, res.Name)
	sums := filepath.Join(*out, archive.SumsName)
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Archive    string `json:"archive"`
			Sums       string `json:"sums"`
			Version    string `json:"version"`
			Size       int64  `json:"size"`
			SHA256     string `json:"sha256"`
			TreeHash   string `json:"tree_hash"`
			TreeSHA256 string `json:"tree_sha256"`
			Files      int    `json:"files"`
		}{zip, sums, res.Version, res.Size, res.SHA256, res.TreeHash, res.TreeSHA256, len(res.Files)}); err != nil {
			c.printError("", "failed to write result: %v", err)
			return 3
		}
		return 0
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", zip)
	fmt.Fprintf(c.stdout, "  size:      %d bytes\n", res.Size)
	fmt.Fprintf(c.stdout, "  sha256:    %s\n", res.SHA256)
	fmt.Fprintf(c.stdout, "  tree hash: %s\n", res.TreeHash)
	fmt.Fprintf(c.stdout, "  files:     %d, plus %s\n", len(res.Files), archive.ManifestName)
	fmt.Fprintf(c.stdout, "wrote %s\n", sums)
	return 0
}
