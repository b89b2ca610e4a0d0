package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/catalogkit/catalogkit/internal/testlib/proctest"
)

// The test binary is also the program the tests run in the sandbox: with
// probeEnv set, TestMain runs the probe named by it and exits.
const probeEnv = "CATALOGKIT_SANDBOX_PROBE"

func TestMain(m *testing.M) {
	switch os.Getenv(probeEnv) {
	case "":
		os.Exit(m.Run())
	case "escape":
		escape()
	case "caller":
		caller()
	case "sleep":
		time.Sleep(5 * time.Minute)
	case "procs":
		procs()
	}
	os.Exit(0)
}

// escapeResult is what the escape probe managed: each field is "" when the
// attempt was stopped, else what it reached.
type escapeResult struct {
	Environ, Network, Home, Tmp, ReadOnly, Signal, Detached, Keyring, ProcKeys string
	// Visible is how many processes /proc shows.
	Visible int
	// Stopped says, for each attempt, the error that stopped it.
	Stopped map[string]string
}

// escape tries every way out the package documentation says is closed and
// prints what it reached as JSON.
func escape() {
	r := escapeResult{Stopped: map[string]string{}}
	stopped := func(what string, err error) { r.Stopped[what] = err.Error() }
	// Every ancestor's environment, up the chain of parents.
	for pid := os.Getppid(); pid > 0; pid = proctest.Parent(pid) {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			stopped("environ", err)
			continue
		}
		if bytes.Contains(env, []byte(callerSecret+"=")) {
			r.Environ = fmt.Sprintf("read %s in process %d's environment", callerSecret, pid)
			break
		}
	}
	if r.Environ == "" && r.Stopped["environ"] == "" {
		r.Stopped["environ"] = fmt.Sprintf("no ancestor's environment holds %s", callerSecret)
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			r.Visible++
		}
	}
	if c, err := net.DialTimeout("tcp", os.Getenv("PROBE_ADDR"), 2*time.Second); err == nil {
		r.Network = "connected to " + c.RemoteAddr().String()
		c.Close()
	} else {
		stopped("network", err)
	}
	write := func(field *string, what, path string) {
		if err := os.WriteFile(path, []byte("probe"), 0o644); err != nil {
			stopped(what, err)
			return
		}
		*field = "wrote " + path
	}
	write(&r.Home, "home", filepath.Join(os.Getenv("PROBE_HOME"), os.Getenv("PROBE_NAME")))
	write(&r.Tmp, "tmp", filepath.Join("/tmp", os.Getenv("PROBE_NAME")))
	write(&r.ReadOnly, "readonly", filepath.Join(os.Getenv("PROBE_RO"), os.Getenv("PROBE_NAME")))
	if pid, _ := strconv.Atoi(os.Getenv("PROBE_PID")); pid > 0 {
		// SIGURG: the Go runtime's own preemption signal, harmless if it
		// arrives.
		if err := syscall.Kill(pid, syscall.SIGURG); err != nil {
			stopped("signal", err)
		} else {
			r.Signal = fmt.Sprintf("signalled process %d", pid)
		}
	}
	// The key the caller added to its session keyring, found by its
	// description and read; and the host's list of keys.
	if id, err := unix.RequestKey("user", keyName(os.Getenv("PROBE_NAME")), "", unix.KEY_SPEC_SESSION_KEYRING); err != nil {
		stopped("keyring", err)
	} else if secret, err := readKey(id); err != nil {
		stopped("keyring", err)
	} else {
		r.Keyring = fmt.Sprintf("read %q from key %d of the caller's session keyring", secret, id)
	}
	if keys, err := os.ReadFile("/proc/keys"); err != nil {
		stopped("prockeys", err)
	} else {
		r.ProcKeys = fmt.Sprintf("read /proc/keys: %d lines", bytes.Count(keys, []byte("\n")))
	}
	self, _ := os.Executable()
	child := exec.Command(self, "-test.run=^$", "sleep-"+os.Getenv("PROBE_NAME"))
	child.Env = []string{probeEnv + "=sleep"}
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		stopped("detached", err)
	} else {
		r.Detached = fmt.Sprintf("started process %d in a new session", child.Process.Pid)
	}
	json.NewEncoder(os.Stdout).Encode(r)
}

// callerSecret is a variable of the caller's environment: the probe's
// parent has it, the probe's own environment does not.
const callerSecret = "CATALOGKIT_PROBE_CALLER_SECRET"

// caller is the probe's parent, as verify is the tests' parent: it has
// callerSecret in its environment and runs the escape probe with an
// environment without it, sandboxed if PROBE_SANDBOX is set, and copies its
// output.
func caller() {
	self, _ := os.Executable()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PROBE_") {
			env = append(env, kv)
		}
	}
	env = append(env, probeEnv+"=escape", "PROBE_PID="+strconv.Itoa(os.Getpid()))
	dir, _ := os.Getwd()
	// A secret in a session keyring of the caller's own, which the probe
	// inherits, as a user's login session keeps one.
	_, err := unix.KeyctlJoinSessionKeyring(keyName(os.Getenv("PROBE_NAME")) + "-session")
	if err == nil {
		_, err = unix.AddKey("user", keyName(os.Getenv("PROBE_NAME")), []byte("hunter2"), unix.KEY_SPEC_SESSION_KEYRING)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "adding a key to the session keyring:", err)
		os.Exit(1)
	}
	if os.Getenv("PROBE_SANDBOX") != "" {
		var sc *Cmd
		if sc, err = Command(context.Background(), &Spec{Dir: dir, ReadOnly: []string{os.Getenv("PROBE_RO")}, Env: env, Timeout: time.Minute}, self, "-test.run=^$"); err == nil {
			sc.Stdout, sc.Stderr = os.Stdout, os.Stderr
			err = sc.Run()
		}
	} else {
		c := exec.Command(self, "-test.run=^$")
		c.Env, c.Stdout, c.Stderr = env, os.Stdout, os.Stderr
		err = c.Run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// keyName is the description of the caller's secret key.
func keyName(probe string) string { return "catalogkit" + probe }

// readKey returns the payload of key id.
func readKey(id int) (string, error) {
	buf := make([]byte, 256)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	if err != nil {
		return "", err
	}
	return string(buf[:min(n, len(buf))]), nil
}

// procs starts sleeping children until it cannot, up to 100, and prints
// how many it started.
func procs() {
	self, _ := os.Executable()
	n := 0
	for ; n < 100; n++ {
		c := exec.Command(self, "-test.run=^$")
		c.Env = []string{probeEnv + "=sleep"}
		if err := c.Start(); err != nil {
			break
		}
	}
	fmt.Println(n)
}

// need skips the test when the sandbox cannot run here, unless
// CATALOGKIT_SANDBOX_REQUIRED is set (CI), where that is a failure.
func need(t *testing.T) {
	t.Helper()
	if err := Check(); err != nil {
		if os.Getenv("CATALOGKIT_SANDBOX_REQUIRED") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// escapeRun runs the escape probe, sandboxed or not, and returns what it
// reached, after checking on the host what it left there.
func escapeRun(t *testing.T, sandboxed bool) escapeResult {
	addr := proctest.Listen(t)
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		t.Skip("no home folder to protect:", err)
	}
	name := fmt.Sprintf(".catalogkit-sandbox-probe-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir, ro := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{probeEnv + "=caller", callerSecret + "=hunter2", "PROBE_ADDR=" + addr,
		"PROBE_HOME=" + home, "PROBE_NAME=" + name, "PROBE_RO=" + ro, "PATH=" + os.Getenv("PATH")}
	if sandboxed {
		env = append(env, "PROBE_SANDBOX=1")
	}
	var stdout bytes.Buffer
	c := exec.Command(self, "-test.run=^$")
	c.Env, c.Dir, c.Stdout, c.Stderr = env, dir, &stdout, os.Stderr
	if err := c.Run(); err != nil {
		t.Fatalf("the probe failed: %v\n%s", err, stdout.Bytes())
	}
	var r escapeResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("probe output %q: %v", stdout.Bytes(), err)
	}
	for _, p := range []string{filepath.Join(home, name), filepath.Join(ro, name)} {
		if os.Remove(p) == nil {
			t.Logf("the probe wrote %s on the host (removed)", p)
		}
	}
	if os.Remove(filepath.Join("/tmp", name)) != nil {
		r.Tmp = "" // what it wrote went to the sandbox's own /tmp, which nobody sees
	}
	time.Sleep(100 * time.Millisecond)
	if pids := findProcesses("sleep-" + name); len(pids) > 0 {
		r.Detached += fmt.Sprintf(", still running after the sandbox ended (%v, killed)", pids)
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	} else {
		r.Detached = ""
	}
	return r
}

// findProcesses returns the processes whose command line holds arg.
func findProcesses(arg string) []int { return proctest.WithArg(arg) }

// TestContained runs a program that tries each way out of the sandbox, and
// the same program unsandboxed to show that each attempt would succeed.
func TestContained(t *testing.T) {
	need(t)
	layer := map[string]string{
		"Environ":  "PID namespace with a fresh /proc: no ancestor visible",
		"Network":  "network namespace: the host's 127.0.0.1 is not reachable",
		"Home":     "mount namespace: no home folder",
		"Tmp":      "mount namespace: a private /tmp",
		"ReadOnly": "mount namespace: read-only bind",
		"Signal":   "PID namespace: verify's process cannot be named",
		"Detached": "PID namespace: ended with the sandbox",
		"Keyring":  "seccomp filter: request_key and keyctl fail",
		"ProcKeys": "/proc/keys masked",
	}
	free := escapeRun(t, false)
	got := escapeRun(t, true)
	t.Logf("unsandboxed: %+v", free)
	t.Logf("sandboxed: %+v", got)
	reached := func(r escapeResult) map[string]string {
		return map[string]string{"Environ": r.Environ, "Network": r.Network, "Home": r.Home, "Tmp": r.Tmp,
			"ReadOnly": r.ReadOnly, "Signal": r.Signal, "Detached": r.Detached, "Keyring": r.Keyring, "ProcKeys": r.ProcKeys}
	}
	for what, how := range reached(free) {
		if how == "" && what != "ReadOnly" && what != "Home" {
			// ReadOnly is a folder of the test; home may be read-only
			// for this user anyway.
			t.Errorf("unsandboxed, the %s attempt reached nothing: the probe cannot tell a sandbox from none", what)
		}
	}
	for what, how := range reached(got) {
		if how != "" {
			t.Errorf("%s not contained (want: %s): %s", what, layer[what], how)
		} else {
			t.Logf("%s contained by the %s (%s)", what, layer[what], got.Stopped[strings.ToLower(what)])
		}
	}
	if got.Visible > 4 {
		t.Errorf("the sandbox's /proc shows %d processes, want only its own", got.Visible)
	}
}

// TestProcessLimit starts processes in a sandbox with a limit of 20.
func TestProcessLimit(t *testing.T) {
	need(t)
	if os.Geteuid() == 0 {
		t.Skip("the kernel does not apply RLIMIT_NPROC to root; CI runs this test as an unprivileged user too")
	}
	self, _ := os.Executable()
	sc, err := Command(context.Background(), &Spec{Dir: t.TempDir(), Env: []string{probeEnv + "=procs"}, MaxProcs: 20, Timeout: time.Minute}, self, "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	out, err := sc.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(string(out))); n >= 20 {
		t.Errorf("started %d processes under a limit of 20 processes and threads", n)
	}
}

// TestTimeout checks the wall-clock limit and that it ends every process.
func TestTimeout(t *testing.T) {
	need(t)
	self, _ := os.Executable()
	name := fmt.Sprintf("sleep-timeout-%d", time.Now().UnixNano())
	sc, err := Command(context.Background(), &Spec{Dir: t.TempDir(), Env: []string{probeEnv + "=sleep"}, Timeout: 300 * time.Millisecond}, self, "-test.run=^$", name)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = sc.Run()
	if err == nil || !sc.TimedOut() {
		t.Errorf("Run = %v, TimedOut %v; want killed at the wall-clock limit", err, sc.TimedOut())
	}
	if d := time.Since(start); d > time.Minute { // the probe sleeps 5 minutes unless killed
		t.Errorf("the limit of 300ms ended the sandbox after %v", d)
	}
	time.Sleep(100 * time.Millisecond)
	if pids := findProcesses(name); len(pids) > 0 {
		t.Errorf("processes %v outlived the sandbox", pids)
	}
}

// TestUnavailable checks that the probe says why the sandbox cannot run
// when bwrap is missing.
func TestUnavailable(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := probe()
	var u *Unavailable
	if !errors.As(err, &u) {
		t.Fatalf("probe() = %v, want *Unavailable", err)
	}
	if diff := cmp.Diff("bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)", u.Reason); diff != "" {
		t.Errorf("reason (-want +got):\n%s", diff)
	}
}

// TestExplain checks the reason given for each way the kernel or the
// process's restrictions refuse the sandbox.
func TestExplain(t *testing.T) {
	const denied = "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'."
	tests := []struct {
		name, reason, msg string
		h                 host
		want              string
	}{
		{
			name: "debian-sysctl", reason: "older Debian kernels have a switch for unprivileged user namespaces",
			msg: denied, h: host{sysctl: map[string]string{"kernel.unprivileged_userns_clone": "0", "user.max_user_namespaces": "1000"}},
			want: "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0) (bwrap: " + denied[len("bwrap: "):] + ")",
		},
		{
			name: "max-zero", reason: "user.max_user_namespaces = 0 disables them for root too",
			msg: "bwrap: Creating new namespace failed: No space left on device", h: host{root: true, sysctl: map[string]string{"user.max_user_namespaces": "0"}},
			want: "user namespaces are disabled (user.max_user_namespaces = 0) (bwrap: Creating new namespace failed: No space left on device)",
		},
		{
			name: "apparmor", reason: "Ubuntu 24.04 restricts unprivileged user namespaces with AppArmor",
			msg: "bwrap: setting up uid map: Permission denied", h: host{sysctl: map[string]string{"kernel.apparmor_restrict_unprivileged_userns": "1"}},
			want: "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1) and gives bwrap no profile that allows them (bwrap: setting up uid map: Permission denied)",
		},
		{
			name: "container-seccomp", reason: "Docker's default seccomp profile forbids unshare",
			msg: "bwrap: Creating new namespace failed: Operation not permitted", h: host{seccomp: true, sysctl: map[string]string{}},
			want: "a seccomp filter on this process (a container runtime's default profile, say) forbids creating namespaces (bwrap: Creating new namespace failed: Operation not permitted)",
		},
		{
			name: "masked-proc", reason: "a container that masks parts of /proc",
			msg: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted", h: host{sysctl: map[string]string{}},
			want: "the kernel refused a fresh /proc (as inside a container whose /proc is partly masked) (bwrap: Can't mount proc on /newroot/proc: Operation not permitted)",
		},
		{
			name: "root-ignores-unprivileged-switch", reason: "the unprivileged switch does not apply to root",
			msg: "bwrap: something else", h: host{root: true, sysctl: map[string]string{"kernel.unprivileged_userns_clone": "0"}},
			want: "bwrap could not make the sandbox: something else",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, explain(tt.msg, tt.h)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}
