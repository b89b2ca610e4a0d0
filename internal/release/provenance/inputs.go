package provenance

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/shared/gitcmd"
)

// Compressor returns the version of the module path that bi (the running
// binary's build info, from debug.ReadBuildInfo) was built with, following a
// replace directive. The packager's output depends on it, so an unknown
// version is an error, never a guess.
func Compressor(bi *debug.BuildInfo, path string) (Module, error) {
	if bi == nil {
		return Module{}, &sign.Error{Code: CodeInputs, Detail: "the binary has no build info: build catalogkit with go build or go install in module mode"}
	}
	for _, d := range bi.Deps {
		if d.Path != path {
			continue
		}
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version == "" || d.Version == "(devel)" {
			return Module{}, &sign.Error{Code: CodeInputs, Detail: fmt.Sprintf("%s is replaced by a local directory: its version is unknown, so the provenance would not say what built the archive", path)}
		}
		return Module{Path: d.Path, Version: d.Version}, nil
	}
	return Module{}, &sign.Error{Code: CodeInputs, Detail: fmt.Sprintf("the binary's build info has no module %s", path)}
}

// Checkout is the state of a git checkout that the provenance records.
type Checkout struct {
	Commit string // HEAD, full hash
	Clean  bool   // no staged, changed or untracked (not ignored) files
}

// ReadCheckout reads HEAD and whether the work tree is clean, with git run
// as the packager's own checks run it (package gitcmd): a GIT_DIR set by a
// hook cannot make it read another repository.
func ReadCheckout(dir string) (Checkout, error) {
	head, err := git(dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return Checkout{}, err
	}
	status, err := git(dir, "status", "--porcelain=v1", "-z", "--untracked-files=normal")
	if err != nil {
		return Checkout{}, err
	}
	return Checkout{Commit: strings.TrimSpace(string(head)), Clean: len(status) == 0}, nil
}

func git(dir string, args ...string) ([]byte, error) {
	return gitcmd.Run(context.Background(), dir, args...)
}
