package archive

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// writeSample writes the sample tree and its release into a temporary
// directory and returns the tree, the output directory and the result.
func writeSample(t *testing.T) (dir, out string, res *Result) {
	t.Helper()
	dir = t.TempDir()
	writeTree(t, dir, sampleTree(), hostile)
	out = filepath.Join(t.TempDir(), "dist")
	res, err := WriteRelease(context.Background(), dir, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, out, res
}

// TestInfoZIP checks the archive with Info-ZIP's unzip -t and zipinfo -v.
func TestInfoZIP(t *testing.T) {
	unzip := needTool(t, "unzip")
	zipinfo := needTool(t, "zipinfo")
	_, out, res := writeSample(t)
	archive := filepath.Join(out, res.Name)

	b, err := exec.Command(unzip, "-t", archive).CombinedOutput()
	if err != nil || !strings.Contains(string(b), "No errors detected") {
		t.Errorf("unzip -t: %v\n%s", err, b)
	}

	b, err = exec.Command(zipinfo, "-v", archive).CombinedOutput()
	if err != nil {
		t.Fatalf("zipinfo -v: %v\n%s", err, b)
	}
	text := string(b)
	entries := len(res.Files) + 1
	for _, c := range []struct {
		line string
		n    int
	}{
		{"length of extra field:                          0 bytes", entries},
		{"length of file comment:                         0 characters", entries},
		{"file last modified on (DOS date/time):          1980 Jan 1 00:00:00", entries},
		{"extended local header:                          no", entries},
		{"file system or operating system of origin:      Unix", entries},
		{"There is no zipfile comment.", 1},
	} {
		if got := strings.Count(text, c.line); got != c.n {
			t.Errorf("zipinfo -v shows %q %d times, want %d", c.line, got, c.n)
		}
	}
	// zipinfo describes any extra field it finds ("The central-directory
	// extra field contains..."); there must be none.
	if regexp.MustCompile(`(?i)extra field contains|extra field modtime|extended timestamp|unix uid`).MatchString(text) {
		t.Errorf("zipinfo -v shows an extra field:\n%s", text)
	}
	if strings.Contains(text, "zipfile comment:") && !strings.Contains(text, "There is no zipfile comment.") {
		t.Errorf("zipinfo -v shows an archive comment")
	}
}

// TestPythonZipfile opens the archive with Python's zipfile module.
func TestPythonZipfile(t *testing.T) {
	python := needTool(t, "python3")
	_, out, res := writeSample(t)
	script := `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    if bad is not None:
        sys.exit("bad CRC in " + bad)
    names = z.namelist()
    if names != sorted(names, key=lambda n: n.encode()):
        sys.exit("entries not sorted")
    for i in z.infolist():
        if i.extra or i.comment or i.date_time != (1980, 1, 1, 0, 0, 0) or i.create_system != 3 or i.flag_bits != 0x800:
            sys.exit("unexpected header for %s: extra=%r comment=%r date=%r system=%r flags=%#x" % (i.filename, i.extra, i.comment, i.date_time, i.create_system, i.flag_bits))
        if (i.external_attr >> 16) not in (0o100644, 0o100755):
            sys.exit("unexpected mode %o for %s" % (i.external_attr >> 16, i.filename))
    print(len(names))
`
	b, err := exec.Command(python, "-c", script, filepath.Join(out, res.Name)).CombinedOutput()
	if err != nil {
		t.Fatalf("python3 zipfile: %v\n%s", err, b)
	}
	if got, want := strings.TrimSpace(string(b)), strconv.Itoa(len(res.Files)+1); got != want {
		t.Errorf("python3 zipfile lists %s entries, want %s", got, want)
	}
}

// TestSha256sum checks SHA256SUMS beside the archive and the manifest inside
// it with GNU sha256sum -c --strict, after extracting with unzip.
func TestSha256sum(t *testing.T) {
	sha256sum := needTool(t, "sha256sum")
	unzip := needTool(t, "unzip")
	_, out, res := writeSample(t)

	cmd := exec.Command(sha256sum, "-c", "--strict", SumsName)
	cmd.Dir = out
	if b, err := cmd.CombinedOutput(); err != nil || string(b) != res.Name+": OK\n" {
		t.Errorf("sha256sum -c %s: %v\n%s", SumsName, err, b)
	}

	x := t.TempDir()
	if b, err := exec.Command(unzip, "-q", filepath.Join(out, res.Name), "-d", x).CombinedOutput(); err != nil {
		t.Fatalf("unzip: %v\n%s", err, b)
	}
	cmd = exec.Command(sha256sum, "-c", "--strict", ManifestName)
	cmd.Dir = filepath.Join(x, strings.TrimSuffix(TopFolder(res.Version), "/"))
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sha256sum -c --strict %s: %v\n%s", ManifestName, err, b)
	}
	if got := strings.Count(string(b), ": OK\n"); got != len(res.Files) {
		t.Errorf("sha256sum checked %d files, want %d:\n%s", got, len(res.Files), b)
	}
	// The files Info-ZIP extracted (with their modes) repack to the same bytes.
	repack, _ := packBytes(t, cmd.Dir, Options{})
	orig, err := os.ReadFile(filepath.Join(out, res.Name))
	if err != nil {
		t.Fatal(err)
	}
	if string(repack) != string(orig) {
		t.Errorf("repacking the tree unzip extracted gives other bytes")
	}

	// A tampered file fails the check.
	target := filepath.Join(cmd.Dir, "catalog", "catalog.go")
	if err := os.WriteFile(target, []byte("package tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(sha256sum, "-c", "--strict", "--quiet", ManifestName)
	cmd.Dir = filepath.Join(x, strings.TrimSuffix(TopFolder(res.Version), "/"))
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "catalog/catalog.go: FAILED") {
		t.Errorf("sha256sum -c accepted a tampered file: %v\n%s", err, b)
	}

	// The tree hash is the SHA-256 of the manifest's non-comment lines.
	m, err := os.ReadFile(filepath.Join(cmd.Dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for _, l := range strings.SplitAfter(string(m), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines.WriteString(l)
		}
	}
	c := exec.Command(sha256sum)
	c.Stdin = strings.NewReader(lines.String())
	b, err = c.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(b))[0]; got != res.TreeSHA256 {
		t.Errorf("sha256sum of the file lines = %s, TreeSHA256 = %s", got, res.TreeSHA256)
	}
}
