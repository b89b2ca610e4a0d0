package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/catalogkit/catalogkit/internal/pack"
)

// runPack builds the deterministic release archive, its manifest and
// SHA256SUMS.
func runPack(c *cli, args []string) int {
	fs := c.flags("pack", "[--dir .] [--out dist] [--json]", `
catalogkit pack --out dist
cd dist && sha256sum -c SHA256SUMS`)
	dir := fs.String("dir", ".", "release tree to pack (the repo root or an extracted release)")
	out := fs.String("out", "dist", "directory to write catalogkit-<version>.zip and SHA256SUMS to")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}

	err := pack.CheckCheckout(*dir)
	var res *pack.Result
	if err == nil {
		res, err = pack.WriteRelease(*dir, *out, pack.Options{})
	}
	var se *pack.SelectError
	if errors.As(err, &se) {
		fmt.Fprintf(c.stderr, "catalogkit: error: refusing to pack %q: %d problem(s):\n", *dir, len(se.Problems))
		for _, p := range se.Problems {
			fmt.Fprintf(c.stderr, "  %q: %s\n", p.Path, p.Reason)
		}
		fmt.Fprintf(c.stderr, "hint: a release is exactly a commit of regular files with portable names: rename, remove, replace or commit these files\n")
		return 1
	}
	if err != nil {
		return c.errorf("", "failed to pack %q: %v", *dir, err)
	}

	archive := filepath.Join(*out, res.Name)
	sums := filepath.Join(*out, pack.SumsName)
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
		}{archive, sums, res.Version, res.Size, res.SHA256, res.TreeHash, res.TreeSHA256, len(res.Files)}); err != nil {
			return c.errorf("", "failed to write result: %v", err)
		}
		return 0
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", archive)
	fmt.Fprintf(c.stdout, "  size:      %d bytes\n", res.Size)
	fmt.Fprintf(c.stdout, "  sha256:    %s\n", res.SHA256)
	fmt.Fprintf(c.stdout, "  tree hash: %s\n", res.TreeHash)
	fmt.Fprintf(c.stdout, "  files:     %d, plus %s\n", len(res.Files), pack.ManifestName)
	fmt.Fprintf(c.stdout, "wrote %s\n", sums)
	return 0
}
