package verify

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// Options configure [Verify]. The zero value verifies with
// [archive.DefaultLimits], no expected hash, in a temporary directory, and
// re-runs the tests.
type Options struct {
	// SHA256 is the expected archive hash in hex; SumsFile a SHA256SUMS file
	// with a line for the archive's base name. At most one may be set.
	SHA256   string
	SumsFile string

	Limits archive.Limits // zero fields mean the archive.DefaultLimits value

	// KeepDir, if set, is where the tree is extracted and left; it must not
	// exist or be empty. Otherwise a fresh directory is made under TempDir
	// (os.TempDir() if empty) and removed at the end.
	KeepDir string
	TempDir string

	// Keys, if any, are the public keys the user trusts: the hash step then
	// requires SHA256SUMS.minisig beside SumsFile, signed by one of them,
	// before the archive is read, and checks the provenance statement and
	// its signature when they are beside it.
	Keys []sign.PublicKey

	// Rebuild, if set, makes the hash step pack a commit of the user's own git
	// checkout from a clean clone and require the archive to be those very
	// bytes: an identity that needs no key (see [verifier.rebuild]).
	Rebuild *RebuildSource

	// NoExec skips the tests step; it is then reported as not run.
	NoExec bool

	// Exec runs the tests step even when the archive's identity comes only from an
	// unsigned SumsFile (integrity, not identity).
	Exec bool

	// Tests describes what the tests step runs and requires; nil means [ReleaseTests].
	Tests *TestPlan

	// Repack packs the extracted tree at dir into w (the repack step); nil means
	// [archive.Pack] with Limits. The benchmark sets it to pack a tree that
	// is not a catalogkit release.
	Repack func(ctx context.Context, dir string, w io.Writer) (*archive.Result, error)

	// OnStep, if set, is called as each step ends (and for each step that
	// does not run, when the run ends), in order, so that a report can
	// stream. The report holds every earlier step's result.
	OnStep func(r *Report, s *StepResult)

	// Sandbox says whether the tests run in a sandbox (see [SandboxMode]);
	// "" means [SandboxAuto].
	Sandbox SandboxMode

	// OnExec, if set, is called just before the tests step starts executing code
	// from the archive, after OnStep has reported the steps before it.
	OnExec func(r *Report)

	// OnProgress, if set, is told what the tests step is doing while it
	// runs (compiling a package's tests, a package's tests ended), so that a
	// report can show that minutes of compiling and testing are work, not a
	// hang. It may be called from several goroutines at once.
	OnProgress func(what string)

	// afterTests, if set, is called with the copy of the tree the tests
	// ran in, before it is removed: tests of this package read what a
	// hostile test wrote there.
	afterTests func(work string)
}

// A step is one line of the report: its name, what skips it, and its
// checks, the rows that run in order. When a check fails, the step fails
// with its problems and every later step is reported as not run with the
// reason that check's stop gives. Step numbers are positions in [steps],
// never written anywhere else (see [StepNumber]).
type step struct {
	name string
	// skip, if set, is asked before the step's checks: a non-empty reason
	// means the step does not run. requested says whether the user asked
	// for it (a skipped requested step fails the verification, with err as
	// its problem).
	skip func(v *verifier) (reason string, requested bool, err *archive.Error)
	// checks are the rows of the step, run in order.
	checks []check
}

// A check is one row of the verification: a trust check, or the work of a
// step. Adding a check is adding a row to [steps].
type check struct {
	name string
	// skip, if set, is asked first: skipped means the check does not apply
	// to this run (no --key, no --rebuild) and the step goes on; a
	// non-empty note is added to the step's summary.
	skip func(v *verifier) (skipped bool, note string)
	// run does the check. It adds to the step's summary (s.say) and returns
	// the problems found; a check that sets s.Requested to false and
	// returns no problem leaves the step "not run" without stopping the
	// later steps (the hash without an expected value).
	run func(v *verifier, s *StepResult) []*archive.Error
	// stop says why later steps did not run after this check failed.
	stop func(v *verifier, s *StepResult) string
}

// Step names, in order.
const (
	StepHash     = "hash"
	StepParse    = "parse"
	StepExtract  = "extract"
	StepManifest = "manifest"
	StepRepack   = "repack"
	StepTests    = "tests"
)

// nothingRun ends the stop reasons of the trust checks that run before
// anything is extracted.
const nothingRun = ", so nothing in the archive was extracted or run"

// steps is the verification, in order.
var steps = []step{
	{name: StepHash, checks: []check{
		// The expected hash, and the signature of the file that gives it,
		// before a byte of the archive is read.
		{name: "expected hash", run: (*verifier).readExpected, stop: codeStop("the expected hash could not be read")},
		{name: "sums signature", skip: (*verifier).skipSumsSignature, run: (*verifier).checkSumsSignature, stop: codeStop("the release's signature or provenance did not check out", nothingRun)},
		{name: "sums entry", skip: (*verifier).skipSumsEntry, run: (*verifier).findSum, stop: codeStop("the expected hash could not be read")},
		{name: "read", run: (*verifier).readArchive, stop: codeStop("the archive could not be read")},
		{name: "compare", run: (*verifier).compareHash, stop: because("the archive hash did not match")},
		{name: "provenance", skip: (*verifier).skipProvenance, run: (*verifier).checkProvenance, stop: codeStop("the release's signature or provenance did not check out", nothingRun)},
		{name: "rebuild", skip: (*verifier).skipRebuild, run: (*verifier).checkRebuild, stop: (*verifier).rebuildStop},
	}},
	{name: StepParse, checks: []check{{name: "strict parse", run: (*verifier).stepParse, stop: because("the strict parse failed")}}},
	{name: StepExtract, checks: []check{{name: "extract", run: (*verifier).stepExtract, stop: because("extraction failed")}}},
	{name: StepManifest, checks: []check{{name: "manifest", run: (*verifier).stepManifest, stop: because("the manifest check failed")}}},
	{name: StepRepack, checks: []check{{name: "repack", run: (*verifier).stepRepack, stop: because("repacking did not reproduce the archive")}}},
	{name: StepTests, skip: (*verifier).skipTests, checks: []check{
		{name: "sandbox", run: (*verifier).chooseSandbox, stop: sandboxStop},
		{name: "announce", run: (*verifier).announce},
		{name: "go test", run: (*verifier).stepTests, stop: because("the tests did not pass")},
	}},
}

// StepNumber returns the position of the named step in the report,
// counting from 1, or 0 if there is no such step.
func StepNumber(name string) int {
	for i, s := range steps {
		if s.name == name {
			return i + 1
		}
	}
	return 0
}

func because(why string) func(*verifier, *StepResult) string {
	return func(*verifier, *StepResult) string { return why }
}

// codeStop is a stop reason that names the failed check's code, then adds
// tail.
func codeStop(why string, tail ...string) func(*verifier, *StepResult) string {
	return func(_ *verifier, s *StepResult) string {
		return why + " (" + string(s.Code()) + ")" + strings.Join(tail, "")
	}
}

// verifier holds one run's state, shared by the steps.
type verifier struct {
	ctx  context.Context
	opts Options
	lim  archive.Limits
	plan *TestPlan
	rep  *Report

	f      *os.File        // the archive, open read-only
	src    io.ReaderAt     // its bytes as the hash step hashed them: in memory, or f
	arch   *archive.Reader // the parse step
	dir    string          // the fresh directory (or KeepDir)
	remove bool            // whether dir is ours to remove
	root   string          // top-level folder inside dir

	want  string // the expected hex SHA-256, "" if none was given
	label string // where want came from
	sums  []byte // the SHA256SUMS file, when one was given

	signer string        // the key ID that signed SHA256SUMS, if checked
	signed *sign.Comment // its trusted comment

	manifest *archive.Manifest // the manifest, once the manifest step passed

	sandboxed bool // the tests run in the sandbox (the sandbox row)
	keepMade  bool // the extract step created KeepDir
}

// Verify checks the archive at path name. It never returns an error: every
// outcome, including failures to read, is in the report. Cancelling ctx stops
// the run at the next check (a sandboxed go test is killed with its
// sandbox at once; an unsandboxed one gets SIGTERM, then SIGKILL half a
// second later) and removes the fresh directory.
func Verify(ctx context.Context, name string, opts Options) *Report {
	v := &verifier{ctx: ctx, opts: opts, rep: &Report{Archive: name}, lim: opts.Limits.OrDefault(), plan: opts.Tests}
	if v.plan == nil {
		v.plan = ReleaseTests()
	}
	for _, s := range steps {
		v.rep.Steps = append(v.rep.Steps, &StepResult{Step: s.name, Status: NotRun, Requested: true})
	}
	defer v.cleanup()
	stopped := ""
	for i, st := range steps {
		res := v.rep.Steps[i]
		why, requested, err := "", true, (*archive.Error)(nil)
		if st.skip != nil {
			why, requested, err = st.skip(v)
		}
		switch {
		case stopped != "" && !requested:
			res.Summary, res.Requested = why+" (and "+stopped+")", false
		case stopped != "":
			res.Summary = stopped
		case why != "":
			res.Summary, res.Requested = why, requested
			if err != nil {
				res.Errors = []*archive.Error{err}
			}
		default:
			stopped = v.runStep(st, res)
		}
		if v.opts.OnStep != nil {
			v.opts.OnStep(v.rep, res)
		}
	}
	v.unkeep()
	return v.rep
}

// unkeep removes the --keep tree unless the repack step passed: a tree
// that failed a step up to the repack may hold what the packager never
// writes (a .git/config whose commands git would run in it), so it is
// never left behind. KeepDir itself is left if it existed (empty) before.
func (v *verifier) unkeep() {
	if v.rep.Kept == "" {
		return
	}
	why := ""
	if v.rep.Step(StepRepack).Status != Passed {
		failed := StepExtract
		for _, s := range v.rep.Steps[:StepNumber(StepRepack)] {
			if s.Status == Failed {
				failed = s.Step
			}
		}
		why = "as the " + failed + " step failed: --keep keeps only a tree that repacks to the archive"
	} else if slices.ContainsFunc(v.rep.Step(StepTests).Errors, func(e *archive.Error) bool { return e.Code == CodeTreeChanged }) {
		why = "as it changed while the tests ran: --keep keeps only the archive's bytes"
	} else {
		return
	}
	if v.keepMade {
		os.RemoveAll(v.dir)
	} else if ents, err := os.ReadDir(v.dir); err == nil {
		for _, e := range ents {
			os.RemoveAll(filepath.Join(v.dir, e.Name()))
		}
	}
	v.rep.Unkept = fmt.Sprintf("the extracted tree was removed from %s, %s", v.dir, why)
	v.rep.Kept = ""
}

// runStep runs one step's checks in order, turning their problems into the
// step's outcome, and returns why later steps may not run ("" if they may).
func (v *verifier) runStep(st step, res *StepResult) (stopped string) {
	const interruptedRun = "the run was interrupted"
	if err := v.ctx.Err(); err != nil {
		res.fail(interrupted(err))
		return interruptedRun
	}
	start := time.Now()
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	for _, c := range st.checks {
		if c.skip != nil {
			if skipped, note := c.skip(v); skipped {
				res.say(note)
				continue
			}
		}
		errs := c.run(v, res)
		if len(errs) == 0 && v.ctx.Err() != nil {
			errs = []*archive.Error{interrupted(v.ctx.Err())}
		}
		if len(errs) > 0 {
			res.fail(errs...)
			if res.Code() == CodeInterrupted {
				return interruptedRun
			}
			return c.stop(v, res)
		}
	}
	if res.Requested {
		res.Status = Passed
	}
	return ""
}

// announce calls Options.OnExec: the tests step's row just before code
// from the archive runs.
func (v *verifier) announce(*StepResult) []*archive.Error {
	if v.opts.OnExec != nil {
		v.opts.OnExec(v.rep)
	}
	return nil
}

func interrupted(err error) *archive.Error {
	return &archive.Error{Code: CodeInterrupted, Offset: -1, Detail: "interrupted", Err: err}
}

func (v *verifier) cleanup() {
	if v.f != nil {
		v.f.Close()
	}
	if v.dir != "" && v.remove {
		os.RemoveAll(v.dir)
	}
}
