package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Manifest header keys, in the order they appear, one "# key: value" line
// each after the "# catalogkit-manifest/1" line; "executable" repeats once per
// executable file, sorted, and may be absent.
const (
	keyVersion    = "version"
	keyCompressor = "compressor"
	keyMethod     = "method"
	keyTimestamp  = "timestamp"
	keyFiles      = "files"
	keyBytes      = "bytes"
	keyTreeHash   = "tree-hash"
	keyTreeSHA256 = "tree-sha256"
	keyExecutable = "executable"
)

// Compressor is the value of the manifest's "compressor" line.
var Compressor = fmt.Sprintf("%s %s flate level %d", CompressModule, CompressVersion, FlateLevel)

// MethodRule and TimestampRule are the values of the manifest's "method" and
// "timestamp" lines.
const (
	MethodRule    = "deflate when strictly smaller, else store"
	TimestampRule = "1980-01-01T00:00:00Z"
)

// manifest returns the manifest of files (sorted, with SHA256 set) and the
// content tree hash, as "h1:" + base64 and as hex.
func manifest(version string, files []File) (body []byte, treeHash, treeHex string) {
	var lines bytes.Buffer
	var total int64
	for _, f := range files {
		fmt.Fprintf(&lines, "%s  %s\n", f.SHA256, f.Path)
		total += f.Size
	}
	sum := sha256.Sum256(lines.Bytes())
	treeHash = "h1:" + base64.StdEncoding.EncodeToString(sum[:])
	treeHex = hex.EncodeToString(sum[:])

	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", ManifestFormat)
	fmt.Fprintf(&b, "# %s: %s\n", keyVersion, version)
	fmt.Fprintf(&b, "# %s: %s\n", keyCompressor, Compressor)
	fmt.Fprintf(&b, "# %s: %s\n", keyMethod, MethodRule)
	fmt.Fprintf(&b, "# %s: %s\n", keyTimestamp, TimestampRule)
	fmt.Fprintf(&b, "# %s: %d\n", keyFiles, len(files))
	fmt.Fprintf(&b, "# %s: %d\n", keyBytes, total)
	fmt.Fprintf(&b, "# %s: %s\n", keyTreeHash, treeHash)
	fmt.Fprintf(&b, "# %s: %s\n", keyTreeSHA256, treeHex)
	for _, f := range files {
		if f.Mode == 0o755 {
			fmt.Fprintf(&b, "# %s: %s\n", keyExecutable, f.Path)
		}
	}
	b.Write(lines.Bytes())
	return b.Bytes(), treeHash, treeHex
}

// A Manifest is a parsed MANIFEST.sha256.
type Manifest struct {
	Version    string
	Compressor string
	Files      []File // sorted; Size is 0 (the manifest records no per-file size), Mode 0644 or 0755
	Bytes      int64  // total size of the listed files
	TreeHash   string // "h1:..."
	TreeSHA256 string // hex
}

// ParseManifest parses and checks a manifest strictly: the header lines in
// their fixed order with the format this package writes, file lines of the
// form "<64 lowercase hex>  <path>" sorted byte-wise with no duplicates and
// clean paths (see [CheckPaths]), every executable listed, and a tree hash
// that matches the file lines. It accepts exactly what [Pack] writes for some
// tree, except that it does not require the compressor to be this package's.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("manifest: does not end in a newline")
	}
	lines := strings.Split(string(data[:len(data)-1]), "\n")
	m := &Manifest{}
	ln := 0
	next := func(key string) (string, error) {
		if ln >= len(lines) {
			return "", fmt.Errorf("manifest: missing %q line", key)
		}
		prefix := "# " + key + ": "
		if !strings.HasPrefix(lines[ln], prefix) {
			return "", fmt.Errorf("manifest: line %d: want %q line, got %q", ln+1, key, lines[ln])
		}
		ln++
		return strings.TrimPrefix(lines[ln-1], prefix), nil
	}
	if lines[0] != "# "+ManifestFormat {
		return nil, fmt.Errorf("manifest: line 1: want %q, got %q", "# "+ManifestFormat, lines[0])
	}
	ln = 1
	var err error
	var nfiles string
	var nbytes string
	var method, stamp string
	for _, kv := range []struct {
		key string
		dst *string
	}{
		{keyVersion, &m.Version}, {keyCompressor, &m.Compressor}, {keyMethod, &method},
		{keyTimestamp, &stamp}, {keyFiles, &nfiles}, {keyBytes, &nbytes},
		{keyTreeHash, &m.TreeHash}, {keyTreeSHA256, &m.TreeSHA256},
	} {
		if *kv.dst, err = next(kv.key); err != nil {
			return nil, err
		}
	}
	if err := CheckVersion(m.Version); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if method != MethodRule || stamp != TimestampRule {
		return nil, fmt.Errorf("manifest: unknown method %q or timestamp %q rule", method, stamp)
	}
	count, err := strconv.Atoi(nfiles)
	if err != nil || count < 0 || strconv.Itoa(count) != nfiles {
		return nil, fmt.Errorf("manifest: invalid file count %q", nfiles)
	}
	m.Bytes, err = strconv.ParseInt(nbytes, 10, 64)
	if err != nil || m.Bytes < 0 || strconv.FormatInt(m.Bytes, 10) != nbytes {
		return nil, fmt.Errorf("manifest: invalid byte count %q", nbytes)
	}
	exec := make(map[string]bool)
	var prevExec string
	for ln < len(lines) && strings.HasPrefix(lines[ln], "#") {
		p, err := next(keyExecutable)
		if err != nil {
			return nil, err
		}
		if len(exec) > 0 && p <= prevExec {
			return nil, fmt.Errorf("manifest: line %d: executable %q out of order", ln, p)
		}
		exec[p], prevExec = true, p
	}
	body := strings.Join(lines[ln:], "\n") + "\n"
	if ln == len(lines) {
		body = ""
	}
	var paths []string
	for ; ln < len(lines); ln++ {
		l := lines[ln]
		if len(l) < 67 || l[64:66] != "  " {
			return nil, fmt.Errorf("manifest: line %d: want \"<sha256 hex>  <path>\", got %q", ln+1, l)
		}
		sum, p := l[:64], l[66:]
		if _, err := hex.DecodeString(sum); err != nil || strings.ToLower(sum) != sum {
			return nil, fmt.Errorf("manifest: line %d: invalid SHA-256 %q", ln+1, sum)
		}
		if len(paths) > 0 && p <= paths[len(paths)-1] {
			return nil, fmt.Errorf("manifest: line %d: path %q out of order or repeated", ln+1, p)
		}
		paths = append(paths, p)
		mode := fs0644
		if exec[p] {
			mode = fs0755
			delete(exec, p)
		}
		m.Files = append(m.Files, File{Path: p, Mode: mode, SHA256: sum})
	}
	if probs := CheckPaths(paths); len(probs) > 0 {
		return nil, fmt.Errorf("manifest: %w", &SelectError{Problems: probs})
	}
	for p := range exec {
		return nil, fmt.Errorf("manifest: executable %q is not a listed file", p)
	}
	if len(m.Files) != count {
		return nil, fmt.Errorf("manifest: lists %d files, header says %d", len(m.Files), count)
	}
	sum := sha256.Sum256([]byte(body))
	if hex.EncodeToString(sum[:]) != m.TreeSHA256 || "h1:"+base64.StdEncoding.EncodeToString(sum[:]) != m.TreeHash {
		return nil, fmt.Errorf("manifest: tree hash does not match the file lines")
	}
	return m, nil
}
