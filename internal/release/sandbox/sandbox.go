// Package sandbox runs a command from outside (the tests of a downloaded
// archive) in a Linux sandbox made by bubblewrap (bwrap), the unprivileged
// sandbox tool Flatpak uses, from Linux namespaces, as Nix's build sandbox
// does:
//
//   - no network: a new network namespace with only a loopback interface,
//     so nothing on the host (a server on 127.0.0.1 included) and nothing
//     outside can be reached;
//   - its own PID namespace with a fresh /proc: the command is not shown
//     any process outside the sandbox (no ancestor's environment, command
//     line or open files), and can signal none of them;
//   - a file system of its own: /usr (with /bin, /lib, /sbin), a few files
//     of /etc (users, groups, dynamic linker, time zone), the Go toolchain
//     and the command's program, all read-only; read-write only [Spec.Dir]
//     and [Spec.Writable]; a fresh, empty /tmp that nobody outside sees and
//     a minimal /dev. Nothing else of the host is there: no home folder
//     (/home, /root), no /run (the sockets of a Docker or D-Bus daemon, an
//     SSH agent), no /var, /mnt, /media or /opt;
//   - its own IPC, UTS and cgroup namespaces, a new session (no
//     terminal to push keystrokes into), no capabilities;
//   - no kernel keyrings: a seccomp filter makes add_key, request_key and
//     keyctl fail with EPERM, and /proc/keys and /proc/key-users cannot be
//     read, so a secret the caller keeps in a keyring is out of reach;
//   - at most [Spec.MaxProcs] processes and threads (RLIMIT_NPROC, counted in
//     the sandbox's user namespace; the kernel does not apply it to root);
//   - a wall-clock limit ([Spec.Timeout]);
//   - every process it started ends when the command ends or is killed:
//     when the command (or bwrap) ends, the PID namespace ends, and the
//     kernel kills everything left in it, whatever session or process group
//     it moved to.
//
// What it does not stop: the command uses the CPU and memory it is given
// (no cgroup limits) and may fill the writable folders; it reads what the
// read-only parts hold (the toolchain, /usr, the listed files of /etc); it
// sees in /proc/self/mountinfo the host paths of the folders bound into it
// (the source of each bind: [Spec.Dir], [Spec.Writable], [Spec.ReadOnly],
// the Go root and /usr); it runs as the calling user, so a kernel bug
// reachable from a user namespace is reachable from it.
//
// [Check] says whether the sandbox can run here, and if not exactly why
// ("unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone
// = 0)", "bubblewrap (bwrap) is not installed", ...).
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Spec describes one sandboxed run.
type Spec struct {
	// Dir is the command's working directory: writable, unless it is in
	// one of ReadOnly.
	Dir string
	// Writable lists other folders the command may write (a build cache, a
	// private temporary folder). They must exist.
	Writable []string
	// ReadOnly lists other files or folders the command may read (the Go
	// toolchain). /usr and the files of /etc listed in the package
	// documentation are always there.
	ReadOnly []string
	// Env is the command's whole environment.
	Env []string
	// MaxProcs bounds the number of processes and threads of the sandbox;
	// zero means [DefaultMaxProcs].
	MaxProcs int
	// Timeout, if positive, is the wall-clock limit: the sandbox and every
	// process in it are killed when it has passed.
	Timeout time.Duration
}

// DefaultMaxProcs returns the default process-count limit: room for the go
// command's parallel compiles and test binaries, each with its threads.
func DefaultMaxProcs() int { return max(4096, 512*runtime.NumCPU()) }

// Unavailable is the error [Check] and [Command] return when the sandbox
// cannot run here. Reason says exactly why, for a report.
type Unavailable struct{ Reason string }

func (e *Unavailable) Error() string { return "cannot sandbox: " + e.Reason }

// etcFiles are the files of /etc the sandbox shows: who is who, the dynamic
// linker's cache and the time zone. No credentials (shadow, ssh keys,
// tokens).
var etcFiles = []string{
	"/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/localtime",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
}

// rootDirs are the top-level names that are folders or, on a merged-/usr
// system, links into /usr.
var rootDirs = []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// Check reports whether the sandbox can run here: nil, or an
// *[Unavailable] saying why. It runs bwrap once (a few milliseconds) and
// remembers the answer.
func Check() error { return check() }

var check = sync.OnceValue(probe)

// probe finds out whether the sandbox can run, as [Check].
func probe() error {
	if runtime.GOOS != "linux" {
		return &Unavailable{Reason: "the sandbox uses Linux namespaces, and this is " + runtime.GOOS}
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		return &Unavailable{Reason: "bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"}
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		return &Unavailable{Reason: "prlimit (util-linux), which sets the process-count limit, is not installed"}
	}
	var stderr bytes.Buffer
	cmd, done, err := bwrap(context.Background(), append(baseArgs(&Spec{MaxProcs: 64, Dir: "/"}), "true"))
	if err != nil {
		return &Unavailable{Reason: err.Error()}
	}
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Stderr = &stderr
	err = cmd.Run()
	done()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return &Unavailable{Reason: explain(msg, hostOf())}
	}
	return nil
}

// host is what explains a failure: the kernel's settings and this
// process's restrictions.
type host struct {
	sysctl  map[string]string // user.max_user_namespaces and the like
	root    bool              // whether the caller is root
	seccomp bool              // whether a seccomp filter applies to the caller
}

// sysctls are the settings that can forbid the sandbox.
var sysctls = []string{"user.max_user_namespaces", "kernel.unprivileged_userns_clone", "kernel.apparmor_restrict_unprivileged_userns"}

// hostOf reads the host's settings.
func hostOf() host {
	h := host{sysctl: map[string]string{}, root: os.Geteuid() == 0, seccomp: seccomp()}
	for _, name := range sysctls {
		if b, err := os.ReadFile("/proc/sys/" + strings.ReplaceAll(name, ".", "/")); err == nil {
			h.sysctl[name] = strings.TrimSpace(string(b))
		}
	}
	return h
}

// explain turns bwrap's failure message into a reason: what the kernel
// settings and the process's own restrictions say, and bwrap's message.
func explain(msg string, h host) string {
	msg = strings.TrimPrefix(firstLine(msg), "bwrap: ")
	var why string
	switch {
	case h.sysctl["user.max_user_namespaces"] == "0":
		why = "user namespaces are disabled (user.max_user_namespaces = 0)"
	case !h.root && h.sysctl["kernel.unprivileged_userns_clone"] == "0":
		why = "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)"
	case !h.root && h.sysctl["kernel.apparmor_restrict_unprivileged_userns"] == "1":
		why = "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1) and gives bwrap no profile that allows them"
	case h.seccomp:
		why = "a seccomp filter on this process (a container runtime's default profile, say) forbids creating namespaces"
	case strings.Contains(msg, "mount proc") || strings.Contains(msg, "proc on"):
		why = "the kernel refused a fresh /proc (as inside a container whose /proc is partly masked)"
	default:
		return "bwrap could not make the sandbox: " + msg
	}
	return why + " (bwrap: " + msg + ")"
}

// seccomp reports whether a seccomp filter applies to this process.
func seccomp() bool {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Seccomp:"); ok {
			return strings.TrimSpace(v) == "2"
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// baseArgs returns bwrap's arguments for s, up to the command: namespaces,
// the file system, and prlimit, which sets the process-count limit inside
// the sandbox's user namespace.
func baseArgs(s *Spec) []string {
	args := []string{
		"--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--hostname", "sandbox",
		"--ro-bind", "/usr", "/usr",
	}
	for _, d := range rootDirs {
		if target, err := os.Readlink(d); err == nil {
			args = append(args, "--symlink", target, d)
		} else {
			args = append(args, "--ro-bind-try", d, d)
		}
	}
	for _, f := range etcFiles {
		args = append(args, "--ro-bind-try", f, f)
	}
	// The keyrings' lists are device nodes on a nodev mount: opening them
	// is refused.
	args = append(args, "--proc", "/proc", "--ro-bind", "/dev/null", "/proc/keys", "--ro-bind", "/dev/null", "/proc/key-users",
		"--dev", "/dev", "--tmpfs", "/tmp")
	rw := s.Writable
	if !slices.ContainsFunc(s.ReadOnly, func(ro string) bool { return within(s.Dir, ro) }) {
		rw = slices.Concat([]string{s.Dir}, rw)
	}
	for _, p := range rw {
		if p != "/" {
			args = append(args, "--bind", p, p)
		}
	}
	// Read-only after the writable folders, so that a read-only folder
	// inside a writable one stays read-only.
	for _, p := range s.ReadOnly {
		args = append(args, "--ro-bind", p, p)
	}
	n := strconv.Itoa(maxProcs(s))
	// Then the sandbox's own root folder, where bwrap made the mount
	// points, becomes read-only too.
	return append(args, "--remount-ro", "/", "--chdir", s.Dir, "--seccomp", strconv.Itoa(seccompFD), "--", "prlimit", "--nproc="+n+":"+n, "--")
}

// seccompFD is the descriptor bwrap reads the seccomp filter from: the
// first of exec.Cmd.ExtraFiles.
const seccompFD = 3

// bwrap returns the command that runs bwrap with args, the seccomp filter
// on [seccompFD], and the function that closes the filter's pipe once
// bwrap has started (or failed to).
func bwrap(ctx context.Context, args []string) (*exec.Cmd, func(), error) {
	f, err := seccompFile()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.CommandContext(ctx, "bwrap", args...)
	cmd.ExtraFiles = []*os.File{f}
	return cmd, func() { f.Close() }, nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// maxProcs is the process-count limit of s: MaxProcs or the default, at
// most the caller's own hard limit.
func maxProcs(s *Spec) int {
	procs := s.MaxProcs
	if procs <= 0 {
		procs = DefaultMaxProcs()
	}
	return min(procs, hardProcs())
}

// A Cmd is a command that runs in the sandbox: an [exec.Cmd] whose Wait
// also ends the wall-clock timer.
type Cmd struct {
	*exec.Cmd
	cancel   context.CancelFunc
	timedOut func() bool
}

// Command returns the command name with args, to run in the sandbox that s
// describes, or an *[Unavailable] error. name is looked up in the caller's
// PATH and given to the sandbox read-only, with the folder it is in.
// Cancelling ctx, or the timeout, kills the sandbox and everything in it.
func Command(ctx context.Context, s *Spec, name string, args ...string) (*Cmd, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	prog, err := exec.LookPath(name)
	if err != nil {
		return nil, err
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return nil, err
	}
	if s.Dir == "" || !filepath.IsAbs(s.Dir) {
		return nil, errors.New("sandbox: Spec.Dir must be an absolute path")
	}
	spec := *s
	spec.ReadOnly = append(slices.Clip(spec.ReadOnly), filepath.Dir(prog))
	cancel := context.CancelFunc(func() {})
	timedOut := func() bool { return false }
	if s.Timeout > 0 {
		tctx, c := context.WithTimeoutCause(ctx, s.Timeout, errTimeout)
		ctx, cancel = tctx, c
		timedOut = func() bool { return errors.Is(context.Cause(tctx), errTimeout) }
	}
	cmd, done, err := bwrap(ctx, append(append(baseArgs(&spec), prog), args...))
	if err != nil {
		cancel()
		return nil, err
	}
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	// Killing bwrap ends the sandbox: its init has PR_SET_PDEATHSIG
	// (--die-with-parent), and when the init of a PID namespace ends the
	// kernel kills every process in it.
	cmd.WaitDelay = 500 * time.Millisecond
	stop := func() { cancel(); done() }
	return &Cmd{Cmd: cmd, cancel: stop, timedOut: timedOut}, nil
}

var errTimeout = errors.New("the sandbox's wall-clock limit passed")

// Wait waits for the command, as [exec.Cmd.Wait], and ends its timer.
func (c *Cmd) Wait() error {
	defer c.cancel()
	return c.Cmd.Wait()
}

// Release ends the wall-clock timer, for a caller that waited through the
// embedded [exec.Cmd]'s own Wait.
func (c *Cmd) Release() { c.cancel() }

// Run starts the command and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		c.cancel()
		return err
	}
	return c.Wait()
}

// TimedOut reports whether the wall-clock limit killed the sandbox.
func (c *Cmd) TimedOut() bool { return c.timedOut() }

// Describe returns what the sandbox of s stops, for a report.
func Describe(s *Spec) string {
	procs := maxProcs(s)
	limit := fmt.Sprintf("at most %d processes", procs)
	if os.Geteuid() == 0 {
		limit += " (a limit the kernel does not apply to root)"
	}
	d := fmt.Sprintf("sandboxed by bubblewrap: no network, its own PID namespace and /proc (no process outside visible), no kernel keyrings, the file system read-only but a copy of the tree and private temporary folders, no home folder, %s", limit)
	if s.Timeout > 0 {
		d += fmt.Sprintf(", %v of wall-clock time", s.Timeout)
	}
	return d + ", every process ended with it"
}
