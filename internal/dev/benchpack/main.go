// Command benchpack packs every regular file of a directory tree with the
// packager's general code path ([archive.Build]), with limits raised for trees larger than a release, for the benchmark script
// internal/release/archive/bench.sh. It is not part of the catalogkit command.
//
// Usage:
//
//	go run ./internal/dev/benchpack -dir TREE -out FILE.zip [-version 0.0.0-bench] [-c N] [-cpuprofile FILE]
//
// A MANIFEST.sha256 at the top of TREE (an extracted archive) is regenerated,
// not packed, and the files the packager's selection rules exclude
// ([archive.CheckSelected]: dot names, build output, nested modules' files)
// are left out, as the reader would refuse them. It prints the file count, the archive size, its SHA-256 and
// the content tree hash.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

func main() {
	dir := flag.String("dir", "", "tree to pack (required)")
	out := flag.String("out", "", "archive to write (required)")
	version := flag.String("version", "0.0.0-bench", "version naming the top folder")
	conc := flag.Int("c", 0, "files compressed at once (0 = GOMAXPROCS)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *dir == "" || *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchpack: error: %v\n", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "benchpack: error: %v\n", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*dir, *out, *version, *conc); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintf(os.Stderr, "benchpack: error: %v\n", err)
		os.Exit(1)
	}
}

func run(dir, out, version string, conc int) error {
	var files []archive.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel == archive.ManifestName {
			return nil
		}
		files = append(files, archive.File{Path: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return fmt.Errorf("failed to list %q: %w", dir, err)
	}
	// What the packager's selection rules leave out of every release (dot
	// names, build output, nested modules) the reader refuses: leave it out.
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	if refused := archive.CheckSelected(paths); len(refused) > 0 {
		drop := map[string]bool{}
		for _, e := range refused {
			drop[e.Entry] = true
		}
		files = slices.DeleteFunc(files, func(f archive.File) bool { return drop[f.Path] })
		fmt.Fprintf(os.Stderr, "benchpack: left out %d files the packager's selection rules exclude\n", len(drop))
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	res, err := archive.Build(context.Background(), dir, version, files, w, archive.Options{Concurrency: conc, Limits: archive.Limits{MaxEntries: archive.MaxEntries, MaxFileSize: 1 << 30, MaxTotalSize: 1 << 34, MaxRatio: 1000}})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out)
		return err
	}
	fmt.Printf("files %d size %d sha256 %s tree %s\n", len(res.Files), res.Size, res.SHA256, res.TreeHash)
	return nil
}
