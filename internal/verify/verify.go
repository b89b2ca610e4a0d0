package verify

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/catalogkit/catalogkit/internal/archive"
	"github.com/catalogkit/catalogkit/internal/sign"
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

	// Keys, if any, are the public keys the user trusts: step 1 then
	// requires SHA256SUMS.minisig beside SumsFile, signed by one of them,
	// before the archive is read, and checks the provenance statement and
	// its signature when they are beside it.
	Keys []sign.PublicKey

	// Rebuild, if set, makes step 1 pack a commit of the user's own git
	// checkout from a clean clone and require the archive to be those very
	// bytes: an identity that needs no key (see stepRebuild).
	Rebuild *RebuildSource

	// NoExec skips step 6; it is then reported as not run.
	NoExec bool

	// Exec runs step 6 even when the archive's identity comes only from an
	// unsigned SumsFile (integrity, not identity).
	Exec bool

	// Tests describes what step 6 runs and requires; nil means [ReleaseTests].
	Tests *TestPlan

	// Repack packs the extracted tree at dir into w (step 5); nil means
	// [archive.Pack] with Limits. The benchmark sets it to pack a tree that
	// is not a catalogkit release.
	Repack func(ctx context.Context, dir string, w io.Writer) (*archive.Result, error)

	// OnStep, if set, is called as each step ends (and for each step that
	// does not run, when the run ends), in order, so that a report can
	// stream. The report holds every earlier step's result.
	OnStep func(r *Report, s *StepResult)

	// OnExec, if set, is called just before step 6 starts executing code
	// from the archive, after OnStep has reported steps 1-5.
	OnExec func(r *Report)
}

// A step is one row of the verification: its name, what it does, and what
// skips it. Steps run in order; when one fails, every later one is reported
// as not run with the reason the failed step's stop gives.
type step struct {
	name string
	// run does the step. It fills in s.Summary and returns the problems
	// found; a step that sets s.Requested to false and returns no problem
	// is "not run" without stopping the later steps (step 1 without an
	// expected hash).
	run func(v *verifier, s *StepResult) []*archive.Error
	// skip, if set, is asked first: a non-empty reason means the step does
	// not run. requested says whether the user asked for it (a skipped
	// requested step fails the verification, with err as its problem).
	skip func(v *verifier) (reason string, requested bool, err *archive.Error)
	// stop says why later steps did not run after this one failed.
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

// steps is the verification, in order. A later step (a signature check, a
// trust gate before the tests) is one more row.
var steps = []step{
	{name: StepHash, run: (*verifier).stepHash, stop: (*verifier).hashStop},
	{name: StepParse, run: (*verifier).stepParse, stop: because("the strict parse failed")},
	{name: StepExtract, run: (*verifier).stepExtract, stop: because("extraction failed")},
	{name: StepManifest, run: (*verifier).stepManifest, stop: because("the manifest check failed")},
	{name: StepRepack, run: (*verifier).stepRepack, stop: because("repacking did not reproduce the archive")},
	{name: StepTests, run: (*verifier).stepTests, skip: (*verifier).skipTests, stop: because("the tests did not pass")},
}

func because(why string) func(*verifier, *StepResult) string {
	return func(*verifier, *StepResult) string { return why }
}

// verifier holds one run's state, shared by the steps.
type verifier struct {
	ctx  context.Context
	opts Options
	lim  archive.Limits
	plan *TestPlan
	rep  *Report

	f      *os.File        // the archive, open read-only
	src    io.ReaderAt     // its bytes as step 1 hashed them: in memory, or f
	arch   *archive.Reader // step 2
	dir    string          // the fresh directory (or KeepDir)
	remove bool            // whether dir is ours to remove
	root   string          // top-level folder inside dir

	noExpected bool // step 1 could not read the expected hash

	refused bool          // step 1 refused a signature or the provenance
	signer  string        // the key ID that signed SHA256SUMS, if checked
	signed  *sign.Comment // its trusted comment
}

// Verify checks the archive at path name. It never returns an error: every
// outcome, including failures to read, is in the report. Cancelling ctx stops
// the run at the next check (a running go test gets SIGTERM, then SIGKILL
// half a second later) and removes the fresh directory.
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
	for i, s := range steps {
		res := v.rep.Steps[i]
		why, requested, err := "", true, (*archive.Error)(nil)
		if s.skip != nil {
			why, requested, err = s.skip(v)
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
		case s.name == StepTests && v.opts.OnExec != nil && v.announce():
		case !v.runStep(s, res) && res.Code() == CodeInterrupted:
			stopped = "the run was interrupted"
		case res.Status == Failed:
			stopped = s.stop(v, res)
		}
		if v.opts.OnStep != nil {
			v.opts.OnStep(v.rep, res)
		}
	}
	return v.rep
}

// runStep runs one step, turning its problems into the step's outcome, and
// reports whether later steps may run.
func (v *verifier) runStep(s step, res *StepResult) bool {
	if err := v.ctx.Err(); err != nil {
		res.fail(interrupted(err))
		return false
	}
	start := time.Now()
	errs := s.run(v, res)
	res.Seconds = time.Since(start).Seconds()
	if len(errs) == 0 && v.ctx.Err() != nil {
		errs = []*archive.Error{interrupted(v.ctx.Err())}
	}
	switch {
	case len(errs) > 0:
		res.fail(errs...)
		return false
	case res.Requested:
		res.Status = Passed
	}
	return true
}

// announce calls OnExec and returns false, so that the step then runs.
func (v *verifier) announce() bool {
	v.opts.OnExec(v.rep)
	return false
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
