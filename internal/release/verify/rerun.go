package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// A TestPlan says what the tests step runs in the extracted tree and what it
// must see. A release states it in its [PlanFile]; a plan with no Patterns
// is read from there.
type TestPlan struct {
	// Patterns are the package patterns given to go test, relative to the
	// tree root.
	Patterns []string
	// CasesGlob matches the case files in the extracted tree; each is a JSON
	// object whose "id" names the subtest that runs it. Every one must run
	// and pass, and no other subtest of CaseTest may run.
	CasesGlob string
	// CaseTest is the top-level test that runs each case as a subtest named by
	// its id, in the package CasePackage (relative to the module path).
	CasePackage, CaseTest string
	// Required lists other tests that must have run and passed (the records
	// check).
	Required []TestID
	// GOCACHE, if set, is the build cache the go command compiles the tests
	// with; empty means [BuildCache] unless Cold is set. The tests never
	// see it: they run with a build cache of their own, removed with them.
	GOCACHE string
	// Cold runs with an empty build cache made for this run and removed
	// after it: nothing is reused from an earlier run, at the cost of
	// compiling the standard library (tens of seconds).
	Cold bool
	// Short runs the tests with -test.short: the tests whose verdict could
	// depend on the machine's speed, or that take minutes, skip (the
	// repository's make test runs them).
	Short bool
}

// BuildCache returns catalogkit's own Go build cache, where the tests step
// keeps compiled packages between runs: "catalogkit/verify-go-build" under
// os.UserCacheDir(). Only the go command writes it, while it compiles the
// archive's tests, and no code from any archive runs then: the tests run
// afterwards, in another sandbox, with a build cache of their own that is
// removed with them. So the tests of one archive cannot change what a later
// verify of another finds in this cache. Go's build cache is
// content-addressed (an entry's key hashes the exact inputs of the
// compile), so a later run gets an entry only for the very same inputs. It
// is kept apart from the user's GOCACHE so that builds of code from a
// downloaded archive never share a cache with the user's own builds:
// verify leaves nothing in theirs, and deleting this folder (or
// --cold-cache) resets verify alone. ("catalogkit/go-build" beside it was
// the cache of verifiers that let the tests write it; it is never read
// now, and can be deleted.)
func BuildCache() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "catalogkit", "verify-go-build"), nil
}

// A TestID names a top-level test in a package given relative to the module.
type TestID struct{ Package, Test string }

// ReleaseTests returns the plan of a catalogkit release: the one the
// archive states in its [PlanFile], read when the tests step starts.
// A caller sets GOCACHE or Cold on it.
func ReleaseTests() *TestPlan { return &TestPlan{} }

// testEvent is one line of go test -json (cmd/test2json, and the go
// command's build events).
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

// skipTests says why the tests step does not run: the user asked so (--no-exec),
// or the archive's identity was not checked, so its code is not executed.
func (v *verifier) skipTests() (why string, requested bool, err *archive.Error) {
	switch {
	case v.opts.NoExec:
		return "--no-exec given: the archive's code was not executed", false, nil
	case v.rep.Step(StepHash).Status != Passed:
		return "the archive's identity was not checked, so its code was not executed; give --key with --sums, --sha256 or --rebuild, or --no-exec",
			true, errf(CodeNotVerified, "", "archive hash not checked")
	case v.opts.SHA256 == "" && v.signer == "" && !(v.rep.Rebuild != nil && v.rep.Rebuild.Identical) && !v.opts.Exec:
		return "an unsigned SHA256SUMS proves integrity, not who made the archive, so its code was not executed; to re-run the tests give --key PUBFILE (SHA256SUMS.minisig beside --sums, signed by that key), --sha256 HEX from a source you trust, --rebuild DIR[@REV] of your own clone, or --exec to run them anyway",
			false, nil
	}
	return "", true, nil
}

func (v *verifier) stepTests(s *StepResult) []*archive.Error {
	p := v.plan
	tree := filepath.Join(v.dir, v.root)
	if len(p.Patterns) == 0 {
		stated, perr := LoadPlan(tree)
		if perr != nil {
			return []*archive.Error{perr}
		}
		stated.GOCACHE, stated.Cold = p.GOCACHE, p.Cold
		p = stated
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return []*archive.Error{{Code: CodeNoGo, Offset: -1, Detail: "no go command on PATH to re-run the tests (install Go from https://go.dev/dl/, or pass --no-exec to skip this step)", Err: err}}
	}
	ids, cerr := readCaseIDs(tree, p)
	if cerr != nil {
		return []*archive.Error{cerr}
	}
	mod, merr := modulePath(tree)
	if merr != nil {
		return []*archive.Error{merr}
	}
	sc, serr := makeScratch(v.opts.TempDir)
	if serr != nil {
		return []*archive.Error{serr}
	}
	defer removeScratch(sc.root)
	gocache, cacheNote, eerr := buildCache(p, sc)
	if eerr != nil {
		return []*archive.Error{eerr}
	}
	ctx, cancel := context.WithTimeoutCause(v.ctx, TestTimeout, errTestTimeout)
	defer cancel()
	r := &rerun{v: v, plan: p, ctx: ctx, goBin: goBin, tree: tree, sc: sc}
	pkgs, events, errs := r.compile(p.Patterns, gocache)
	if len(errs) == 0 {
		var more []testEvent
		more, errs = r.test(pkgs)
		events = append(events, more...)
	}
	if v.ctx.Err() != nil {
		return []*archive.Error{{Code: CodeInterrupted, Offset: -1, Detail: "interrupted while running the tests", Err: v.ctx.Err()}}
	}
	if errors.Is(context.Cause(ctx), errTestTimeout) {
		return []*archive.Error{{Code: CodeTestRun, Offset: -1, Detail: fmt.Sprintf("the tests ran past the wall-clock limit of %v and were killed", TestTimeout)}}
	}
	if errs = slices.Concat(v.keptChanged(), checkEvents(events, mod, ids, p), errs); len(errs) > 0 {
		return errs
	}
	req := make([]string, len(p.Required))
	for i, t := range p.Required {
		req[i] = t.Package + "." + t.Test
	}
	how := ""
	if !v.sandboxed {
		how = " — this ran code from the archive with your permissions"
	}
	short := ""
	if p.Short {
		short = " with -short"
	}
	s.say(fmt.Sprintf("tests passed: the tests of %s (%d packages%s), compiled with %s while no code from the archive ran, then run in a copy of the tree with a build cache of their own, including the %d conformance tests (exactly the %d case ids of %s, run by %s) and %s; offline, an empty module cache%s",
		strings.Join(p.Patterns, " "), len(pkgs), short, cacheNote, len(ids), len(ids), p.CasesGlob, p.CaseTest, strings.Join(req, ", "), how))
	return nil
}

// keptChanged compares the kept tree (--keep) with the manifest again
// after the tests ran. Sandboxed, the tests never see it; unsandboxed they
// can write anywhere the user can, and the kept tree must still be the
// archive's bytes: anything changed, added or removed is a problem, and
// the tree is then removed (see [verifier.unkeep]).
func (v *verifier) keptChanged() []*archive.Error {
	if v.rep.Kept == "" || v.manifest == nil {
		return nil
	}
	r, err := os.OpenRoot(filepath.Join(v.dir, v.root))
	if err != nil {
		return []*archive.Error{errf(CodeTreeChanged, "", "the kept tree cannot be opened after the tests ran: %v", err)}
	}
	defer r.Close()
	var errs []*archive.Error
	for _, e := range v.compareTree(r, v.manifest) {
		errs = append(errs, errf(CodeTreeChanged, e.Entry, "the kept tree changed while the tests ran: %s", e.Detail))
	}
	return errs
}

// errTestTimeout is the cause of the tests step's context when
// [TestTimeout] passed.
var errTestTimeout = errors.New("the tests step's wall-clock limit passed")

// A scratch is the tests step's private folder, removed at the end of the
// step, and its parts. No part is the extracted tree, which the archive's
// code never gets to write: the kept tree (--keep) is the archive's bytes.
type scratch struct {
	root string
	// bin holds the compiled test binaries and test2json: written while
	// compiling, read-only to the tests.
	bin string
	// build is the home, temporary folder and (empty) module cache of the
	// go command while it compiles; go-build in it is the build cache of
	// --cold-cache.
	build string
	// work holds the copy of the tree the tests run in.
	work string
	// run is the tests' home, temporary folder, module cache and build
	// cache (go-build): nothing in it outlives the step.
	run string
}

// makeScratch makes the tests step's scratch folder under tempDir.
func makeScratch(tempDir string) (*scratch, *archive.Error) {
	root, err := os.MkdirTemp(tempDir, "catalogkit-verify-go-")
	if err != nil {
		return nil, ioErr("", "creating a scratch folder", err)
	}
	sc := &scratch{root: root, bin: filepath.Join(root, "bin"), build: filepath.Join(root, "build"), work: filepath.Join(root, "work"), run: filepath.Join(root, "run")}
	for _, d := range []string{sc.bin, sc.build, sc.work, sc.run, filepath.Join(sc.build, "home"), filepath.Join(sc.build, "tmp"),
		filepath.Join(sc.run, "home"), filepath.Join(sc.run, "tmp"), filepath.Join(sc.run, "go-build")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			removeScratch(root)
			return nil, ioErr("", "creating a scratch folder", err)
		}
	}
	return sc, nil
}

// buildCache returns the build cache the go command compiles the tests
// with, and a note for the report: the plan's, catalogkit's own
// ([BuildCache]), or an empty one in the scratch folder (Cold, or no user
// cache folder).
func buildCache(p *TestPlan, sc *scratch) (gocache, note string, err *archive.Error) {
	fresh := filepath.Join(sc.build, "go-build")
	switch {
	case p.Cold:
		return fresh, "an empty build cache (--cold-cache)", mkdirErr(fresh)
	case p.GOCACHE != "":
		return p.GOCACHE, "the build cache " + p.GOCACHE, mkdirErr(p.GOCACHE)
	}
	d, cerr := BuildCache()
	if cerr != nil {
		return fresh, "an empty build cache (no user cache directory: " + cerr.Error() + ")", mkdirErr(fresh)
	}
	return d, "catalogkit's own build cache " + d, mkdirErr(d)
}

func mkdirErr(d string) *archive.Error {
	if err := os.MkdirAll(d, 0o700); err != nil {
		return ioErr(d, "creating a build cache", err)
	}
	return nil
}

// goEnv is the one place that builds the environment of the archive's code and
// of the go command that compiles it. The caller's
// environment is an allow-list: PATH, GOROOT if set, a fresh HOME and
// TMPDIR in dir, and the Go settings below; no other variable of the caller's
// reaches the archive's code. Every Go setting that could reach the network, a
// workspace, another toolchain or the user's caches is set. The module
// cache is a fresh, empty folder in dir and GOPROXY is off, so only the
// standard library and the archive's own packages can build; the build
// cache is gocache; temporary files (GOTMPDIR for the go command, TMPDIR
// for the tests) go in dir. -trimpath keeps the scratch folder's random
// name out of the build's inputs, so that a second verify of the same
// archive finds its packages compiled in the cache instead of compiling
// them again. CI is dropped too: in this repository CI=true turns a missing
// optional tool (python3 for the Python port's tests) from a loud skip into
// a failure, and the re-run must need only a Go toolchain.
func goEnv(dir, gocache string) []string {
	tmp := filepath.Join(dir, "tmp")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home")}
	if root := os.Getenv("GOROOT"); root != "" {
		env = append(env, "GOROOT="+root)
	}
	return append(env,
		"GOPROXY=off", "GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=",
		"GOFLAGS=-mod=readonly -buildvcs=false -trimpath",
		"GOMODCACHE="+filepath.Join(dir, "gomodcache"), "GOCACHE="+gocache,
		"GOTOOLCHAIN=local", "GOWORK=off", "GOENV=off", "CGO_ENABLED=0",
		"GOTMPDIR="+tmp, "TMPDIR="+tmp,
	)
}

// removeScratch removes the tests step's scratch folder. The module cache is written
// read-only, so its folders are made writable first.
func removeScratch(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}

// readCaseIDs reads the "id" of every case file in the extracted tree and
// requires them distinct, and at least one.
func readCaseIDs(tree string, p *TestPlan) ([]string, *archive.Error) {
	files, err := filepath.Glob(filepath.Join(tree, filepath.FromSlash(p.CasesGlob)))
	if err != nil {
		return nil, errf(CodeCases, p.CasesGlob, "bad pattern: %v", err)
	}
	seen := map[string]string{}
	var ids []string
	for _, f := range files {
		rel, _ := filepath.Rel(tree, f)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, ioErr(rel, "reading case", err)
		}
		var c struct {
			ID *string `json:"id"`
		}
		if err := json.Unmarshal(data, &c); err != nil || c.ID == nil || *c.ID == "" {
			return nil, errf(CodeCases, rel, "case file has no string %q", "id")
		}
		if other, ok := seen[*c.ID]; ok {
			return nil, errf(CodeCases, rel, "case id %q is also the id of %q", *c.ID, other)
		}
		seen[*c.ID] = rel
		ids = append(ids, *c.ID)
	}
	if len(ids) == 0 {
		return nil, errf(CodeCases, p.CasesGlob, "no case files: a release re-runs its conformance cases")
	}
	sort.Strings(ids)
	return ids, nil
}

// modulePath reads the module path from the extracted go.mod.
func modulePath(tree string) (string, *archive.Error) {
	data, err := os.ReadFile(filepath.Join(tree, "go.mod"))
	if err != nil {
		return "", &archive.Error{Code: CodeTestRun, Entry: "go.mod", Offset: -1, Detail: "reading go.mod", Err: err}
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" {
			if s, err := strconv.Unquote(f[1]); err == nil {
				return s, nil
			}
			return f[1], nil
		}
	}
	return "", errf(CodeTestRun, "go.mod", "no module line")
}

func decodeEvents(r io.Reader) ([]testEvent, error) {
	dec := json.NewDecoder(r)
	var events []testEvent
	for {
		var e testEvent
		err := dec.Decode(&e)
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		if e.Action == "" {
			return events, fmt.Errorf("event without an action")
		}
		if e.Action == "output" {
			// Keep output only for tests, bounded, for failure reports.
			if len(e.Output) > 512 {
				e.Output = e.Output[:512]
			}
		}
		events = append(events, e)
	}
}

// SubtestName returns the name go test gives a subtest run as
// t.Run(name) under parent: spaces become underscores and unprintable runes
// are quoted, as the testing package does.
func SubtestName(parent, name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			s := strconv.QuoteRune(r)
			b.WriteString(s[1 : len(s)-1])
		default:
			b.WriteRune(r)
		}
	}
	return parent + "/" + b.String()
}

// checkEvents requires that every case ran and passed as a subtest of the
// case test, that no other subtest of it ran, that the required tests
// passed, and that nothing failed.
func checkEvents(events []testEvent, mod string, ids []string, p *TestPlan) []*archive.Error {
	casePkg := path.Join(mod, p.CasePackage)
	final := map[[2]string]string{} // package, test -> last of pass/fail/skip
	output := map[[2]string][]string{}
	buildOut := map[string][]string{}
	var broken []string
	for _, e := range events {
		k := [2]string{e.Package, e.Test}
		switch e.Action {
		case "pass", "fail", "skip":
			final[k] = e.Action
			if e.FailedBuild != "" {
				broken = append(broken, e.FailedBuild)
			}
		case "output":
			if o := output[k]; len(o) < 20 {
				output[k] = append(o, strings.TrimRight(e.Output, "\n"))
			}
		case "build-output":
			if o := buildOut[e.ImportPath]; len(o) < 20 {
				buildOut[e.ImportPath] = append(o, strings.TrimRight(e.Output, "\n"))
			}
		case "build-fail":
			broken = append(broken, e.ImportPath)
		}
	}
	if len(broken) > 0 {
		// Nothing ran in a package that did not build: report that alone.
		sort.Strings(broken)
		var errs []*archive.Error
		for i, b := range broken {
			if i > 0 && b == broken[i-1] {
				continue
			}
			errs = append(errs, errf(CodeTestsFailed, b, "did not build: %s", tail(strings.Join(buildOut[b], " | "), 600)))
		}
		return errs
	}
	explain := func(k [2]string) string {
		if o := output[k]; len(o) > 0 {
			return ": " + tail(strings.Join(o, " | "), 400)
		}
		return ""
	}
	var errs []*archive.Error
	want := map[string]bool{}
	for _, id := range ids {
		name := SubtestName(p.CaseTest, id)
		want[name] = true
		k := [2]string{casePkg, name}
		switch final[k] {
		case "pass":
		case "":
			errs = append(errs, errf(CodeCases, id, "case did not run (no result for %s)", name))
		case "skip":
			errs = append(errs, errf(CodeTestsFailed, id, "case was skipped%s", explain(k)))
		default:
			errs = append(errs, errf(CodeTestsFailed, id, "case failed%s", explain(k)))
		}
	}
	var extra []string
	for k := range final {
		if k[0] == casePkg && strings.HasPrefix(k[1], p.CaseTest+"/") && !strings.Contains(k[1][len(p.CaseTest)+1:], "/") && !want[k[1]] {
			extra = append(extra, k[1])
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		errs = append(errs, errf(CodeCases, name, "a subtest that is not one of the case ids ran"))
	}
	covered := map[[2]string]bool{}
	if k := [2]string{casePkg, p.CaseTest}; final[k] != "pass" && len(errs) == 0 {
		errs = append(errs, errf(CodeTestsFailed, p.CaseTest, "conformance test did not pass (%s)%s", orNone(final[k]), explain(k)))
	}
	for _, t := range p.Required {
		k := [2]string{path.Join(mod, t.Package), t.Test}
		covered[k] = true
		if final[k] != "pass" {
			errs = append(errs, errf(CodeRecords, t.Package+"."+t.Test, "required test did not pass (%s)%s", orNone(final[k]), explain(k)))
		}
	}
	// Any other failure: a test the plan does not name, or a package that
	// failed with no failing test (a panic in TestMain, an os.Exit).
	var other [][2]string
	failedPkg := map[string]bool{}
	for k, a := range final {
		if a == "fail" && k[1] != "" {
			failedPkg[k[0]] = true
		}
	}
	for k, a := range final {
		switch {
		case a != "fail", covered[k], k[0] == casePkg && (k[1] == p.CaseTest || strings.HasPrefix(k[1], p.CaseTest+"/")):
		case k[1] == "" && failedPkg[k[0]]:
		default:
			other = append(other, k)
		}
	}
	sort.Slice(other, func(i, j int) bool { return other[i][0]+" "+other[i][1] < other[j][0]+" "+other[j][1] })
	for _, k := range other {
		// The test's own output, so that the report says why.
		errs = append(errs, errf(CodeTestsFailed, strings.TrimSpace(k[0]+" "+k[1]), "failed%s", explain(k)))
	}
	return errs
}

func orNone(s string) string {
	if s == "" {
		return "no result"
	}
	return s
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
