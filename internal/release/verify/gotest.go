package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	sbox "github.com/catalogkit/catalogkit/internal/release/sandbox"
)

// outputGrace is how long the tests step goes on reading go test's output after
// go test has ended: what it wrote is in the pipe already, so only a
// process it left behind holding the pipe open keeps it longer.
const outputGrace = 500 * time.Millisecond

// errOutputHeld is the decoding error when a process go test left behind
// held its output open past outputGrace.
var errOutputHeld = errors.New("a process the tests started still held go test's output open after go test ended")

// runEvents starts cmd with its standard output read as go test -json
// events, and waits for it. Reading never blocks the end: once cmd has
// exited (or was killed, when its context is done), what is left in the
// pipe is read for at most outputGrace, then reading stops, whoever holds
// the pipe's other end; not at all when ctx is done (the run was
// interrupted). It returns the events, the decoding error, and
// Wait's error (or Start's, with no events).
func runEvents(ctx context.Context, cmd *exec.Cmd) (events []testEvent, decodeErr, waitErr error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		return nil, nil, err
	}
	type decoded struct {
		events []testEvent
		err    error
	}
	done := make(chan decoded, 1)
	go func() {
		ev, err := decodeEvents(r)
		done <- decoded{ev, err}
	}()
	waitErr = cmd.Wait()
	grace := outputGrace
	if ctx.Err() != nil {
		grace = 0
	}
	r.SetReadDeadline(time.Now().Add(grace))
	d := <-done
	if errors.Is(d.err, os.ErrDeadlineExceeded) {
		d.err = errOutputHeld
	}
	return d.events, d.err, waitErr
}

// A rerun is the tests step's work: compile the tests, then run them.
type rerun struct {
	v     *verifier
	plan  *TestPlan
	ctx   context.Context // ends at the step's wall-clock limit
	goBin string
	tree  string // the extracted tree: read-only while compiling, never given to the tests
	sc    *scratch
}

// A testPkg is one package with tests: its import path, its folder
// relative to the tree, and its compiled test binary (empty if it did not
// build).
type testPkg struct{ path, dir, bin string }

// goroot returns the Go root of the go command: the folder above its bin.
func (r *rerun) goroot() []string {
	if real, err := filepath.EvalSymlinks(r.goBin); err == nil {
		return []string{filepath.Dir(filepath.Dir(real))}
	}
	return nil
}

// compile lists the packages of patterns that have tests and compiles
// each one's test binary into the scratch folder's bin, with gocache as
// the build cache, and test2json beside them. Only the go command and the
// toolchain's programs run (the compiler, the linker, vet; cgo is off):
// nothing from the archive is executed, so the build cache it writes holds
// what the toolchain made of the archive's sources, nothing the archive's
// code wrote. Sandboxed, the tree and the Go root are read-only and only
// bin, the build's own folder and the build cache are writable. It returns
// the packages, the go command's build events (a package that did not
// build), and problems that kept the tests from running at all.
func (r *rerun) compile(patterns []string, gocache string) ([]testPkg, []testEvent, []*archive.Error) {
	env := goEnv(r.sc.build, gocache)
	spec := &sbox.Spec{Dir: r.tree, ReadOnly: append([]string{r.tree}, r.goroot()...), Writable: []string{r.sc.bin, r.sc.build, gocache}, Env: env}
	var out bytes.Buffer
	args := append([]string{"list", "-e", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}\t{{.Dir}}{{end}}"}, patterns...)
	if err := r.output(spec, &out, r.goBin, args...); err != nil {
		return nil, nil, []*archive.Error{err}
	}
	var pkgs []testPkg
	for line := range strings.Lines(out.String()) {
		path, dir, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		rel, err := filepath.Rel(r.tree, dir)
		if !ok || err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, nil, []*archive.Error{errf(CodeTestRun, "", "go list named a package outside the tree: %q", line)}
		}
		pkgs = append(pkgs, testPkg{path: path, dir: rel})
	}
	var events []testEvent
	for i := range pkgs {
		r.progress("compiling the tests of %s (%d of %d)", pkgs[i].path, i+1, len(pkgs))
		bin := filepath.Join(r.sc.bin, fmt.Sprintf("%d.test", i))
		ev, err := r.events(spec, r.goBin, "test", "-c", "-json", "-o", bin, "./"+filepath.ToSlash(pkgs[i].dir))
		events = append(events, ev...)
		if err != nil {
			return nil, nil, []*archive.Error{err}
		}
		if _, serr := os.Stat(bin); serr == nil {
			pkgs[i].bin = bin
		}
	}
	if err := r.output(spec, io.Discard, r.goBin, "build", "-o", filepath.Join(r.sc.bin, "test2json"), "cmd/test2json"); err != nil {
		return nil, nil, []*archive.Error{err}
	}
	return pkgs, events, nil
}

// test runs each compiled package's tests, as go test would (in the
// package's folder, under test2json, with -test.paniconexit0), in a copy of
// the tree: up to GOMAXPROCS packages at once, each in a sandbox of its
// own whose only writable folders are the copy and the tests' own home,
// temporary folder and build cache. The extracted tree and the build
// cache the tests were compiled with are not there. It returns the tests'
// events, in package order, and problems with the runs themselves.
func (r *rerun) test(pkgs []testPkg) ([]testEvent, []*archive.Error) {
	work := filepath.Join(r.sc.work, filepath.Base(r.tree))
	if err := os.CopyFS(work, os.DirFS(r.tree)); err != nil {
		return nil, []*archive.Error{ioErr("", "copying the tree for the tests", err)}
	}
	env := goEnv(r.sc.run, filepath.Join(r.sc.run, "go-build"))
	test2json := filepath.Join(r.sc.bin, "test2json")
	flags := []string{"-test.v=test2json", "-test.paniconexit0"}
	if r.plan.Short {
		flags = append(flags, "-test.short")
	}
	events := make([][]testEvent, len(pkgs))
	errs := make([]*archive.Error, len(pkgs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range pkgs {
		if p.bin == "" {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			spec := &sbox.Spec{Dir: filepath.Join(work, p.dir), Writable: []string{work, r.sc.run}, ReadOnly: append([]string{r.sc.bin}, r.goroot()...), Env: env}
			timeout := "-test.timeout=" + testBinaryTimeout(r.ctx).String()
			args := slices.Concat([]string{"-t", "-p", p.path, p.bin}, flags, []string{timeout})
			start := time.Now()
			events[i], errs[i] = r.events(spec, test2json, args...)
			r.progress("the tests of %s ended in %.1fs (%s)", p.path, time.Since(start).Seconds(), outcome(events[i], errs[i]))
		})
	}
	wg.Wait()
	if r.v.opts.afterTests != nil {
		r.v.opts.afterTests(work)
	}
	var problems []*archive.Error
	for _, e := range errs {
		if e != nil {
			problems = append(problems, e)
		}
	}
	return slices.Concat(events...), problems
}

// progress tells Options.OnProgress what the step is doing.
func (r *rerun) progress(format string, args ...any) {
	if f := r.v.opts.OnProgress; f != nil {
		f(fmt.Sprintf(format, args...))
	}
}

// outcome says how a package's run ended, for a progress line.
func outcome(events []testEvent, err *archive.Error) string {
	if err != nil {
		return "could not run"
	}
	for i := len(events) - 1; i >= 0; i-- {
		if e := events[i]; e.Test == "" && (e.Action == "pass" || e.Action == "fail") {
			return map[string]string{"pass": "passed", "fail": "FAILED"}[e.Action]
		}
	}
	return "no result"
}

// testBinaryTimeout is the -test.timeout of a test binary: what is left of
// the step's wall-clock limit, less half a minute for the binary to report
// which test it was in (at least a minute).
func testBinaryTimeout(ctx context.Context) time.Duration {
	d := TestTimeout
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	return max(time.Minute, d-30*time.Second).Round(time.Second)
}

// output runs name with args as spec says and copies its standard output
// to w; an error if it could not start or did not exit 0, with the end of
// its standard error.
func (r *rerun) output(spec *sbox.Spec, w io.Writer, name string, args ...string) *archive.Error {
	cmd, after, err := r.v.command(r.ctx, spec, name, args...)
	if err != nil {
		return &archive.Error{Code: CodeTestRun, Offset: -1, Detail: "starting " + filepath.Base(name), Err: err}
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &limitedBuffer{b: &stderr, max: 64 << 10}
	err = cmd.Run()
	after()
	if err != nil {
		return &archive.Error{Code: CodeTestRun, Offset: -1, Detail: fmt.Sprintf("%s %s failed: %s", filepath.Base(name), args[0], tail(stderr.String(), 800)), Err: err}
	}
	return nil
}

// events runs name with args as spec says, its standard output read as go
// test -json events, and returns them; an error if it ran but its output
// was not events, or it failed and wrote no event.
func (r *rerun) events(spec *sbox.Spec, name string, args ...string) ([]testEvent, *archive.Error) {
	cmd, after, err := r.v.command(r.ctx, spec, name, args...)
	if err != nil {
		return nil, &archive.Error{Code: CodeTestRun, Offset: -1, Detail: "starting " + filepath.Base(name), Err: err}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, max: 64 << 10}
	events, derr, werr := runEvents(r.ctx, cmd)
	after()
	switch {
	case cmd.Process == nil:
		return nil, &archive.Error{Code: CodeTestRun, Offset: -1, Detail: "starting " + filepath.Base(name), Err: werr}
	case r.ctx.Err() != nil:
		return events, nil // the step says why: interrupted or out of time
	case errors.Is(derr, errOutputHeld) || errors.Is(werr, exec.ErrWaitDelay):
		return events, &archive.Error{Code: CodeTestRun, Offset: -1, Detail: errOutputHeld.Error() + " (reading stopped there)"}
	case derr != nil:
		return events, &archive.Error{Code: CodeTestRun, Offset: -1, Detail: "go test -json output is not test2json events", Err: derr}
	case len(events) == 0 && werr != nil:
		return nil, &archive.Error{Code: CodeTestRun, Offset: -1, Detail: fmt.Sprintf("%s failed: %s", filepath.Base(name), tail(stderr.String(), 800)), Err: werr}
	}
	return events, nil
}
