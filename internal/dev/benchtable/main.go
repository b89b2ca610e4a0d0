// Command benchtable writes the figures of 'make bench' into docs/performance.md, so
// that they come from a run and say when and where it was made, instead of
// being copied by hand and going stale.
//
// Usage:
//
//	go run ./internal/dev/benchtable -doc docs/performance.md -load-before "1.0 0.9 0.8" RESULTS...
//
// Each RESULTS file is the saved output of one 'make bench' step: go test
// -bench output (a "pkg:" line, then "BenchmarkName-N  iterations  value
// unit  value unit ..." lines, repeated -count times) or the rows the
// bench.sh scripts print ("label  ours  anchor  ratio", already medians).
// benchtable takes, for every benchmark and unit, the median of its runs,
// and replaces the part of the README between the lines
//
//	<!-- benchtable:begin -->
//	<!-- benchtable:end -->
//
// with a header (the date, the machine: CPU model, CPUs and memory; the load
// average when the run began, given by -load-before, and now) and two
// tables: the Go benchmarks, and the script rows. The README is written
// atomically; a README without the two lines, or results with no figure,
// is an error and nothing is written. Exit status: 0 written, 1 an error.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/catalogkit/catalogkit/internal/dev/hostinfo"
	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
)

const (
	beginMarker = "<!-- benchtable:begin -->"
	endMarker   = "<!-- benchtable:end -->"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr, time.Now)) }

func run(args []string, stderr io.Writer, now func() time.Time) int {
	fs := flag.NewFlagSet("benchtable", flag.ContinueOnError)
	fs.SetOutput(stderr)
	readme := fs.String("doc", "docs/performance.md", "the document to write the figures into")
	loadBefore := fs.String("load-before", "", "the load average when the benchmarks began (from /proc/loadavg)")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "benchtable: error: no results file given\nusage: go run ./internal/dev/benchtable -doc docs/performance.md -load-before LOAD RESULTS...")
		return 1
	}
	var res results
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "benchtable: error: %v\n", err)
			return 1
		}
		err = res.read(f, strings.TrimSuffix(filepath.Base(name), ".txt"))
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "benchtable: error: %s: %v\n", name, err)
			return 1
		}
	}
	if len(res.benchmarks) == 0 && len(res.rows) == 0 {
		fmt.Fprintln(stderr, "benchtable: error: the results hold no benchmark line and no script row: nothing to write")
		return 1
	}
	text, err := os.ReadFile(*readme)
	if err != nil {
		fmt.Fprintf(stderr, "benchtable: error: %v\n", err)
		return 1
	}
	block := res.markdown(now().UTC(), hostinfo.Machine(), *loadBefore, hostinfo.Load())
	out, err := replaceBlock(text, block)
	if err != nil {
		fmt.Fprintf(stderr, "benchtable: error: %s: %v\n", *readme, err)
		return 1
	}
	if err := writeREADME(*readme, out); err != nil {
		fmt.Fprintf(stderr, "benchtable: error: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "benchtable: wrote %d benchmarks and %d script rows into %s\n", len(res.benchmarks), len(res.rows), *readme)
	return 0
}

// A benchmark is one Go benchmark's runs: every value per unit.
type benchmark struct {
	pkg, name string
	runs      int
	values    map[string][]float64
	units     []string // in first-seen order
}

// A row is one line a bench.sh script printed: already medians.
type row struct {
	source, label      string
	ours, anchor, rate string
}

type results struct {
	benchmarks []*benchmark
	rows       []row
}

var (
	benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)
	scriptRow = regexp.MustCompile(`^(\S.*?\S)\s{2,}([0-9]+(?:\.[0-9]+)?)\s+([0-9]+(?:\.[0-9]+)?)\s+([0-9]+(?:\.[0-9]+)?)$`)
)

// read adds the figures of one results file.
func (r *results) read(in io.Reader, source string) error {
	pkg := ""
	byKey := map[string]*benchmark{}
	for _, b := range r.benchmarks {
		byKey[b.pkg+" "+b.name] = b
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		if m := benchLine.FindStringSubmatch(line); m != nil {
			fields := strings.Fields(m[3])
			if len(fields)%2 != 0 {
				return fmt.Errorf("benchmark line %q: values and units do not pair", line)
			}
			b := byKey[pkg+" "+m[1]]
			if b == nil {
				b = &benchmark{pkg: pkg, name: m[1], values: map[string][]float64{}}
				byKey[pkg+" "+m[1]] = b
				r.benchmarks = append(r.benchmarks, b)
			}
			b.runs++
			for i := 0; i < len(fields); i += 2 {
				v, err := strconv.ParseFloat(fields[i], 64)
				if err != nil {
					return fmt.Errorf("benchmark line %q: %v", line, err)
				}
				unit := fields[i+1]
				if _, seen := b.values[unit]; !seen {
					b.units = append(b.units, unit)
				}
				b.values[unit] = append(b.values[unit], v)
			}
			continue
		}
		if m := scriptRow.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "ok ") {
			r.rows = append(r.rows, row{source: source, label: m[1], ours: m[2], anchor: m[3], rate: m[4]})
		}
	}
	return sc.Err()
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// markdown is the block between the markers.
func (r *results) markdown(at time.Time, machine, loadBefore, loadAfter string) string {
	var b strings.Builder
	if loadBefore == "" {
		loadBefore = "not given"
	}
	fmt.Fprintf(&b, "Written by `make bench` (`internal/dev/benchtable`) on %s, on %s; load average %s when the\nbenchmarks began and %s when they ended. Medians of each benchmark's runs; do not edit by hand,\nrun `make bench` again.\n",
		at.Format("2006-01-02 15:04 MST"), machine, loadBefore, loadAfter)
	if len(r.benchmarks) > 0 {
		b.WriteString("\n| package | benchmark | runs | time/op | B/op | allocs/op | other |\n| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, bm := range r.benchmarks {
			var other []string
			cell := map[string]string{}
			for _, u := range bm.units {
				m := median(bm.values[u])
				switch u {
				case "ns/op":
					cell[u] = duration(m)
				case "B/op":
					cell[u] = size(m)
				case "allocs/op":
					cell[u] = strconv.FormatFloat(m, 'f', -1, 64)
				default:
					other = append(other, number(m)+" "+u)
				}
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | %d | %s | %s | %s | %s |\n", shortPkg(bm.pkg), bm.name, bm.runs,
				or(cell["ns/op"]), or(cell["B/op"]), or(cell["allocs/op"]), or(strings.Join(other, ", ")))
		}
	}
	if len(r.rows) > 0 {
		b.WriteString("\n| script | what (seconds unless the row says) | ours | anchor | ratio |\n| --- | --- | --- | --- | --- |\n")
		for _, rw := range r.rows {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s× |\n", rw.source, escapeCell(rw.label), rw.ours, rw.anchor, rw.rate)
		}
	}
	return b.String()
}

func or(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func shortPkg(p string) string {
	return strings.TrimPrefix(p, "github.com/catalogkit/catalogkit/")
}

func duration(ns float64) string { return scaled(ns, "ns", "µs", "ms", "s") }

func size(n float64) string { return scaled(n, "B", "kB", "MB", "GB") }

// scaled writes v in the largest of units (each 1000 times the one before)
// that leaves it at least 1.
func scaled(v float64, units ...string) string {
	i, d := 0, 1.0
	for i < len(units)-1 && v >= d*1e3 {
		i, d = i+1, d*1e3
	}
	return number(v/d) + " " + units[i]
}

// number keeps three significant digits, and every digit before the point.
func number(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// replaceBlock replaces what lies between the marker lines.
func replaceBlock(text []byte, block string) ([]byte, error) {
	begin := bytes.Index(text, []byte(beginMarker+"\n"))
	end := bytes.Index(text, []byte("\n"+endMarker))
	if begin < 0 || end < 0 || end < begin {
		return nil, errors.New("no " + beginMarker + " line followed by an " + endMarker + " line: nowhere to write the figures")
	}
	start := begin + len(beginMarker) + 1
	var out bytes.Buffer
	out.Write(text[:start])
	out.WriteString(block)
	out.Write(text[end:])
	return out.Bytes(), nil
}

// writeREADME replaces the README at name with data, atomically and with
// the mode it had.
func writeREADME(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(name, data, info.Mode().Perm())
}
