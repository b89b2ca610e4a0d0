package main

import (
	"io"
	"regexp"
	"runtime/debug"
	"slices"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/google/go-cmp/cmp"
)

const conformExample = `catalogkit conform
catalogkit conform -- catalogkit port
catalogkit conform --run '^validate\.' -- python3 conformance/ports/python/catalog_port.py
catalogkit conform --format junit -- ./my-port > conformance.xml
catalogkit conform --fuzz 10000 --seed 1 --jobs 2 -- python3 conformance/ports/python/catalog_port.py
catalogkit conform --cases catalogkit-fuzz-1234 -- python3 conformance/ports/python/catalog_port.py`

func runConform(c *cli, args []string) int {
	fs := c.flags("conform", "[flags] [-- CMD ARGS...]", conformExample)
	run := fs.String("run", "", "run only the cases whose id matches `REGEXP`")
	format := fs.String("format", "text", "report `FORMAT`: text, json or junit")
	startup := fs.Duration("startup-timeout", conformance.DefaultStartupTimeout, "how long to wait for a port's handshake")
	call := fs.Duration("call-timeout", conformance.DefaultCallTimeout, "how long to wait for each reply of a port")
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
		return c.usageError("run 'catalogkit conform -h' for usage", "unknown --format %q (want text, json or junit)", *format)
	}
	if *startup <= 0 || *call <= 0 {
		return c.usageError("run 'catalogkit conform -h' for usage", "timeouts must be positive")
	}
	if fz.any(fs) {
		port := &conformance.Port{Command: command, StartupTimeout: *startup, CallTimeout: *call}
		return runFuzz(c, fs, &fz, port, *run, *format)
	}
	runner := &conformance.Runner{Diff: func(want, got any) string { return cmp.Diff(want, got) }}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			return c.usageError("run 'catalogkit conform -h' for usage", "invalid --run %q: %v", *run, err)
		}
		runner.Run = re
	}
	if fz.cases != "" {
		return runCaseDir(c, fz.cases, runner, command, *startup, *call, *format)
	}
	cases, err := conformance.Cases()
	if err != nil {
		return c.errorf("", "failed to load the conformance cases: %v", err)
	}
	if runner.Run != nil && !slices.ContainsFunc(cases, func(k *conformance.Case) bool { return runner.Run.MatchString(k.ID) }) {
		return c.usageError("list the case ids with --run . --format json", "no case id matches --run %q", *run)
	}
	if command == nil {
		runner.Target = conformance.GoTarget(buildVersion())
	} else {
		port := &conformance.Port{Command: command, StartupTimeout: *startup, CallTimeout: *call}
		defer port.Close()
		runner.Target = port
	}
	report := runner.RunCases(cases)
	var write func(io.Writer) error
	switch *format {
	case "json":
		write = report.WriteJSON
	case "junit":
		write = report.WriteJUnit
	default:
		write = report.WriteText
	}
	if err := write(c.stdout); err != nil {
		return c.errorf("", "failed to write the report: %v", err)
	}
	if report.Fatal != "" {
		// A port that cannot start or fails its handshake stops the run:
		// say so once, where errors go.
		c.printError("check the command, and that the port answers the hello of "+conformance.Protocol+" (conformance/PROTOCOL.md)",
			"%s", report.Fatal)
	}
	if !report.OK() {
		if report.Fatal == "" {
			c.printError("every case must pass; a SKIP (not_implemented) counts as not passed",
				"%d of %d cases did not pass (%d failed, %d skipped)", report.Failed+report.Skipped, report.Passed+report.Failed+report.Skipped, report.Failed, report.Skipped)
		}
		return 1
	}
	return 0
}

// version is set at link time by 'make build' (-X main.version=...), from
// the VERSION file.
var version string

// buildVersion returns the module version catalogkit was built at, or
// "devel".
func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
