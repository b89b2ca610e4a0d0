package verify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/catalogkit/catalogkit/internal/archive"
	sbox "github.com/catalogkit/catalogkit/internal/sandbox"
)

// SandboxMode says whether the tests step runs the archive's tests in the
// sandbox of package sandbox.
type SandboxMode string

// The sandbox modes; the zero value is SandboxAuto.
const (
	// SandboxAuto sandboxes where the system allows it, and otherwise runs
	// unsandboxed, saying exactly why in the report.
	SandboxAuto SandboxMode = "auto"
	// SandboxRequire refuses to run the tests unsandboxed.
	SandboxRequire SandboxMode = "require"
	// SandboxOff runs the tests unsandboxed, in a process group of their
	// own, with only the environment allow-list of testEnv.
	SandboxOff SandboxMode = "off"
)

// ParseSandboxMode returns the mode named s: auto, require or off.
func ParseSandboxMode(s string) (SandboxMode, error) {
	switch m := SandboxMode(s); m {
	case SandboxAuto, SandboxRequire, SandboxOff:
		return m, nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q (want auto, require or off)", s)
}

// TestTimeout is the sandbox's wall-clock limit on the tests step: the
// sandbox and everything in it are killed when it has passed.
const TestTimeout = 30 * time.Minute

// CodeNoSandbox is the tests step's problem under --sandbox require when
// the sandbox cannot run.
const CodeNoSandbox archive.Code = "no_sandbox"

// chooseSandbox is the tests step's row that decides, before any code from
// the archive runs, whether the tests run sandboxed, and says so in the
// step's line: sandboxed, or not and exactly why.
func (v *verifier) chooseSandbox(s *StepResult) []*archive.Error {
	mode := v.opts.Sandbox
	if mode == "" {
		mode = SandboxAuto
	}
	if mode == SandboxOff {
		v.rep.Sandbox = "not sandboxed (--sandbox off)"
		s.say(v.rep.Sandbox)
		return nil
	}
	err := sbox.Check()
	if err == nil {
		v.sandboxed = true
		v.rep.Sandbox = sbox.Describe(&sbox.Spec{Timeout: TestTimeout})
		s.say(v.rep.Sandbox)
		return nil
	}
	if mode == SandboxRequire {
		return []*archive.Error{errf(CodeNoSandbox, "", "--sandbox require, and %v; install what it names, or give --sandbox auto to run the tests unsandboxed", err)}
	}
	v.rep.Sandbox = "not sandboxed: " + err.(*sbox.Unavailable).Reason
	s.say(v.rep.Sandbox)
	return nil
}

// sandboxStop is why later steps do not run when the sandbox was required.
func sandboxStop(*verifier, *StepResult) string { return "the sandbox could not run" }

// sandboxSpec returns the sandbox for go test in tree: writable only the
// tree, the scratch folder (module cache, temporary folder, home) and the
// build cache; the Go toolchain read-only.
func sandboxSpec(goBin, tree, scratch string, env []string) *sbox.Spec {
	spec := &sbox.Spec{Dir: tree, Writable: []string{scratch}, Env: env, Timeout: TestTimeout}
	for _, kv := range env {
		if k, val, _ := strings.Cut(kv, "="); k == "GOCACHE" && !within(val, scratch) {
			spec.Writable = append(spec.Writable, val)
		}
	}
	if real, err := filepath.EvalSymlinks(goBin); err == nil {
		// GOROOT is the folder above the go command's bin.
		spec.ReadOnly = append(spec.ReadOnly, filepath.Dir(filepath.Dir(real)))
	}
	return spec
}

// goTestCommand returns go test's command: in the sandbox when the
// sandbox row chose it, else in a process group of its own; and the
// function to call after it ended.
func (v *verifier) goTestCommand(goBin, tree, scratch string, env, args []string) (cmd *exec.Cmd, timedOut func() bool, after func(), err error) {
	if !v.sandboxed {
		cmd = exec.CommandContext(v.ctx, goBin, args...)
		cmd.Dir, cmd.Env = tree, env
		return cmd, func() bool { return false }, setProcessGroup(cmd), nil
	}
	spec := sandboxSpec(goBin, tree, scratch, env)
	for _, d := range spec.Writable {
		// A GOCACHE given by the plan may not exist yet: bwrap binds only
		// what does.
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, nil, err
		}
	}
	sc, err := sbox.Command(v.ctx, spec, goBin, args...)
	if err != nil {
		return nil, nil, nil, err
	}
	return sc.Cmd, sc.TimedOut, sc.Release, nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
