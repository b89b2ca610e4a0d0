package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"github.com/catalogkit/catalogkit/internal/verify"
)

const verifyExample = `
cd dist && sha256sum -c SHA256SUMS && cd ..
catalogkit verify --sums dist/SHA256SUMS dist/catalogkit-0.1.0.zip
catalogkit verify --sha256 <hex> --no-exec --json catalogkit-0.1.0.zip`

// runVerify checks a release archive: see package verify for the steps.
func runVerify(c *cli, args []string) int {
	fs := c.flags("verify", "[flags] ARCHIVE", verifyExample)
	sum := fs.String("sha256", "", "expected SHA-256 of the archive, in hex (checked before parsing)")
	sums := fs.String("sums", "", "a SHA256SUMS `file` with a line for the archive's name")
	keep := fs.String("keep", "", "extract into `DIR` and leave it there (DIR must not exist or be empty)")
	noExec := fs.Bool("no-exec", false, "do not re-run the archive's tests (the step is reported as not run)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	lim := verify.DefaultLimits
	fs.IntVar(&lim.MaxEntries, "max-entries", lim.MaxEntries, "most entries an archive may have")
	fs.Int64Var(&lim.MaxFileSize, "max-file-size", lim.MaxFileSize, "most uncompressed bytes of one file")
	fs.Int64Var(&lim.MaxTotalSize, "max-total-size", lim.MaxTotalSize, "most uncompressed bytes of all files")
	fs.Int64Var(&lim.MaxRatio, "max-ratio", lim.MaxRatio, "most an entry may expand (uncompressed ≤ ratio × compressed + 64 KiB)")

	archive, code, ok := parseWithOneArg(c, fs, args)
	if !ok {
		return code
	}
	hint := "run 'catalogkit verify -h' for usage"
	switch {
	case *sum != "" && *sums != "":
		return c.usageError(hint, "give at most one of --sha256 and --sums")
	case len(*sum) != 64 && *sum != "":
		return c.usageError(hint, "--sha256 %q is not 64 hex digits", *sum)
	case lim.MaxEntries <= 0 || lim.MaxFileSize <= 0 || lim.MaxTotalSize <= 0 || lim.MaxRatio <= 0:
		return c.usageError(hint, "limits must be positive")
	case lim.MaxFileSize >= 1<<32:
		return c.usageError(hint, "--max-file-size must be below 4 GiB (the packager never writes zip64)")
	}
	if *keep != "" {
		if ents, err := os.ReadDir(*keep); err == nil && len(ents) > 0 {
			return c.usageError("give a new or empty directory", "--keep directory %q is not empty", *keep)
		} else if err != nil && !os.IsNotExist(err) {
			return c.usageError("give a new or empty directory", "--keep %q: %v", *keep, err)
		}
	}

	// Ctrl-C cancels the run; Verify removes its directory before returning.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep := verify.Verify(ctx, archive, verify.Options{
		SHA256: *sum, SumsFile: *sums, Limits: lim, KeepDir: *keep, NoExec: *noExec,
	})
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return c.errorf("", "failed to write report: %v", err)
		}
	} else {
		rep.WriteText(c.stdout)
	}
	if rep.OK() {
		return 0
	}
	if f := rep.FailedStep(); f != nil {
		h := ""
		switch f.Code() {
		case verify.CodeNoGo:
			h = "install Go (https://go.dev/dl/) and put it on PATH, or pass --no-exec"
		case verify.CodeArchiveHash:
			h = "the archive is not the published one: download it again from the release page"
		case verify.CodeTooManyEntries, verify.CodeFileTooLarge, verify.CodeTotalTooLarge, verify.CodeRatio:
			h = "if you trust this archive's size, raise the limit with --max-entries, --max-file-size, --max-total-size or --max-ratio"
		}
		return c.errorf(h, "verification failed at step %s: %s", f.Step, f.Summary)
	}
	return c.errorf("give --sha256 or --sums so the tests can run, or --no-exec to skip them", "verification incomplete: the tests did not run because the archive's identity was not checked")
}

// parseWithOneArg parses flags before and after exactly one positional
// argument, so that both "verify --json A" and "verify A --json" work.
func parseWithOneArg(c *cli, fs *flag.FlagSet, args []string) (string, int, bool) {
	code, ok := c.parse(fs, args, true)
	if !ok {
		return "", code, false
	}
	if fs.NArg() == 0 {
		return "", c.usageError("run 'catalogkit verify -h' for usage", "missing ARCHIVE"), false
	}
	arg := fs.Arg(0)
	if code, ok := c.parse(fs, fs.Args()[1:], false); !ok {
		return "", code, false
	}
	return arg, 0, true
}
