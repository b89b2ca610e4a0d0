package conformance_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// The ports under ports/, relative to this package's folder.
var (
	pythonPort  = filepath.Join("ports", "python", "catalog_port.py")
	brokenDir   = filepath.Join("testdata", "broken-ports")
	brokenTable = filepath.Join(brokenDir, "README.md")
)

// lineLimitCases begins the names of the protocol level's 32 MiB lines.
const lineLimitCases = "protocol.line-limit."

// minBrokenPorts is the number of broken ports under testdata/broken-ports, each a row
// of its README's table, that the suite is known to catch; fewer files means
// some were lost.
const minBrokenPorts = 130

// python3 returns the path of python3, or skips the test loudly (in the
// skip report); under CI=true a missing python3 fails the test.
func python3(t *testing.T) string {
	return skipreport.Tool(t, "python3", "conformance: python3 is not installed, so the Python port and the broken ports were NOT checked; install it: sudo apt-get install python3")
}

// A suite is the cases and each level's, as a port is run through them.
type suite struct {
	cases, format2 []*conformance.Case
	text           []*conformance.TextCase
	protocol       []*conformance.ProtocolCase
}

// loadSuite loads every level.
func loadSuite(t *testing.T) suite {
	return suite{loadCases(t), load(t, conformance.Format2Cases), loadTextCases(t), loadProtocolCases(t)}
}

// runPort runs every case, then the levels, against the Python script at
// path and returns the report. The port never writes bytecode next to its
// sources.
func runPort(t *testing.T, py, script string, s suite) *conformance.Report {
	t.Helper()
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	// The four 32 MiB lines of the protocol level take the Python port
	// seconds each: a generous call timeout.
	return portReport(py, abs, 30*time.Second, s)
}

// portReport runs the Python port at the absolute path abs through the
// cases and every level, with the call timeout given (0: the default), and
// returns the report.
func portReport(py, abs string, callTimeout time.Duration, s suite) *conformance.Report {
	// A generous startup timeout: on a loaded machine a Python interpreter
	// can take more than the default 10 s to start.
	port := &conformance.Port{
		Command:        []string{py, abs},
		Env:            append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"),
		StartupTimeout: time.Minute,
		CallTimeout:    callTimeout,
	}
	defer port.Close()
	r := &conformance.Runner{Target: port}
	rep := r.RunCases(s.cases)
	r.RunFormat2(rep, s.format2)
	r.RunText(rep, s.text)
	r.RunProtocol(rep, s.protocol)
	return rep
}

func reportText(rep *conformance.Report) string {
	var b bytes.Buffer
	rep.WriteText(&b)
	return b.String()
}

func loadCases(t *testing.T) []*conformance.Case {
	t.Helper()
	cases := load(t, conformance.Cases)
	if len(cases) != 21 {
		t.Fatalf("conformance.Cases() returned %d cases, want 21", len(cases))
	}
	return cases
}

func loadProtocolCases(t *testing.T) []*conformance.ProtocolCase {
	return load(t, conformance.ProtocolCases)
}

func loadTextCases(t *testing.T) []*conformance.TextCase { return load(t, conformance.TextCases) }

// load returns the cases load returns, or fails t with its error or when
// there is none.
func load[C any](t *testing.T, load func() ([]C, error)) []C {
	t.Helper()
	cases, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no case was loaded")
	}
	return cases
}

// TestPythonPort runs the 21 cases and the text level against the Python
// port over stdin/stdout: every one must pass.
func TestPythonPort(t *testing.T) {
	if testing.Short() {
		t.Skip("the Python port through every level, 32 MiB lines included: make test runs it")
	}
	py := python3(t)
	s := loadSuite(t)
	rep := runPort(t, py, pythonPort, s)
	want := fmt.Sprintf("21 passed, 0 failed; format 2 level %d/%d; text level %d/%d; protocol level %d/%d", len(s.format2), len(s.format2), len(s.text), len(s.text), len(s.protocol), len(s.protocol))
	if rep.Fatal != "" || rep.Summary() != want || !rep.OK() {
		t.Fatalf("Python port: %s, want %s\n%s", rep.Summary(), want, reportText(rep))
	}
	if got, want := rep.Port.Name, "catalogkit-python"; got != want {
		t.Errorf("Python port's handshake name = %q, want %q", got, want)
	}
}

// TestPythonPortCorners drives the Python port through the session of
// ProtocolCorners: one reply per line, each the one PROTOCOL.md gives.
func TestPythonPortCorners(t *testing.T) {
	py := python3(t)
	cmd := exec.Command(py, pythonPort)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	cmd.Stdin = bytes.NewReader(conformance.CornerInput())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the Python port: %v\n%s", err, stderr.String())
	}
	conformance.CheckCornerReplies(t, "the Python port", out)
}

// TestBrokenPorts runs the 21 cases, the text level and the protocol level
// against every deliberately broken port under testdata/broken-ports: each must fail
// at least one case, and fail it with a wrong outcome (FAIL), not by
// crashing or breaking the protocol, which would catch it for the wrong
// reason (at the protocol level, a line left without a reply is a TIMEOUT,
// and that is the catch). The cases each port fails must be
// exactly those that testdata/broken-ports/README.md lists for it, so that the table
// stays true.
func TestBrokenPorts(t *testing.T) {
	if testing.Short() {
		// Minutes of Python processes on an idle machine, and with the
		// default call timeout a loaded one can make a slow reply look
		// like a missing one: make test runs it, the short tier and the
		// re-run inside a release (verify) do not.
		t.Skip("runs each of the broken ports through every level: make test runs it")
	}
	py := python3(t)
	s := loadSuite(t)
	// Two kinds of protocol case go only to the ports whose row names
	// one of their kind: the 32 MiB lines, which take the Python port
	// seconds each, and the fresh sessions, each a Python start (15 of
	// them would be most of the test's time). The real port gets both
	// (TestPythonPort), and so does every scripted bug of the protocol
	// level (TestProtocolLevel).
	lineLimit := func(c *conformance.ProtocolCase) bool { return strings.HasPrefix(c.ID, lineLimitCases) }
	fresh := func(c *conformance.ProtocolCase) bool { return c.Fresh }
	kindNamed := func(row []string, kind func(*conformance.ProtocolCase) bool) bool {
		return slices.ContainsFunc(s.protocol, func(c *conformance.ProtocolCase) bool {
			return kind(c) && slices.ContainsFunc(row, func(id string) bool { id, _, _ = strings.Cut(id, "#"); return id == c.ID })
		})
	}
	protocolFor := func(row []string) (cases []*conformance.ProtocolCase) {
		withLines, withFresh := kindNamed(row, lineLimit), kindNamed(row, fresh)
		for _, c := range s.protocol {
			if (!lineLimit(c) || withLines) && (!fresh(c) || withFresh) {
				cases = append(cases, c)
			}
		}
		return cases
	}
	scripts, err := filepath.Glob(filepath.Join(brokenDir, "[^_]*.py"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) < minBrokenPorts {
		t.Fatalf("found %d broken ports in %s, want at least %d", len(scripts), brokenDir, minBrokenPorts)
	}
	table, err := readBrokenTable(brokenTable)
	if err != nil {
		t.Fatal(err)
	}
	for _, script := range scripts {
		name := filepath.Base(script)
		if _, ok := table[name]; !ok {
			t.Errorf("%s is not listed in %s", name, brokenTable)
		}
	}
	for name := range table {
		if !slices.Contains(scripts, filepath.Join(brokenDir, name)) {
			t.Errorf("%s lists %s, which does not exist", brokenTable, name)
		}
	}
	// Each port is its own process, often waited on (a TIMEOUT waits the
	// whole call timeout): four run at once, and each report is judged as
	// soon as it is complete, so that only four are held at a time.
	verdicts := make([][]string, len(scripts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, script := range scripts {
		abs, err := filepath.Abs(script)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(script)
		ps, callTimeout := s, time.Duration(0)
		ps.protocol = protocolFor(table[name])
		if slices.ContainsFunc(ps.protocol, lineLimit) {
			// The 32 MiB lines take a Python port seconds each, more on a
			// loaded machine: the generous timeout of runPort.
			callTimeout = 30 * time.Second
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			// Otherwise the default call timeout: each line that gets no
			// reply (the catch of silent_on_empty_line.py) waits all of
			// it, and the small lines sent here take milliseconds.
			verdicts[i] = judgeBroken(name, portReport(py, abs, callTimeout, ps), table[name])
		})
	}
	wg.Wait()
	for i, script := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(script), ".py"), func(t *testing.T) {
			for _, e := range verdicts[i] {
				t.Error(e)
			}
		})
	}
}

// judgeBroken returns what is wrong with the report of the broken port
// name, whose row in the table lists want: nothing when it failed exactly
// those cases (or those checks of them), each with a wrong outcome.
func judgeBroken(name string, rep *conformance.Report, want []string) (errs []string) {
	if rep.Fatal != "" {
		return []string{fmt.Sprintf("%s did not run: %s\n%s", name, rep.Fatal, reportText(rep))}
	}
	if rep.Text == nil || rep.Text.OptedOut || rep.Protocol == nil || rep.Protocol.OptedOut || rep.Format2 == nil || rep.Format2.OptedOut {
		return []string{fmt.Sprintf("%s: a level did not run\n%s", name, reportText(rep))}
	}
	// A row may name the checks of a case that catch the port
	// (validate.keys.unknown#8,9): then exactly those must fail.
	byChecks := map[string]bool{}
	for _, w := range want {
		if id, _, ok := strings.Cut(w, "#"); ok {
			byChecks[id] = true
		}
	}
	wrongWay := func(c *conformance.CaseResult) {
		errs = append(errs, fmt.Sprintf("%s: case %s is %s, want PASS or FAIL: %s\n%s", name, c.ID, c.Status, c.Message, c.Stderr))
	}
	var failed []string
	for _, c := range slices.Concat(rep.Cases, rep.Format2.Cases, rep.Text.Cases, rep.Protocol.Cases) {
		switch c.Status {
		case conformance.Pass:
		case conformance.Fail:
			if !byChecks[c.ID] {
				failed = append(failed, c.ID)
				break
			}
			for _, chk := range c.Checks {
				if chk.Status != conformance.Pass {
					failed = append(failed, fmt.Sprintf("%s#%d", c.ID, chk.Index))
				}
			}
		case conformance.Timeout, conformance.Crash:
			// A line that gets no reply breaks the protocol level's
			// rule (a TIMEOUT, or in a fresh session whose input
			// has ended, a CRASH: the port exited without it);
			// elsewhere it is the wrong way to be caught.
			if !strings.HasPrefix(c.ID, "protocol.") {
				wrongWay(c)
			}
			failed = append(failed, c.ID)
		case conformance.Error:
			// A reply that is not JSON is how a bug in the port's
			// JSON writer is caught; any other ERROR is the wrong way.
			if !strings.HasPrefix(c.Message, notJSON) && !strings.HasPrefix(c.Message, notReply) {
				wrongWay(c)
			}
			failed = append(failed, c.ID)
		default:
			wrongWay(c)
		}
	}
	if len(failed) == 0 {
		return append(errs, fmt.Sprintf("%s passed all %d cases and the text level: the suite does not catch it\n%s", name, len(rep.Cases), reportText(rep)))
	}
	slices.Sort(failed)
	if want := slices.Sorted(slices.Values(want)); len(want) > 0 && !slices.Equal(failed, want) {
		errs = append(errs, fmt.Sprintf("%s failed %v, but %s lists %v; update the table", name, failed, brokenTable, want))
	}
	return errs
}

// TestPythonPortRecords runs ports/python/records.py, which regenerates the
// five records with the Python port and its own implementation of
// records/FORMAT.md's canonical form, and compares every file with the
// committed record byte for byte.
func TestPythonPortRecords(t *testing.T) {
	py := python3(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Glob(filepath.Join(root, "records", "[0-9][0-9]-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 5 {
		t.Fatalf("found %d record files in records/, want 5: %v", len(want), want)
	}
	out := t.TempDir()
	cmd := exec.Command(py, "-B", filepath.Join("ports", "python", "records.py"), "--root", root, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("records.py: %v\n%s", err, b)
	}
	got, err := filepath.Glob(filepath.Join(out, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("records.py wrote %d files, want %d", len(got), len(want))
	}
	for _, w := range want {
		name := filepath.Base(w)
		wantData, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		gotData, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Errorf("records.py did not write %s: %v", name, err)
			continue
		}
		if !bytes.Equal(gotData, wantData) {
			t.Errorf("%s: the Python port's bytes differ from records/%s\n--- want\n%s\n--- got\n%s", name, name, wantData, gotData)
		}
	}
}

// brokenRow matches a row of the broken ports' table: the port's file name in
// the first column and the catching case ids, in backquotes, in the last.
// notJSON begins the message of a case whose reply is not JSON, notReply
// that of one whose reply does not even begin as a JSON object.
const notJSON, notReply = "reply is not valid JSON", "the port wrote a line that is not a reply"

var brokenRow = regexp.MustCompile("^\\| `([a-z0-9_]+\\.py)` \\|.*\\| ([^|]*) \\|$")

var caseID = regexp.MustCompile("`([a-z0-9.-]+)(#[0-9,]+)?`")

// readBrokenTable returns the case ids that the README's table lists for
// each broken port, in the table's order; a case listed with its checks
// (`validate.keys.unknown#8,9`) gives one entry per check
// ("validate.keys.unknown#8", "validate.keys.unknown#9").
func readBrokenTable(path string) (map[string][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	table := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		m := brokenRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ids := []string{}
		for _, id := range caseID.FindAllStringSubmatch(m[2], -1) {
			if id[2] == "" {
				ids = append(ids, id[1])
				continue
			}
			for _, n := range strings.Split(id[2][1:], ",") {
				ids = append(ids, id[1]+"#"+n)
			}
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("%s: the row of %s lists no case", path, m[1])
		}
		table[m[1]] = ids
	}
	if len(table) == 0 {
		return nil, fmt.Errorf("%s: no table of broken ports", path)
	}
	return table, sc.Err()
}
