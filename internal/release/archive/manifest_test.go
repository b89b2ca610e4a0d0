package archive

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestManifestRoundTrip parses what Pack writes and compares it with the result.
func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, sampleTree(), plain)
	_, res := packBytes(t, dir, Options{})
	m, err := ParseManifest(res.Manifest)
	if err != nil {
		t.Fatalf("ParseManifest: %v\n%s", err, res.Manifest)
	}
	var want []File
	var total int64
	for _, f := range res.Files {
		want = append(want, File{Path: f.Path, Mode: f.Mode, SHA256: f.SHA256})
		total += f.Size
	}
	if diff := cmp.Diff(want, m.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	got := []any{m.Version, m.Compressor, m.Bytes, m.TreeHash, m.TreeSHA256}
	wantHdr := []any{"0.1.0", "github.com/klauspost/compress v1.20.4 flate level 8", total, res.TreeHash, res.TreeSHA256}
	if diff := cmp.Diff(wantHdr, got); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(res.Manifest), "\n# executable: internal/run.sh\n") {
		t.Errorf("manifest does not list the executable:\n%s", res.Manifest)
	}
}

// TestManifestGolden pins the manifest format on a tiny tree, byte for byte.
func TestManifestGolden(t *testing.T) {
	files := []File{
		{Path: "VERSION", Size: 6, Mode: 0o644, SHA256: "e9dd8507f4bf0c6f42458e41aea833ad0bd3f6127272335eee9bf4d58541ed67"},
		{Path: "run.sh", Size: 0, Mode: 0o755, SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	}
	body, h1, hx := encodeManifest("0.1.0", files)
	// Computed outside Go: printf '<line 1>\n<line 2>\n' | sha256sum, and
	// the same digest in base64.
	const wantHex = "ffbfd1fcaf22060e3e5ad4fb8d344114b5bbd128cf4b011b33aab68eb966dbf9"
	const wantH1 = "h1:/7/R/K8iBg4+WtT7jTRBFLW70SjPSwEbM6q2jrlm2/k="
	if diff := cmp.Diff([]string{wantH1, wantHex}, []string{h1, hx}); diff != "" {
		t.Errorf("tree hash (-want +got):\n%s", diff)
	}
	want := `# catalogkit-manifest/1
# version: 0.1.0
# compressor: github.com/klauspost/compress v1.20.4 flate level 8
# method: deflate when strictly smaller, else store
# timestamp: 1980-01-01T00:00:00Z
# files: 2
# bytes: 6
# tree-hash: ` + wantH1 + `
# tree-sha256: ` + wantHex + `
# executable: run.sh
e9dd8507f4bf0c6f42458e41aea833ad0bd3f6127272335eee9bf4d58541ed67  VERSION
e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  run.sh
`
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
}

// TestParseManifestRejects checks that every deviation from the format fails.
func TestParseManifestRejects(t *testing.T) {
	good := func() string {
		body, _, _ := encodeManifest("0.1.0", []File{
			{Path: "VERSION", Size: 6, Mode: 0o644, SHA256: "e9dd8507f4bf0c6f42458e41aea833ad0bd3f6127272335eee9bf4d58541ed67"},
			{Path: "run.sh", Mode: 0o755, SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		})
		return string(body)
	}
	if _, err := ParseManifest([]byte(good())); err != nil {
		t.Fatalf("good manifest rejected: %v", err)
	}
	tests := []struct {
		name   string
		reason string
		edit   func(string) string
	}{
		{"no final newline", "lines end in LF", func(s string) string { return strings.TrimSuffix(s, "\n") }},
		{"CRLF", "lines end in LF only", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
		{"other format", "unknown format version", func(s string) string { return strings.Replace(s, "manifest/1", "manifest/2", 1) }},
		{"header out of order", "fixed order", func(s string) string {
			return strings.Replace(strings.Replace(s, "# files: 2\n", "", 1), "# bytes: 6\n", "# bytes: 6\n# files: 2\n", 1)
		}},
		{"bad version", "the version names the top folder", func(s string) string { return strings.Replace(s, "version: 0.1.0", "version: ../x", 1) }},
		{"wrong count", "the count is checked", func(s string) string { return strings.Replace(s, "# files: 2", "# files: 3", 1) }},
		{"tampered hash", "the tree hash covers the file lines", func(s string) string { return strings.Replace(s, "e9dd85", "e9dd86", 1) }},
		{"upper-case hex", "sha256sum writes lower case", func(s string) string {
			return strings.Replace(s, "e9dd8507f4bf0c6f42458e41aea833ad0bd3f6127272335eee9bf4d58541ed67  VERSION", "E9DD8507F4BF0C6F42458E41AEA833AD0BD3F6127272335EEE9BF4D58541ED67  VERSION", 1)
		}},
		{"binary marker", "two spaces, text mode", func(s string) string { return strings.Replace(s, "  VERSION", " *VERSION", 1) }},
		{"unlisted executable", "executables must be listed files", func(s string) string {
			return strings.Replace(s, "# executable: run.sh", "# executable: other.sh", 1)
		}},
		{"unknown comment", "no extra header lines", func(s string) string { return strings.Replace(s, "# executable: run.sh\n", "# note: hi\n", 1) }},
		{"traversal path", "paths are checked like the packager's", func(s string) string { return strings.Replace(s, "  run.sh", "  ../run.sh", 1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.edit(good())
			if in == good() {
				t.Fatal("edit changed nothing")
			}
			if _, err := ParseManifest([]byte(in)); err == nil {
				t.Errorf("ParseManifest accepted a manifest with %s (%s):\n%s", tt.name, tt.reason, in)
			}
		})
	}
}
