package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/conformance/fuzz"
	"github.com/catalogkit/catalogkit/internal/shared/termsafe"
)

// fuzzFlags are conform's flags for differential fuzzing (--fuzz) and for
// running a folder of case files (--cases).
type fuzzFlags struct {
	calls int
	seed  uint64
	out   string
	jobs  int
	cases string
}

func (f *fuzzFlags) define(fs *flag.FlagSet) {
	fs.IntVar(&f.calls, "fuzz", 0, "send `N` random calls to the port, compare each with the built-in implementation, shrink every disagreement into a case file")
	fs.Uint64Var(&f.seed, "seed", 0, "the seed `S` of --fuzz: the same seed sends the same calls (default: a new seed, printed)")
	fs.StringVar(&f.out, "fuzz-out", "", "with --fuzz, write the shrunk cases into `DIR`, created if missing (default: a new folder catalogkit-fuzz-* here)")
	fs.IntVar(&f.jobs, "jobs", 1, "with --fuzz, run `J` port processes at once")
	fs.StringVar(&f.cases, "cases", "", "run the case files in `DIR`, or the one case file DIR names (such as --fuzz writes), instead of the built-in suite")
}

// any reports whether a flag of --fuzz was given.
func (f *fuzzFlags) any(fs *flag.FlagSet) bool {
	given := false
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "fuzz", "seed", "fuzz-out", "jobs":
			given = true
		}
	})
	return given
}

func runFuzz(c *cli, fs *flag.FlagSet, f *fuzzFlags, port *conformance.Port, run, format string) int {
	seeded := false
	fs.Visit(func(fl *flag.Flag) { seeded = seeded || fl.Name == "seed" })
	switch {
	case f.calls <= 0:
		return c.badUsage("--fuzz must be a positive number of calls (--seed, --fuzz-out and --jobs go with it)")
	case len(port.Command) == 0:
		return c.usageError("give the port's command after --: "+progName()+" conform --fuzz N -- CMD ARGS...", "--fuzz needs a port to compare with the built-in implementation")
	case f.cases != "":
		return c.badUsage("give --fuzz or --cases, not both")
	case run != "" || format != "text":
		return c.badUsage("--run and --format do not go with --fuzz")
	case f.jobs < 1 || f.jobs > 256:
		return c.badUsage("--jobs must be from 1 to 256")
	}
	if !seeded {
		f.seed = uint64(time.Now().UnixNano())
	}
	// The folder for the cases is made before the first call, so that one
	// that cannot be made fails now, not after the run. --fuzz-out is kept
	// even when nothing is found, as documented; the default folder is
	// removed again if it stays empty.
	dir := f.out
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return c.cannotRun("give --fuzz-out a folder that can be created", "failed to create the folder for the cases: %v", err)
		}
	} else {
		var err error
		if dir, err = os.MkdirTemp(".", "catalogkit-fuzz-"); err != nil {
			return c.cannotRun("run where a folder can be created, or give --fuzz-out DIR", "failed to create a folder for the cases: %v", err)
		}
		defer os.Remove(dir) // only if it is empty
	}
	ctx, stop, sig := interruptible()
	defer stop()
	var ports portSet
	go ports.abortOnSignal(ctx, sig)
	progress := c.progressLine()
	if hook := fuzzProgressHook; hook != nil {
		line := progress
		progress = func(p fuzz.Progress) {
			if line != nil {
				line(p)
			}
			hook(p)
		}
	}
	res, err := fuzz.Run(ctx, fuzz.Options{
		Calls: f.calls, Seed: f.seed, Jobs: f.jobs,
		NewTarget: func() fuzz.Target {
			return ports.add(&conformance.Port{Command: port.Command, StartupTimeout: port.StartupTimeout, CallTimeout: port.CallTimeout, MaxReply: port.MaxReply})
		},
		Reference: fuzz.Reference(buildVersion()),
		Diff:      conformance.LineDiff, // deterministic, unlike go-cmp's
		Progress:  progress,
	})
	ports.end()
	if err != nil {
		if s := sig(); s != 0 {
			printInterrupted(c, f, res, port.Command)
			return s
		}
		var te *conformance.TransportError
		if errors.As(err, &te) {
			c.printError("check the command, and that the port answers the hello of "+conformance.Protocol+" (conformance/PROTOCOL.md)", "%s", te.Message)
			if te.Stderr != "" {
				fmt.Fprintf(c.stderr, "port stderr (tail):\n%s", indentText(te.Stderr))
			}
			return exitCannotRun
		}
		c.printError("", "fuzzing stopped: %v", err)
		return exitCannotRun
	}
	printFuzzHead(c, f, res.Port)
	for _, cx := range res.Counterexamples {
		fmt.Fprintf(c.stdout, "DISAGREE %s: %s\n", cx.ID, cx.Kind)
		if steps := cx.Steps(); steps != nil {
			fmt.Fprintf(c.stdout, "    only after other calls: %d lines to one fresh port (shrunk from %d, %d port starts), the last disagrees:\n", len(steps), cx.History, cx.Tries)
			for k, line := range steps {
				fmt.Fprintf(c.stdout, "    %d: %s\n", k+1, displayCall([]byte(strconv.QuoteToGraphic(string(line)))))
			}
		} else if cx.LineOnly() {
			fmt.Fprintf(c.stdout, "    line (sent alone): %s\n", displayCall([]byte(strconv.QuoteToGraphic(string(cx.Line())))))
		} else {
			fmt.Fprintf(c.stdout, "    call (shrunk from %d to %d bytes in %d calls): %s\n", len(cx.Original), len(cx.Call), cx.Tries, displayCall(cx.Call))
		}
		if line := cx.Line(); line != nil && cx.Steps() == nil && !cx.LineOnly() {
			fmt.Fprintf(c.stdout, "    line (the call inside a mutated message line): %s\n", strconv.QuoteToGraphic(string(line)))
		}
		switch chk := cx.Check; {
		case chk.Diff != "":
			fmt.Fprintf(c.stdout, "    (-want +got):\n%s", indentText(chk.Diff))
		default:
			fmt.Fprintf(c.stdout, "    want: %s\n    got: %s: %s\n", cx.Want, strings.ToLower(string(chk.Status)), chk.Message)
		}
	}
	elapsed := fuzzElapsed(res)
	summary := fmt.Sprintf("%d calls in %.1f s (%.0f calls/s), %d disagreements", res.Calls, elapsed.Seconds(), float64(res.Calls)/max(elapsed.Seconds(), 1e-9), res.Disagreements)
	if res.Skipped > 0 {
		summary += fmt.Sprintf(", %d skipped (not_implemented)", res.Skipped)
	}
	if res.Stateful > 0 {
		summary += fmt.Sprintf(", %d only after other calls (the port keeps state between calls)", res.Stateful)
	}
	if res.Disagreements == 0 {
		fmt.Fprintln(c.stdout, summary)
		return exitOK
	}
	if len(res.Counterexamples) > 0 {
		paths, err := fuzz.WriteCases(dir, res.Port, res.Counterexamples)
		if err != nil {
			return c.cannotRun("", "failed to write the cases: %v", err)
		}
		fmt.Fprintf(c.stdout, "wrote %d case file(s) to %s\n", len(paths), dir)
		fmt.Fprintf(c.stdout, "re-run: %s conform --cases %s -- %s\n", shellQuote(progName()), shellQuote(dir), shellJoin(port.Command))
	}
	fmt.Fprintln(c.stdout, summary)
	hint := "each case file holds a shrunk call, or for a sequence case the shrunk run of calls to one fresh port, and the built-in implementation's outcomes"
	if len(res.Counterexamples) == 0 {
		hint = "no disagreement happened again on a fresh port, even after the calls before it: re-run with the same --seed; a port that answers differently each time is wrong too"
	}
	c.printError(hint, "%d of %d calls: the port disagrees with the built-in implementation", res.Disagreements, res.Calls)
	return exitCheckFailed
}

// printFuzzHead prints what the port said of itself (escaped: the port
// wrote it), when it said it, and the run's seed and size.
func printFuzzHead(c *cli, f *fuzzFlags, port conformance.PortInfo) {
	if port.Name != "" {
		fmt.Fprintf(c.stdout, "port: %s %s (%s)\n", termsafe.Printable(port.Name), termsafe.Printable(port.Version), termsafe.Printable(port.Language))
	}
	fmt.Fprintf(c.stdout, "fuzz: seed %d, %d calls, %d jobs\n", f.seed, f.calls, f.jobs)
}

// printInterrupted says how far an interrupted run got and how to find
// again what it had found: call I of a seed is the same call in every run,
// so --fuzz I+1 with the same --seed makes it again.
func printInterrupted(c *cli, f *fuzzFlags, res *fuzz.Result, command []string) {
	if res == nil {
		c.printError("", "interrupted: the port and every process it started were ended")
		return
	}
	printFuzzHead(c, f, res.Port)
	for _, d := range res.Unshrunk[:min(len(res.Unshrunk), 5)] {
		fmt.Fprintf(c.stdout, "DISAGREE call %d (not shrunk): %s\n", d.Index, d.Kind)
	}
	if len(res.Unshrunk) > 0 {
		fmt.Fprintf(c.stdout, "re-run: %s conform --fuzz %d --seed %d -- %s\n", shellQuote(progName()), res.Unshrunk[0].Index+1, f.seed, shellJoin(command))
	}
	fmt.Fprintf(c.stdout, "%d calls made, %d disagreements, before the interrupt\n", res.Calls, res.Disagreements)
	hint := ""
	if res.Disagreements > 0 {
		hint = "nothing was shrunk and no case file written: the re-run line makes the calls again, up to the first disagreement, and shrinks it"
	}
	c.printError(hint, "interrupted: the port and every process it started were ended")
}

// fuzzElapsed returns how long a run took, for its closing line; tests
// fix it.
var fuzzElapsed = func(res *fuzz.Result) time.Duration { return res.Elapsed }

// runCaseDir runs the case files in dir against the port command, or
// against the built-in implementation when there is none.
func runCaseDir(c *cli, dir string, runner *conformance.Runner, command []string, startup, call time.Duration, format string) int {
	suite, err := fuzz.LoadDir(dir)
	if err != nil {
		hint := "give a folder of case files (*.json), or one case file, such as conform --fuzz writes"
		if errors.Is(err, fs.ErrNotExist) {
			return c.cannotRun(hint, "--cases: %v", err)
		}
		return c.cannotRun("fix the case file; conformance/case.schema.json, text.schema.json and sequence.schema.json describe the three formats", "--cases: %v", err)
	}
	if runner.Run != nil {
		suite.Select(runner.Run)
		if len(suite.Cases)+len(suite.Text)+len(suite.Sequences) == 0 {
			return c.usageError("list the case ids with --run . --format json", "no case id in %s matches --run %q", dir, runner.Run)
		}
	}
	newTarget := func() conformance.Target { return fuzz.Reference(buildVersion()) }
	sig := func() int { return 0 }
	if command != nil {
		// A signal ends every port at once, and the run with 130 or 143.
		ctx, stop, got := interruptible()
		defer stop()
		var ports portSet
		go ports.abortOnSignal(ctx, got)
		sig = got
		defer ports.end()
		newTarget = func() conformance.Target {
			return ports.add(&conformance.Port{Command: command, StartupTimeout: startup, CallTimeout: call})
		}
	}
	report := fuzz.RunSuite(newTarget, suite, runner.Diff)
	if s := sig(); s != 0 {
		c.printError("", "interrupted: the port and every process it started were ended")
		return s
	}
	write := report.WriteText
	switch format {
	case "json":
		write = report.WriteJSON
	case "junit":
		write = report.WriteJUnit
	}
	if code, ok := c.writeReport(write); !ok {
		return code
	}
	if report.Fatal != "" {
		return c.cannotRun("check the command, and that the port answers the hello of "+conformance.Protocol+" (conformance/PROTOCOL.md)", "%s", report.Fatal)
	}
	if !report.OK() {
		return c.errorf("every case must pass, those of the levels included; a SKIP (not_implemented) counts as not passed", "%s", notPassed(report))
	}
	return exitOK
}

// progressLine returns a progress callback that rewrites one line on
// stderr when stderr is a terminal, and nil (no progress) otherwise.
// fuzzProgressHook, when a test sets it, sees every progress report of a
// fuzz run, as the progress line does: a test waits on it for the runner's
// own events (a disagreement found), never for a time.
var fuzzProgressHook func(fuzz.Progress)

func (c *cli) progressLine() func(fuzz.Progress) {
	f, ok := c.stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(p fuzz.Progress) {
		rate := float64(p.Done) / max(p.Elapsed.Seconds(), 1e-9)
		end := ""
		if p.Final {
			end = "\n"
		}
		fmt.Fprintf(f, "\rfuzz: %d/%d calls, %.0f calls/s, %d disagreements\x1b[K%s", p.Done, p.Total, rate, p.Disagreements, end)
	}
}

// displayCall shortens a call for the report.
func displayCall(call []byte) string {
	const max = 2000
	if len(call) > max {
		return fmt.Sprintf("%s... (%d more bytes)", call[:max], len(call)-max)
	}
	return string(call)
}

func indentText(s string) string {
	s = strings.TrimRight(s, "\n")
	return "        " + strings.ReplaceAll(s, "\n", "\n        ") + "\n"
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
