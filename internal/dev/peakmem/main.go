// Command peakmem runs a command and reports its wall time and the peak
// memory of its whole process tree: the command and every process it
// started, however deep (go test's compilers, linkers and test binaries,
// and what those tests run in turn).
//
// Usage:
//
//	go run ./internal/dev/peakmem [-every 100ms] [-out file] -- COMMAND ARGS...
//
// Every -every, peakmem reads /proc: the processes whose parent chain leads
// to COMMAND, and for each its resident set (VmRSS) and its proportional
// share of it (Pss, from smaps_rollup, which counts a page shared by N
// processes as 1/N to each: the go tool's binary mapped by many processes
// at once is counted once). It keeps the largest sums seen and the
// processes that made the largest Pss. A process that starts and ends
// between two samples is missed, so the figures are a lower bound; at 100ms
// the compilers and test binaries that make the peak live far longer.
//
// The report, on stderr and appended to -out when given, is one line:
//
//	wall 5m12s, peak 2.61 GB (Pss; RSS 3.10 GB), 2 CPUs, load 1.02 0.88 0.61 before, 1.95 1.70 1.10 after: make test
//
// followed by the processes at the peak. The load average is the
// machine's, not the command's: on a shared machine a high load before the
// run means the time is inflated. Exit status: COMMAND's own; 2 for bad
// usage; 3 if COMMAND could not start.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/catalogkit/catalogkit/internal/dev/hostinfo"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("peakmem", flag.ContinueOnError)
	fs.SetOutput(stderr)
	every := fs.Duration("every", 100*time.Millisecond, "how often to sample /proc")
	out := fs.String("out", "", "also append the report to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	command := fs.Args()
	if len(command) == 0 || *every <= 0 {
		fmt.Fprintln(stderr, "peakmem: error: no command to run\nusage: go run ./internal/dev/peakmem [-every 100ms] [-out file] -- COMMAND ARGS...")
		return 2
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		fmt.Fprintln(stderr, "peakmem: error: no /proc to sample (peakmem needs Linux)")
		return 2
	}

	loadBefore := hostinfo.Load()
	start := time.Now()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	signal.Ignore(os.Interrupt) // the terminal sends it to COMMAND too; report after it ends
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "peakmem: error: cannot start %q: %v\n", command[0], err)
		return 3
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var peak sample
	tick := time.NewTicker(*every)
	defer tick.Stop()
	var werr error
wait:
	for {
		select {
		case werr = <-done:
			break wait
		case <-tick.C:
			s := measure(cmd.Process.Pid)
			peak.rss = max(peak.rss, s.rss)
			if s.pss > peak.pss {
				peak.pss, peak.procs = s.pss, s.procs
			}
		}
	}
	wall := time.Since(start).Round(time.Second)

	var report bytes.Buffer
	fmt.Fprintf(&report, "wall %s, peak %s (Pss; RSS %s), %d CPUs, load %s before, %s after: %s\n",
		wall, gb(peak.pss), gb(peak.rss), runtime.NumCPU(), loadBefore, hostinfo.Load(), strings.Join(command, " "))
	sort.Slice(peak.procs, func(i, j int) bool { return peak.procs[i].pss > peak.procs[j].pss })
	for _, p := range peak.procs {
		if p.pss >= 50<<20 {
			fmt.Fprintf(&report, "  at the peak: %8s  %s\n", gb(p.pss), p.name)
		}
	}
	stderr.Write(report.Bytes())
	if *out != "" {
		if err := appendFile(*out, report.Bytes()); err != nil {
			fmt.Fprintf(stderr, "peakmem: error: %v\n", err)
			return 3
		}
	}

	var exit *exec.ExitError
	switch {
	case werr == nil:
		return 0
	case errors.As(werr, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	case errors.As(werr, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
	}
	fmt.Fprintf(stderr, "peakmem: error: %q: %v\n", command[0], werr)
	return 3
}

type proc struct {
	name     string
	rss, pss int64
	// rollup is the whole smaps_rollup text: two processes that show the
	// same one share one address space (a child between os/exec's
	// vfork-style clone and its exec), counted once.
	rollup string
}

type sample struct {
	rss, pss int64
	procs    []proc
}

// measure sums the memory of root and all its descendants.
func measure(root int) sample {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := ppid(pid); ok {
			parent[pid] = pp
		}
	}
	var s sample
	seen := map[string]bool{}
	for pid := range parent {
		if !descends(pid, root, parent) {
			continue
		}
		p, ok := memory(pid)
		if !ok || seen[p.rollup] {
			continue
		}
		seen[p.rollup] = true
		s.rss += p.rss
		s.pss += p.pss
		s.procs = append(s.procs, p)
	}
	return s
}

func descends(pid, root int, parent map[int]int) bool {
	for range 64 {
		if pid == root {
			return true
		}
		pp, ok := parent[pid]
		if !ok || pp <= 1 {
			return false
		}
		pid = pp
	}
	return false
}

// ppid reads the parent of pid from /proc/pid/stat, whose second field (the
// command name, in parentheses) may itself hold spaces and parentheses.
func ppid(pid int) (int, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

// memory reads the Rss and Pss of pid, in bytes, and its command's name.
func memory(pid int) (proc, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	b, err := os.ReadFile(filepath.Join(dir, "smaps_rollup"))
	if err != nil {
		return proc{}, false
	}
	p := proc{rollup: string(b)}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "Rss":
			p.rss = kb << 10
		case "Pss":
			p.pss = kb << 10
		}
	}
	if cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
		p.name = shorten(strings.Join(strings.Fields(strings.ReplaceAll(string(cmdline), "\x00", " ")), " "))
	}
	return p, true
}

// shorten keeps a command line readable: the program's base name and at
// most 100 bytes.
func shorten(cmdline string) string {
	prog, rest, _ := strings.Cut(cmdline, " ")
	s := filepath.Base(prog) + " " + rest
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return strings.TrimSpace(s)
}

func gb(n int64) string { return fmt.Sprintf("%.2f GB", float64(n)/1e9) }

func appendFile(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
