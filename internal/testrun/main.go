// Command testrun runs the test suite for the Makefile's test target, shows
// the tests that skipped something that matters, and records a passing run
// so that 'make release' can reuse it instead of running the whole
// race-detector suite a second time.
//
// Usage:
//
//	go run ./internal/testrun [-reuse] -- COMMAND ARGS...
//
// It runs COMMAND with CATALOGKIT_SKIP_REPORT naming a fresh file. A test
// that skips because something is missing (Chromium, python3) appends one
// line to that file saying what was not tested and the command that
// installs what is missing (internal/skipreport); after COMMAND ends,
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
// Exit status: COMMAND's own; 2 for bad usage; 3 if COMMAND could not
// start; 130 or 143 after SIGINT or SIGTERM.
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
	"strings"
	"syscall"
	"time"

	"github.com/catalogkit/catalogkit/internal/atomicfile"
	"github.com/catalogkit/catalogkit/internal/gitcmd"
	"github.com/catalogkit/catalogkit/internal/skipreport"
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
	if err := fs.Parse(args); err != nil {
		return 2
	}
	command := fs.Args()
	if len(command) == 0 {
		fmt.Fprintln(stderr, "testrun: error: no command to run\nusage: go run ./internal/testrun [-reuse] -- COMMAND ARGS...")
		return 2
	}

	key, why := stampKey(command)
	file := ""
	if key != "" {
		if dir, err := os.UserCacheDir(); err == nil {
			file = filepath.Join(dir, "catalogkit", "test-passed", key+".json")
		}
	}
	if *reuse {
		if s, ok := readStamp(file); ok {
			fmt.Fprintf(stdout, "reusing the passing run of %q on commit %s (clean tree, %s) from %s; run 'make test' to run it again\n",
				strings.Join(s.Command, " "), s.Commit, s.Go, s.Finished.Format(time.RFC3339))
			printWarnings(stderr, s.Warnings)
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

	status := runCommand(command, report.Name(), stdout, stderr)
	warnings := readLines(report.Name())
	printWarnings(stderr, warnings)
	if status != 0 || file == "" {
		return status
	}
	// Record the run only if the tree is still the same clean commit.
	if after, _ := stampKey(command); after != key {
		return status
	}
	if err := writeStamp(file, stamp{Commit: commit(), Go: goVersion(), Command: command, Finished: time.Now().UTC(), Warnings: warnings}); err != nil {
		fmt.Fprintf(stderr, "testrun: warning: could not record the passing run for 'make release' to reuse: %v\n", err)
	}
	return status
}

// runCommand runs command with the skip report named in its environment and
// returns its exit status. On SIGINT or SIGTERM it waits for the command,
// which got the signal from the terminal or is sent it, and returns 130 or
// 143.
func runCommand(command []string, report string, stdout, stderr io.Writer) int {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin = os.Stdin
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.Env = append(os.Environ(), skipreport.Env+"="+report)
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
	for {
		select {
		case sig := <-sigs:
			got = sig
			cmd.Process.Signal(sig)
			continue
		case err := <-done:
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
	if len(bytes.TrimSpace(status)) > 0 {
		return "", "the tree has changes or untracked files"
	}
	h := sha256.New()
	for _, part := range append([]string{c, goVersion(), runtime.GOOS, runtime.GOARCH, os.Getenv("GOFLAGS"), os.Getenv("CI")}, command...) {
		fmt.Fprintf(h, "%q\n", part)
	}
	return hex.EncodeToString(h.Sum(nil)), ""
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
	fmt.Fprintf(w, "\nWARNING: %d test group(s) skipped something that matters; the run passed without them:\n", len(warnings))
	for _, l := range warnings {
		fmt.Fprintf(w, "WARNING: %s\n", l)
	}
}
