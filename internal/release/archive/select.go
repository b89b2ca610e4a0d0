package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Allowlist is the set of top-level entries of a release tree that go into the
// archive, in the order the documentation lists them. An entry ending in a
// slash is a directory, packed recursively under the [Exclusions]; any other
// entry is a single file. Every other top-level entry is left out (the repo's
// own test classifies each tracked top-level entry as allowed or excluded, so
// a new one cannot go missing silently).
var Allowlist = []string{
	"VERSION",
	"README.md",
	"CONTRIBUTING.md",
	"LICENSE",
	"go.mod",
	"go.sum",
	"Makefile",
	"docs/",
	"catalog/",
	"conformance/",
	"records/",
	"cmd/",
	"internal/",
	"testdata/",
	"dist/README.md",
	"dist/SIGNING.md",
}

// Required lists the top-level files a release tree must have.
var Required = []string{VersionFile, "go.mod"}

// An Exclusion is one documented rule that leaves a path out of the release.
type Exclusion struct {
	Rule string // short name, printed in reports
	Why  string // one-line justification
}

// Exclusions documents the rules that leave paths out of a release, in the
// order they are checked. Rules that depend on the name apply at every level
// below an allowlisted directory; the top-level rules apply to the tree root.
var Exclusions = []Exclusion{
	{"not-allowlisted", "a top-level entry not in Allowlist (.git, .ci, .gitignore, bin/, dist/ outputs, the catalogkit binary, a generated MANIFEST.sha256, nested browser-test modules at the top level)"},
	{"dot-name", "a file or directory whose name starts with '.' (.git, .DS_Store, .idea, .vscode, .#lock, .x.swp); the go command ignores these too"},
	{"build-output", "a build or test output: *.test, *.out, *.prof, *.pyc, __pycache__/"},
	{"editor-litter", "editor or OS litter: *~, *.swp, *.swo, #*#, *.orig, *.rej, Thumbs.db, desktop.ini"},
	{"fuzz-cache", "a directory named fuzz-cache (a local fuzzing cache; seed corpora live in testdata/fuzz/ and are packed)"},
	{"nested-module", "a directory below the root that has its own go.mod (a separate module, such as a browser-test module, with its own dependencies)"},
}

// excluded reports the exclusion rule that leaves the entry named name (one
// path element, not the top level) out of the release, or "" if none does.
func excluded(name string, isDir bool) string {
	if strings.HasPrefix(name, ".") {
		return "dot-name"
	}
	if isDir {
		switch name {
		case "__pycache__":
			return "build-output"
		case "fuzz-cache":
			return "fuzz-cache"
		}
		return ""
	}
	for _, suf := range []string{".test", ".out", ".prof", ".pyc"} {
		if strings.HasSuffix(name, suf) {
			return "build-output"
		}
	}
	for _, suf := range []string{"~", ".swp", ".swo", ".orig", ".rej"} {
		if strings.HasSuffix(name, suf) {
			return "editor-litter"
		}
	}
	if len(name) >= 2 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#") {
		return "editor-litter"
	}
	switch name {
	case "Thumbs.db", "desktop.ini":
		return "editor-litter"
	}
	return ""
}

// ExclusionRule reports which rule of [Exclusions] leaves the file rel
// (slash-separated, relative to the tree root dir) out of the release, or ""
// if no rule does. It looks at dir only for go.mod files of nested modules.
func ExclusionRule(dir, rel string) string {
	elems := strings.Split(rel, "/")
	top := elems[0]
	allowed := false
	for _, a := range Allowlist {
		if a == rel || (strings.HasSuffix(a, "/") && strings.TrimSuffix(a, "/") == top) {
			allowed = true
			break
		}
	}
	if !allowed {
		return "not-allowlisted"
	}
	for i := 1; i < len(elems); i++ {
		if r := excluded(elems[i], i < len(elems)-1); r != "" {
			return r
		}
	}
	for i := 1; i < len(elems); i++ {
		sub := filepath.Join(dir, filepath.FromSlash(strings.Join(elems[:i], "/")), "go.mod")
		if fi, err := os.Lstat(sub); err == nil && !fi.IsDir() {
			return "nested-module"
		}
	}
	return ""
}

// Select lists the release files under dir, sorted byte-wise by path: the
// [Allowlist] entries, less the [Exclusions], with Path, Size and Mode set
// (SHA256 is left empty; [Pack] fills it in). Symbolic links are never
// followed. If any selected path is refused (see the package documentation for
// the rules), Select returns a *[RefusalError] listing every refused path with
// its reason.
func Select(dir string) ([]File, error) {
	var files []File
	var problems []*Error
	badParent := map[string]bool{} // folders of allowlisted files already refused
	for _, req := range Required {
		fi, err := os.Lstat(filepath.Join(dir, req))
		if err != nil || !fi.Mode().IsRegular() {
			problems = append(problems, Errorf(CodeMissingFile, req, "required file is missing or not a regular file"))
		}
	}
	for _, a := range Allowlist {
		rel := strings.TrimSuffix(a, "/")
		if parent := path.Dir(rel); parent != "." {
			// An allowlisted file below the top (dist/README.md): its
			// folder must be a real directory, not a link.
			di, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(parent)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("failed to select release files: %w", err)
			}
			if !di.IsDir() {
				if _, pe := regular(parent, di); pe != nil && !di.Mode().IsRegular() && !badParent[parent] {
					problems = append(problems, pe)
					badParent[parent] = true
				}
				continue // a plain file where the folder belongs holds nothing to pack
			}
		}
		full := filepath.Join(dir, filepath.FromSlash(rel))
		fi, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("failed to select release files: %w", err)
		}
		if !fi.IsDir() {
			files, problems = add(files, problems, rel, fi)
			continue
		}
		err = filepath.WalkDir(full, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			r, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			r = filepath.ToSlash(r)
			if p != full && excluded(d.Name(), d.IsDir()) != "" {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if fi, err := os.Lstat(filepath.Join(p, "go.mod")); err == nil && !fi.IsDir() {
					return filepath.SkipDir // nested-module
				}
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			files, problems = add(files, problems, r, fi)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("failed to select release files: %w", err)
		}
	}
	sortFiles(files)
	return files, check(files, problems)
}

// regular returns rel as a File if fi describes a regular file, or why it
// is refused.
func regular(rel string, fi fs.FileInfo) (File, *Error) {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return File{}, Errorf(CodeNotRegular, rel, "symbolic link (only regular files are packed)")
	case !fi.Mode().IsRegular():
		return File{}, Errorf(CodeNotRegular, rel, "not a regular file")
	}
	return File{Path: rel, Size: fi.Size(), Mode: modeOf(fi.Mode())}, nil
}

// add appends rel to files, or why it is refused to problems.
func add(files []File, problems []*Error, rel string, fi fs.FileInfo) ([]File, []*Error) {
	f, pe := regular(rel, fi)
	if pe != nil {
		return files, append(problems, pe)
	}
	return append(files, f), problems
}

func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
}

// check adds the path problems of files to problems (which already holds the
// non-regular files), then those of the selection rules ([CheckSelected]:
// a list given to [Build] that Select did not make), and returns them all
// as a *RefusalError, or nil.
func check(files []File, problems []*Error) error {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	problems = append(problems, CheckPaths(paths)...)
	return refuse(append(problems, CheckSelected(paths)...))
}

// CheckOutDir returns an error if outDir, where a release of the tree dir is
// to be written, lies where the files written there would be packed into
// the next release of dir (records/out, say): a folder outside dir, or one
// the [Allowlist] leaves out (dist/), is fine.
func CheckOutDir(dir, outDir string) error {
	root, err := resolve(dir)
	if err != nil {
		return nil // Select reports an unreadable tree
	}
	out, err := resolve(outDir)
	if err != nil {
		return nil // WriteRelease reports a folder it cannot create
	}
	rel, err := filepath.Rel(root, out)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil
	}
	rel = filepath.ToSlash(rel)
	for _, name := range []string{SumsName, ArchiveName("0")} {
		if p := path.Join(rel, name); ExclusionRule(dir, p) == "" {
			return fmt.Errorf("%s is inside the release tree %s, where %s would be packed into the next release: write it outside the tree, or into dist/", outDir, dir, p)
		}
	}
	return nil
}

// resolve returns the absolute path of p with its symbolic links resolved,
// as far as it exists: the missing rest is joined on as it is.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", fmt.Errorf("no part of %s exists", p)
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}
