package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/shared/gitcmd"
)

// CheckCheckout reports, when dir is the top of a git checkout (it has a
// .git entry), every file that Select would pack but that is not committed
// as it is: untracked files and files changed since HEAD. A release must be
// exactly a commit; the selection rules alone cannot tell a stray scratch
// file from a source file. A dir without .git (an extracted release, a test
// tree) has nothing to compare with and passes. When dir is a checkout but
// git cannot answer (not installed, "dubious ownership" when run as another
// user, a broken repository), the check refuses with [CodeGitFailed] and
// git's own words rather than pack files it could not check.
//
// git runs isolated from the caller's git configuration and GIT_ variables
// (package gitcmd), so that its answer is about dir alone.
func CheckCheckout(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, ".git")); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return gitFailed(err)
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return gitFailed(err)
	}
	if same, err := sameDir(strings.TrimSpace(string(top)), dir); err != nil || !same {
		return gitFailed(fmt.Errorf("git says the top of the checkout is %q, not %q", strings.TrimSpace(string(top)), dir))
	}
	files, err := Select(dir)
	if err != nil {
		return err
	}
	tracked, err := git(dir, "ls-files", "-z")
	if err != nil {
		return gitFailed(err)
	}
	changed, err := git(dir, "diff", "--name-only", "-z", "HEAD")
	if err != nil {
		return gitFailed(err)
	}
	isTracked, isChanged := nulSet(tracked), nulSet(changed)
	var problems []*Error
	for _, f := range files {
		switch {
		case !isTracked[f.Path]:
			problems = append(problems, Errorf(CodeUntracked, f.Path, "not tracked by git: commit it or remove it"))
		case isChanged[f.Path]:
			problems = append(problems, Errorf(CodeUncommitted, f.Path, "changed since the last commit: commit or restore it"))
		}
	}
	return refuse(problems)
}

// gitFailed is the refusal when git cannot say what is committed.
func gitFailed(err error) error {
	return refuse([]*Error{{Code: CodeGitFailed, Entry: ".git", Offset: -1,
		Detail: "this is a git checkout but git cannot say what is committed, so the clean-checkout check cannot run (run git status to see why; for \"dubious ownership\", pack as the checkout's owner)", Err: err}})
}

func git(dir string, args ...string) ([]byte, error) {
	return gitcmd.Run(context.Background(), dir, args...)
}

func nulSet(b []byte) map[string]bool {
	set := map[string]bool{}
	for _, p := range bytes.Split(b, []byte{0}) {
		if len(p) > 0 {
			set[string(p)] = true
		}
	}
	return set
}

// sameDir reports whether the two paths name the same directory.
func sameDir(a, b string) (bool, error) {
	ai, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	bi, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ai, bi), nil
}
