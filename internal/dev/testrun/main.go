// Command testrun runs the test suite for the Makefile's test target, shows
// the tests that skipped something that matters, and records a passing run
// so that 'make release' can reuse it instead of running the whole
// race-detector suite a second time.
//
// Usage:
//
//	go run ./internal/dev/testrun [-race] [-reuse] -- COMMAND ARGS... [--then COMMAND ARGS...]...
//
// The commands separated by --then run one after the other, as one run:
// each runs even when one before it failed (as go test goes on past a
// failing package), unless the run was interrupted. The Makefile runs the
// suite with the race detector, then the volume tests without it.
//
// With -race, testrun adds -race to the first COMMAND (after its "test"
// argument) when the race detector can run here: cgo enabled and the C
// compiler that go env CC names installed. When it cannot, the tests run
// without it and the run ends with a WARNING naming what was not checked
// and the command that installs the compiler; under CI=true testrun fails
// instead, before running anything.
//
// It runs COMMAND with CATALOGKIT_SKIP_REPORT naming a fresh file. A test
// that skips because something is missing (Chromium, python3) appends one
// line to that file saying what was not tested and the command that
// installs what is missing (internal/testlib/skipreport); after COMMAND ends,
// testrun prints each line as a WARNING on stderr, so that a skip shows in
// the normal output of 'make test' and not only with 'go test -v'.
//
// When COMMAND exits 0 in a clean git checkout (no change and no untracked
// file, the same commit before and after the run), testrun writes a stamp
// under the user cache directory (catalogkit/test-passed/), keyed by the
// commit, the Go version and platform, GOFLAGS, CI and COMMAND. With -reuse,
// a stamp for the current key means the run is not repeated: testrun says
// which run it reuses, prints that run's warnings again, and exits 0. No
// stamp is written or used for a tree with changes, or outside git.
//
// The run ends with one summary line: how many packages passed or failed
// (from go test's "ok" and "FAIL" lines), how many checks were skipped
// (the WARNINGs above it), and whether the pass was recorded for 'make
// release', or why not, naming the files that keep the tree from being
// its commit.
//
// Exit status: the first failing COMMAND's own; 1 under CI=true when -race
// cannot run; 2 for bad usage; 3 if a COMMAND could not start; 130 or 143
// after SIGINT or SIGTERM.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
	"github.com/catalogkit/catalogkit/internal/shared/gitcmd"
	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// A stamp records one passing run.
type stamp struct {
	Commit   string    `json:"commit"`
	Go       string    `json:"go"`
	Command  []string  `json:"command"`
	Finished time.Time `json:"finished"`
	Warnings []string  `json:"warnings,omitempty"`
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	reuse := fs.Bool("reuse", false, "reuse a passing run of the same clean commit instead of running COMMAND again")
	race := fs.Bool("race", false, "add -race to COMMAND after its \"test\" argument when the race detector can run here")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	command := fs.Args()
	commands := splitCommands(command)
	if slices.ContainsFunc(commands, func(c []string) bool { return len(c) == 0 }) {
		fmt.Fprintln(stderr, "testrun: error: no command to run\nusage: go run ./internal/dev/testrun [-race] [-reuse] -- COMMAND ARGS... [--then COMMAND ARGS...]...")
		return 2
	}
	var warnings []string
	if *race {
		i := slices.Index(commands[0], "test")
		if i < 0 {
			fmt.Fprintln(stderr, "testrun: error: -race needs a go test COMMAND (no \"test\" argument to add -race after)")
			return 2
		}
		if missing := raceMissing(); missing == "" {
			commands[0] = slices.Insert(slices.Clone(commands[0]), i+1, "-race")
			command = joinCommands(commands)
		} else if os.Getenv("CI") == "true" {
			fmt.Fprintf(stderr, "testrun: error: %s, and CI=true: the tests must run with the race detector in CI\n", missing)
			return 1
		} else {
			warnings = append(warnings, missing)
		}
	}

	key, why := stampKey(command)
	file := ""
	if key != "" {
		if dir, err := os.UserCacheDir(); err == nil {
			file = filepath.Join(dir, "catalogkit", "test-passed", key+".json")
		} else {
			why = fmt.Sprintf("no user cache folder to record it in: %v", err)
		}
	}
	if *reuse {
		if s, ok := readStamp(file); ok {
			fmt.Fprintf(stdout, "reusing the passing run of %q on commit %s (clean tree, %s) from %s; run 'make test' to run it again\n",
				strings.Join(s.Command, " "), s.Commit, s.Go, s.Finished.Format(time.RFC3339))
			printWarnings(stderr, s.Warnings)
			fmt.Fprintf(stdout, "make test: passed (reused)%s; recorded for 'make release' (commit %s)\n", skipped(s.Warnings), short(s.Commit))
			return 0
		}
		if why != "" {
			fmt.Fprintf(stdout, "running the tests: no earlier run can be reused (%s)\n", why)
		} else {
			fmt.Fprintf(stdout, "running the tests: no passing run of this commit was recorded\n")
		}
	}

	report, err := os.CreateTemp("", "catalogkit-skips-*.txt")
	if err != nil {
		fmt.Fprintf(stderr, "testrun: error: %v\n", err)
		return 3
	}
	report.Close()
	defer os.Remove(report.Name())

	var tally packages
	status := 0
	for _, c := range commands {
		st := runCommand(c, report.Name(), io.MultiWriter(stdout, &tally), stderr)
		if status == 0 {
			status = st
		}
		if st == 130 || st == 143 || st == 3 {
			status = st
			break
		}
	}
	warnings = append(warnings, readLines(report.Name())...)
	printWarnings(stderr, warnings)
	recorded := ""
	switch {
	case status != 0:
		recorded = "not recorded for 'make release'"
	case file == "":
		recorded = "not recorded for 'make release': " + why
	default:
		// Record the run only if the tree is still the same clean commit.
		if after, whyAfter := stampKey(command); after != key {
			if whyAfter == "" {
				whyAfter = "the commit changed during the run"
			}
			recorded = "not recorded for 'make release': " + whyAfter
		} else if err := writeStamp(file, stamp{Commit: commit(), Go: goVersion(), Command: command, Finished: time.Now().UTC(), Warnings: warnings}); err != nil {
			recorded = fmt.Sprintf("not recorded for 'make release': %v", err)
		} else {
			recorded = fmt.Sprintf("recorded for 'make release' (commit %s)", short(commit()))
		}
	}
	fmt.Fprintf(stdout, "make test: %s%s; %s\n", tally.summary(status), skipped(warnings), recorded)
	return status
}

// splitCommands splits args at each "--then" into the commands to run.
func splitCommands(args []string) [][]string {
	var commands [][]string
	for {
		i := slices.Index(args, "--then")
		if i < 0 {
			return append(commands, args)
		}
		commands, args = append(commands, args[:i]), args[i+1:]
	}
}

// joinCommands is the inverse of splitCommands.
func joinCommands(commands [][]string) []string {
	var args []string
	for i, c := range commands {
		if i > 0 {
			args = append(args, "--then")
		}
		args = append(args, c...)
	}
	return args
}

// raceMissing returns why the race detector cannot run here, with the
// command that installs what is missing, or "" when it can: it needs cgo,
// which needs the C compiler go env CC names.
func raceMissing() string {
	const what = "the tests ran WITHOUT the race detector (go test -race), so data races were NOT checked"
	env, err := exec.Command("go", "env", "CGO_ENABLED", "CC").Output()
	if err != nil {
		return fmt.Sprintf("%s: go env failed: %v", what, err)
	}
	f := strings.Split(strings.TrimSpace(string(env)), "\n")
	cc := ""
	if len(f) == 2 {
		cc = strings.Fields(f[1] + " gcc")[0]
	}
	if _, err := exec.LookPath(cc); err != nil || cc == "" {
		return fmt.Sprintf("%s: it needs a C compiler and %q is not installed; install it: sudo apt-get install gcc", what, cc)
	}
	if f[0] != "1" {
		return fmt.Sprintf("%s: it needs cgo, and CGO_ENABLED is %q; unset it or set CGO_ENABLED=1", what, f[0])
	}
	return ""
}

// packages counts go test's result lines as they pass through, and notes
// a test binary's timeout: which tests were running, for how long.
type packages struct {
	partial []byte
	ok      []string // each package once, though several commands test it
	failed  []string
	// timedOut is go test's "panic: test timed out after D" line, and
	// running the tests it names after "running tests:".
	timedOut string
	running  []string
	inList   bool
}

func (p *packages) Write(b []byte) (int, error) {
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := string(p.partial[:i])
		p.partial = p.partial[i+1:]
		p.line(line)
	}
}

// line reads one line of go test's output. Only go test's own package lines
// count ("ok  \tPKG" and "FAIL\tPKG", with a tab): a test's log may hold
// lines that start with FAIL too (a conformance report's).
func (p *packages) line(line string) {
	switch {
	case strings.HasPrefix(line, "ok  \t"):
		if pkg := strings.Fields(line)[1]; !slices.Contains(p.ok, pkg) {
			p.ok = append(p.ok, pkg)
		}
	case strings.HasPrefix(line, "FAIL\t"):
		if pkg := strings.Fields(line)[1]; !slices.Contains(p.failed, pkg) {
			p.failed = append(p.failed, pkg)
		}
	case strings.HasPrefix(line, "panic: test timed out after "):
		p.timedOut, p.running, p.inList = strings.TrimPrefix(line, "panic: test timed out after "), nil, false
	case p.timedOut != "" && line == "running tests:":
		p.inList = true
	case p.inList && strings.HasPrefix(line, "\t"):
		p.running = append(p.running, strings.TrimSpace(line))
	default:
		p.inList = false
	}
}

func (p *packages) summary(status int) string {
	ok := len(p.ok)
	for _, f := range p.failed {
		if slices.Contains(p.ok, f) {
			ok-- // passed in one command, failed in another
		}
	}
	switch {
	case status == 130 || status == 143:
		return fmt.Sprintf("INTERRUPTED (%s): the tests were stopped; %s had passed", map[int]string{130: "SIGINT", 143: "SIGTERM"}[status], plural(ok, "package"))
	case status == 0:
		return fmt.Sprintf("passed: %s tested", plural(ok, "package"))
	}
	s := fmt.Sprintf("FAILED (exit status %d): %s passed before it stopped", status, plural(ok, "package"))
	if len(p.failed) > 0 {
		s = fmt.Sprintf("FAILED: %d of %d packages failed (%s)", len(p.failed), len(p.failed)+ok, strings.Join(p.failed, ", "))
	}
	if p.timedOut != "" {
		s += fmt.Sprintf("; a test binary hit go test's timeout of %s while running %s: on a busy machine, try 'make test TEST_P=1' or a quieter machine, else look for a test that waits for something that never comes", p.timedOut, strings.Join(p.running, ", "))
	}
	return s
}

// skipped says how many checks were skipped, pointing at their WARNINGs.
func skipped(warnings []string) string {
	switch len(warnings) {
	case 0:
		return ", nothing skipped"
	case 1:
		return ", 1 check skipped (the WARNING above)"
	}
	return fmt.Sprintf(", %d checks skipped (the WARNINGs above)", len(warnings))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func short(commit string) string { return commit[:min(len(commit), 12)] }

// stopGrace is how long the tests have to end after SIGINT or SIGTERM
// before their whole process group is killed.
var stopGrace = 5 * time.Second

// runCommand runs command with the skip report named in its environment,
// in a process group of its own, and returns its exit status. On SIGINT or
// SIGTERM it passes the signal to the group, kills the group if it has not
// ended stopGrace later (a test binary that ignores the signal), says so,
// and returns 130 or 143.
func runCommand(command []string, report string, stdout, stderr io.Writer) int {
	cmd := exec.Command(command[0], command[1:]...)
	// No terminal: the tests' process group is not the terminal's
	// foreground group, and must not stop on reading it.
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.Env = append(os.Environ(), skipreport.Env+"="+report)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "testrun: error: cannot start %q: %v\n", command[0], err)
		return 3
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var got os.Signal
	var kill <-chan time.Time
	for {
		select {
		case sig := <-sigs:
			if got == nil {
				fmt.Fprintf(stderr, "\ntestrun: %v: stopping the tests (their processes are killed in %v if they have not ended)\n", sig, stopGrace)
				kill = time.After(stopGrace)
			}
			got = sig
			syscall.Kill(-cmd.Process.Pid, sig.(syscall.Signal))
			continue
		case <-kill:
			fmt.Fprintf(stderr, "testrun: the tests had not ended %v after the signal: killed\n", stopGrace)
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			continue
		case err := <-done:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever of the group is left
			switch {
			case got == os.Interrupt:
				return 130
			case got == syscall.SIGTERM:
				return 143
			case err == nil:
				return 0
			}
			var exit *exec.ExitError
			if errors.As(err, &exit) && exit.ExitCode() > 0 {
				return exit.ExitCode()
			}
			fmt.Fprintf(stderr, "testrun: error: %q: %v\n", command[0], err)
			return 3
		}
	}
}

// stampKey returns the key of a run of command on the current tree, or ""
// and the reason when no run of this tree can be recorded or reused.
func stampKey(command []string) (key, why string) {
	c := commit()
	if c == "" {
		return "", "not a git checkout"
	}
	status, err := gitcmd.Run(context.Background(), ".", "status", "--porcelain", "--untracked-files=normal")
	if err != nil {
		return "", "git status failed"
	}
	if files := changedFiles(status); len(files) > 0 {
		return "", "the tree has changes or untracked files, so it is not the commit: " + files +
			" (commit them, remove them, or add them to .gitignore)"
	}
	h := sha256.New()
	for _, part := range append([]string{c, goVersion(), runtime.GOOS, runtime.GOARCH, os.Getenv("GOFLAGS"), os.Getenv("CI")}, command...) {
		fmt.Fprintf(h, "%q\n", part)
	}
	return hex.EncodeToString(h.Sum(nil)), ""
}

// changedFiles lists the paths of git status --porcelain output: at most
// ten, then how many more.
func changedFiles(porcelain []byte) string {
	var names []string
	for _, l := range strings.Split(string(porcelain), "\n") {
		if len(l) > 3 {
			names = append(names, l[3:])
		}
	}
	if len(names) > 10 {
		names = append(names[:10], fmt.Sprintf("and %d more", len(names)-10))
	}
	return strings.Join(names, ", ")
}

// commit returns the checked-out commit, or "" outside git.
func commit() string {
	out, err := gitcmd.Run(context.Background(), ".", "rev-parse", "--verify", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// goVersion returns the version of the go command the tests run with, which
// may differ from the toolchain that built testrun.
func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

func readStamp(file string) (stamp, bool) {
	var s stamp
	if file == "" {
		return s, false
	}
	b, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(b, &s) != nil || s.Commit == "" {
		return s, false
	}
	return s, true
}

// writeStamp writes the stamp atomically ([atomicfile.WriteFile]).
func writeStamp(file string, s stamp) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(file, append(b, '\n'), 0o644)
}

// readLines returns the non-empty lines of a file, each once, in order.
func readLines(file string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var lines []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	return lines
}

func printWarnings(w io.Writer, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWARNING: %d check(s) did NOT run; install what they need, or know that the run is without them:\n", len(warnings))
	for _, l := range warnings {
		fmt.Fprintf(w, "WARNING: %s\n", l)
	}
}
