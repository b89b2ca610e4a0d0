package records

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// snapshot returns every file under dir, path → content ("<dir>" for a
// folder, "-> target" for a symlink).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			snap[rel] = "<dir>"
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			snap[rel] = "-> " + target
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			snap[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func TestWriteThenCheck(t *testing.T) {
	set := generate(t)
	dir := t.TempDir()
	if err := set.Write(dir); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, dir)
	if len(first) != len(set.Files) {
		t.Errorf("folder holds %d entries after Write, want the %d files and nothing else (no temporary files): %v", len(first), len(set.Files), slices.Sorted(maps.Keys(first)))
	}
	for _, f := range set.Files {
		if first[f.Name] != string(f.Data) {
			t.Errorf("%s: written bytes differ from the set's", f.Name)
		}
		info, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v; want -rw-r--r--", f.Name, info.Mode(), err)
		}
	}
	if problems, err := set.Check(dir); err != nil || len(problems) != 0 {
		t.Errorf("Check after Write = %v, %v; want no problems", problems, err)
	}

	// Writing again, over the files, gives the same bytes.
	if err := generate(t).Write(dir); err != nil {
		t.Fatal(err)
	}
	second := snapshot(t, dir)
	if !maps.Equal(first, second) {
		t.Error("a second Write changed the folder")
	}
}

func TestCheckReportsEveryProblem(t *testing.T) {
	set := generate(t)
	dir := t.TempDir()
	if err := set.Write(dir); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(set.Files))
	for i, f := range set.Files {
		names[i] = f.Name
	}
	// Break four of the five files in four ways, and add files around them.
	must(t, os.Remove(filepath.Join(dir, names[0])))
	stale := bytes.Replace(set.Files[1].Data, []byte(`"format"`), []byte(`"Format"`), 1)
	must(t, os.WriteFile(filepath.Join(dir, names[1]), stale, 0o644))
	must(t, os.Remove(filepath.Join(dir, names[2])))
	must(t, os.Mkdir(filepath.Join(dir, names[2]), 0o755))
	crlf := bytes.ReplaceAll(set.Files[3].Data, []byte("\n"), []byte("\r\n"))
	must(t, os.WriteFile(filepath.Join(dir, names[3]), crlf, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "99-old-record.json"), []byte("{}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "record.schema.json"), []byte("{}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "FORMAT.md"), []byte("# x\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "1-short.json"), []byte("{}\n"), 0o644))

	problems, err := set.Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Name string
		Kind ProblemKind
	}
	var gots []got
	for _, p := range problems {
		gots = append(gots, got{p.Name, p.Kind})
		if p.Path != filepath.Join(dir, p.Name) {
			t.Errorf("%s: Path %q, want the folder joined with the name", p.Name, p.Path)
		}
		if !strings.Contains(p.String(), p.Path) {
			t.Errorf("%q does not name the file by its path", p)
		}
	}
	want := []got{
		{names[0], Missing},
		{names[1], Stale},
		{names[2], Unreadable},
		{names[3], Stale},
		{"99-old-record.json", Extra},
	}
	if !slices.Equal(gots, want) {
		t.Fatalf("Check problems:\n got %v\nwant %v\n(record.schema.json, FORMAT.md and 1-short.json are not the generator's files)", gots, want)
	}
	if d := problems[1].Diff(); !strings.Contains(d, "-  \"format\": ") || !strings.Contains(d, "+  \"Format\": ") {
		t.Errorf("stale diff does not show the changed key, (-want +got):\n%s", d)
	}
	if d := problems[3].Diff(); !strings.Contains(d, `\r`) {
		t.Errorf("stale diff of a CRLF file does not show the carriage returns:\n%s", d)
	}
	if d := problems[0].Diff(); d != "" {
		t.Errorf("Diff of a missing file = %q, want empty", d)
	}
}

func TestCheckMissingFolder(t *testing.T) {
	_, err := generate(t).Check(filepath.Join(t.TempDir(), "nope"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Check(missing folder) = %v, want an error wrapping fs.ErrNotExist", err)
	}
}

// TestWriteFailureLeavesOldFiles: a write that fails after some temporary
// files were written leaves the old files exactly as they were and removes
// every temporary file.
func TestWriteFailureLeavesOldFiles(t *testing.T) {
	set := generate(t)
	dir := t.TempDir()
	for _, f := range set.Files {
		must(t, os.WriteFile(filepath.Join(dir, f.Name), []byte("old "+f.Name+"\n"), 0o644))
	}
	before := snapshot(t, dir)

	for _, failAt := range []int{0, 2, len(set.Files) - 1} {
		written := 0
		testHookWrite = func(name string) error {
			if written == failAt {
				return errors.New("disk full (simulated)")
			}
			written++
			return nil
		}
		err := set.Write(dir)
		testHookWrite = nil
		if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), set.Files[failAt].Name) ||
			!strings.Contains(err.Error(), "no file was changed") {
			t.Errorf("fail at file %d: Write = %v, want the error naming %s", failAt, err, set.Files[failAt].Name)
		}
		if after := snapshot(t, dir); !maps.Equal(before, after) {
			t.Errorf("fail at file %d: the folder changed:\nbefore %q\nafter  %q", failAt, slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
		}
	}
}

func TestWriteRefusesBadFolderAndNames(t *testing.T) {
	set := generate(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	must(t, os.WriteFile(file, []byte("x"), 0o644))

	t.Run("missing folder", func(t *testing.T) {
		err := set.Write(filepath.Join(dir, "nope"))
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Write = %v, want fs.ErrNotExist: the folder is never created", err)
		}
	})
	t.Run("not a folder", func(t *testing.T) {
		if err := set.Write(file); err == nil || !strings.Contains(err.Error(), "not a folder") {
			t.Errorf("Write(a file) = %v, want an error saying it is not a folder", err)
		}
	})
	t.Run("folder in the way", func(t *testing.T) {
		out := filepath.Join(dir, "in-the-way")
		must(t, os.Mkdir(out, 0o755))
		must(t, os.WriteFile(filepath.Join(out, set.Files[0].Name), []byte("old\n"), 0o644))
		last := set.Files[len(set.Files)-1].Name
		must(t, os.Mkdir(filepath.Join(out, last), 0o755))
		before := snapshot(t, out)
		err := set.Write(out)
		if err == nil || !strings.Contains(err.Error(), last) || !strings.Contains(err.Error(), "a directory, not a regular file") {
			t.Errorf("Write = %v, want an error naming %s", err, last)
		}
		if after := snapshot(t, out); !maps.Equal(before, after) {
			t.Errorf("the folder changed although nothing could be written: %v", after)
		}
	})
	t.Run("symlink in the way", func(t *testing.T) {
		out := filepath.Join(dir, "symlink")
		must(t, os.Mkdir(out, 0o755))
		target := filepath.Join(dir, "outside.json")
		must(t, os.WriteFile(target, []byte("outside\n"), 0o644))
		must(t, os.Symlink(target, filepath.Join(out, set.Files[1].Name)))
		err := set.Write(out)
		if err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("Write = %v, want an error about the symlink", err)
		}
		if b, _ := os.ReadFile(target); string(b) != "outside\n" {
			t.Errorf("Write changed a file outside its folder through a symlink: %q", b)
		}
	})
	for _, name := range []string{"../escape.json", "a/b.json", `a\b.json`, ".hidden.json", "", ".."} {
		t.Run("name "+name, func(t *testing.T) {
			out := filepath.Join(dir, "names")
			os.MkdirAll(out, 0o755)
			bad := &Set{Files: []File{{Name: name, Data: []byte("x")}}}
			if err := bad.Write(out); err == nil {
				t.Errorf("Write of a file named %q succeeded, want an error: the generator writes only plain names inside its folder", name)
			}
			if _, err := bad.Check(out); err == nil {
				t.Errorf("Check of a file named %q succeeded, want an error", name)
			}
			if snap := snapshot(t, dir); snap["escape.json"] != "" {
				t.Errorf("a file was written outside the folder")
			}
		})
	}
}

func TestOwns(t *testing.T) {
	set := &Set{Files: []File{{Name: "index.html"}}}
	tests := []struct {
		name   string
		want   bool
		reason string
	}{
		{"01-family-listing.json", true, "a record file"},
		{"42-some-future-record.json", true, "any name of the record file form, so a removed record shows as extra"},
		{"index.html", true, "a file of the set"},
		{"record.schema.json", false, "the schema lives beside the records"},
		{"FORMAT.md", false, "so does the format document"},
		{"1-short.json", false, "one digit is not the record form"},
		{"01-Upper.json", false, "ids are lowercase"},
		{"01-family-listing.json.bak", false, "not .json"},
		{".01-family-listing.json.tmp-123", false, "a temporary file of an interrupted write"},
		{"records.go", false, "the package's code"},
	}
	for _, tt := range tests {
		if got := set.Owns(tt.name); got != tt.want {
			t.Errorf("Owns(%q) = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriteUnwritableFolder: a folder the user cannot write to fails the
// write, naming the file, and leaves the folder as it was.
func TestWriteUnwritableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which may write to any folder: TestWriteFailureLeavesOldFiles covers a failing write instead")
	}
	set := generate(t)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, set.Files[0].Name), []byte("old\n"), 0o644))
	must(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	before := snapshot(t, dir)
	err := set.Write(dir)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), set.Files[0].Name) {
		t.Errorf("Write(read-only folder) = %v, want a permission error naming %s", err, set.Files[0].Name)
	}
	if after := snapshot(t, dir); !maps.Equal(before, after) {
		t.Errorf("the folder changed: %v", after)
	}
}

// TestGeneratedFileBesideRecords: a file made by one of the generators (a
// page showing the records, say) is written, owned and checked like a record
// file.
func TestGeneratedFileBesideRecords(t *testing.T) {
	saved := generators
	t.Cleanup(func() { generators = saved })
	generators = nil // the stand-in page instead of the real one (page.go)
	generators = append(generators, func(rs []Record) (File, error) {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(r.Title + "\n")
		}
		return File{Name: "index.html", Data: []byte(b.String())}, nil
	})
	set := generate(t)
	if len(set.Files) != len(set.Records)+1 || !set.Owns("index.html") {
		t.Fatalf("set has %d files for %d records, Owns(index.html) = %v; want the page too", len(set.Files), len(set.Records), set.Owns("index.html"))
	}
	if !slices.IsSortedFunc(set.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("Files are not sorted by name")
	}
	dir := t.TempDir()
	must(t, set.Write(dir))
	if problems, err := set.Check(dir); err != nil || len(problems) != 0 {
		t.Fatalf("Check after Write = %v, %v", problems, err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("edited\n"), 0o644))
	problems, err := set.Check(dir)
	if err != nil || len(problems) != 1 || problems[0].Name != "index.html" || problems[0].Kind != Stale {
		t.Errorf("Check after editing the page = %v, %v; want index.html stale", problems, err)
	}

	generators = append(generators, func([]Record) (File, error) { return File{}, errors.New("page template broken") })
	data, err := os.ReadFile(catalogFile)
	must(t, err)
	if _, err := Generate(data, DefaultCatalogPath); err == nil || !strings.Contains(err.Error(), "page template broken") {
		t.Errorf("Generate with a failing generator = %v, want its error", err)
	}
}
