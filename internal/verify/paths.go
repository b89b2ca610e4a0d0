package verify

import (
	"io/fs"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/internal/pack"
)

// RootPrefix starts the name of the single top-level folder of a release:
// catalogkit-<version>/.
const RootPrefix = "catalogkit-"

// checkPaths checks every entry's name and type before anything is written,
// and returns the top-level folder name with every problem found (not only
// the first), per-entry problems in entry order first, then collisions.
func checkPaths(entries []*entry) (root string, problems []*Error) {
	for _, e := range entries {
		if err := checkName(e.Name); err != nil {
			problems = append(problems, err)
			continue
		}
		top, _, _ := strings.Cut(e.Name, "/")
		if root == "" {
			root = top
		}
		switch {
		case !strings.HasPrefix(top, RootPrefix) || len(top) == len(RootPrefix) || !strings.Contains(e.Name, "/"):
			problems = append(problems, errf(CodeOutsideRoot, e.Name, "not under a top-level folder %s<version>/", RootPrefix))
			continue
		case top != root:
			problems = append(problems, errf(CodeOutsideRoot, e.Name, "not under the single top-level folder %q", root+"/"))
			continue
		}
		m := e.Mode()
		switch {
		case m.IsDir():
			problems = append(problems, errf(CodeNotRegular, e.Name, "directory entry"))
		case m&fs.ModeSymlink != 0:
			problems = append(problems, errf(CodeNotRegular, e.Name, "symbolic link"))
		case !m.IsRegular():
			problems = append(problems, errf(CodeNotRegular, e.Name, "not a regular file (unix mode %#o)", e.Attrs>>16))
		case e.Attrs != attrsRegular && e.Attrs != attrsExec:
			problems = append(problems, errf(CodeMode, e.Name, "mode %v (attributes %#08x), want 0644 or 0755", m.Perm(), e.Attrs))
		}
	}
	problems = append(problems, checkCollisions(entries)...)
	if len(problems) == 0 {
		// Whatever else the packager refuses to pack (names reserved on
		// Windows, elements ending in a dot or a space) it must not be
		// extracted either.
		var rel []string
		for _, e := range entries {
			if r := strings.TrimPrefix(e.Name, root+"/"); r != ManifestName {
				rel = append(rel, r)
			}
		}
		for _, p := range pack.CheckPaths(rel) {
			code := CodeUncleanPath
			if strings.HasPrefix(p.Reason, pack.ReasonWindows) {
				code = CodeWindowsName
			}
			problems = append(problems, errf(code, root+"/"+p.Path, "%s (the packager refuses it)", p.Reason))
		}
	}
	return root, problems
}

// checkName checks one name on its own: valid UTF-8, no control characters,
// relative, slash-separated, clean.
func checkName(name string) *Error {
	switch {
	case name == "":
		return errf(CodeUncleanPath, name, "empty name")
	case !utf8.ValidString(name):
		return errf(CodeNotUTF8, name, "name is not valid utf-8")
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || unicode.Is(unicode.Cc, r) }):
		return errf(CodeControlChar, name, "name contains a control character")
	case strings.Contains(name, `\`):
		return errf(CodeBackslash, name, "name contains a backslash")
	case strings.HasPrefix(name, "/"):
		return errf(CodeAbsolutePath, name, "absolute path")
	case len(name) >= 2 && name[1] == ':' && ('a' <= name[0]|0x20 && name[0]|0x20 <= 'z'):
		return errf(CodeDriveLetter, name, "name starts with a drive letter")
	}
	for _, elem := range strings.Split(name, "/") {
		switch elem {
		case "..":
			return errf(CodeTraversal, name, "name has a %q element", "..")
		case ".", "":
			if strings.HasSuffix(name, "/") && elem == "" {
				continue // a directory entry; reported as not regular
			}
			return errf(CodeUncleanPath, name, "name has an empty or %q element", ".")
		}
		if strings.Contains(elem, ":") {
			return errf(CodeDriveLetter, name, "name element %q contains a colon", elem)
		}
	}
	if strings.HasSuffix(name, "/") {
		return errf(CodeNotRegular, name, "directory entry")
	}
	return nil
}

// checkCollisions reports duplicates, names equal under case folding, and
// names used both as a file and as a directory (also under case folding).
func checkCollisions(entries []*entry) []*Error {
	var problems []*Error
	files := map[string]string{} // folded name -> name
	exact := map[string]bool{}
	dirs := map[string]string{} // folded dir -> dir
	for _, e := range entries {
		if checkName(e.Name) != nil {
			continue
		}
		if exact[e.Name] {
			problems = append(problems, errf(CodeDuplicate, e.Name, "name appears more than once"))
			continue
		}
		exact[e.Name] = true
		key := pack.FoldKey(e.Name)
		if other, ok := files[key]; ok {
			problems = append(problems, errf(CodeCaseCollision, e.Name, "collides with %q under case folding", other))
			continue
		}
		files[key] = e.Name
		for d := parent(e.Name); d != ""; d = parent(d) {
			k := pack.FoldKey(d)
			if other, ok := dirs[k]; ok {
				if other != d {
					problems = append(problems, errf(CodeCaseCollision, e.Name, "directory %q collides with %q under case folding", d, other))
				}
				break
			}
			dirs[k] = d
		}
	}
	var clashes []*Error
	for key, name := range files {
		if d, ok := dirs[key]; ok {
			clashes = append(clashes, errf(CodeFileDirClash, name, "used as a file and as the directory %q", d))
		}
	}
	sort.Slice(clashes, func(i, j int) bool { return clashes[i].Entry < clashes[j].Entry })
	return append(problems, clashes...)
}

func parent(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return ""
	}
	return name[:i]
}
