//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/testlib/proctest"
)

// hopPort is a shell port that first starts, in a new session, a process
// that forks and exits in a loop (each generation waits 10ms, starts the
// next and exits, so its pid keeps changing), then answers the hello and
// every call with not_implemented, or, with HANG set, never answers a call.
const hopPort = `HOP='sleep 0.01; sh -c "$HOP" &'
export HOP
setsid sh -c "$HOP" </dev/null >/dev/null 2>&1 &
read hello
echo '{"type":"hello","protocol":"catalogkit-conformance/1","port":{"name":"hop","language":"sh","version":"1"}}'
while read call; do
  if [ -n "$HANG" ]; then exec sleep 300; fi
  seq=$(echo "$call" | sed 's/^{"type":"call","seq":\([0-9]*\).*/\1/')
  echo '{"type":"reply","seq":'"$seq"',"outcome":{"not_implemented":"a shell port"}}'
done
`

// TestConformNoSurvivor runs catalogkit conform in every mode (the suite,
// --cases, --fuzz), to its end and stopped by SIGTERM, against hopPort: no
// process the port started may be left when conform has exited, and a
// SIGTERM ends it promptly with 143.
func TestConformNoSurvivor(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cases := t.TempDir()
	for _, f := range []string{"cases/catalog.duplicate-name.json", "synthetic-catalog.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "conformance", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cases, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modes := []struct {
		name string
		args []string
		want int // the exit status of a run to its end
	}{
		{"suite", []string{"--run", `^catalog\.duplicate-name$`}, 1},                                   // every case skipped
		{"cases", []string{"--cases", cases}, 1},                                                       // the same
		{"fuzz", []string{"--fuzz", "20", "--seed", "1", "--jobs", "2", "--fuzz-out", t.TempDir()}, 1}, // the protocol corners get not_implemented, a disagreement
	}
	for _, m := range modes {
		for _, term := range []bool{false, true} {
			name := m.name
			if term {
				name += "-SIGTERM"
			}
			t.Run(name, func(t *testing.T) {
				token := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
				args := append(append([]string{"conform"}, m.args...), "--", "sh", "-c", hopPort)
				cmd := exec.Command(exe, args...)
				cmd.Env = append(os.Environ(), "CATALOGKIT_TEST_AS_MAIN=1", "HOP_TOKEN="+token)
				if term {
					// The port hangs on a call; with a call timeout of ten
					// minutes, only the signal can end the run in the two
					// minutes allowed below, however loaded the machine.
					cmd.Args = slices.Insert(cmd.Args, 2, "--call-timeout", "10m")
					cmd.Env = append(cmd.Env, "HANG=1")
				}
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if term {
					// Signal once the loop runs and the port waits on a call.
					waitFor(t, func() bool { return len(withEnv("HOP_TOKEN="+token)) > 1 })
					time.Sleep(200 * time.Millisecond)
					cmd.Process.Signal(syscall.SIGTERM)
				}
				signalled := time.Now()
				err := cmd.Wait()
				t.Logf("conform ended %v after %s", time.Since(signalled), map[bool]string{true: "SIGTERM", false: "it started"}[term])
				var ee *exec.ExitError
				switch {
				case term && (!errors.As(err, &ee) || ee.ExitCode() != 143):
					t.Errorf("conform after SIGTERM: %v, want exit status 143\n%s", err, stderr.Bytes())
				case !term && exitCode(err) != m.want:
					t.Errorf("conform: %v, want exit status %d\n%s", err, m.want, stderr.Bytes())
				}
				if term && time.Since(signalled) > 2*time.Minute {
					t.Errorf("conform took %v to end after SIGTERM", time.Since(signalled))
				}
				for _, pid := range withEnv("HOP_TOKEN=" + token) {
					t.Errorf("process %d of the port survived conform", pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
		}
	}
}

// exitCode returns the exit status of a finished command, -1 if it did not
// exit.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// withEnv returns the processes whose environment holds kv.
func withEnv(kv string) []int { return proctest.WithEnv(kv) }

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	if !proctest.Until(30*time.Second, cond) {
		t.Fatal("timed out waiting for the port to start")
	}
}
