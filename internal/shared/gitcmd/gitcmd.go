// Package gitcmd is catalogkit's one way of running git: every caller (the
// packager's clean-checkout check, the rebuild's clone, the provenance's
// commit, the test runner's stamp) asks git about the directory it names,
// and git's answer depends on that repository alone.
//
// So git runs with no GIT_ variable of the caller (git sets GIT_DIR,
// GIT_INDEX_FILE and others for its hooks: a pack run from a hook would
// otherwise read another repository) and with the system and global
// configuration ignored (a user's core.autocrlf, clean filter or
// core.fsmonitor can neither change what git reports nor run). One
// consequence: a safe.directory entry in the global configuration does not
// apply, so a checkout owned by another user is refused as "dubious
// ownership"; run as the checkout's owner.
package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
)

// Env returns the environment git runs with: this process's, without any
// GIT_ variable, with git's system and global configuration ignored and
// without a terminal prompt.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0")
}

// Run runs git -C dir args in the environment [Env] and returns its
// standard output. Its error names the arguments and gives git's own words.
func Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = Env()
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = err.Error()
		}
		return nil, errors.New("git " + strings.Join(args, " ") + ": " + why)
	}
	return out, nil
}
