package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// stepExtract checks every name before anything is written, then writes the
// files into a fresh 0700 directory. The work is shaped by where the system
// time goes when creating thousands of files: the folders are made first, in
// order; then each worker takes a whole folder, opens it once
// ([dirHandle]), and creates each of its files there with one openat
// (O_EXCL, never following a link, in a folder nobody else can write), its
// writes and a close. The mode is given at creation (0600, or 0700 for an executable),
// so there is no chmod; there is no per-file sync either: the tree is
// scratch, removed at the end, and the manifest step reads back what is on disk.
func (v *verifier) stepExtract(s *StepResult) []*archive.Error {
	root, problems := v.arch.CheckNames()
	if len(problems) > 0 {
		return problems
	}
	v.root = root
	v.rep.Version = strings.TrimPrefix(root, archive.TopPrefix)
	if err := v.makeDir(); err != nil {
		return []*archive.Error{err}
	}
	r, err := os.OpenRoot(v.dir)
	if err != nil {
		return []*archive.Error{ioErr("", "opening the fresh directory", err)}
	}
	defer r.Close()

	groups, err := folders(r, v.arch.Entries)
	if err != nil {
		return []*archive.Error{archive.AsError(err)}
	}
	streams := make([]archive.Stream, workers(len(groups)))
	if err := forEach(v.ctx, len(groups), func(w, i int) *archive.Error {
		return extractFolder(r, v.arch, groups[i], &streams[w])
	}); err != nil {
		return []*archive.Error{err}
	}
	where := "a fresh directory, removed at the end"
	if !v.remove {
		where = fmt.Sprintf("%q (kept)", v.dir)
	}
	s.Summary = fmt.Sprintf("%d regular files under %s/ checked before writing, then written to %s", len(v.arch.Entries), root, where)
	return nil
}

// A folder is one directory of the tree and the entries directly in it.
type folder struct {
	dir     string
	entries []*archive.Entry
}

// folders creates every directory the entries need under r (0700, parents
// first) and returns the entries grouped by directory.
func folders(r *os.Root, entries []*archive.Entry) ([]folder, error) {
	index := map[string]int{}
	var groups []folder
	for _, e := range entries {
		d := path.Dir(e.Name)
		i, ok := index[d]
		if !ok {
			i = len(groups)
			index[d] = i
			groups = append(groups, folder{dir: d})
		}
		groups[i].entries = append(groups[i].entries, e)
	}
	made := map[string]bool{".": true}
	var mkdir func(d string) error
	mkdir = func(d string) error {
		if made[d] {
			return nil
		}
		if err := mkdir(path.Dir(d)); err != nil {
			return err
		}
		if err := r.Mkdir(d, 0o700); err != nil {
			return &archive.Error{Code: archive.CodeIO, Entry: d, Offset: -1, Detail: "creating directory", Err: err}
		}
		made[d] = true
		return nil
	}
	for _, g := range groups {
		if err := mkdir(g.dir); err != nil {
			return nil, err
		}
	}
	return groups, nil
}

// extractFolder writes the entries of one folder, checking each entry's data
// again while it streams (the archive could change between steps).
func extractFolder(r *os.Root, a *archive.Reader, g folder, st *archive.Stream) *archive.Error {
	dir, err := openDir(r, g.dir)
	if err != nil {
		return &archive.Error{Code: archive.CodeIO, Entry: g.dir, Offset: -1, Detail: "opening directory", Err: err}
	}
	defer dir.close()
	for _, e := range g.entries {
		perm := fs.FileMode(0o600)
		if e.Attrs == archive.AttrsExec {
			perm = 0o700
		}
		st.Reset(a, e)
		if err := dir.create(path.Base(e.Name), perm, st, nil); err != nil {
			var ae *archive.Error
			if errors.As(err, &ae) {
				return ae
			}
			return &archive.Error{Code: archive.CodeIO, Entry: e.Name, Offset: -1, Detail: "writing file", Err: err}
		}
	}
	return nil
}

// makeDir creates the fresh directory, or claims KeepDir.
func (v *verifier) makeDir() *archive.Error {
	if k := v.opts.KeepDir; k != "" {
		err := os.Mkdir(k, 0o700)
		if errors.Is(err, fs.ErrExist) {
			ents, rerr := os.ReadDir(k)
			if rerr != nil {
				return &archive.Error{Code: CodeKeepDir, Entry: k, Offset: -1, Detail: "cannot read --keep directory", Err: rerr}
			}
			if len(ents) > 0 {
				return errf(CodeKeepDir, k, "--keep directory is not empty")
			}
		} else if err != nil {
			return &archive.Error{Code: CodeKeepDir, Entry: k, Offset: -1, Detail: "cannot create --keep directory", Err: err}
		} else {
			v.keepMade = true
		}
		abs, _ := filepath.Abs(k)
		v.dir, v.rep.Kept = abs, abs
		return nil
	}
	d, err := os.MkdirTemp(v.opts.TempDir, "catalogkit-verify-")
	if err != nil {
		return ioErr("", "creating a fresh directory", err)
	}
	v.dir, v.remove = d, true
	return nil
}
