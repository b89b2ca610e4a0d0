// Command catalogkit discovers tool descriptions, checks call arguments against
// them, runs the conformance suite, and cuts and verifies reproducible releases.
//
// Every command prints its usage with -h. Exit status: 0 success, 1 a check
// failed, 2 bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// A command is one subcommand of catalogkit.
type command struct {
	name    string
	summary string
	run     func(c *cli, args []string) int
}

// commands lists the subcommands in the order the usage shows them.
var commands = []command{
	{"discover", "list tool descriptions of a family, or one tool by name", runDiscover},
	{"validate", "check a call's arguments against a tool's input schema", runValidate},
	{"records", "write the five example records, or --check them against a fresh run", runRecords},
	{"conform", "run the conformance cases against the Go implementation or a port", runConform},
	{"port", "answer the conformance protocol on stdin/stdout with the Go implementation", runPort},
	{"pack", "build the deterministic release ZIP, its manifest and SHA256SUMS", runPack},
	{"verify", "check a release archive: hashes, strict parse, safe extraction, repack, conformance re-run", runVerify},
	{"version", "print the release, module, Go and compressor versions of this build", runVersion},
	{"keygen", "write a new minisign key pair for signing releases (PREFIX.key, PREFIX.pub)", runKeygen},
	{"diff", "explain why two ZIP archives differ, entry by entry, then the first differing byte", runDiff},
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
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		c.usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		c.usage(stdout)
		return 0
	case "-version", "--version":
		return runVersion(c, args[1:])
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, args[1:])
		}
	}
	return c.usageError("run 'catalogkit -h' to list the commands", "unknown command %q", args[0])
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: catalogkit <command> [flags]\n\ncommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nRun 'catalogkit <command> -h' for a command's flags and an example.\n")
}

// errorf reports a failed check: it prints "catalogkit: error: ..." and an
// optional hint line to stderr and returns exit status 1.
func (c *cli) errorf(hint, format string, args ...any) int {
	c.printError(hint, format, args...)
	return 1
}

// usageError is errorf for bad usage: exit status 2.
func (c *cli) usageError(hint, format string, args ...any) int {
	c.printError(hint, format, args...)
	return 2
}

func (c *cli) printError(hint, format string, args ...any) {
	fmt.Fprintf(c.stderr, "catalogkit: error: "+format+"\n", args...)
	if hint != "" {
		fmt.Fprintf(c.stderr, "hint: %s\n", hint)
	}
}

// flags returns a flag set for a subcommand whose -h output shows usage, the
// flags and the example.
func (c *cli) flags(name, synopsis, example string) *flag.FlagSet {
	fs := flag.NewFlagSet("catalogkit "+name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: catalogkit %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nexample:\n  %s\n", strings.ReplaceAll(strings.TrimSpace(example), "\n", "\n  "))
	}
	return fs
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
		return 0, false
	case err != nil:
		return c.usageError("run '"+fs.Name()+" -h' for usage", "%v", err), false
	case !allowArgs && fs.NArg() > 0:
		return c.usageError("run '"+fs.Name()+" -h' for usage", "unexpected argument %q", fs.Arg(0)), false
	}
	return 0, true
}
