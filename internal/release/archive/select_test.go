package archive

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSelectExclusions checks that litter is left out and everything else is
// selected, with sizes and modes.
func TestSelectExclusions(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, sampleTree(), hostile)
	got, err := Select(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []File
	for _, f := range sampleTree() {
		mode := fs.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		want = append(want, File{Path: f.path, Size: int64(len(f.data)), Mode: mode})
	}
	sortFiles(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Select (-want +got):\n%s", diff)
	}
	for _, l := range litter {
		if rule := ExclusionRule(dir, l.path); rule == "" {
			t.Errorf("ExclusionRule(%q) = \"\", want a rule", l.path)
		}
	}
	for _, f := range sampleTree() {
		if rule := ExclusionRule(dir, f.path); rule != "" {
			t.Errorf("ExclusionRule(%q) = %q, want \"\" (selected)", f.path, rule)
		}
	}
}

// TestRefusals checks every refusal kind on a real directory.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		setup  func(t *testing.T, dir string) // adds the bad entry to a good tree
		want   []refusal
	}{
		{
			name:   "symlink to a file",
			reason: "a link's target could be anything; links are never followed",
			setup:  func(t *testing.T, dir string) { symlink(t, "catalog.go", filepath.Join(dir, "catalog/link.go")) },
			want:   []refusal{{"catalog/link.go", CodeNotRegular}},
		},
		{
			name:   "symlink to a directory",
			reason: "the walk must not descend into a linked directory",
			setup:  func(t *testing.T, dir string) { symlink(t, "../conformance", filepath.Join(dir, "catalog/linkdir")) },
			want:   []refusal{{"catalog/linkdir", CodeNotRegular}},
		},
		{
			name:   "allowlisted top-level entry is a symlink",
			reason: "the allowlist names entries, it does not make links safe",
			setup: func(t *testing.T, dir string) {
				os.Remove(filepath.Join(dir, "README.md"))
				symlink(t, "go.mod", filepath.Join(dir, "README.md"))
			},
			want: []refusal{{"README.md", CodeNotRegular}},
		},
		{
			name:   "allowlisted file below a linked folder",
			reason: "dist/README.md must not be read through a link named dist",
			setup: func(t *testing.T, dir string) {
				if err := os.Rename(filepath.Join(dir, "dist"), filepath.Join(dir, "elsewhere")); err != nil {
					t.Fatal(err)
				}
				symlink(t, "elsewhere", filepath.Join(dir, "dist"))
			},
			want: []refusal{{"dist", CodeNotRegular}},
		},
		{
			name:   "named pipe",
			reason: "only regular files are packed",
			setup: func(t *testing.T, dir string) {
				if err := syscall.Mkfifo(filepath.Join(dir, "internal/fifo"), 0o644); err != nil {
					t.Skipf("SKIPPED: cannot make a fifo here: %v", err)
				}
			},
			want: []refusal{{"internal/fifo", CodeNotRegular}},
		},
		{
			name:   "non-UTF-8 name",
			reason: "the UTF-8 flag is set on every entry",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "records/bad\xff.json") },
			want:   []refusal{{"records/bad\xff.json", CodeNotUTF8}},
		},
		{
			name:   "newline in a name",
			reason: "sha256sum would escape it",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "testdata/two\nlines") },
			want:   []refusal{{"testdata/two\nlines", CodeControlChar}},
		},
		{
			name:   "backslash in a name",
			reason: "sha256sum would escape it, and Windows reads it as a separator",
			setup:  func(t *testing.T, dir string) { touch(t, dir, `testdata/back\slash`) },
			want:   []refusal{{`testdata/back\slash`, CodeBackslash}},
		},
		{
			name:   "control character in a name",
			reason: "control characters need escaping",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "testdata/bell\x07") },
			want:   []refusal{{"testdata/bell\x07", CodeControlChar}},
		},
		{
			name:   "case-fold collision",
			reason: "the two files would be one on macOS and Windows",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "catalog/Catalog.go") },
			want: []refusal{
				{"catalog/Catalog.go", CodeCaseCollision},
				{"catalog/catalog.go", CodeCaseCollision},
			},
		},
		{
			name:   "normalization collision",
			reason: "café.txt precomposed and decomposed are one file on macOS",
			setup: func(t *testing.T, dir string) {
				touch(t, dir, "testdata/caf\u00e9.txt")
				touch(t, dir, "testdata/cafe\u0301.txt")
			},
			want: []refusal{
				{"testdata/cafe\u0301.txt", CodeCaseCollision},
				{"testdata/caf\u00e9.txt", CodeCaseCollision},
			},
		},
		{
			name:   "case-fold collision between a file and a directory",
			reason: "catalog/X and catalog/x/ cannot both exist on a case-insensitive system",
			setup: func(t *testing.T, dir string) {
				touch(t, dir, "internal/Big")
			},
			want: []refusal{
				{"internal/Big", CodeCaseCollision},
				{"internal/big/", CodeCaseCollision},
			},
		},
		{
			name:   "Windows device name",
			reason: "CON, AUX, NUL... cannot be created on Windows, with any extension",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "internal/aux.go") },
			want:   []refusal{{"internal/aux.go", CodeWindowsName}},
		},
		{
			name:   "Windows forbidden character",
			reason: "a colon names an alternate data stream on Windows",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "testdata/a:b") },
			want:   []refusal{{"testdata/a:b", CodeDriveLetter}},
		},
		{
			name:   "trailing dot",
			reason: "Windows strips it, so two names could become one",
			setup:  func(t *testing.T, dir string) { touch(t, dir, "testdata/x.") },
			want:   []refusal{{"testdata/x.", CodeWindowsName}},
		},
		{
			name:   "file of 4 GiB",
			reason: "the packager never writes ZIP64 (a sparse file, nothing is read)",
			setup: func(t *testing.T, dir string) {
				name := filepath.Join(dir, "testdata/huge.bin")
				touch(t, dir, "testdata/huge.bin")
				if err := os.Truncate(name, MaxSize+1); err != nil {
					t.Skipf("SKIPPED: cannot make a sparse file here: %v", err)
				}
			},
			want: []refusal{{"testdata/huge.bin", CodeFileTooLarge}},
		},
		{
			name:   "missing VERSION",
			reason: "the version names the top folder",
			setup:  func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "VERSION")) },
			want:   []refusal{{"VERSION", CodeMissingFile}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, sampleTree(), plain)
			tt.setup(t, dir)
			_, err := Pack(context.Background(), dir, io.Discard, Options{})
			var se *RefusalError
			if !errors.As(err, &se) {
				t.Fatalf("Pack: got %v, want a *RefusalError (%s)", err, tt.reason)
			}
			if diff := cmp.Diff(tt.want, refusals(se.Problems)); diff != "" {
				t.Errorf("problems (%s) (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

// TestRefusalsAll checks that one error lists every bad file, and that
// WriteRelease then writes nothing.
func TestRefusalsAll(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, sampleTree(), plain)
	symlink(t, "catalog.go", filepath.Join(dir, "catalog/link.go"))
	touch(t, dir, "testdata/two\nlines")
	touch(t, dir, "internal/CON")
	touch(t, dir, "records/NAÏVE CAFÉ.json")
	touch(t, dir, "cmd/bad\xfe")

	out := filepath.Join(t.TempDir(), "dist")
	_, err := WriteRelease(context.Background(), dir, out, Options{})
	var se *RefusalError
	if !errors.As(err, &se) {
		t.Fatalf("WriteRelease: got %v, want a *RefusalError", err)
	}
	var got []string
	for _, p := range se.Problems {
		got = append(got, p.Entry)
	}
	want := []string{"catalog/link.go", "cmd/bad\xfe", "internal/CON", "records/NAÏVE CAFÉ.json", "records/naïve café.json", "testdata/two\nlines"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refused paths (-want +got):\n%s", diff)
	}
	for _, p := range want {
		if !strings.Contains(err.Error(), strings.TrimPrefix(strings.TrimSuffix(strconvQuote(p), `"`), `"`)) {
			t.Errorf("error message does not name %q:\n%v", p, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused release created %s (err %v)", out, err)
	}
}

// TestCheckPaths covers the path rules that a real directory cannot show.
func TestCheckPaths(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		paths  []string
		want   []refusal
	}{
		{"clean", "ordinary paths pass", []string{"a/b.go", "a/c/d.txt", "README.md", "x y/z"}, nil},
		{"empty", "an empty path names nothing", []string{""}, []refusal{{"", CodeUncleanPath}}},
		{"absolute", "absolute paths escape the top folder", []string{"/etc/passwd"}, []refusal{{"/etc/passwd", CodeAbsolutePath}}},
		{"dot-dot", "traversal", []string{"../x", "a/../../x"}, []refusal{{"../x", CodeTraversal}, {"a/../../x", CodeTraversal}}},
		{"dot element", "not clean", []string{"./a", "a/./b"}, []refusal{{"./a", CodeUncleanPath}, {"a/./b", CodeUncleanPath}}},
		{"double slash and trailing slash", "not clean", []string{"a//b", "a/"}, []refusal{{"a//b", CodeUncleanPath}, {"a/", CodeNotRegular}}},
		{"file and directory", "a path cannot be both", []string{"a", "a/b"}, []refusal{{"a", CodeFileDirClash}}},
		{"listed twice", "one entry per path", []string{"a", "a"}, []refusal{{"a", CodeDuplicate}}},
		{"fold of directories", "A/x and a/y put two directories in one on Windows", []string{"A/x", "a/y"},
			[]refusal{{"A/", CodeCaseCollision}, {"a/", CodeCaseCollision}}},
		{"unicode fold", "K (Kelvin sign) folds to k", []string{"\u212a", "k"},
			[]refusal{{"k", CodeCaseCollision}, {"\u212a", CodeCaseCollision}}},
		{"manifest name", "the manifest is generated", []string{"MANIFEST.sha256", "sub/MANIFEST.sha256"}, []refusal{{"MANIFEST.sha256", CodeReservedName}}},
		{"manifest name in another case", "it would collide on extraction", []string{"manifest.SHA256"}, []refusal{{"manifest.SHA256", CodeReservedName}}},
		{"reserved with extension and case", "Windows ignores the extension", []string{"a/Nul.tar.gz", "lpt1", "COM¹.txt", "console"},
			[]refusal{
				{"a/Nul.tar.gz", CodeWindowsName},
				{"lpt1", CodeWindowsName},
				{"COM¹.txt", CodeWindowsName},
			}},
		{"trailing space", "Windows strips it", []string{"a /b"}, []refusal{{"a /b", CodeWindowsName}}},
		{"DEL and C1 controls", "need escaping", []string{"a\x7f", "b\u0085"}, []refusal{{"a\x7f", CodeControlChar}, {"b\u0085", CodeControlChar}}},
		{"element of 255 bytes", "the longest file name file systems allow", []string{"a/" + strings.Repeat("x", 255)}, nil},
		{"element of 256 bytes", "no file system can extract it", []string{"a/" + strings.Repeat("x", 256) + "/b"}, []refusal{{"a/" + strings.Repeat("x", 256) + "/b", CodeNameTooLong}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := refusals(CheckPaths(tt.paths))
			sort.SliceStable(got, func(i, j int) bool { return got[i].Path < got[j].Path })
			sort.SliceStable(tt.want, func(i, j int) bool { return tt.want[i].Path < tt.want[j].Path })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckPaths(%q) (%s) (-want +got):\n%s", tt.paths, tt.reason, diff)
			}
		})
	}
}

// TestSelectCoversGitFiles proves the selection over this repository: every
// file git tracks is either selected or left out by a documented rule, so a
// new top-level file cannot silently go missing from releases.
func TestSelectCoversGitFiles(t *testing.T) {
	root := repoRoot(t)
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed: the selection cannot be checked against the tracked files")
		}
		t.Skip("SKIPPED: git is not installed, so the selection was NOT checked against the tracked files")
	}
	cmd := exec.Command(git, "-C", root, "ls-files", "-z")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git ls-files: %v\n%s", err, stderr.Bytes())
		}
		t.Skipf("SKIPPED: %s is not a git work tree (%v), so the selection was NOT checked against the tracked files", root, err)
	}
	files, err := Select(root)
	if err != nil {
		t.Fatal(err)
	}
	selected := make(map[string]bool)
	for _, f := range files {
		selected[f.Path] = true
	}
	tracked := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	excludedBy := make(map[string][]string)
	for _, p := range tracked {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			continue // deleted in the work tree, not yet committed
		}
		rule := ExclusionRule(root, p)
		switch {
		case selected[p] && rule != "":
			t.Errorf("%q is selected but ExclusionRule says %q", p, rule)
		case !selected[p] && rule == "":
			t.Errorf("%q is tracked by git but neither selected nor excluded by a documented rule", p)
		case !selected[p]:
			excludedBy[rule] = append(excludedBy[rule], p)
		}
		if rule == "not-allowlisted" {
			top, _, _ := strings.Cut(p, "/")
			if !documentedTop[top] {
				t.Errorf("tracked top-level entry %q is not in Allowlist: add it there or to documentedTop (and dist/README.md) with the reason it stays out", top)
			}
		}
	}
	for rule, ps := range excludedBy {
		t.Logf("left out by %s: %q", rule, ps)
	}
	t.Logf("%d tracked files, %d selected", len(tracked), len(files))
}

// documentedTop lists the tracked top-level entries that dist/README.md
// documents as left out of releases.
var documentedTop = map[string]bool{
	".ci":            true, // CI script: installs tools and runs the full test suite with network access
	".gitignore":     true, // repository metadata
	".gitattributes": true, // repository metadata: no line-ending conversion
	".github":        true, // repository metadata
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("SKIPPED: cannot make a symlink here: %v", err)
	}
}

func touch(t *testing.T, dir, rel string) {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(rel), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A refusal is what the tests compare of an *Error: the path and the code.
type refusal struct {
	Path string
	Code Code
}

func refusals(errs []*Error) []refusal {
	var out []refusal
	for _, e := range errs {
		out = append(out, refusal{e.Entry, e.Code})
	}
	return out
}

// TestCheckSelected checks the selection rules a name alone decides: what
// Select leaves out is refused in a list of names, as the reader and Build
// refuse it.
func TestCheckSelected(t *testing.T) {
	tests := []struct {
		reason string
		paths  []string
		want   []refusal
	}{
		{"what Select picks passes", []string{"VERSION", "go.mod", "catalog/json.go", "testdata/fuzz/FuzzX/abc", "dist/README.md"}, nil},
		{"a dot folder at the top, as .git/config", []string{".git/config"}, []refusal{{".git/config", CodeExcluded}}},
		{"a dot file below the top", []string{"catalog/.DS_Store"}, []refusal{{"catalog/.DS_Store", CodeExcluded}}},
		{"build output and editor litter", []string{"cmd/x.test", "catalog/a.go~", "catalog/#a.go#", "internal/__pycache__/m.pyc"},
			[]refusal{{"cmd/x.test", CodeExcluded}, {"catalog/a.go~", CodeExcluded}, {"catalog/#a.go#", CodeExcluded}, {"internal/__pycache__/m.pyc", CodeExcluded}}},
		{"a fuzz cache", []string{"testdata/fuzz-cache/x"}, []refusal{{"testdata/fuzz-cache/x", CodeExcluded}}},
		{"a nested module's files, its go.mod included", []string{"go.mod", "internal/b/go.mod", "internal/b/c/x.go", "internal/bb.go"},
			[]refusal{{"internal/b/go.mod", CodeExcluded}, {"internal/b/c/x.go", CodeExcluded}}},
		{"a path the path rules refuse is theirs", []string{"../.git/config", "./.x"}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, refusals(CheckSelected(tt.paths))); diff != "" {
			t.Errorf("CheckSelected(%q) (%s) (-want +got):\n%s", tt.paths, tt.reason, diff)
		}
	}
}

// TestBuildRefusesExcluded checks that Build, given a list of files that
// Select did not make, refuses a name the selection rules leave out, with
// the code the reader gives it.
func TestBuildRefusesExcluded(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"VERSION", "go.mod", ".git/config"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("0.1.0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := []File{{Path: "VERSION", Size: 6, Mode: 0o644}, {Path: "go.mod", Size: 6, Mode: 0o644}, {Path: ".git/config", Size: 6, Mode: 0o644}}
	_, err := Build(context.Background(), dir, "0.1.0", files, io.Discard, Options{})
	var re *RefusalError
	if !errors.As(err, &re) {
		t.Fatalf("Build with .git/config: %v, want a refusal", err)
	}
	if diff := cmp.Diff([]refusal{{".git/config", CodeExcluded}}, refusals(re.Problems)); diff != "" {
		t.Errorf("Build's refusal (-want +got):\n%s", diff)
	}
}

func TestCheckOutDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "records"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(dir, "records"), link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		out    string
		inside bool
		reason string
	}{
		{filepath.Join(dir, "dist"), false, "dist/ holds only its two documents in a release"},
		{filepath.Join(dir, "records", "rel"), true, "records/ is packed whole"},
		{filepath.Join(dir, "records", "new", "deeper"), true, "a folder not made yet, under a packed one"},
		{filepath.Join(dir, "catalog", "..", "records"), true, "written with .."},
		{filepath.Join(link, "rel"), true, "through a symbolic link into the tree"},
		{filepath.Join(dir, "records", ".rel"), false, "a dot folder is never packed"},
		{dir, false, "the root's own SHA256SUMS and archive are not allowlisted"},
		{t.TempDir(), false, "outside the tree"},
	}
	for _, tt := range tests {
		err := CheckOutDir(dir, tt.out)
		if (err != nil) != tt.inside {
			t.Errorf("%s: CheckOutDir(%s) = %v, want an error: %v", tt.reason, tt.out, err, tt.inside)
		}
	}
}
