package pack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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
	"LICENSE",
	"go.mod",
	"go.sum",
	"Makefile",
	"catalog/",
	"conformance/",
	"records/",
	"cmd/",
	"internal/",
	"testdata/",
	"dist/README.md",
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

// A PathError is one file the packager refuses, with the reason.
type PathError struct {
	Path   string // slash-separated, relative to the tree root
	Reason string
}

func (e PathError) Error() string { return fmt.Sprintf("%q: %s", e.Path, e.Reason) }

// A SelectError lists every file of a tree that the packager refuses. It is
// returned by [Select], [Pack], [Build] and [WriteRelease] so that a
// maintainer can fix everything in one go.
type SelectError struct {
	Problems []PathError // sorted by path, then reason
}

func (e *SelectError) Error() string {
	var b strings.Builder
	if len(e.Problems) == 1 {
		fmt.Fprintf(&b, "refusing to pack 1 file: %v", e.Problems[0])
		return b.String()
	}
	fmt.Fprintf(&b, "refusing to pack %d files:", len(e.Problems))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n\t%v", p)
	}
	return b.String()
}

// Refusal reasons. Tests and callers may match them; messages carry detail.
const (
	ReasonSymlink      = "symbolic link (only regular files are packed)"
	ReasonNotRegular   = "not a regular file"
	ReasonUnclean      = "path is not clean (empty, absolute, '.' or '..' element, or doubled slash)"
	ReasonNotUTF8      = "path is not valid UTF-8"
	ReasonEscape       = "name needs escaping in a sha256sum line (newline, backslash or other control character)"
	ReasonFoldConflict = "case-fold or normalization collision with another path"
	ReasonFileDir      = "path is used both as a file and as a directory"
	ReasonWindows      = "name is reserved or invalid on Windows"
	ReasonTooLarge     = "file is 4 GiB or larger (the packager never writes ZIP64)"
	ReasonManifestName = "path is reserved for the generated manifest"
)

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
// the rules), Select returns a *[SelectError] listing every refused path with
// its reason.
func Select(dir string) ([]File, error) {
	var files []File
	var problems []PathError
	for _, req := range Required {
		fi, err := os.Lstat(filepath.Join(dir, req))
		if err != nil || !fi.Mode().IsRegular() {
			problems = append(problems, PathError{req, "required file is missing or not a regular file"})
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
				if !di.Mode().IsRegular() {
					_, pe := regular(parent, di)
					problems = append(problems, pe...)
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
			f, p := regular(rel, fi)
			files, problems = append(files, f...), append(problems, p...)
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
			f, pe := regular(r, fi)
			files, problems = append(files, f...), append(problems, pe...)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("failed to select release files: %w", err)
		}
	}
	sortFiles(files)
	return files, check(files, problems)
}

// regular returns rel as a File if fi describes a regular file, or the reason
// it is refused.
func regular(rel string, fi fs.FileInfo) ([]File, []PathError) {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, []PathError{{rel, ReasonSymlink}}
	case !fi.Mode().IsRegular():
		return nil, []PathError{{rel, ReasonNotRegular}}
	}
	return []File{{Path: rel, Size: fi.Size(), Mode: modeOf(fi.Mode())}}, nil
}

// modeOf maps a file mode to 0755 if any executable bit is set, else 0644.
func modeOf(m fs.FileMode) fs.FileMode {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
}

// check adds the path problems of files to problems (which already holds the
// non-regular files) and returns them as a *SelectError, or nil.
func check(files []File, problems []PathError) error {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
		if f.Size >= maxSize {
			problems = append(problems, PathError{f.Path, ReasonTooLarge})
		}
	}
	problems = append(problems, CheckPaths(paths)...)
	if len(problems) == 0 {
		return nil
	}
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].Path != problems[j].Path {
			return problems[i].Path < problems[j].Path
		}
		return problems[i].Reason < problems[j].Reason
	})
	return &SelectError{Problems: problems}
}

// CheckPaths reports every problem of a list of slash-separated file paths
// relative to the release's top folder: unclean or non-UTF-8 paths, names
// that need escaping in a sha256sum line, names reserved or invalid on
// Windows, the reserved manifest name, case-fold collisions (between files,
// directories, or a file and a directory), and a path used both as a file and
// as a directory (or listed twice). Each problem names the path it concerns;
// a collision is reported on every path involved.
func CheckPaths(paths []string) []PathError {
	var problems []PathError
	add := func(p, reason string) { problems = append(problems, PathError{p, reason}) }

	isFile := make(map[string]bool) // file paths
	isDir := make(map[string]bool)  // directory prefixes of valid paths
	for _, p := range paths {
		if isFile[p] {
			add(p, "path is listed more than once")
			continue
		}
		isFile[p] = true
	}
	for _, p := range paths {
		if !utf8.ValidString(p) {
			add(p, ReasonNotUTF8)
			continue
		}
		if p == "" || p != path.Clean(p) || path.IsAbs(p) || p == "." || strings.HasPrefix(p, "../") || p == ".." {
			add(p, ReasonUnclean)
			continue
		}
		if strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) {
			add(p, ReasonEscape)
			continue
		}
		if FoldKey(p) == FoldKey(ManifestName) {
			add(p, ReasonManifestName)
		}
		if why := windowsProblem(p); why != "" {
			add(p, ReasonWindows+": "+why)
		}
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			isDir[d] = true
		}
	}
	for _, p := range paths {
		if isDir[p] {
			add(p, ReasonFileDir)
		}
	}

	// Case-fold collisions among files and directories alike.
	byFold := make(map[string][]string)
	for p := range isFile {
		if utf8.ValidString(p) {
			byFold[FoldKey(p)] = append(byFold[FoldKey(p)], p)
		}
	}
	for d := range isDir {
		if !isFile[d] {
			byFold[FoldKey(d)] = append(byFold[FoldKey(d)], d+"/")
		}
	}
	for _, group := range byFold {
		if len(group) < 2 {
			continue
		}
		sort.Strings(group)
		for _, p := range group {
			var others []string
			for _, q := range group {
				if q != p {
					others = append(others, fmt.Sprintf("%q", q))
				}
			}
			add(p, ReasonFoldConflict+" "+strings.Join(others, ", "))
		}
	}
	return problems
}

var windowsReserved = regexp.MustCompile(`(?i)^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$`)

// windowsProblem reports why a path cannot be created on Windows, or "".
func windowsProblem(p string) string {
	for _, elem := range strings.Split(p, "/") {
		if i := strings.IndexAny(elem, `<>:"|?*`); i >= 0 {
			return fmt.Sprintf("%q contains %q", elem, elem[i:i+1])
		}
		if strings.HasSuffix(elem, ".") || strings.HasSuffix(elem, " ") {
			return fmt.Sprintf("%q ends in a dot or a space", elem)
		}
		base, _, _ := strings.Cut(elem, ".")
		if windowsReserved.MatchString(strings.TrimRight(base, " ")) {
			return fmt.Sprintf("%q is a reserved device name", elem)
		}
	}
	return ""
}

// FoldKey returns s in Unicode normalization form C with every rune replaced
// by the smallest rune of its simple case-folding orbit, so that two paths
// that differ only in case (as golang.org/x/mod's case-fold check finds) or
// only in normalization ("café" precomposed or decomposed: one name on
// macOS) map to the same key. The packager refuses, and the verifier
// rejects, two paths with one key.
func FoldKey(s string) string {
	return strings.Map(func(r rune) rune {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		return min
	}, norm.NFC.String(s))
}
