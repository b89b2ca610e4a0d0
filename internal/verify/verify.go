// Package verify checks a catalogkit release archive the way a third party
// who downloaded it should: assuming it may have been crafted by an attacker.
//
// [Verify] runs six steps in order and reports each outcome apart (README.md,
// "Checking a release (third parties)"):
//
//  1. hash: the archive's SHA-256 against an expected value (--sha256 or a
//     SHA256SUMS file), computed before a single byte is parsed. Without an
//     expected value the step is not run and the report says the archive's
//     identity was not checked.
//  2. parse: a strict, bounded parse that accepts only what the packager
//     writes: local headers contiguous from byte 0, each equal to its central
//     record, the central directory right after the last entry, the end record
//     right after it, no comment, nothing before or after; Store or Deflate;
//     flags exactly bit 11 (UTF-8), so no data descriptor and no encryption;
//     no extra field (so no ZIP64, which the packager never writes); version
//     made by [VersionMadeBy], version needed [VersionNeeded]; the timestamp
//     1980-01-01 00:00:00.
//     [Limits] on entry count, per-file size, total size and compression ratio
//     are checked on the declared sizes first and on the actual bytes while
//     they stream: the reader stops one byte past a declared size. Every
//     entry's data is decompressed and its size and CRC-32 checked (a zero
//     CRC is not "unknown").
//  3. extract: every name is checked before anything is written (valid UTF-8,
//     no control character, no backslash, relative, no drive letter, clean, no
//     "..", under one top-level folder catalogkit-<version>/, regular file of
//     mode 0644 or 0755, no duplicate, no case-fold collision, no name both a
//     file and a directory, nothing else [pack.CheckPaths] refuses such as
//     names reserved on Windows), then files are created with O_EXCL through an
//     [os.Root] in a fresh 0700 directory. The directory is removed on every
//     exit path unless Options.KeepDir is set. The archive is opened read-only.
//  4. manifest: catalogkit-<version>/MANIFEST.sha256 lists every other file
//     exactly once, sorted, with the SHA-256 of the file as extracted on disk;
//     no file unlisted, none missing; the executable files are the ones its
//     metadata names. The content tree hash (dirhash "h1:") is reported.
//  5. repack: packing the extracted tree with the packager gives the same
//     bytes as the archive (and so the SHA-256 of step 1: the tree on disk is
//     what was hashed, even if the file changed after step 1).
//  6. tests: go test -json on the conformance and records packages of the
//     extracted tree, offline (GOPROXY=off, empty module and build caches,
//     GOTOOLCHAIN=local, GOWORK=off), requiring exactly the expected case ids
//     to have run and passed, and the records test too. This runs code from
//     the archive with the user's permissions, so it runs only after steps 1
//     to 5 passed (step 1 included: an archive whose identity was not checked
//     is never executed).
//
// Each problem is an [*Error] with a stable [Code]; the codes are listed by
// step in errors.go. A step that finds problems in bulk (names in step 3,
// files in step 4, cases in step 6) reports all of them, the first deciding
// the step's code.
package verify

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/catalogkit/catalogkit/internal/pack"
)

// Options configure [Verify]. The zero value verifies with [DefaultLimits],
// no expected hash, in a temporary directory, and re-runs the tests.
type Options struct {
	// SHA256 is the expected archive hash in hex; SumsFile a SHA256SUMS file
	// with a line for the archive's base name. At most one may be set.
	SHA256   string
	SumsFile string

	Limits Limits // zero fields mean the DefaultLimits value

	// KeepDir, if set, is where the tree is extracted and left; it must not
	// exist or be empty. Otherwise a fresh directory is made under TempDir
	// (os.TempDir() if empty) and removed at the end.
	KeepDir string
	TempDir string

	// NoExec skips step 6; it is then reported as not run.
	NoExec bool

	// Tests describes what step 6 runs and requires; zero means [ReleaseTests].
	Tests *TestPlan

	// Repack packs the extracted tree at dir into w (step 5); nil means the
	// packager of this module, [pack.Pack]. The benchmark sets it to pack a
	// tree that is not a catalogkit release.
	Repack func(dir string, w io.Writer) (*pack.Result, error)
}

// Status is the outcome of one step.
type Status string

const (
	Passed Status = "passed"
	Failed Status = "failed"
	NotRun Status = "not run"
)

// Step names, in order.
const (
	StepHash     = "hash"
	StepParse    = "parse"
	StepExtract  = "extract"
	StepManifest = "manifest"
	StepRepack   = "repack"
	StepTests    = "tests"
)

// A StepResult is the outcome of one step.
type StepResult struct {
	Step      string   `json:"step"`
	Status    Status   `json:"status"`
	Requested bool     `json:"requested"` // false: not asked for (no expected hash, --no-exec)
	Summary   string   `json:"summary"`   // what passed, or why it did not run
	Errors    []*Error `json:"errors,omitempty"`
	Seconds   float64  `json:"seconds"` // time the step took
}

// Code returns the code of the step's first error, or "".
func (s *StepResult) Code() Code {
	if len(s.Errors) == 0 {
		return ""
	}
	return s.Errors[0].Code
}

// A Report is the outcome of [Verify].
type Report struct {
	Archive  string        `json:"archive"`
	Size     int64         `json:"size"`
	SHA256   string        `json:"sha256,omitempty"`
	Version  string        `json:"version,omitempty"`
	Files    int           `json:"files,omitempty"`
	TreeHash string        `json:"tree_hash,omitempty"`
	Kept     string        `json:"kept_dir,omitempty"`
	Steps    []*StepResult `json:"steps"`
}

// OK reports whether every requested step passed.
func (r *Report) OK() bool {
	for _, s := range r.Steps {
		if s.Requested && s.Status != Passed || s.Status == Failed {
			return false
		}
	}
	return true
}

// Step returns the result of the named step.
func (r *Report) Step(name string) *StepResult {
	for _, s := range r.Steps {
		if s.Step == name {
			return s
		}
	}
	return nil
}

// FailedStep returns the first failed step, or nil.
func (r *Report) FailedStep() *StepResult {
	for _, s := range r.Steps {
		if s.Status == Failed {
			return s
		}
	}
	return nil
}

// Verify checks the archive at path name. It never returns an error: every
// outcome, including failures to read, is in the report. Cancelling ctx stops
// the run at the next check and removes the fresh directory.
func Verify(ctx context.Context, name string, opts Options) *Report {
	v := &verifier{ctx: ctx, opts: opts, rep: &Report{Archive: name}}
	v.lim = opts.Limits
	def := DefaultLimits
	if v.lim.MaxEntries == 0 {
		v.lim.MaxEntries = def.MaxEntries
	}
	if v.lim.MaxFileSize == 0 {
		v.lim.MaxFileSize = def.MaxFileSize
	}
	if v.lim.MaxTotalSize == 0 {
		v.lim.MaxTotalSize = def.MaxTotalSize
	}
	if v.lim.MaxRatio == 0 {
		v.lim.MaxRatio = def.MaxRatio
	}
	v.plan = opts.Tests
	if v.plan == nil {
		v.plan = ReleaseTests()
	}
	for _, s := range []string{StepHash, StepParse, StepExtract, StepManifest, StepRepack, StepTests} {
		v.rep.Steps = append(v.rep.Steps, &StepResult{Step: s, Status: NotRun, Requested: true})
	}
	defer v.cleanup()
	v.run()
	return v.rep
}

type verifier struct {
	ctx  context.Context
	opts Options
	lim  Limits
	plan *TestPlan
	rep  *Report

	f      *os.File
	arch   *archive
	dir    string // the fresh directory (or KeepDir)
	remove bool   // whether dir is ours to remove
	root   string // top-level folder inside dir
}

func (v *verifier) cleanup() {
	if v.f != nil {
		v.f.Close()
	}
	if v.dir != "" && v.remove {
		os.RemoveAll(v.dir)
	}
}

func (v *verifier) run() {
	steps := v.rep.Steps
	hash, parse, extract, manifest, repack, tests := steps[0], steps[1], steps[2], steps[3], steps[4], steps[5]
	f, err := os.Open(v.rep.Archive)
	if err != nil {
		hash.fail(&Error{Code: CodeIO, Offset: -1, Detail: "cannot open archive", Err: err})
		v.skipRest(1, "the archive could not be read")
		return
	}
	v.f = f
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		hash.fail(errf(CodeIO, "", "archive is not a regular file"))
		v.skipRest(1, "the archive could not be read")
		return
	}

	// Step 1: hash the bytes before parsing any.
	start := time.Now()
	ok := v.stepHash(hash)
	hash.Seconds = time.Since(start).Seconds()
	if !ok {
		reason := "the archive hash did not match"
		if c := hash.Code(); c != CodeArchiveHash {
			reason = "the expected hash could not be read (" + string(c) + ")"
		}
		v.skipRest(1, reason)
		return
	}
	if !v.step(parse, v.stepParse) {
		v.skipRest(2, "the strict parse failed")
		return
	}
	if !v.step(extract, v.stepExtract) {
		v.skipRest(3, "extraction failed")
		return
	}
	if !v.step(manifest, v.stepManifest) {
		v.skipRest(4, "the manifest check failed")
		return
	}
	if !v.step(repack, v.stepRepack) {
		v.skipRest(5, "repacking did not reproduce the archive")
		return
	}
	switch {
	case v.opts.NoExec:
		tests.Requested = false
		tests.Summary = "--no-exec given: the archive's code was not executed"
	case hash.Status != Passed:
		tests.Summary = "the archive's identity was not checked, so its code was not executed; give --sha256 or --sums, or --no-exec"
		tests.Errors = []*Error{errf(CodeNotVerified, "", "archive hash not checked")}
	default:
		v.step(tests, v.stepTests)
	}
}

// step runs one step function, turning its errors into the step's outcome.
func (v *verifier) step(s *StepResult, fn func() (string, []*Error)) bool {
	if err := v.ctx.Err(); err != nil {
		s.fail(&Error{Code: CodeInterrupted, Offset: -1, Detail: "interrupted", Err: err})
		return false
	}
	start := time.Now()
	summary, errs := fn()
	s.Seconds = time.Since(start).Seconds()
	if len(errs) == 0 && v.ctx.Err() != nil {
		errs = []*Error{{Code: CodeInterrupted, Offset: -1, Detail: "interrupted", Err: v.ctx.Err()}}
	}
	if len(errs) > 0 {
		s.fail(errs...)
		return false
	}
	s.Status, s.Summary = Passed, summary
	return true
}

func (s *StepResult) fail(errs ...*Error) {
	s.Status = Failed
	s.Errors = errs
	s.Summary = errs[0].Error()
	if len(errs) > 1 {
		s.Summary += fmt.Sprintf(" (and %d more)", len(errs)-1)
	}
}

func (v *verifier) skipRest(from int, why string) {
	for _, s := range v.rep.Steps[from:] {
		if s.Status == NotRun && s.Summary == "" {
			s.Summary = why
		}
	}
	if v.opts.NoExec {
		t := v.rep.Steps[5]
		t.Requested = false
		t.Summary = "--no-exec given (and " + why + ")"
	}
}

// stepHash computes the archive's SHA-256 and compares it with the expected
// value. It reports whether later steps may run.
func (v *verifier) stepHash(s *StepResult) bool {
	want, label, err := v.expectedHash()
	if err != nil {
		s.fail(err)
		return false
	}
	got, n, rerr := HashFile(v.f)
	if rerr != nil {
		s.fail(&Error{Code: CodeIO, Offset: -1, Detail: "reading archive", Err: rerr})
		return false
	}
	v.rep.Size = n
	v.rep.SHA256 = got
	if want == "" {
		s.Requested = false
		s.Summary = "no --sha256 or --sums given: the archive's identity was not checked (its sha256 is " + v.rep.SHA256 + ")"
		return true
	}
	if v.rep.SHA256 != want {
		s.fail(errf(CodeArchiveHash, filepath.Base(v.rep.Archive), "sha256 is %s, %s says %s", v.rep.SHA256, label, want))
		return false
	}
	s.Status, s.Summary = Passed, "archive sha256 "+v.rep.SHA256+" matches "+label
	return true
}

// HashFile returns the hex SHA-256 of everything r yields and its length:
// step 1, exported for the benchmark.
func HashFile(r io.Reader) (string, int64, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	n, err := io.CopyBuffer(h, struct{ io.Reader }{r}, buf)
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// expectedHash returns the expected hex hash and where it came from.
func (v *verifier) expectedHash() (string, string, *Error) {
	if v.opts.SHA256 != "" {
		want := strings.ToLower(v.opts.SHA256)
		if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
			return "", "", errf(CodeSumsSyntax, "", "--sha256 %q is not 64 hex digits", v.opts.SHA256)
		}
		return want, "--sha256", nil
	}
	if v.opts.SumsFile == "" {
		return "", "", nil
	}
	want, err := ReadSums(v.opts.SumsFile, filepath.Base(v.rep.Archive))
	return want, filepath.Base(v.opts.SumsFile), err
}

// ReadSums returns the hex SHA-256 that the sha256sum-format file at path
// lists for name. Every line must be well formed; name must appear once.
func ReadSums(path, name string) (string, *Error) {
	f, err := os.Open(path)
	if err != nil {
		return "", &Error{Code: CodeIO, Entry: path, Offset: -1, Detail: "cannot read sums file", Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return "", &Error{Code: CodeIO, Entry: path, Offset: -1, Detail: "cannot read sums file", Err: err}
	}
	if len(data) > 1<<20 {
		return "", errf(CodeSumsSyntax, path, "larger than 1 MiB")
	}
	found := ""
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		sum, file, ok := parseSumLine(line, true)
		if !ok {
			return "", errf(CodeSumsSyntax, path, "line %d is not %q", i+1, "<sha256>  <name>")
		}
		if file == name {
			if found != "" {
				return "", errf(CodeSumsSyntax, path, "lists %q twice", name)
			}
			found = sum
		}
	}
	if found == "" {
		return "", errf(CodeSumsNoEntry, path, "has no line for %q", name)
	}
	return found, nil
}

// parseSumLine parses "<64 lowercase hex>  <name>" (or " *<name>" if binary).
func parseSumLine(line string, allowBinary bool) (sum, name string, ok bool) {
	if len(line) < 67 || line[64] != ' ' {
		return "", "", false
	}
	sum = line[:64]
	for _, c := range []byte(sum) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", "", false
		}
	}
	switch {
	case line[65] == ' ':
	case line[65] == '*' && allowBinary:
	default:
		return "", "", false
	}
	name = line[66:]
	if strings.ContainsAny(name, "\r\n\\") {
		return "", "", false
	}
	return sum, name, true
}

func (v *verifier) stepParse() (string, []*Error) {
	a, err := parseStructure(v.f, v.rep.Size, v.lim)
	if err != nil {
		return "", []*Error{asError(err)}
	}
	v.arch = a
	if err := forEach(v.ctx, len(a.entries), func(_, i int) *Error {
		if _, err := io.Copy(io.Discard, a.open(a.entries[i])); err != nil {
			return asError(err)
		}
		return nil
	}); err != nil {
		return "", []*Error{err}
	}
	return fmt.Sprintf("%d entries in the packager's exact layout, %d bytes uncompressed, every size and crc-32 checked while streaming (limits: %d entries, %d bytes per file, %d in total, ratio %d:1)",
		len(a.entries), a.total, v.lim.MaxEntries, v.lim.MaxFileSize, v.lim.MaxTotalSize, v.lim.MaxRatio), nil
}

func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeIO, Offset: -1, Detail: "unexpected error", Err: err}
}

func (v *verifier) stepExtract() (string, []*Error) {
	root, problems := checkPaths(v.arch.entries)
	if len(problems) > 0 {
		return "", problems
	}
	v.root = root
	v.rep.Version = strings.TrimPrefix(root, RootPrefix)
	if err := v.makeDir(); err != nil {
		return "", []*Error{err}
	}
	r, err := os.OpenRoot(v.dir)
	if err != nil {
		return "", []*Error{{Code: CodeIO, Offset: -1, Detail: "opening the fresh directory", Err: err}}
	}
	defer r.Close()
	// Directories first, in order; then the files, in parallel.
	made := map[string]bool{}
	for _, e := range v.arch.entries {
		d := path.Dir(e.Name)
		if made[d] {
			continue
		}
		if err := r.MkdirAll(d, 0o700); err != nil {
			return "", []*Error{{Code: CodeIO, Entry: e.Name, Offset: -1, Detail: "creating directory", Err: err}}
		}
		for p := d; p != "." && !made[p]; p = path.Dir(p) {
			made[p] = true
		}
	}
	xs := make([]*extractor, maxWorkers)
	for i := range xs {
		xs[i] = &extractor{root: r}
		defer xs[i].close()
	}
	if err := forEach(v.ctx, len(v.arch.entries), func(w, i int) *Error {
		return xs[w].extract(v.arch, v.arch.entries[i])
	}); err != nil {
		return "", []*Error{err}
	}
	where := "a fresh directory, removed at the end"
	if !v.remove {
		where = fmt.Sprintf("%q (kept)", v.dir)
	}
	return fmt.Sprintf("%d regular files under %s/ checked before writing, then written to %s", len(v.arch.entries), root, where), nil
}

// makeDir creates the fresh directory, or claims KeepDir.
func (v *verifier) makeDir() *Error {
	if k := v.opts.KeepDir; k != "" {
		err := os.Mkdir(k, 0o700)
		if errors.Is(err, fs.ErrExist) {
			ents, rerr := os.ReadDir(k)
			if rerr != nil {
				return &Error{Code: CodeKeepDir, Entry: k, Offset: -1, Detail: "cannot read --keep directory", Err: rerr}
			}
			if len(ents) > 0 {
				return errf(CodeKeepDir, k, "--keep directory is not empty")
			}
		} else if err != nil {
			return &Error{Code: CodeKeepDir, Entry: k, Offset: -1, Detail: "cannot create --keep directory", Err: err}
		}
		abs, _ := filepath.Abs(k)
		v.dir, v.rep.Kept = abs, abs
		return nil
	}
	d, err := os.MkdirTemp(v.opts.TempDir, "catalogkit-verify-")
	if err != nil {
		return &Error{Code: CodeIO, Offset: -1, Detail: "creating a fresh directory", Err: err}
	}
	v.dir, v.remove = d, true
	return nil
}

// An extractor writes entries under root. Entries come sorted, so it keeps
// the directory of the last one open (an [os.Root] too): a file costs one
// openat, its writes, an fchmod and a close, as with unzip.
type extractor struct {
	root *os.Root
	made map[string]bool // directories created
	dir  string          // directory of cur
	cur  *os.Root
}

func (x *extractor) close() {
	if x.cur != nil {
		x.cur.Close()
	}
}

// extract writes e: the file created exclusively in its (0700) directory,
// its data checked again while it streams (the archive could change between
// steps), then its mode set.
func (x *extractor) extract(a *archive, e *entry) *Error {
	fail := func(detail string, err error) *Error {
		return &Error{Code: CodeIO, Entry: e.Name, Offset: -1, Detail: detail, Err: err}
	}
	d, base := path.Split(e.Name)
	d = strings.TrimSuffix(d, "/")
	if x.cur == nil || d != x.dir {
		sub, err := x.root.OpenRoot(d)
		if err != nil {
			return fail("opening directory", err)
		}
		x.close()
		x.cur, x.dir = sub, d
	}
	f, err := x.cur.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fail("creating file", err)
	}
	_, cerr := io.Copy(f, a.open(e))
	if cerr != nil {
		f.Close()
		return asError(cerr)
	}
	mode := fs.FileMode(0o644)
	if e.Attrs == attrsExec {
		mode = 0o755
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fail("setting mode", err)
	}
	if err := f.Close(); err != nil {
		return fail("closing file", err)
	}
	return nil
}

// ManifestName is the manifest's path inside the top-level folder.
const ManifestName = "MANIFEST.sha256"

func (v *verifier) stepManifest() (string, []*Error) {
	r, err := os.OpenRoot(filepath.Join(v.dir, v.root))
	if err != nil {
		return "", []*Error{{Code: CodeIO, Offset: -1, Detail: "opening extracted tree", Err: err}}
	}
	defer r.Close()
	// The files as they are on disk, not as the archive said.
	onDisk := map[string]fs.FileMode{}
	sizes := map[string]int64{}
	werr := fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%q is not a regular file", p)
		}
		onDisk[p] = info.Mode().Perm()
		sizes[p] = info.Size()
		return nil
	})
	if werr != nil {
		return "", []*Error{{Code: CodeIO, Offset: -1, Detail: "listing extracted tree", Err: werr}}
	}
	mpath := v.root + "/" + ManifestName
	if _, ok := onDisk[ManifestName]; !ok {
		return "", []*Error{errf(CodeManifestMissing, mpath, "no manifest in the archive")}
	}
	data, err := r.ReadFile(ManifestName)
	if err != nil {
		return "", []*Error{{Code: CodeIO, Entry: mpath, Offset: -1, Detail: "reading manifest", Err: err}}
	}
	m, perr := ParseManifest(data)
	if perr != nil {
		perr.Entry = mpath + ": " + perr.Entry
		return "", []*Error{perr}
	}
	var problems []*Error
	if m.Fields["version"] != v.rep.Version {
		problems = append(problems, errf(CodeManifestMeta, mpath, "version %q, the top-level folder says %q", m.Fields["version"], v.rep.Version))
	}
	// Hash the listed files on disk, in parallel.
	sums := make([]string, len(m.Lines))
	if err := forEach(v.ctx, len(m.Lines), func(_, i int) *Error {
		p := m.Lines[i].Path
		if _, ok := onDisk[p]; !ok {
			return nil
		}
		got, err := hashFile(r, p)
		if err != nil {
			return &Error{Code: CodeIO, Entry: p, Offset: -1, Detail: "reading file", Err: err}
		}
		sums[i] = got
		return nil
	}); err != nil {
		return "", []*Error{err}
	}
	listed := map[string]bool{}
	var total int64
	for i, l := range m.Lines {
		listed[l.Path] = true
		total += sizes[l.Path]
		mode, ok := onDisk[l.Path]
		if !ok {
			problems = append(problems, errf(CodeMissing, l.Path, "listed in the manifest but not in the archive"))
			continue
		}
		if got := sums[i]; got != l.SHA256 {
			problems = append(problems, errf(CodeHashMismatch, l.Path, "sha256 is %s, manifest says %s", got, l.SHA256))
		}
		if (mode&0o100 != 0) != m.Exec[l.Path] {
			problems = append(problems, errf(CodeModeMismatch, l.Path, "mode %v, manifest metadata says executable=%t", mode, m.Exec[l.Path]))
		}
	}
	if total != m.Bytes {
		problems = append(problems, errf(CodeManifestMeta, mpath, "says the files total %d bytes, they total %d", m.Bytes, total))
	}
	for p := range m.Exec {
		if !listed[p] {
			problems = append(problems, errf(CodeManifestSyntax, p, "metadata names an executable file the manifest does not list"))
		}
	}
	var unlisted []string
	for p := range onDisk {
		if p != ManifestName && !listed[p] {
			unlisted = append(unlisted, p)
		}
	}
	sort.Strings(unlisted)
	for _, p := range unlisted {
		problems = append(problems, errf(CodeUnlisted, p, "in the archive but not listed in the manifest"))
	}
	if len(problems) > 0 {
		return "", problems
	}
	v.rep.Files = len(m.Lines)
	v.rep.TreeHash = m.TreeHash
	return fmt.Sprintf("hashes match: all %d files listed exactly once with their sha256, none missing, none extra; tree hash %s", len(m.Lines), m.TreeHash), nil
}

func hashFile(r *os.Root, name string) (string, error) {
	f, err := r.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// A Manifest is a parsed MANIFEST.sha256.
type Manifest struct {
	Meta     []string          // the leading "#" lines, without "# "
	Lines    []ManifestLine    // in file order (sorted by path)
	Fields   map[string]string // "version" and "compressor" metadata
	Exec     map[string]bool   // executable files named by the metadata
	Bytes    int64             // total size of the listed files, from the metadata
	TreeHash string            // "h1:" + base64 SHA-256 of the non-comment lines
}

// A ManifestLine is one "<sha256>  <path>" line.
type ManifestLine struct {
	SHA256 string
	Path   string
}

// ParseManifest parses a manifest strictly: LF line endings with a final LF,
// "#" lines only before the first hash line, then sha256sum text-mode lines
// with clean relative paths, sorted byte-wise with no path twice.
func ParseManifest(data []byte) (*Manifest, *Error) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, errf(CodeManifestSyntax, "", "empty or not ending in a newline")
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, errf(CodeManifestSyntax, "", "contains a carriage return")
	}
	m := &Manifest{Fields: map[string]string{}}
	h := sha256.New()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxNameLen+128)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if len(m.Lines) > 0 {
				return nil, errf(CodeManifestSyntax, fmt.Sprintf("line %d", n), "comment after the first file line")
			}
			m.Meta = append(m.Meta, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		sum, p, ok := parseSumLine(line, false)
		if !ok || checkName(p) != nil || p == ManifestName {
			return nil, errf(CodeManifestSyntax, fmt.Sprintf("line %d", n), "not %q with a clean relative path: %q", "<sha256>  <path>", line)
		}
		if k := len(m.Lines); k > 0 {
			prev := m.Lines[k-1].Path
			if p == prev {
				return nil, errf(CodeListedTwice, p, "listed more than once")
			}
			if p < prev {
				return nil, errf(CodeManifestSyntax, fmt.Sprintf("line %d", n), "%q is not sorted after %q", p, prev)
			}
		}
		m.Lines = append(m.Lines, ManifestLine{SHA256: sum, Path: p})
		h.Write([]byte(line + "\n"))
	}
	if err := sc.Err(); err != nil {
		return nil, errf(CodeManifestSyntax, fmt.Sprintf("line %d", n+1), "%v", err)
	}
	sum := h.Sum(nil)
	m.TreeHash = "h1:" + base64.StdEncoding.EncodeToString(sum)
	if err := m.parseMeta(sum); err != nil {
		return nil, err
	}
	// The packager's own parser must agree: it accepts exactly what it writes.
	if _, err := pack.ParseManifest(data); err != nil {
		return nil, &Error{Code: CodeManifestSyntax, Offset: -1, Detail: "the packager rejects the manifest", Err: err}
	}
	return m, nil
}

// parseMeta reads the metadata lines in the packager's format: the format
// line, then "key: value" lines. It checks what the file lines alone
// determine (the count and the tree hashes) and records the rest.
func (m *Manifest) parseMeta(treeSum []byte) *Error {
	if len(m.Meta) == 0 || m.Meta[0] != pack.ManifestFormat {
		return errf(CodeManifestSyntax, "line 1", "want %q", "# "+pack.ManifestFormat)
	}
	m.Exec = map[string]bool{}
	seen := map[string]bool{}
	for i, line := range m.Meta[1:] {
		k, val, ok := strings.Cut(line, ": ")
		at := fmt.Sprintf("line %d", i+2)
		if !ok {
			return errf(CodeManifestSyntax, at, "metadata line %q is not %q", line, "# key: value")
		}
		if k == "executable" {
			m.Exec[val] = true
			continue
		}
		if seen[k] {
			return errf(CodeManifestSyntax, at, "metadata key %q twice", k)
		}
		seen[k] = true
		switch k {
		case "version", "compressor":
			m.Fields[k] = val
		case "method":
			if val != pack.MethodRule {
				return errf(CodeManifestSyntax, at, "method rule %q, want %q", val, pack.MethodRule)
			}
		case "timestamp":
			if val != pack.TimestampRule {
				return errf(CodeManifestSyntax, at, "timestamp rule %q, want %q", val, pack.TimestampRule)
			}
		case "files":
			if val != strconv.Itoa(len(m.Lines)) {
				return errf(CodeManifestMeta, at, "says %s files, %d are listed", val, len(m.Lines))
			}
		case "bytes":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < 0 || strconv.FormatInt(n, 10) != val {
				return errf(CodeManifestSyntax, at, "byte count %q", val)
			}
			m.Bytes = n
		case "tree-hash":
			if want := "h1:" + base64.StdEncoding.EncodeToString(treeSum); val != want {
				return errf(CodeManifestMeta, at, "tree hash %s, the file lines hash to %s", val, want)
			}
		case "tree-sha256":
			if want := hex.EncodeToString(treeSum); val != want {
				return errf(CodeManifestMeta, at, "tree sha256 %s, the file lines hash to %s", val, want)
			}
		default:
			return errf(CodeManifestSyntax, at, "unknown metadata key %q", k)
		}
	}
	for _, k := range []string{"version", "compressor", "method", "timestamp", "files", "bytes", "tree-hash", "tree-sha256"} {
		if !seen[k] {
			return errf(CodeManifestSyntax, "", "no %q metadata line", k)
		}
	}
	return nil
}
