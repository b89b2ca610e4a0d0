//go:build linux

package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sbox "github.com/catalogkit/catalogkit/internal/release/sandbox"
	"github.com/catalogkit/catalogkit/internal/testlib/proctest"
)

// callerSecret is a variable in the initial environment of the process
// that runs verify: the archive's tests must not read it (through
// /proc/PID/environ of an ancestor).
const callerSecret = "CATALOGKIT_TEST_CALLER_SECRET"

// hostileTest is a test the archive ships that tries every way out the
// sandbox closes, and writes what it reached into probe.json beside it.
// %q are: the secret's name, the harness's listener, the home folder, a
// name for the files it writes and the processes it starts, verify's pid.
const hostileTest = `package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func parentOf(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

func TestHostile(t *testing.T) {
	secret, addr, home, name, verifyPid := %q, %q, %q, %q, %d
	reached, stopped := map[string]string{}, map[string]string{}
	for pid := os.Getppid(); pid > 0; pid = parentOf(pid) {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err == nil && bytes.Contains(env, []byte(secret+"=")) {
			reached["environ"] = fmt.Sprintf("read %%s in process %%d's environment", secret, pid)
		}
	}
	if reached["environ"] == "" {
		stopped["environ"] = "no ancestor's environment readable holds " + secret
	}
	if c, err := net.DialTimeout("tcp", addr, 2*time.Second); err == nil {
		reached["network"] = "connected to " + addr
		c.Close()
	} else {
		stopped["network"] = err.Error()
	}
	for what, dir := range map[string]string{"home": home, "tmp": "/tmp"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("hostile"), 0o644); err != nil {
			stopped[what] = err.Error()
		} else {
			reached[what] = "wrote " + p
		}
	}
	if err := syscall.Kill(verifyPid, syscall.SIGURG); err != nil {
		stopped["signal"] = err.Error()
	} else {
		reached["signal"] = fmt.Sprintf("signalled verify's process %%d", verifyPid)
	}
	start := func(what, arg string, stdout *os.File) {
		c := exec.Command("sleep", arg)
		c.Stdout = stdout
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			stopped[what] = err.Error()
		} else {
			reached[what] = fmt.Sprintf("started process %%d in a new session", c.Process.Pid)
		}
	}
	start("detached", "300.1"+name[len(name)-6:], nil)
	// go test's own standard output is verify's pipe.
	if out, err := os.OpenFile("/proc/"+strconv.Itoa(os.Getppid())+"/fd/1", os.O_WRONLY, 0); err != nil {
		stopped["stdout"] = err.Error()
	} else {
		start("stdout", "300.2"+name[len(name)-6:], out)
		out.Close()
	}
	data, _ := json.Marshal(map[string]any{"reached": reached, "stopped": stopped})
	if err := os.WriteFile("probe.json", data, 0o644); err != nil {
		t.Fatal(err)
	}
}
`

// TestSandboxHostile verifies an archive whose test tries, from the tests step,
// every ancestor's environment, a TCP connection to a listener the test
// opens on 127.0.0.1, writing in the home folder and in /tmp, a detached
// child that outlives the test, a child that holds verify's stdout, and
// signalling verify's process. Sandboxed, each is contained, and the test
// says by which layer; with --sandbox off the same archive reaches each
// (so the probe can tell), and verify still ends. It runs verify in a child
// process whose initial environment holds callerSecret, as a caller's
// would.
func TestSandboxHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("the re-run inside a hostile archive, sandboxed and not: make test runs it")
	}
	if os.Getenv(callerSecret) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSandboxHostile$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), callerSecret+"=hunter2")
		out, err := cmd.CombinedOutput()
		t.Logf("verify in a child process with %s in its environment:\n%s", callerSecret, out)
		if err != nil {
			t.Fatalf("%v", err)
		}
		return
	}
	gocache := userGOCACHE(t)
	for _, mode := range []SandboxMode{SandboxAuto, SandboxOff} {
		t.Run(string(mode), func(t *testing.T) {
			if mode == SandboxAuto {
				if err := sbox.Check(); err != nil {
					if os.Getenv("CATALOGKIT_SANDBOX_REQUIRED") != "" {
						t.Fatal(err)
					}
					t.Skip(err)
				}
			}
			hostileRun(t, mode, gocache)
		})
	}
}

func hostileRun(t *testing.T, mode SandboxMode, gocache string) {
	addr := proctest.Listen(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder:", err)
	}
	name := fmt.Sprintf(".catalogkit-hostile-%06d", time.Now().UnixNano()%1000000)
	src := fmt.Sprintf(hostileTest, callerSecret, addr, home, name, os.Getpid())
	data := packTree(fakeRelease(21, nil, tfile{path: "catalog/hostile_test.go", data: []byte(src)}))
	sb := newSandbox(t, data)
	sum := sha256.Sum256(data)
	plan := ReleaseTests()
	plan.GOCACHE = gocache
	var raw []byte
	afterTests := func(work string) { raw, err = os.ReadFile(filepath.Join(work, "catalog", "probe.json")) }
	start := time.Now()
	rep := Verify(context.Background(), sb.archive, Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, Tests: plan, Sandbox: mode, afterTests: afterTests})
	t.Logf("verify took %v:\n%s", time.Since(start), text(rep))
	var probe struct{ Reached, Stopped map[string]string }
	if err != nil {
		t.Fatalf("the hostile test left no probe.json: %v", err)
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		t.Fatal(err)
	}
	// What the host shows after verify: files written, processes alive.
	for what, p := range map[string]string{"home": filepath.Join(home, name), "tmp": filepath.Join("/tmp", name)} {
		if os.Remove(p) == nil {
			probe.Reached[what] += " (on the host; removed)"
		} else if probe.Reached[what] != "" {
			// A write inside the sandbox that nobody outside sees.
			probe.Stopped[what], probe.Reached[what] = probe.Reached[what]+" inside the sandbox only, gone with it", ""
		}
	}
	for what, arg := range map[string]string{"detached": "300.1" + name[len(name)-6:], "stdout": "300.2" + name[len(name)-6:]} {
		if pids := sleeping(arg); len(pids) > 0 {
			probe.Reached[what] += fmt.Sprintf(", alive after verify ended (%v, killed)", pids)
			for _, pid := range pids {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		} else if probe.Reached[what] != "" {
			probe.Stopped[what], probe.Reached[what] = probe.Reached[what]+", ended with the sandbox", ""
		}
	}
	layers := map[string]string{
		"environ":  "the PID namespace with a fresh /proc (no ancestor visible)",
		"network":  "the network namespace (the host's 127.0.0.1 is another network)",
		"home":     "the mount namespace (no home folder)",
		"tmp":      "the mount namespace (a private /tmp)",
		"signal":   "the PID namespace (verify's pid names no process)",
		"detached": "the PID namespace (ended with go test)",
		"stdout":   "the PID namespace (its holder ended with go test)",
	}
	for what, layer := range layers {
		reached := probe.Reached[what]
		switch {
		case mode == SandboxOff && reached == "" && what != "home":
			// The home folder may be read-only to this user anyway.
			t.Errorf("--sandbox off: the %s attempt reached nothing (%s): the probe cannot show what the sandbox prevents", what, probe.Stopped[what])
		case mode == SandboxOff:
			t.Logf("--sandbox off: %s reached: %s", what, reached)
		case reached != "":
			t.Errorf("%s not contained (want it stopped by %s): %s", what, layer, reached)
		default:
			t.Logf("%s contained by %s: %s", what, layer, probe.Stopped[what])
		}
	}
	s := rep.Step(StepTests)
	switch mode {
	case SandboxOff:
		// The holder of verify's stdout did not keep verify running: it
		// stopped reading and said why.
		if s.Code() != CodeTestRun || !strings.Contains(s.Summary, errOutputHeld.Error()) {
			t.Errorf("--sandbox off: tests step %s [%s] %q, want %s: %s", s.Status, s.Code(), s.Summary, CodeTestRun, errOutputHeld)
		}
		if rep.Sandbox != "not sandboxed (--sandbox off)" || !strings.Contains(text(rep), "sandbox  not sandboxed (--sandbox off)") {
			t.Errorf("the report does not say the tests ran unsandboxed: %q\n%s", rep.Sandbox, text(rep))
		}
	default:
		if !rep.OK() || !strings.HasPrefix(s.Summary, "sandboxed by bubblewrap") {
			t.Errorf("sandboxed: tests step %s %q, want passed and sandboxed", s.Status, s.Summary)
		}
	}
}

// sleeping returns the processes running sleep arg.
func sleeping(arg string) []int { return proctest.Sleeping(arg) }
