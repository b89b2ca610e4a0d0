package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

const conformExample = `catalogkit conform
catalogkit conform -- catalogkit port
catalogkit conform --run '^validate\.' -- python3 conformance/ports/python/catalog_port.py
catalogkit conform --format junit -- ./my-port > conformance.xml
catalogkit conform --fuzz 10000 --seed 1 --jobs 2 -- python3 conformance/ports/python/catalog_port.py
catalogkit conform --cases catalogkit-fuzz-1234 -- python3 conformance/ports/python/catalog_port.py`

const conformNotes = `
limits and processes:
  A reply line longer than --max-reply is an ERROR for its case, read no
  further: the port is killed and restarted for the next case. Each port runs
  in its own process group, with ` + conformance.PortMarkerEnv + ` in its
  environment, and on Linux, where the kernel allows it, in its own PID
  namespace, which the kernel ends with it; whenever it ends (timeout, crash,
  error, end of the run, --cases, --fuzz, SIGINT, SIGTERM) its group and, on
  Linux, every process that carries the marker are killed and reaped (the
  runner is a child subreaper): no process it started survives.

exit status:
  0 every case passed; 1 a case did not pass; 2 bad usage; 3 could not run
  (the port cannot start or fails its handshake, the report cannot be
  written); 130 or 143 after SIGINT or SIGTERM, the port's processes ended.
`

func runConform(c *cli, args []string) int {
	fs := c.flags("conform", "[flags] [-- CMD ARGS...]", conformExample)
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), conformNotes) }
	run := fs.String("run", "", "run only the cases whose id matches `REGEXP`")
	format := fs.String("format", "text", "report `FORMAT`: text, json or junit")
	startup := fs.Duration("startup-timeout", conformance.DefaultStartupTimeout, "how long to wait for a port's handshake")
	call := fs.Duration("call-timeout", 0, "how long to wait for each reply of a port (default: 5s, and 1s more for each MiB of the lines sent since the last reply)")
	maxReply := sizeFlag(0)
	fs.Var(&maxReply, "max-reply", "the longest reply line, in `BYTES` (65536, 64KiB, 8MiB; at most 1GiB), a port may send (default: "+
		fmt.Sprint(conformance.ReplyMargin)+" times the longest expected reply, rounded up to a whole MiB: "+suiteMaxReply()+")")
	var fz fuzzFlags
	fz.define(fs)
	if code, ok := c.parse(fs, args, true); !ok {
		return code
	}
	var command []string
	if fs.NArg() > 0 {
		// The port's command must follow "--", so that its own flags are
		// never read as ours.
		if dash := len(args) - fs.NArg() - 1; dash < 0 || args[dash] != "--" {
			return c.usageError("put the port's command after --: catalogkit conform -- CMD ARGS...", "unexpected argument %q", fs.Arg(0))
		}
		command = fs.Args()
	}
	if !slices.Contains([]string{"text", "json", "junit"}, *format) {
		return c.badUsage("unknown --format %q (want text, json or junit)", *format)
	}
	if *startup <= 0 || flagSet(fs, "call-timeout") && *call <= 0 {
		return c.badUsage("timeouts must be positive")
	}
	if maxReply > conformance.MaxReplyLimit {
		return c.badUsage("--max-reply %s is over the limit of 1GiB", &maxReply)
	}
	if fz.any(fs) {
		if maxReply == 0 {
			// Generated calls reach the 1000-tool limit, whose replies are
			// far longer than any case's: allow what the text layer allows
			// for a catalog, twice over.
			maxReply = 64 << 20
		}
		port := &conformance.Port{Command: command, StartupTimeout: *startup, CallTimeout: *call, MaxReply: int64(maxReply)}
		return runFuzz(c, fs, &fz, port, *run, *format)
	}
	// The line diff is deterministic; go-cmp's output is deliberately not
	// (it switches between spaces and U+00A0), which a report must not do.
	runner := &conformance.Runner{Diff: conformance.LineDiff}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			return c.badUsage("invalid --run %q: %v", *run, err)
		}
		runner.Run = re
	}
	if fz.cases != "" {
		return runCaseDir(c, fz.cases, runner, command, *startup, *call, *format)
	}
	cases, err := conformance.Cases()
	if err != nil {
		c.printError("", "failed to load the conformance cases: %v", err)
		return exitCannotRun // could not run
	}
	textCases, err := conformance.TextCases()
	if err != nil {
		c.printError("", "failed to load the text level: %v", err)
		return exitCannotRun // could not run
	}
	protocolCases, err := conformance.ProtocolCases()
	if err != nil {
		c.printError("", "failed to load the protocol level: %v", err)
		return exitCannotRun // could not run
	}
	format2Cases, err := conformance.Format2Cases()
	if err != nil {
		c.printError("", "failed to load the format 2 level: %v", err)
		return exitCannotRun // could not run
	}
	matches := func(k *conformance.Case) bool { return runner.Run.MatchString(k.ID) }
	if runner.Run != nil && !slices.ContainsFunc(cases, matches) && !slices.ContainsFunc(format2Cases, matches) &&
		!slices.ContainsFunc(textCases, func(k *conformance.TextCase) bool { return runner.Run.MatchString(k.ID) }) &&
		!slices.ContainsFunc(protocolCases, func(k *conformance.ProtocolCase) bool { return runner.Run.MatchString(k.ID) }) {
		return c.usageError("list the case ids with --run . --format json", "no case id matches --run %q", *run)
	}
	var port *conformance.Port
	if command == nil {
		runner.Target = conformance.GoTarget(buildVersion())
	} else {
		if err := checkCommand(command[0]); err != nil {
			c.printError(err.hint, "could not start the port %q: %v", termsafe.Printable(command[0]), err.err)
			return exitCannotRun // could not run
		}
		if maxReply == 0 {
			maxReply = sizeFlag(conformance.DefaultMaxReply(cases))
		}
		port = &conformance.Port{Command: command, StartupTimeout: *startup, CallTimeout: *call, MaxReply: int64(maxReply)}
		if os.Getenv("GOMEMLIMIT") == "" {
			// What the runner keeps of a reply is at most about 4 times
			// its length (the line, its tape): a soft limit at 6 times
			// makes the garbage of the previous reply go before the heap
			// grows, so a reply costs at most 10 times its length and
			// 64 MiB (README, "Limits and processes").
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(6*int64(maxReply) + 64<<20))
		}
		runner.Target = port
	}
	report, status := runInterruptibly(runner, levels{cases, format2Cases, textCases, protocolCases}, port)
	if status != 0 {
		c.printError("", "interrupted: the port and every process it started were ended")
		return status
	}
	var write func(io.Writer) error
	switch *format {
	case "json":
		write = report.WriteJSON
	case "junit":
		write = report.WriteJUnit
	default:
		write = report.WriteText
	}
	if code, ok := c.writeReport(write); !ok {
		return code
	}
	if report.Fatal != "" {
		// A port that cannot start or fails its handshake stops the run:
		// say so once, where errors go, with what it wrote to stderr.
		c.printError(fatalHint(report), "%s%s", termsafe.Printable(report.Fatal), fatalStderr(report))
		return exitCannotRun // could not run
	}
	if !report.OK() {
		c.printError("every case must pass, those of the levels included; a SKIP (not_implemented) counts as not passed", "%s", notPassed(report))
		return exitCheckFailed
	}
	return exitOK
}

// notPassed says how many cases did not pass, in all and then where, in the
// summary line's order and with its words: "12 of 563 cases did not pass:
// 12 of the protocol level's 101 failed". A count is never restated under
// another name than the summary line gives it.
func notPassed(r *conformance.Report) string {
	type part struct {
		where           string
		failed, skipped int
	}
	parts := []part{{fmt.Sprintf("the %d cases", len(r.Cases)), r.Failed, r.Skipped}}
	all := len(r.Cases)
	for _, l := range []struct {
		name string
		t    *conformance.TextReport
	}{{"format 2 level", r.Format2}, {"text level", r.Text}, {"protocol level", r.Protocol}} {
		if l.t != nil && !l.t.OptedOut {
			parts = append(parts, part{fmt.Sprintf("the %s's %d", l.name, len(l.t.Cases)), l.t.Failed, l.t.Skipped})
			all += len(l.t.Cases)
		}
	}
	total := 0
	var where []string
	for _, p := range parts {
		if n := p.failed + p.skipped; n > 0 {
			total += n
			var how []string
			if p.failed > 0 {
				how = append(how, fmt.Sprintf("%d failed", p.failed))
			}
			if p.skipped > 0 {
				how = append(how, fmt.Sprintf("%d skipped", p.skipped))
			}
			where = append(where, fmt.Sprintf("%d of %s (%s)", n, p.where, strings.Join(how, ", ")))
		}
	}
	if len(parts) == 1 { // no level ran: the summary line says it all
		return fmt.Sprintf("%d of %d cases did not pass (%d failed, %d skipped)", total, all, r.Failed, r.Skipped)
	}
	return fmt.Sprintf("%d of %d cases did not pass: %s", total, all, strings.Join(where, "; "))
}

// levels is the suite: the cases and each level's.
type levels struct {
	cases, format2 []*conformance.Case
	text           []*conformance.TextCase
	protocol       []*conformance.ProtocolCase
}

// runInterruptibly runs the cases, and on SIGINT or SIGTERM ends the port
// and everything it started at once and returns 130 or 143. Either way no
// process the port started survives it: the last sweep,
// conformance.EndChildren, ends every child of this process, which has no
// children but the port's.
func runInterruptibly(runner *conformance.Runner, l levels, port *conformance.Port) (*conformance.Report, int) {
	ctx, stop, signalled := interruptible()
	defer stop()
	done := make(chan *conformance.Report, 1)
	go func() {
		report := runner.RunCases(l.cases)
		// The format 2 level, the text level and then the protocol level
		// run after the cases, over the same port (the protocol level also
		// starts fresh sessions of it); without a port, the text and
		// protocol levels go through conformance.Serve in-process
		// (catalogkit port's text layer and protocol rules). A port that
		// could not start stops the run here.
		if report.Fatal == "" {
			runner.RunFormat2(report, l.format2)
		}
		if report.Fatal == "" {
			runner.RunText(report, l.text)
		}
		if report.Fatal == "" {
			runner.RunProtocol(report, l.protocol)
		}
		done <- report
	}()
	select {
	case report := <-done:
		if port != nil {
			port.Close()
			conformance.EndChildren()
		}
		return report, 0
	case <-ctx.Done():
		if port != nil {
			port.Abort()
			conformance.EndChildren()
		}
		return nil, signalled()
	}
}

// suiteMaxReply returns the default --max-reply, for the usage.
func suiteMaxReply() string {
	cases, err := conformance.Cases()
	if err != nil {
		return "?"
	}
	s := sizeFlag(conformance.DefaultMaxReply(cases))
	return s.String()
}

type commandError struct {
	err  error
	hint string
}

// checkCommand says why the port's program cannot be started, before any
// case runs, or returns nil.
func checkCommand(name string) *commandError {
	path, err := exec.LookPath(name)
	if errors.Is(err, exec.ErrDot) {
		path, err = name, nil
	}
	if err == nil {
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			err = syscall.EISDIR
		}
	}
	var why error = err
	var pe *fs.PathError
	var ee *exec.Error
	if errors.As(why, &ee) {
		why = ee.Err
	}
	if errors.As(why, &pe) {
		why = pe.Err
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, exec.ErrNotFound):
		return &commandError{why, "give a path (./" + name + " for a file in this directory) or a program on $PATH"}
	case errors.Is(err, fs.ErrNotExist):
		return &commandError{why, "check the path: a relative one starts from the current directory"}
	case errors.Is(err, fs.ErrPermission):
		return &commandError{why, "make it executable (chmod +x " + name + "), or put its interpreter first: -- python3 " + name}
	case errors.Is(err, syscall.EISDIR):
		return &commandError{why, "give the port's executable, not its directory"}
	}
	return &commandError{why, "check the command after --"}
}

// fatalHint says what to do when the run stopped at a port that could not
// be started or failed its handshake.
func fatalHint(r *conformance.Report) string {
	if r.Stopped != nil && r.Stopped.NotStarted {
		return "check that the command runs: a script needs a #! line, or its interpreter first (-- python3 port.py)"
	}
	return fmt.Sprintf(`the port must answer {"type":"hello","protocol":"%s"} with one hello line on stdout: pipe that line into it by hand to see what it does (conformance/PROTOCOL.md)`,
		conformance.Protocol)
}

// fatalStderr returns the tail of the port's stderr when the run stopped,
// indented under the error, or "".
func fatalStderr(r *conformance.Report) string {
	for _, c := range r.Cases {
		if c.NotRun && c.Stderr != "" {
			text := strings.TrimRight(termsafe.PrintableLines(c.Stderr), "\n")
			return "\nstderr of the port (tail):\n    " + strings.ReplaceAll(text, "\n", "\n    ")
		}
	}
	return ""
}
