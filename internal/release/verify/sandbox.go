package verify

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	sbox "github.com/catalogkit/catalogkit/internal/release/sandbox"
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

// command returns the command that runs name with args as spec says: in
// the sandbox when the sandbox row chose it (spec's timeout is the
// context's), else with spec's folder and environment in a process group
// of its own; and the function to call after it ended.
func (v *verifier) command(ctx context.Context, spec *sbox.Spec, name string, args ...string) (cmd *exec.Cmd, after func(), err error) {
	if !v.sandboxed {
		cmd = exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = spec.Dir, spec.Env
		return cmd, setProcessGroup(cmd), nil
	}
	sc, err := sbox.Command(ctx, spec, name, args...)
	if err != nil {
		return nil, nil, err
	}
	return sc.Cmd, sc.Release, nil
}
