// Command benchverify runs the verifier on a large archive that is not a
// catalogkit release (the packer benchmark's packed copy of the Go source
// tree), for the benchmark script internal/release/verify/bench.sh. It is not part
// of the catalogkit command.
//
// Usage:
//
//	go run ./internal/dev/benchverify [-hash-only] [-sums SHA256SUMS] ARCHIVE
//
// With -hash-only it runs the hash step alone and prints the SHA-256.
// Otherwise it runs every step up to repack with limits raised for the tree (the test
// re-run does not apply) and repacks with [archive.Build] over every extracted
// file, as internal/dev/benchpack packs; it prints each step's time and
// exits 1 unless every step passed.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/verify"
)

// benchLimits are raised for the Go source tree, which is larger than any
// release; benchpack packs with the same limits.
var benchLimits = archive.Limits{MaxEntries: archive.MaxEntries, MaxFileSize: 1 << 30, MaxTotalSize: 1 << 34, MaxRatio: 1000}

func main() {
	hashOnly := flag.Bool("hash-only", false, "only hash the archive (the hash step)")
	sums := flag.String("sums", "", "SHA256SUMS file listing the archive")
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	name := flag.Arg(0)
	if *hashOnly {
		f, err := os.Open(name)
		if err != nil {
			fail(err)
		}
		sum, _, err := verify.HashFile(f)
		if err != nil {
			fail(err)
		}
		fmt.Printf("%s  %s\n", sum, name)
		return
	}
	rep := verify.Verify(context.Background(), name, verify.Options{
		SumsFile: *sums,
		NoExec:   true,
		Limits:   benchLimits,
		Repack:   repack,
	})
	var times []string
	for _, s := range rep.Steps[:5] {
		times = append(times, fmt.Sprintf("%s=%.3fs", s.Step, s.Seconds))
	}
	fmt.Println(strings.Join(times, " "))
	if !rep.OK() {
		rep.WriteText(os.Stderr)
		os.Exit(1)
	}
}

// repack packs every regular file of the extracted tree but the manifest,
// with the version the top folder names.
func repack(ctx context.Context, dir string, w io.Writer) (*archive.Result, error) {
	var files []archive.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == archive.ManifestName {
			return err
		}
		files = append(files, archive.File{Path: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	version := strings.TrimPrefix(filepath.Base(dir), archive.TopPrefix)
	return archive.Build(ctx, dir, version, files, w, archive.Options{Limits: benchLimits})
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "benchverify: error: %v\n", err)
	os.Exit(1)
}
