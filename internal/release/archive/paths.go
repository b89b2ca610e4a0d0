package archive

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The path rules are one set, applied by the writer to a tree's paths and
// by the reader to an archive's names, so that the writer never writes a
// name the reader refuses and the reader accepts nothing the writer would
// refuse. Each refusal carries a [Code].

// CheckPath checks one slash-separated path on its own: not empty, valid
// UTF-8, no control character (which sha256sum would escape), no backslash,
// relative, no drive letter or colon, clean (no "", "." or ".." element), no
// element longer than [MaxElementLen] bytes, and no name reserved or
// invalid on Windows. It returns nil if the path is acceptable.
func CheckPath(p string) *Error {
	switch {
	case p == "":
		return Errorf(CodeUncleanPath, p, "empty name")
	case !utf8.ValidString(p):
		return Errorf(CodeNotUTF8, p, "name is not valid utf-8")
	case strings.ContainsFunc(p, unicode.IsControl):
		return Errorf(CodeControlChar, p, "name contains a control character (newline, NUL, DEL, ...), which sha256sum would escape")
	case strings.Contains(p, `\`):
		return Errorf(CodeBackslash, p, "name contains a backslash")
	case strings.HasPrefix(p, "/"):
		return Errorf(CodeAbsolutePath, p, "absolute path")
	case len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z'):
		return Errorf(CodeDriveLetter, p, "name starts with a drive letter")
	}
	elems := strings.Split(p, "/")
	for i, elem := range elems {
		switch {
		case elem == "..":
			return Errorf(CodeTraversal, p, "name has a %q element", "..")
		case elem == "" && i == len(elems)-1:
			return Errorf(CodeNotRegular, p, "directory entry")
		case elem == "" || elem == ".":
			return Errorf(CodeUncleanPath, p, "name has an empty or %q element", ".")
		case strings.Contains(elem, ":"):
			return Errorf(CodeDriveLetter, p, "element %q contains a colon (a drive or a stream on Windows)", elem)
		case len(elem) > MaxElementLen:
			return elementTooLong(p, elem)
		}
	}
	for _, elem := range elems {
		if why := windowsProblem(elem); why != "" {
			return Errorf(CodeWindowsName, p, "name is reserved or invalid on Windows: %s", why)
		}
	}
	return nil
}

// MaxElementLen is the longest element of a path, in bytes: the longest
// file name most file systems allow (NAME_MAX), so that every name the
// writer accepts can be extracted.
const MaxElementLen = 255

func elementTooLong(p, elem string) *Error {
	return Errorf(CodeNameTooLong, p, "an element of %d bytes: file systems allow at most %d", len(elem), MaxElementLen)
}

var windowsReserved = regexp.MustCompile(`(?i)^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$`)

// windowsProblem reports why an element cannot be a file name on Windows.
func windowsProblem(elem string) string {
	if i := strings.IndexAny(elem, `<>"|?*`); i >= 0 {
		return fmt.Sprintf("%q contains %q", elem, elem[i:i+1])
	}
	if strings.HasSuffix(elem, ".") || strings.HasSuffix(elem, " ") {
		return fmt.Sprintf("%q ends in a dot or a space", elem)
	}
	base, _, _ := strings.Cut(elem, ".")
	if windowsReserved.MatchString(strings.TrimRight(base, " ")) {
		return fmt.Sprintf("%q is a reserved device name", elem)
	}
	return ""
}

// CheckPaths checks a list of paths relative to the top folder, as the
// files of one release: every path with [CheckPath], then the rules on the
// set: the manifest's own name (in any case) is reserved at the top, no path
// twice, no two paths (files or directories) with one [FoldKey], and no path
// used both as a file and as a directory. A set problem is reported on every
// path involved. The per-path problems come first, in the order of paths.
func CheckPaths(paths []string) []*Error { return checkPaths(paths, false) }

// checkPaths is CheckPaths; withManifest says that paths include the
// generated manifest (as an archive's names do), which may then appear once
// under its exact name.
func checkPaths(paths []string, withManifest bool) []*Error {
	var problems, set []*Error
	isFile := make(map[string]bool, len(paths))
	isDir := make(map[string]bool)
	for _, p := range paths {
		if isFile[p] {
			set = append(set, Errorf(CodeDuplicate, p, "name appears more than once"))
			continue
		}
		isFile[p] = true
		if e := CheckPath(p); e != nil {
			problems = append(problems, e)
			continue
		}
		if FoldKey(p) == FoldKey(ManifestName) && !(withManifest && p == ManifestName) {
			problems = append(problems, Errorf(CodeReservedName, p, "path is reserved for the generated manifest"))
		}
		for d := path.Dir(p); d != "." && !isDir[d]; d = path.Dir(d) {
			isDir[d] = true
		}
	}
	var clash []string
	for p := range isFile {
		if isDir[p] {
			clash = append(clash, p)
		}
	}
	sort.Strings(clash)
	for _, p := range clash {
		set = append(set, Errorf(CodeFileDirClash, p, "used as a file and as a directory"))
	}

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
	var collide []*Error
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
			collide = append(collide, Errorf(CodeCaseCollision, p, "collides with %s under case folding or Unicode normalization (one name on Windows and macOS)", strings.Join(others, ", ")))
		}
	}
	sort.Slice(collide, func(i, j int) bool { return collide[i].Entry < collide[j].Entry })
	return append(append(problems, set...), collide...)
}

// FoldKey returns s in Unicode normalization form C with every rune replaced
// by the smallest rune of its simple case-folding orbit, so that two paths
// that differ only in case (as golang.org/x/mod's case-fold check finds) or
// only in normalization ("café" precomposed or decomposed: one name on
// macOS) map to the same key.
func FoldKey(s string) string {
	return strings.Map(func(r rune) rune {
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			low = min(low, f)
		}
		return low
	}, norm.NFC.String(s))
}

// CheckSelected checks a list of paths relative to the top folder against
// the packager's selection rules ([Exclusions]) that a name alone decides:
// no element that [Select] leaves out (a dot file or folder such as .git,
// build output, editor litter, a fuzz-cache folder, at any level), and no
// file of a nested module (a folder below the top with its own go.mod).
// Select never picks such a path, so the writer never writes one and the
// reader refuses it ([Reader.CheckSelection]), each with [CodeExcluded].
// Paths that break the path rules are left to [CheckPath].
func CheckSelected(paths []string) []*Error {
	nested := map[string]bool{}
	for _, p := range paths {
		if d, f := path.Split(p); f == "go.mod" && d != "" {
			nested[strings.TrimSuffix(d, "/")] = true
		}
	}
	var problems []*Error
	for _, p := range paths {
		if CheckPath(p) != nil {
			continue
		}
		elems := strings.Split(p, "/")
		rule := ""
		for i, elem := range elems {
			if rule = excluded(elem, i < len(elems)-1); rule != "" {
				break
			}
		}
		for d := path.Dir(p); rule == "" && d != "."; d = path.Dir(d) {
			if nested[d] {
				rule = "nested-module"
			}
		}
		if rule != "" {
			problems = append(problems, Errorf(CodeExcluded, p, "the packager's rule %s leaves this name out of every release (%s)", rule, exclusionWhy(rule)))
		}
	}
	return problems
}

// exclusionWhy returns the justification of the named rule of [Exclusions].
func exclusionWhy(rule string) string {
	for _, e := range Exclusions {
		if e.Rule == rule {
			return e.Why
		}
	}
	return rule
}
