package pack

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
)

// CheckCheckout reports, when dir is the top of a git checkout, every file
// that Select would pack but that is not committed as it is: untracked
// files and files changed since HEAD. A release must be exactly a commit;
// the selection rules alone cannot tell a stray scratch file from a source
// file. It returns no problems when dir is not the top of a git work tree
// (an extracted release, say) or git is not installed, and the problems as
// a *SelectError otherwise.
func CheckCheckout(dir string) error {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil // not a checkout, or no git: nothing to compare with
	}
	if same, err := sameDir(strings.TrimSpace(string(top)), dir); err != nil || !same {
		return nil // a folder inside a checkout, such as a test tree
	}
	files, err := Select(dir)
	if err != nil {
		return err
	}
	tracked, err := git(dir, "ls-files", "-z")
	if err != nil {
		return err
	}
	changed, err := git(dir, "diff", "--name-only", "-z", "HEAD")
	if err != nil {
		return err
	}
	isTracked, isChanged := nulSet(tracked), nulSet(changed)
	var problems []PathError
	for _, f := range files {
		switch {
		case !isTracked[f.Path]:
			problems = append(problems, PathError{Path: f.Path, Reason: "not tracked by git: commit it or remove it"})
		case isChanged[f.Path]:
			problems = append(problems, PathError{Path: f.Path, Reason: "changed since the last commit: commit or restore it"})
		}
	}
	if len(problems) > 0 {
		return &SelectError{Problems: problems}
	}
	return nil
}

func git(dir string, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New("git " + strings.Join(args, " ") + ": " + strings.TrimSpace(stderr.String()))
	}
	return out, nil
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
