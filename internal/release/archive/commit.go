package archive

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/shared/gitcmd"
)

// CodeRebuildSource is the refusal of a rebuild's source: not a git
// checkout, or a revision that is not a commit in it.
const CodeRebuildSource Code = "rebuild_source"

// A Commit is a commit of a git checkout, as [ResolveCommit] found it.
type Commit struct {
	Repo string // the repository's common git folder, absolute
	Rev  string // the revision asked for ("HEAD" when none was given)
	Hash string // its full hash
}

// ResolveCommit finds revision rev ("" means HEAD) of the git checkout (or
// bare repository) dir. A dir that is not in a repository, or a rev that
// names no commit there, is a [CodeRebuildSource] error.
func ResolveCommit(dir, rev string) (Commit, error) {
	if rev == "" {
		rev = "HEAD"
	}
	repo, err := git(dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return Commit{}, Errorf(CodeRebuildSource, dir, "not a git checkout: %v", err)
	}
	hash, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return Commit{}, Errorf(CodeRebuildSource, dir, "%q is not a commit of this checkout (fetch it first, or name a commit, branch or tag that is there)", rev)
	}
	return Commit{Repo: strings.TrimSpace(string(repo)), Rev: rev, Hash: strings.TrimSpace(string(hash))}, nil
}

// PackCommit builds the archive of commit c as [Pack] does in a fresh clone
// of it, and writes it to w. The clone is made under scratch (os.TempDir()
// when empty) with the repository's objects shared, so nothing is written
// into the repository, and removed at the end. It is a clean checkout of
// exactly that commit, made with git's system and user configuration
// ignored, so that settings such as core.autocrlf on this machine cannot
// change the bytes: what a maintainer's clean checkout of the commit holds,
// whoever rebuilds it. The clone's own refusals are [Pack]'s
// (a [*RefusalError]).
func PackCommit(ctx context.Context, c Commit, scratch string, w io.Writer, opts Options) (*Result, error) {
	tmp, err := os.MkdirTemp(scratch, "catalogkit-rebuild-")
	if err != nil {
		return nil, ioErr("", -1, "creating a folder for the clean checkout", err)
	}
	defer os.RemoveAll(tmp)
	tree := filepath.Join(tmp, "src")
	steps := []struct {
		dir  string
		args []string
	}{
		{tmp, []string{"clone", "--quiet", "--shared", "--no-checkout", "--", c.Repo, tree}},
		{tree, []string{"-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", c.Hash}},
	}
	for _, s := range steps {
		if _, err := gitcmd.Run(ctx, s.dir, s.args...); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, Errorf(CodeRebuildSource, c.Repo, "cannot make a clean checkout of commit %s: %v", c.Hash, err)
		}
	}
	// The clean-checkout check runs with the same isolated git: a user's
	// filter or core.fsmonitor must neither run nor make the fresh clone
	// look changed.
	if err := CheckCheckout(tree); err != nil {
		return nil, err
	}
	return Pack(ctx, tree, w, opts)
}
