package records

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

// A Set is everything the generator makes from one catalog: the records, and
// the files that hold them.
type Set struct {
	// Records are the records, in order.
	Records []Record
	// Files are the generated files, sorted by name: what [Set.Write] writes
	// and [Set.Check] compares. Each record's file holds its JSON form in
	// canonical form.
	Files []File
}

// A File is one generated file: its name in the output folder and its bytes.
type File struct {
	Name string
	Data []byte
}

func (s *Set) sortFiles() {
	slices.SortFunc(s.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
}

// recordFileName matches the names of record files: a two-digit number, a
// dash, an id, ".json".
var recordFileName = regexp.MustCompile(`^[0-9]{2}-[a-z0-9][a-z0-9-]*\.json$`)

// Owns reports whether a file of that name in the output folder is the
// generator's: one of the set's files, or any name of the record file form
// (two digits, a dash, an id, ".json", like "01-family-listing.json"). An
// owned file that is not in the set is "extra" to [Set.Check]: a record that
// no longer exists. Other files, such as the record format's schema and
// documentation beside the records, are never the generator's.
func (s *Set) Owns(name string) bool {
	return recordFileName.MatchString(name) || slices.ContainsFunc(s.Files, func(f File) bool { return f.Name == name })
}

// checkNames reports an error if a file of the set has a name that is not a
// plain file name: the generator writes only directly inside its folder.
func (s *Set) checkNames() error {
	for _, f := range s.Files {
		if f.Name == "" || strings.ContainsAny(f.Name, `/\`) || strings.HasPrefix(f.Name, ".") || filepath.Base(f.Name) != f.Name {
			return fmt.Errorf("generated file name %q is not a plain file name", f.Name)
		}
	}
	return nil
}

// testHookWrite, if set, is called after each temporary file is written and
// synced; an error it returns fails the write as a real one would.
var testHookWrite func(name string) error

// Write writes the set's files into the existing folder dir, and nothing
// outside it, as atomically as a set of files can be:
//
//   - before anything is written, dir must be a folder and every file's name
//     in it must be free or a regular file (not a folder or a symlink);
//   - every file is written to a temporary file in dir (".NAME.tmp-*"), synced
//     and closed; if any of that fails, the temporary files are removed and
//     the old files are untouched;
//   - only then is each temporary file renamed over its final name, in name
//     order, and dir synced.
//
// A rename within one folder replaces a file whole, so no file under a final
// name is ever half-written. Only a failing rename, after every file was
// written, can leave some files new and the rest old; the error says so, and
// [Set.Check] shows which. Write never deletes a file: an extra file is
// reported by Check.
func (s *Set) Write(dir string) (err error) {
	if err := s.checkNames(); err != nil {
		return err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write to output folder: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("output folder %q is not a folder", dir)
	}
	for _, f := range s.Files {
		p := filepath.Join(dir, f.Name)
		info, err := os.Lstat(p)
		if err == nil && !info.Mode().IsRegular() {
			return fmt.Errorf("%s is %s, not a regular file; move it away", p, regfile.Kind(info.Mode()))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot write %s: %w", p, err)
		}
	}

	temps := make([]string, 0, len(s.Files))
	renamed := 0
	defer func() {
		if err != nil {
			for _, t := range temps[renamed:] {
				os.Remove(t)
			}
		}
	}()
	for _, f := range s.Files {
		tmp, err := writeTemp(dir, f)
		if tmp != "" {
			temps = append(temps, tmp)
		}
		if err != nil {
			return fmt.Errorf("failed to write %s: %w; no file was changed", filepath.Join(dir, f.Name), err)
		}
	}
	for i, f := range s.Files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			return fmt.Errorf("failed to move %s into place: %w; %d of %d files were replaced, every file is whole, and a check shows which differ",
				filepath.Join(dir, f.Name), err, i, len(s.Files))
		}
		renamed++
	}
	if err := atomicfile.SyncDir(dir); err != nil {
		return fmt.Errorf("failed to sync output folder %q: %w", dir, err)
	}
	return nil
}

// writeTemp writes f to a new temporary file in dir ([atomicfile.Write])
// and returns its path (also on error, once the file exists, so that the
// caller can remove it).
func writeTemp(dir string, f File) (string, error) {
	tmp, err := atomicfile.Write(dir, "."+f.Name+".tmp-*", 0o644, atomicfile.Bytes(f.Data))
	if err == nil && testHookWrite != nil {
		err = testHookWrite(f.Name)
	}
	return tmp, err
}

// A ProblemKind is the kind of a [Problem].
type ProblemKind int

// The kinds of problem [Set.Check] reports.
const (
	// Missing: a generated file is not in the folder.
	Missing ProblemKind = iota + 1
	// Extra: the folder holds a file the generator owns (see [Set.Owns])
	// but no longer makes.
	Extra
	// Stale: a file's bytes differ from a fresh generation.
	Stale
	// Unreadable: a file could not be read, or is not a regular file.
	Unreadable
)

func (k ProblemKind) String() string {
	switch k {
	case Missing:
		return "missing"
	case Extra:
		return "extra"
	case Stale:
		return "stale"
	case Unreadable:
		return "unreadable"
	}
	return fmt.Sprintf("ProblemKind(%d)", int(k))
}

// A Problem is one file in the output folder that does not match a fresh
// generation.
type Problem struct {
	Kind ProblemKind
	// Name is the file's name, Path its path (the folder joined with Name).
	Name, Path string
	// Want is the freshly generated content (Missing, Stale, Unreadable),
	// Got the content on disk (Stale).
	Want, Got []byte
	// Err says why an Unreadable file could not be read.
	Err error
}

// String describes the problem in one line, naming the file by its path.
func (p Problem) String() string {
	switch p.Kind {
	case Missing:
		return fmt.Sprintf("missing: %s is not there", p.Path)
	case Extra:
		return fmt.Sprintf("extra: %s is not a file the generator makes (any more)", p.Path)
	case Stale:
		return fmt.Sprintf("stale: %s differs from a fresh generation", p.Path)
	case Unreadable:
		return fmt.Sprintf("unreadable: %s: %v", p.Path, p.Err)
	}
	return fmt.Sprintf("%v: %s", p.Kind, p.Path)
}

// Diff returns a line diff of a Stale file, "-" for lines of the fresh
// generation (want) and "+" for lines on disk (got), in hunks with two lines
// of context; it is empty for other kinds.
func (p Problem) Diff() string {
	if p.Kind != Stale {
		return ""
	}
	return lineDiff(p.Want, p.Got)
}

// Check compares the files in dir with the set, byte for byte, and returns
// every problem, sorted by file name: each of the set's files that is
// missing, stale or unreadable, and each file the generator owns (see
// [Set.Owns]) that is not in the set. No problems means the folder is up to
// date. The error is for a folder that cannot be listed.
func (s *Set) Check(dir string) ([]Problem, error) {
	if err := s.checkNames(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read output folder: %w", err)
	}
	var problems []Problem
	inSet := make(map[string]bool, len(s.Files))
	for _, f := range s.Files {
		inSet[f.Name] = true
		p := Problem{Name: f.Name, Path: filepath.Join(dir, f.Name), Want: f.Data}
		info, err := os.Lstat(p.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			p.Kind = Missing
		case err != nil:
			p.Kind, p.Err = Unreadable, err
		case !info.Mode().IsRegular():
			p.Kind, p.Err = Unreadable, fmt.Errorf("is %s, not a regular file", regfile.Kind(info.Mode()))
		default:
			got, err := os.ReadFile(p.Path)
			switch {
			case err != nil:
				p.Kind, p.Err = Unreadable, err
			case !bytes.Equal(got, f.Data):
				p.Kind, p.Got = Stale, got
			}
		}
		if p.Kind != 0 {
			problems = append(problems, p)
		}
	}
	for _, e := range entries {
		if s.Owns(e.Name()) && !inSet[e.Name()] {
			problems = append(problems, Problem{Kind: Extra, Name: e.Name(), Path: filepath.Join(dir, e.Name())})
		}
	}
	slices.SortFunc(problems, func(a, b Problem) int { return strings.Compare(a.Name, b.Name) })
	return problems, nil
}
