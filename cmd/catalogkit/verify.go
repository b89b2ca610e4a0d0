package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/release/verify"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

const verifyExample = `
cd dist && sha256sum -c SHA256SUMS && cd ..
catalogkit verify --sums dist/SHA256SUMS dist/catalogkit-0.1.0.zip
catalogkit verify --sha256 <hex> --no-exec --json catalogkit-0.1.0.zip
catalogkit verify --key catalogkit.pub --sums SHA256SUMS --rebuild ~/src/catalogkit catalogkit-0.1.0.zip
catalogkit verify --rebuild ~/src/catalogkit@v0.1.0 catalogkit-0.1.0.zip`

// runVerify checks a release archive: see package verify for the steps. The
// text report streams: each step's line is printed as the step ends. Exit
// status: 0 every requested step passed; 1 a check failed; 2 bad usage; 3
// could not run (the archive or SHA256SUMS cannot be read or is not a
// regular file, an I/O error); 130/143 after SIGINT/SIGTERM, with the
// extracted tree and the go command's folders removed.
func runVerify(c *cli, args []string) int {
	fs := c.flags("verify", "[flags] ARCHIVE", verifyExample)
	sum := fs.String("sha256", "", "expected SHA-256 of the archive, in hex (checked before parsing)")
	sums := fs.String("sums", "", "a SHA256SUMS `file` with a line for the archive's name")
	keep := fs.String("keep", "", "extract into `DIR` and leave it there (DIR must not exist or be empty)")
	var keys keyFiles
	fs.Var(&keys, "key", "a minisign public key `PUBFILE` you trust (repeatable): SHA256SUMS.minisig beside --sums must be signed by one, checked before the archive is read")
	rebuild := fs.String("rebuild", "", "rebuild from `DIR[@REV]`: pack commit REV (default: the one the signature names, else HEAD) of your own git checkout DIR in a clean clone, and require the archive to be exactly those bytes (an identity that needs no key)")
	exec := fs.Bool("exec", false, "re-run the archive's tests even when only an unsigned --sums file vouches for it (runs code whose author was not checked)")
	noExec := fs.Bool("no-exec", false, "do not re-run the archive's tests (the step is reported as not run)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	sandboxMode := fs.String("sandbox", string(verify.SandboxAuto), "run the archive's tests in a sandbox (bubblewrap: no network, no view of your processes, home or files but the tree and the build cache): `MODE` auto (where the system allows it, else say why and run them unsandboxed), require (refuse to run them unsandboxed) or off")
	cold := fs.Bool("cold-cache", false, "re-run the tests with an empty build cache made for this run and removed after it, instead of catalogkit's own cache (slower: compiles the standard library)")
	lim := archive.DefaultLimits
	fs.IntVar(&lim.MaxEntries, "max-entries", lim.MaxEntries, "most entries an archive may have (catalogkit pack writes within the defaults)")
	fs.Int64Var(&lim.MaxFileSize, "max-file-size", lim.MaxFileSize, "most uncompressed bytes of one file")
	fs.Int64Var(&lim.MaxTotalSize, "max-total-size", lim.MaxTotalSize, "most uncompressed bytes of all files")
	fs.Int64Var(&lim.MaxRatio, "max-ratio", lim.MaxRatio, "most an entry may expand (uncompressed ≤ ratio × compressed + 64 KiB)")

	path, code, ok := parseWithOneArg(c, fs, args)
	if !ok {
		return code
	}
	switch {
	case *sum != "" && *sums != "":
		return c.badUsage("give at most one of --sha256 and --sums")
	case len(*sum) != 64 && *sum != "":
		return c.badUsage("--sha256 %q is not 64 hex digits", *sum)
	case *exec && *noExec:
		return c.badUsage("give at most one of --exec and --no-exec")
	case len(keys.paths) > 0 && *sums == "":
		return c.badUsage("--key checks the signature beside a SHA256SUMS file: give --sums too")
	case lim.Check() != nil:
		return c.badUsage("%v", lim.Check())
	}
	mode, merr := verify.ParseSandboxMode(*sandboxMode)
	if merr != nil {
		return c.badUsage("--sandbox: %v", merr)
	}
	if *keep != "" {
		if ents, err := os.ReadDir(*keep); err == nil && len(ents) > 0 {
			return c.usageError("give a new or empty directory", "--keep directory %q is not empty", *keep)
		} else if err != nil && !os.IsNotExist(err) {
			return c.usageError("give a new or empty directory", "--keep %q: %v", *keep, err)
		}
	}

	var src *verify.RebuildSource
	if *rebuild != "" {
		rs, err := verify.ParseRebuild(*rebuild)
		if err != nil {
			return c.badUsage("%v", err)
		}
		src = &rs
	}

	pubs, kerr := keys.load()
	var ae *archive.Error
	atHash := fmt.Sprintf("step %d (%s)", verify.StepNumber(verify.StepHash), verify.StepHash)
	switch {
	case errors.As(kerr, &ae) && (ae.Code == archive.CodeIO || ae.Code == verify.CodeNotFile):
		return c.cannotRun("give the public key file (a minisign .pub file) you trust", "cannot read --key: %v", kerr)
	case errors.As(kerr, &ae):
		return c.errorf("give the catalogkit public key (a minisign .pub file) you trust", "verification failed at %s, nothing read: %v [%s]", atHash, kerr, ae.Code)
	case kerr != nil:
		return c.errorf("give the catalogkit public key (a minisign .pub file) you trust", "verification failed at %s, nothing read: %v", atHash, kerr)
	}

	ctx, stop, signalled := interruptible()
	defer stop()
	opts := verify.Options{
		SHA256: *sum, SumsFile: *sums, Limits: lim, KeepDir: *keep, NoExec: *noExec,
		Keys: pubs, Exec: *exec, Rebuild: src, Sandbox: mode,
	}
	if *cold {
		opts.Tests = verify.ReleaseTests()
		opts.Tests.Cold = true
	}
	if !*asJSON {
		opts.OnStep = verify.TextStream(c.stdout)
		var mu sync.Mutex
		opts.OnProgress = func(what string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(c.stdout, "  %s\n", termsafe.Printable(what)) // package paths come from the archive
		}
		opts.OnExec = func(*verify.Report) {
			io.WriteString(c.stdout, "  about to run code from the archive (go test, with an allow-listed environment)\n")
		}
	}
	rep := verify.Verify(ctx, path, opts)
	write := rep.WriteVerdict
	if *asJSON {
		write = rep.WriteJSON
	}
	if code, ok := c.writeReport(write); !ok {
		return code
	}
	if code := signalled(); code != 0 {
		c.printError("", "interrupted: the extracted tree and temporary folders were removed")
		return code
	}
	if rep.OK() {
		return exitOK
	}
	if f := rep.FailedStep(); f != nil {
		h, ok := failHints[f.Code()]
		switch {
		case f.Code() == archive.CodeIO || f.Code() == verify.CodeNotFile:
			if f.Step == verify.StepHash { // neither code has a failHint
				h.text = "give the path of a regular file: the downloaded archive (and its SHA256SUMS)"
			}
			return c.cannotRun(h.text, "could not verify: %s", f.Summary)
		case h.cannotRun:
			return c.cannotRun(h.text, "could not verify: %s", f.Summary)
		case !ok:
			h.text = stepHint[f.Step]
		}
		return c.errorf(h.text, "verification failed at step %s: %s", f.Step, f.Summary)
	}
	return c.errorf("give --key with --sums, --sha256 or --rebuild so that the tests can run, or --no-exec to skip them", "verification incomplete: the tests did not run because the archive's identity was not checked")
}

// A failHint is what to do about one way verification stops; cannotRun
// marks a stop that is not the archive's fault (exit status 3 rather than 1).
type failHint struct {
	text      string
	cannotRun bool
}

// failHints is what to do about a failed step, by its code.
var failHints = map[archive.Code]failHint{
	verify.CodeKeepDir:         {"give --keep a new folder in one that exists and can be written, or an empty folder", true},
	archive.CodeRebuildSource:  {"give your own git checkout of catalogkit as --rebuild DIR or DIR@REV, with the commit fetched (git fetch --tags)", true},
	verify.CodeNoGo:            {text: "install Go (https://go.dev/dl/) and put it on PATH, or pass --no-exec"},
	verify.CodeNoSandbox:       {text: "install bubblewrap (apt-get install bubblewrap) or allow unprivileged user namespaces, or give --sandbox auto"},
	verify.CodeRebuildMismatch: {text: "the archive is not what that commit packs to: the report says how they differ (rebuild.diff with --json); check that DIR@REV is the release's commit and that this catalogkit's compressor version is the manifest's (catalogkit version)"},
	verify.CodeRebuildRefused:  {text: "that commit is not a packable release tree: check that DIR is a clone of catalogkit and REV the release's commit"},
	verify.CodeArchiveHash:     {text: "the archive is not the published one: download it again from the release page"},
	verify.CodeCases:           {text: "the archive's test plan or its conformance cases are not what a release states (testdata/release-tests.json, and every case file's id run once): tell the maintainers; --no-exec checks everything else"},
	verify.CodeTreeChanged:     {text: "do not use the kept tree: the archive's tests changed it while they ran without the sandbox; verify again without --sandbox off to keep an untouched tree"},
	archive.CodeTooManyEntries: {text: limitsHint},
	archive.CodeFileTooLarge:   {text: limitsHint},
	archive.CodeTotalTooLarge:  {text: limitsHint},
	archive.CodeRatio:          {text: limitsHint},
}

const limitsHint = "if you trust this archive's size, raise the limit with --max-entries, --max-file-size, --max-total-size or --max-ratio"

// stepHint is what to do when a step fails for a reason that has no hint of
// its own.
var stepHint = map[string]string{
	verify.StepHash:     "do not unpack the archive: download it, SHA256SUMS and SHA256SUMS.minisig again from the release page, and check that --key is the maintainers' public key (its key ID is in the release announcement)",
	verify.StepParse:    "do not unpack the archive: it is damaged or was not written by catalogkit pack; download it again, and tell the maintainers if the new copy fails too",
	verify.StepExtract:  "do not unpack the archive: it is damaged or was not written by catalogkit pack; download it again, and tell the maintainers if the new copy fails too",
	verify.StepManifest: "do not use the archive: its files are not the ones its manifest lists; download it again, and tell the maintainers if the new copy fails too",
	verify.StepRepack:   "do not use the archive: its bytes are not what catalogkit pack makes of its files; download it again, and tell the maintainers if the new copy fails too",
	verify.StepTests:    "the archive's own tests failed on this machine: their output is in the report above; --keep DIR keeps the extracted tree to run them again (go test -short with the packages of its testdata/release-tests.json)",
}

// parseWithOneArg parses flags before and after exactly one positional
// argument, so that both "verify --json A" and "verify A --json" work.
func parseWithOneArg(c *cli, fs *flag.FlagSet, args []string) (string, int, bool) {
	code, ok := c.parse(fs, args, true)
	if !ok {
		return "", code, false
	}
	if fs.NArg() == 0 {
		return "", c.badUsage("missing ARCHIVE"), false
	}
	arg := fs.Arg(0)
	if code, ok := c.parse(fs, fs.Args()[1:], false); !ok {
		return "", code, false
	}
	return arg, 0, true
}

// keyFiles collects repeated --key flags.
type keyFiles struct{ paths []string }

func (k *keyFiles) String() string     { return strings.Join(k.paths, ",") }
func (k *keyFiles) Set(s string) error { k.paths = append(k.paths, s); return nil }

// load reads and parses every key file.
func (k *keyFiles) load() ([]sign.PublicKey, error) {
	var keys []sign.PublicKey
	for _, p := range k.paths {
		data, _, rerr := verify.ReadSmall(p, "public key", sign.MaxKeyFileSize, sign.CodeKeyFormat)
		if rerr != nil {
			return nil, rerr
		}
		pk, err := sign.ParsePublicKey(p, data)
		if err != nil {
			return nil, err
		}
		keys = append(keys, pk)
	}
	return keys, nil
}
