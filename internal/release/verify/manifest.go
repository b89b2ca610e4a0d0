package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// stepManifest compares the manifest with the files as they are on disk, not
// as the archive said: it lists the extracted tree, parses MANIFEST.sha256
// with [archive.ParseManifest], then reads back every listed file on all
// cores (one [dirHandle] per folder; per file one open, fstat, the reads and
// a close) for its SHA-256, size and executable bit.
func (v *verifier) stepManifest(s *StepResult) []*archive.Error {
	r, err := os.OpenRoot(filepath.Join(v.dir, v.root))
	if err != nil {
		return []*archive.Error{ioErr("", "opening extracted tree", err)}
	}
	defer r.Close()
	mpath := v.root + "/" + archive.ManifestName
	data, err := r.ReadFile(archive.ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		return []*archive.Error{errf(CodeManifestMissing, mpath, "no manifest in the archive")}
	} else if err != nil {
		return []*archive.Error{ioErr(mpath, "reading manifest", err)}
	}
	m, perr := archive.ParseManifest(data)
	if perr != nil {
		if perr.Entry == "" {
			perr.Entry = mpath
		} else {
			perr.Entry = mpath + ": " + perr.Entry
		}
		return []*archive.Error{perr}
	}

	var problems []*archive.Error
	if m.Version != v.rep.Version {
		problems = append(problems, errf(archive.CodeManifestMeta, mpath, "version %q, the top-level folder says %q", m.Version, v.rep.Version))
	}
	problems = append(problems, v.compareTree(r, m)...)
	if v.signed != nil && m.TreeHash != v.signed.TreeHash {
		problems = append(problems, errf(CodeCommentTree, mpath, "the files hash to tree %s, but the signature of SHA256SUMS names tree %s: the signer vouched for other contents", m.TreeHash, v.signed.TreeHash))
	}
	if len(problems) > 0 {
		return problems
	}
	v.manifest = m
	v.rep.Files = len(m.Files)
	v.rep.TreeHash = m.TreeHash
	s.Summary = fmt.Sprintf("hashes match: all %d files listed exactly once with their sha256, none missing, none extra; tree hash %s", len(m.Files), m.TreeHash)
	if v.signed != nil {
		s.Summary += ", as the signature names"
	}
	return nil
}

// compareTree compares the tree under r with the manifest m: every listed
// file there with its SHA-256 and executable bit, the files' total size,
// and nothing else there but the manifest itself.
func (v *verifier) compareTree(r *os.Root, m *archive.Manifest) []*archive.Error {
	onDisk, werr := listTree(r)
	if werr != nil {
		return []*archive.Error{werr}
	}
	mpath := v.root + "/" + archive.ManifestName
	got, herr := v.readBack(r, m.Files, onDisk)
	if herr != nil {
		return []*archive.Error{herr}
	}
	var problems []*archive.Error
	var total int64
	for i, f := range m.Files {
		g := got[i]
		if !onDisk[f.Path] {
			problems = append(problems, errf(CodeMissing, f.Path, "listed in the manifest but not in the archive"))
			continue
		}
		total += g.Size
		if g.SHA256 != f.SHA256 {
			problems = append(problems, errf(CodeHashMismatch, f.Path, "sha256 is %s, manifest says %s", g.SHA256, f.SHA256))
		}
		if archive.IsExec(g.Mode) != archive.IsExec(f.Mode) {
			problems = append(problems, errf(CodeModeMismatch, f.Path, "mode %v, the manifest says executable=%t", g.Mode, archive.IsExec(f.Mode)))
		}
	}
	if total != m.Bytes {
		problems = append(problems, errf(archive.CodeManifestMeta, mpath, "says the files total %d bytes, they total %d", m.Bytes, total))
	}
	listed := make(map[string]bool, len(m.Files))
	for _, f := range m.Files {
		listed[f.Path] = true
	}
	var unlisted []string
	for p := range onDisk {
		if p != archive.ManifestName && !listed[p] {
			unlisted = append(unlisted, p)
		}
	}
	sort.Strings(unlisted)
	for _, p := range unlisted {
		problems = append(problems, errf(CodeUnlisted, p, "in the archive but not listed in the manifest"))
	}
	return problems
}

// listTree returns the regular files under r, by slash-separated path. It
// reads each folder once and stats nothing: the folder listing says each
// entry's type. Anything but a regular file or a folder is a problem.
func listTree(r *os.Root) (map[string]bool, *archive.Error) {
	files := map[string]bool{}
	err := fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%q is not a regular file", p)
		}
		files[p] = true
		return nil
	})
	if err != nil {
		return nil, ioErr("", "listing extracted tree", err)
	}
	return files, nil
}

// readBack reads the listed files that are on disk, grouped by folder, and
// returns for each its size, mode and SHA-256, in the order of files.
func (v *verifier) readBack(r *os.Root, files []archive.File, onDisk map[string]bool) ([]archive.File, *archive.Error) {
	got := make([]archive.File, len(files))
	var groups [][]int
	last := ""
	for i, f := range files {
		if !onDisk[f.Path] {
			continue
		}
		if d := path.Dir(f.Path); len(groups) == 0 || d != last {
			groups, last = append(groups, nil), d
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], i)
	}
	bufs := make([][]byte, workers(len(groups)))
	err := forEach(v.ctx, len(groups), func(w, gi int) *archive.Error {
		if bufs[w] == nil {
			bufs[w] = make([]byte, 256<<10)
		}
		g := groups[gi]
		dir, err := openDir(r, path.Dir(files[g[0]].Path))
		if err != nil {
			return ioErr(path.Dir(files[g[0]].Path), "opening directory", err)
		}
		defer dir.close()
		for _, i := range g {
			p := files[i].Path
			if got[i], err = dir.hash(path.Base(p), bufs[w]); err != nil {
				return ioErr(p, "reading file", err)
			}
		}
		return nil
	})
	return got, err
}
