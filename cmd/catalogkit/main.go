// Command catalogkit discovers tool descriptions, checks call arguments against
// them, runs the conformance suite, and cuts and verifies reproducible releases.
//
// Every command prints its usage with -h. Exit status, for every command:
//
//	0    success
//	1    a check failed (a contract error, a failed case or verification)
//	2    bad usage (flags, arguments)
//	3    could not run (an I/O error such as a missing input file, a port
//	     that cannot start, resources exhausted, an internal error)
//	130  interrupted by SIGINT (Ctrl-C), temporary files removed
//	143  terminated by SIGTERM, temporary files removed
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// The exit statuses (see the package documentation).
const (
	exitOK          = 0
	exitCheckFailed = 1
	exitUsage       = 2
	exitCannotRun   = 3
)

// A command is one subcommand of catalogkit.
type command struct {
	name    string
	summary string
	run     func(c *cli, args []string) int
	// interruptible says that main may end the command on SIGINT or SIGTERM
	// whatever it is doing (reading a FIFO that has no writer, waiting on
	// stdin, writing to a full pipe): after a short grace it runs the
	// command's registered cleanups and exits 130 or 143. A command that is
	// not interruptible handles the signals itself.
	interruptible bool
}

// commands lists the subcommands in the order the usage shows them.
var commands = []command{
	{"discover", "list tool descriptions of a family, or one tool by name", runDiscover, true},
	{"validate", "check a call's arguments against a tool's input schema", runValidate, true},
	{"records", "write the five example records, or --check them against a fresh run", runRecords, true},
	{"conform", "run the conformance cases against the Go implementation or a port", runConform, false},
	{"port", "answer the conformance protocol on stdin/stdout with the Go implementation", runPort, true},
	{"pack", "build the deterministic release ZIP, its manifest and SHA256SUMS", runPack, false},
	{"verify", "check a release archive: hashes, strict parse, safe extraction, repack, conformance re-run", runVerify, false},
	{"version", "print the release, module, Go and compressor versions of this build", runVersion, true},
	{"keygen", "write a new minisign key pair for signing releases (PREFIX.key, PREFIX.pub)", runKeygen, false},
	{"mcp", "serve a catalog to agents over the Model Context Protocol (stdio or HTTP)", runMCP, true},
	{"sign", "sign a catalog file for mcp --key (FILE.minisig)", runSign, false},
	{"import", "turn an MCP server's tools/list into a format-2 catalog, saying what became of each tool", runImport, true},
	{"export", "write a catalog's tools as OpenAI, Anthropic, Gemini or MCP tool definitions, strict where the vendor has a strict mode", runExport, true},
	{"drift", "compare a format-2 catalog with a server's tools/list of now: what changed, disappeared or appeared", runDrift, true},
	{"diff", "explain why two ZIP archives differ, entry by entry, then the first differing byte", runDiff, true},
}

func main() { os.Exit(Main()) }

// Main runs catalogkit with the process's arguments and standard streams and
// returns the exit status. Tests call it in-process.
func Main() int {
	return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// cli carries the standard streams of one run.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// jsonErrors makes contract errors a JSON object on stdout (discover and
	// validate --json), for programs that read the stable code.
	jsonErrors bool
	// cmd is the subcommand whose flags are being parsed ("" before one is
	// chosen): its usage errors point at "catalogkit CMD -h".
	cmd string

	mu       sync.Mutex
	cleanups []func() // run when a signal ends an interruptible command
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		c.printCommands(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		c.printCommands(stdout)
		return exitOK
	case "-version", "--version":
		return runVersion(c, args[1:])
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			if cmd.interruptible {
				return c.runInterruptible(cmd, args[1:])
			}
			return c.runRecovered(cmd, args[1:])
		}
	}
	return c.badUsage("unknown command %q", args[0])
}

// runRecovered runs a command and turns a panic into exit status 3 with a
// message, never a crash that could look like another status.
func (c *cli) runRecovered(cmd command, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = c.cannotRun("this is a bug in catalogkit: please report it with the command line and the trace above",
				"internal error in %s: %v\n%s", cmd.name, r, debug.Stack())
		}
	}()
	return cmd.run(c, args)
}

// signalGrace is how long an interruptible command may go on after SIGINT
// or SIGTERM before main runs its cleanups and exits: well within the
// second that every command has to end.
const signalGrace = 300 * time.Millisecond

// runInterruptible runs an interruptible command in its own goroutine, so
// that a signal ends the run even while the command is blocked in a system
// call (opening a FIFO that has no writer, reading stdin, writing to a full
// pipe): after signalGrace it runs the cleanups, prints a line and returns
// 130 for SIGINT or 143 for SIGTERM. When main returns, the process exits
// and the blocked goroutine with it.
func (c *cli) runInterruptible(cmd command, args []string) int {
	ctx, stop, signalled := interruptible()
	defer stop()
	done := make(chan int, 1)
	go func() { done <- c.runRecovered(cmd, args) }()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
		select {
		case <-done: // finished (a write in progress, say) within the grace
		case <-time.After(signalGrace):
		}
		c.runCleanups()
		fmt.Fprintf(c.stderr, "catalogkit: %s: stopped by %s\n", cmd.name, signalName(signalled()))
		return signalled()
	}
}

// onSignal registers f to run if a signal ends the command; the returned
// function unregisters it. f must be safe to run while the command goes on.
func (c *cli) onSignal(f func()) (unregister func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cleanups = append(c.cleanups, f)
	i := len(c.cleanups) - 1
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.cleanups[i] = nil
	}
}

func (c *cli) runCleanups() {
	c.mu.Lock()
	fs := c.cleanups
	c.cleanups = nil
	c.mu.Unlock()
	for _, f := range fs {
		if f != nil {
			f()
		}
	}
}

// interruptible is the one handler of SIGINT and SIGTERM, for main's
// runInterruptible and for every command that stops on its own: it
// returns a context cancelled by SIGINT or SIGTERM, the function that stops
// listening, and one that returns the exit status for the signal received
// (signalStatus: 130 for SIGINT, 143 for SIGTERM), or 0 if none came.
func interruptible() (ctx context.Context, stop func(), signalled func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var code atomic.Int32
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			code.Store(int32(signalStatus(sig)))
			cancel()
		case <-done:
		}
	}()
	stop = func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
	return ctx, stop, func() int { return int(code.Load()) }
}

// signalStatus is the shell's exit status for a process ended by sig: 128
// plus the signal's number (130 for SIGINT, 143 for SIGTERM).
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// signalName names the signal of an exit status from signalStatus.
func signalName(status int) string {
	if status == 128+int(syscall.SIGTERM) {
		return "SIGTERM"
	}
	return "SIGINT"
}

func (c *cli) printCommands(w io.Writer) {
	fmt.Fprintf(w, "usage: catalogkit <command> [flags]\n\ncommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> -h' for a command's flags and an example.\n", progName())
	fmt.Fprintf(w, "Exit status: 0 success, 1 a check failed, 2 bad usage, 3 could not run\n")
	fmt.Fprintf(w, "(I/O error, resources exhausted, internal error), 130/143 after SIGINT/SIGTERM.\n")
}

// errorf reports a failed check: it prints "catalogkit: error: ..." and an
// optional hint line to stderr and returns exit status 1.
func (c *cli) errorf(hint, format string, args ...any) int {
	c.printError(hint, format, args...)
	return exitCheckFailed
}

// badUsage is usageError with the hint to read the command's -h.
func (c *cli) badUsage(format string, args ...any) int {
	return c.usageError(usageHint(c.cmd), format, args...)
}

// usageError is errorf for bad usage: exit status 2.
func (c *cli) usageError(hint, format string, args ...any) int {
	c.printError(hint, format, args...)
	return exitUsage
}

// cannotRun is errorf for a run that could not be done (an I/O error, an
// internal error): exit status 3.
func (c *cli) cannotRun(hint, format string, args ...any) int {
	c.printError(hint, format, args...)
	return exitCannotRun
}

// writeReport writes a command's report on stdout with write (the text,
// JSON or JUnit writer the command's flags chose). A report that cannot be
// written is exit status 3 (ok false).
func (c *cli) writeReport(write func(io.Writer) error) (code int, ok bool) {
	if err := write(c.stdout); err != nil {
		return c.cannotRun("", "failed to write the report: %v", err), false
	}
	return 0, true
}

func (c *cli) printError(hint, format string, args ...any) {
	// Messages quote paths, archive names and git's words: none of their
	// control characters reaches the terminal.
	fmt.Fprint(c.stderr, termsafe.PrintableLines(fmt.Sprintf("catalogkit: error: "+format+"\n", args...)))
	if hint == "" {
		hint = ioHint(args)
	}
	if hint != "" {
		fmt.Fprintf(c.stderr, "hint: %s\n", hint)
	}
}

// flags returns a flag set for a subcommand whose -h output shows usage, the
// flags (written as the docs write them, --dir rather than the flag
// package's -dir) and the example.
func (c *cli) flags(name, synopsis, example string) *flag.FlagSet {
	c.cmd = name
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: catalogkit %s %s\n\nflags:\n", name, synopsis)
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(w)
		fmt.Fprint(w, flagLine.ReplaceAllString(b.String(), "$1--$2"))
		fmt.Fprintf(w, "\nexample:\n  %s\n", strings.ReplaceAll(strings.TrimSpace(example), "\n", "\n  "))
	}
	return fs
}

// flagLine matches the start of a flag's line in PrintDefaults' output;
// flagInError, a flag's name in the flag package's parse errors ("flag
// provided but not defined: -bogus", "invalid value "x" for flag -fuzz").
var (
	flagLine    = regexp.MustCompile(`(?m)^(  )-([a-z])`)
	flagInError = regexp.MustCompile(`(: |for |for flag )-([a-z])`)
	flagParse   = regexp.MustCompile(`--([a-z][a-z-]*): parse error$`)
)

// flagError rewrites a parse error of fs as the docs write flags (--fuzz)
// and says what a number or boolean flag wants instead of "parse error".
func flagError(fs *flag.FlagSet, err error) string {
	msg := flagInError.ReplaceAllString(err.Error(), "$1--$2")
	m := flagParse.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want := "parse error"
	if g, ok := fs.Lookup(m[1]).Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case int, int64, uint, uint64:
			want = "want a whole number"
		case float64:
			want = "want a number"
		case bool:
			want = "want true or false"
		case time.Duration:
			want = "want a duration with its unit, such as 500ms, 10s or 2m"
		}
	}
	return strings.TrimSuffix(msg, "parse error") + want
}

// usageHint is the hint of a usage error of command cmd ("" for the
// command list), naming the binary as it was invoked.
func usageHint(cmd string) string {
	if cmd == "" {
		return "run '" + progName() + " -h' to list the commands"
	}
	return "run '" + progName() + " " + cmd + " -h' for usage"
}

// progName returns the name the binary was invoked as, as typed
// (os.Args[0]), for the commands that hints and re-run lines show.
func progName() string {
	if len(os.Args) == 0 || os.Args[0] == "" {
		return "catalogkit"
	}
	return os.Args[0]
}

// parse parses args with fs. It reports ok=false with the exit status to
// return when parsing ended the run: 0 after -h (usage went to stdout), 2 after
// a bad flag or stray argument.
func (c *cli) parse(fs *flag.FlagSet, args []string, allowArgs bool) (code int, ok bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(c.stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(c.stdout)
		fs.Usage()
		return exitOK, false
	case err != nil:
		return c.badUsage("%s", flagError(fs, err)), false
	case !allowArgs && fs.NArg() > 0:
		return c.badUsage("unexpected argument %q", fs.Arg(0)), false
	}
	return exitOK, true
}

// ioHint is the hint for an error among args that the operating system
// gave, by its errno, for the messages that have no hint of their own.
func ioHint(args []any) string {
	for _, a := range args {
		var errno syscall.Errno
		if err, ok := a.(error); ok && errors.As(err, &errno) && errnoHints[errno] != "" {
			return errnoHints[errno]
		}
	}
	return ""
}

// errnoHints are ioHint's hints.
var errnoHints = map[syscall.Errno]string{
	syscall.ENOSPC:    "the disk (or whatever the output goes to) is full: free some space, or write elsewhere",
	syscall.EDQUOT:    "the disk (or whatever the output goes to) is full: free some space, or write elsewhere",
	syscall.EACCES:    "permission denied: check the permissions of the file or folder named, or write elsewhere",
	syscall.EPERM:     "permission denied: check the permissions of the file or folder named, or write elsewhere",
	syscall.EROFS:     "the file system is read-only: write elsewhere",
	syscall.EISDIR:    "a folder stands where a file is to be written: remove it, or choose another path",
	syscall.EEXIST:    "a file or folder is already where this is to be written: remove it, or choose another path",
	syscall.ENOTEMPTY: "a file or folder is already where this is to be written: remove it, or choose another path",
	syscall.ENOENT:    "check the path: the file, or a folder on the way to it, does not exist",
	syscall.ENOTDIR:   "a file stands where the path needs a folder: check the path",
}
