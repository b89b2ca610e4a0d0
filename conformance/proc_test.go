//go:build linux

package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/testlib/proctest"
)

// shHello answers the hello: the start of every shell port below.
const shHello = `read hello
echo '{"type":"hello","protocol":"catalogkit-conformance/1","port":{"name":"sh","language":"sh","version":"1"}}'
`

// shAnswer answers one call with not_implemented (a SKIP). The case the
// tests run, discover.family.reading-has-change, has two checks.
const shAnswer = `read call
seq=$(echo "$call" | sed 's/^{"type":"call","seq":\([0-9]*\).*/\1/')
echo '{"type":"reply","seq":'"$seq"',"outcome":{"not_implemented":"a shell port"}}'
`

// waitPid waits for the port's script to write the pid of the process it
// started into PIDFILE.
const waitPid = `while [ ! -s "$PIDFILE" ]; do sleep 0.01; done
`

type portProcessTest struct {
	name       string
	script     string
	wantStatus Status
	wantInMsg  string
	// endChildren: the process escapes the marker (it cleared its
	// environment), so only the last sweep of catalogkit conform,
	// EndChildren, can end it.
	endChildren bool
	// hop: the processes left are found by HOP_TOKEN=TOKEN in their
	// environment, not by their command line.
	hop    bool
	reason string
}

// TestPortProcesses runs real shell ports that leave processes behind and
// checks, in /proc, that none survives; and that a port whose own process
// exited is a CRASH even while a process it started holds its stdout.
func TestPortProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc:", err)
	}
	cases := mustCases(t)
	tests := []portProcessTest{
		{
			name:       "child holds stdout",
			script:     `read call; sh -c 'echo $$ > "$PIDFILE"; exec sleep $TOKEN' & ` + waitPid + `exit 0`,
			wantStatus: Crash,
			// The message goes on: "while a process it started still
			// held its stdout open".
			wantInMsg: "port exited before its reply (exit status 0)",
			reason:    "the port is its process: once it exits, the call has crashed, whoever holds the pipe",
		},
		{
			name: "grandchild in a new session",
			script: `setsid sh -c 'echo $$ > "$PIDFILE"; exec sleep $TOKEN' </dev/null >/dev/null 2>&1 &
` + waitPid + `read call; exit 0`,
			wantStatus: Crash,
			wantInMsg:  "port exited before its reply (exit status 0)",
			reason:     "a process in another session and group still carries the marker",
		},
		{
			name: "grandchild that clears its environment",
			script: `env -i setsid sh -c 'echo $$ > "$0"; exec sleep $TOKEN' "$PIDFILE" </dev/null >/dev/null 2>&1 &
` + waitPid + `read call; exit 0`,
			wantStatus:  Crash,
			wantInMsg:   "port exited before its reply (exit status 0)",
			endChildren: true,
			reason:      "an orphan without the marker became the runner's child (subreaper)",
		},
		{
			// Each generation waits 10ms, starts the next and exits: a pid
			// that keeps changing, which one reading of /proc misses.
			name: "descendants that fork and exit in a loop",
			script: `HOP='sleep 0.01; sh -c "$HOP" &' HOP_TOKEN=$TOKEN setsid sh -c 'echo $$ > "$PIDFILE"; sh -c "$HOP"' </dev/null >/dev/null 2>&1 &
` + waitPid + `sleep 0.2; read call; exit 0`,
			wantStatus: Crash,
			wantInMsg:  "port exited before its reply (exit status 0)",
			hop:        true,
			reason:     "the whole line of generations ends, by sweeping until a sweep finds nothing",
		},
		{
			name:       "port ignores SIGTERM",
			script:     `trap '' TERM; echo $$ > "$PIDFILE"; ` + shAnswer + shAnswer + `exec sleep $TOKEN`,
			wantStatus: Skip,
			wantInMsg:  "not implemented: a shell port",
			reason:     "Close ends a port that ignores the end of its input and SIGTERM",
		},
		{
			name:       "descendant ignores SIGTERM",
			script:     `(trap '' TERM; sh -c 'echo $$ > "$PIDFILE"; exec sleep $TOKEN') </dev/null >/dev/null 2>&1 & ` + waitPid + shAnswer + shAnswer + `exec sleep $TOKEN`,
			wantStatus: Skip,
			wantInMsg:  "not implemented: a shell port",
			reason:     "a descendant that ignores SIGTERM is killed with the port",
		},
	}
	portProcesses(t, cases, tests)
}

// portProcesses runs the tests of TestPortProcesses.
func portProcesses(t *testing.T, cases []*Case, tests []portProcessTest) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			token := sleepToken()
			port := &Port{
				Command:        []string{"sh", "-c", shHello + tt.script},
				Env:            append(os.Environ(), "PIDFILE="+pidFile, "TOKEN="+token),
				StartupTimeout: 10 * time.Second,
				CallTimeout:    time.Minute, // a TIMEOUT would take this long
			}
			rep := (&Runner{Target: port, Once: true, Run: mustRegexp(t, `^discover\.family\.reading-has-change$`)}).RunCases(cases)
			port.Close()
			if tt.endChildren {
				EndChildren()
			}
			if len(rep.Cases) != 1 {
				t.Fatalf("report has %d cases, want 1", len(rep.Cases))
			}
			if got := rep.Cases[0]; got.Status != tt.wantStatus || !strings.Contains(got.Message, tt.wantInMsg) {
				t.Errorf("%s %q, want %s with %q (%s)", got.Status, got.Message, tt.wantStatus, tt.wantInMsg, tt.reason)
			}
			if _, err := os.Stat(pidFile); err != nil {
				t.Fatalf("the port did not write the pid of what it started: %v", err)
			}
			find := func() []int {
				if tt.hop {
					return withHop(token)
				}
				return sleepers(token)
			}
			// A process sent SIGKILL leaves /proc once the kernel has
			// torn it down and it is reaped, which a loaded machine does
			// not do at once; what the port started sleeps 300 s, so an
			// orphan is still there after 30.
			var left []int
			proctest.Until(30*time.Second, func() bool { left = find(); return len(left) == 0 })
			for _, pid := range left {
				t.Errorf("process %d it started is still there after Close (state %s): an orphan (%s)", pid, procState(pid), tt.reason)
				killProcess(pid)
			}
		})
	}
}

var tokens atomic.Int64

// sleepToken returns an argument for sleep(1) unique to this test process
// and call, by which sleepers finds the processes that sleep with it.
func sleepToken() string {
	return fmt.Sprintf("300.%d%07d%06d", tokens.Add(1), os.Getpid(), time.Now().UnixNano()%1000000)
}

// sleepers returns the processes whose command line is sleep token.
func sleepers(token string) []int { return proctest.Sleeping(token) }

// withHop returns the processes that have HOP_TOKEN=token in their
// environment.
func withHop(token string) []int { return proctest.WithEnv("HOP_TOKEN=" + token) }

// procState returns the state letter of a process in /proc ("Z" for a
// zombie that nobody reaped), or "" if it is gone.
func procState(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	if f := strings.Fields(rest); len(f) > 0 {
		return f[0]
	}
	return "?"
}

func killProcess(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
