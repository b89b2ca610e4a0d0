package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The stdio tests start this test binary as a port: with
// CONFORMANCE_FAKE_PORT set, TestMain runs fakePort instead of the tests. The
// fake port answers correctly with the Go implementation, except that it
// misbehaves as CONFORMANCE_FAKE_PORT says when the call's seq is
// CONFORMANCE_FAKE_SEQ (seq is never reset, so it misbehaves once).
func TestMain(m *testing.M) {
	if b := os.Getenv("CONFORMANCE_FAKE_PORT"); b != "" {
		seq, _ := strconv.ParseInt(os.Getenv("CONFORMANCE_FAKE_SEQ"), 10, 64)
		os.Exit(fakePort(b, seq))
	}
	os.Exit(m.Run())
}

func fakePort(behaviour string, trigger int64) int {
	in := bufio.NewReader(os.Stdin)
	out := os.Stdout
	info := PortInfo{Name: "fake", Language: "Go", Version: behaviour}
	target := GoTarget("fake")
	if behaviour == "serve" { // a correct port, as catalogkit port is
		if err := Serve(os.Stdin, out, target, info); err != nil {
			fmt.Fprintln(os.Stderr, "fake port:", err)
			return 1
		}
		return 0
	}
	for {
		line, err := readLine(in)
		if err != nil && len(line) == 0 {
			if behaviour == "ignore-eof" {
				time.Sleep(time.Hour)
			}
			return 0
		}
		msg, _ := parseJSON(line)
		if typ, _ := msg.lookup("type"); typ != nil && typ.str == "hello" {
			switch behaviour {
			case "version":
				fmt.Fprintln(out, `{"type":"hello","protocol":"catalogkit-conformance/2","port":{"name":"fake","language":"Go","version":"2"}}`)
				continue
			case "hang-startup":
				time.Sleep(time.Hour)
			case "exit-startup":
				fmt.Fprintln(os.Stderr, "fake port: cannot find my runtime")
				return 7
			case "stop-reading":
				fmt.Fprintf(out, "%s\n", serveLine(line, target, info))
				time.Sleep(time.Hour)
			}
		}
		seq := int64(-1)
		if s, _ := msg.lookup("seq"); s != nil {
			seq, _ = strconv.ParseInt(s.lit, 10, 64)
		}
		if behaviour == "noise" {
			fmt.Fprintf(os.Stderr, "fake port: call %d %s\n", seq, strings.Repeat("noise ", 10000))
		}
		if seq != trigger {
			fmt.Fprintf(out, "%s\n", serveLine(line, target, info))
			continue
		}
		switch behaviour {
		case "garbage":
			fmt.Fprintln(out, "this is not JSON")
		case "wrong-seq":
			fmt.Fprintf(out, `{"type":"reply","seq":%d,"outcome":{"result":[]}}`+"\n", seq+1000)
		case "hang":
			time.Sleep(time.Hour)
		case "exit":
			fmt.Fprintln(os.Stderr, "fake port: giving up on this call")
			return 3
		case "close-stdout":
			os.Stdout.Close()
			time.Sleep(time.Hour)
		case "error-line":
			fmt.Fprintf(out, `{"type":"error","seq":%d,"message":"cannot make sense of it"}`+"\n", seq)
		case "not-implemented":
			fmt.Fprintf(out, `{"type":"reply","seq":%d,"outcome":{"not_implemented":"no time"}}`+"\n", seq)
		case "wrong-result":
			fmt.Fprintf(out, `{"type":"reply","seq":%d,"outcome":{"result":"surprise"}}`+"\n", seq)
		case "bad-outcome":
			fmt.Fprintf(out, `{"type":"reply","seq":%d,"outcome":{"result":[],"error":"INVALID_LABEL"}}`+"\n", seq)
		case "duplicate-key":
			fmt.Fprintf(out, `{"type":"reply","seq":%d,"seq":%d,"outcome":{"result":[]}}`+"\n", seq, seq)
		case "too-long":
			// Over the runner's default limit, never read whole: the
			// write blocks until the runner kills the port.
			fmt.Fprintf(out, `{"type":"reply","seq":%d,"outcome":{"result":[%s0]}}`+"\n", seq, strings.Repeat("0,", 1<<20))
		case "extra-line":
			fmt.Fprintf(out, "%s\n%s\n", serveLine(line, target, info), serveLine(line, target, info))
		default:
			fmt.Fprintf(out, "%s\n", serveLine(line, target, info))
		}
	}
}

func fakeCommand(t *testing.T, behaviour string, seq int) *Port {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	// Timeouts long enough that a loaded machine never reaches them: a
	// test of the call timeout sets its own.
	return &Port{
		Command:        []string{exe},
		Env:            append(os.Environ(), "CONFORMANCE_FAKE_PORT="+behaviour, "CONFORMANCE_FAKE_SEQ="+strconv.Itoa(seq)),
		StartupTimeout: time.Minute,
		CallTimeout:    time.Minute,
	}
}

// shortCallTimeout is the call timeout of the tests that wait for it.
const shortCallTimeout = 3 * time.Second

func mustCases(t *testing.T) []*Case { return must(t, Cases) }

// must returns what load returns, or fails t with its error.
func must[T any](t testing.TB, load func() (T, error)) T {
	t.Helper()
	v, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// caseOfSeq returns the index of the case whose checks include call number
// seq, when every call before it was answered.
func caseOfSeq(cases []*Case, seq int) int {
	n := 0
	for i, c := range cases {
		n += len(c.Checks)
		if seq <= n {
			return i
		}
	}
	return -1
}

// TestPortMisbehaviour starts fake ports that misbehave once, at one call,
// and checks that exactly the case of that call is reported, as the right
// status with a message that says what happened, and that every other case
// still runs and passes.
func TestPortMisbehaviour(t *testing.T) {
	cases := mustCases(t)
	// Call 3 of the suite is the third check of the first case; call 40 is
	// in the middle of the run.
	tests := []struct {
		behaviour  string
		seq        int
		wantStatus Status
		wantInMsg  string
		wantStderr string
		nextCase   bool // the problem shows at the call after seq
		reason     string
	}{
		{"garbage", 3, Error, "the port wrote a line that is not a reply on stdout: \"this is not JSON\" (stdout carries protocol messages only", "", false, "a line that is no reply is an ERROR that says so, and the port is restarted"},
		{"wrong-seq", 40, Error, "reply has seq 1040, want 40", "", false, "a reply to another call is an ERROR"},
		{"hang", 40, Timeout, "no reply within 3s", "", false, "a port that never answers is a TIMEOUT, not a hang"},
		{"exit", 3, Crash, "port exited before its reply (exit status 3)", "fake port: giving up on this call", false, "an early exit is a CRASH with the tail of stderr"},
		{"close-stdout", 40, Crash, "port closed stdout before its reply", "", false, "closing stdout is a CRASH"},
		{"error-line", 40, Error, "port answered an error line: cannot make sense of it", "", false, "a type error line is an ERROR"},
		{"duplicate-key", 40, Error, "duplicate object key", "", false, "a reply with a duplicate key is not valid JSON for the runner"},
		{"bad-outcome", 40, Error, "is not exactly one of result, error", "", false, "an outcome with both a result and an error is an ERROR"},
		{"wrong-result", 40, Fail, "outcome differs", "", false, "a wrong result is a FAIL with a diff"},
		{"not-implemented", 40, Skip, "not implemented: no time", "", false, "not_implemented is a SKIP, never a pass"},
		{"too-long", 40, Error, "reply line is longer than the reply limit of 1048576 bytes", "", false, "a reply over the limit is an ERROR at once, and the port is restarted"},
		{"extra-line", 40, Error, "port wrote a line before the request|reply has seq 40, want 41", "", true, "a second reply to one call shows at the next call"},
	}
	for _, tt := range tests {
		t.Run(tt.behaviour, func(t *testing.T) {
			port := fakeCommand(t, tt.behaviour, tt.seq)
			defer port.Close()
			if tt.wantStatus == Timeout {
				port.CallTimeout = shortCallTimeout
			}
			rep := (&Runner{Target: port, Once: true}).RunCases(cases)
			bad := caseOfSeq(cases, tt.seq)
			if tt.nextCase {
				bad = caseOfSeq(cases, tt.seq+1)
			}
			if len(rep.Cases) != len(cases) {
				t.Fatalf("report has %d cases, want %d (%s)", len(rep.Cases), len(cases), tt.reason)
			}
			for i, res := range rep.Cases {
				if i != bad {
					if res.Status != Pass {
						t.Errorf("case %s: %s %s, want PASS: the run must go on (%s)", res.ID, res.Status, res.Message, tt.reason)
					}
					continue
				}
				if res.Status != tt.wantStatus || !containsAny(res.Message, tt.wantInMsg) {
					t.Errorf("case %s: %s %q, want %s with %q (%s)", res.ID, res.Status, res.Message, tt.wantStatus, tt.wantInMsg, tt.reason)
				}
				if !strings.Contains(res.Stderr, tt.wantStderr) {
					t.Errorf("case %s: stderr tail %q, want it to contain %q", res.ID, res.Stderr, tt.wantStderr)
				}
			}
			wantFailed := 1
			if tt.wantStatus == Skip {
				wantFailed = 0
			}
			if rep.Failed != wantFailed || rep.Passed != len(cases)-1 {
				t.Errorf("summary %q, want %d passed and %d failed", rep.Summary(), len(cases)-1, wantFailed)
			}
			if rep.OK() {
				t.Errorf("report is OK, want not OK: a case did not pass")
			}
		})
	}
}

// TestPortStopsReading: a port that stops reading its input, so that a
// line larger than the pipe holds cannot be written, is a TIMEOUT that says
// so, not a CRASH.
func TestPortStopsReading(t *testing.T) {
	port := fakeCommand(t, "stop-reading", 0)
	port.CallTimeout = shortCallTimeout
	defer port.Close()
	if _, err := port.Hello(); err != nil {
		t.Fatal(err)
	}
	line := append(bytes.Repeat([]byte(" "), 4<<20), '\n')
	te := asTransport(port.Send(line))
	if te == nil || te.Status != Timeout || !strings.Contains(te.Message, "did not read the request (4194305 bytes) within the call timeout of 3s") {
		t.Errorf("a 4 MiB line to a port that stopped reading: %+v, want a TIMEOUT saying the port did not read it", te)
	}
}

// TestPortHandshakeFailure checks that a port that fails its handshake stops
// the run at once, with every case reported as not run (ERROR), none with a
// call, since none was sent.
func TestPortHandshakeFailure(t *testing.T) {
	cases := mustCases(t)
	tests := []struct {
		behaviour  string
		wantStatus Status
		wantInMsg  string
		wantStderr string
		reason     string
	}{
		{"version", Error, `protocol version mismatch: the runner speaks "catalogkit-conformance/1", the port answered "catalogkit-conformance/2"`, "", "a version mismatch names both versions"},
		{"hang-startup", Error, "no hello within 500ms", "", "no hello within the startup timeout"},
		{"exit-startup", Error, "port exited before its hello (exit status 7)", "cannot find my runtime", "an exit before the hello shows stderr"},
	}
	for _, tt := range tests {
		t.Run(tt.behaviour, func(t *testing.T) {
			port := fakeCommand(t, tt.behaviour, 0)
			if tt.behaviour == "hang-startup" {
				// Only the port that never says hello waits for the
				// startup timeout: the others get fakeCommand's, which a
				// loaded machine never reaches.
				port.StartupTimeout = 500 * time.Millisecond
			}
			defer port.Close()
			rep := (&Runner{Target: port, Once: true}).RunCases(cases)
			if len(rep.Cases) != len(cases) || rep.Failed != len(cases) || rep.Passed != 0 {
				t.Fatalf("summary %q for %d cases, want every case failed (%s)", rep.Summary(), len(rep.Cases), tt.reason)
			}
			first := rep.Cases[0]
			if first.Status != tt.wantStatus || !strings.Contains(first.Message, tt.wantInMsg) {
				t.Errorf("first case: %s %q, want %s with %q (%s)", first.Status, first.Message, tt.wantStatus, tt.wantInMsg, tt.reason)
			}
			if !strings.Contains(first.Stderr, tt.wantStderr) {
				t.Errorf("first case: stderr tail %q, want it to contain %q", first.Stderr, tt.wantStderr)
			}
			if !strings.Contains(rep.Fatal, tt.wantInMsg) {
				t.Errorf("Fatal = %q, want it to contain %q", rep.Fatal, tt.wantInMsg)
			}
			for _, res := range rep.Cases {
				if res.Status != Error || !res.NotRun || !strings.HasPrefix(res.Message, "not run") {
					t.Errorf("case %s: %s %q (not run: %v), want ERROR not run", res.ID, res.Status, res.Message, res.NotRun)
				}
				if len(res.Checks) != 0 {
					t.Errorf("case %s: %d checks, want none: no call was sent", res.ID, len(res.Checks))
				}
			}
		})
	}
}

// TestPortStderrNoise checks that a port writing a lot to stderr neither
// blocks nor fails, and that a report keeps only the tail.
func TestPortStderrNoise(t *testing.T) {
	cases := mustCases(t)
	port := fakeCommand(t, "noise", 0)
	defer port.Close()
	rep := (&Runner{Target: port}).RunCases(cases)
	if !rep.OK() || rep.Passed != len(cases) {
		t.Errorf("summary %q, want %d passed: stderr is never parsed", rep.Summary(), len(cases))
	}
	if got := port.Info(); got != (PortInfo{Name: "fake", Language: "Go", Version: "noise"}) {
		t.Errorf("Info() = %+v, want the fake port's hello", got)
	}
	tl := &tail{max: 10}
	fmt.Fprint(tl, "0123456789abcdef")
	if got, want := tl.String(), "[... 6 earlier bytes]\n6789abcdef"; got != want {
		t.Errorf("tail = %q, want %q", got, want)
	}
}

// TestPortCloseKillsStubbornPort checks that Close does not wait forever for
// a port that ignores the end of its input.
func TestPortCloseKillsStubbornPort(t *testing.T) {
	cases := mustCases(t)
	port := fakeCommand(t, "ignore-eof", 0)
	rep := (&Runner{Target: port, Run: mustRegexp(t, `^discover\.family\.filters$`)}).RunCases(cases)
	if !rep.OK() {
		t.Fatalf("summary %q, want a pass", rep.Summary())
	}
	start := time.Now()
	err := port.Close()
	if d := time.Since(start); d > time.Minute { // the port never ends by itself
		t.Errorf("Close took %v", d)
	}
	if err == nil {
		t.Errorf("Close() = nil, want the error of a port that had to be killed")
	}
}

// containsAny reports whether s contains one of the |-separated alternatives.
func containsAny(s, alternatives string) bool {
	for _, a := range strings.Split(alternatives, "|") {
		if strings.Contains(s, a) {
			return true
		}
	}
	return false
}

func mustRegexp(t *testing.T, expr string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// TestParseHello checks the hello's port object: exactly name, language and
// version, non-empty strings, and the optional opt-outs, nothing else.
func TestParseHello(t *testing.T) {
	const head = `{"type":"hello","protocol":"` + Protocol + `","port":`
	for _, tc := range []struct{ port, err string }{
		{`{"name":"p","language":"Go","version":"1"}`, ""},
		{`{"name":"p","language":"Go","version":"1","text_level":false,"protocol_level":true}`, ""},
		{`{"name":"p","language":"Go","version":"1","format2_level":false}`, ""},
		{`{"name":"p","language":"Go","version":"1","format2_level":"no"}`, "hello: port.format2_level is not a boolean"},
		{`{"name":"p","language":"Go","version":"1","runtime":"go1.26"}`, `hello: port has an unknown key "runtime"`},
		{`{"name":"p","language":"Go"}`, `hello: port lacks "version"`},
		{`{"name":"","language":"Go","version":"1"}`, "hello: port.name is not a non-empty string"},
		{`{"name":"p","language":"Go","version":"1","text_level":0}`, "hello: port.text_level is not a boolean"},
		{`["p","Go","1"]`, "hello: port is not an object"},
	} {
		_, err := parseHello([]byte(head + tc.port + "}"))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("port %s: %v, want it accepted", tc.port, err)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("port %s: error %v, want one starting %q", tc.port, err, tc.err)
		}
	}
}
