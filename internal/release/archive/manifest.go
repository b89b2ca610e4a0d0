package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
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

// A Manifest is a parsed MANIFEST.sha256.
type Manifest struct {
	Version    string
	Compressor string
	Files      []File // sorted; Size is 0 (the manifest records no per-file size), Mode 0644 or 0755
	Bytes      int64  // total size of the listed files
	TreeHash   string // "h1:" + base64 SHA-256 of the file lines
	TreeSHA256 string // the same SHA-256 in hex
}

// treeHashes returns the content tree hash of the file lines, as "h1:" +
// base64 and as hex.
func treeHashes(lines []byte) (h1, hx string) {
	sum := sha256.Sum256(lines)
	return "h1:" + base64.StdEncoding.EncodeToString(sum[:]), hex.EncodeToString(sum[:])
}

// encodeManifest returns the manifest of files (sorted, with SHA256 set)
// and its content tree hash, as "h1:" + base64 and as hex.
func encodeManifest(version string, files []File) (body []byte, treeHash, treeHex string) {
	var lines bytes.Buffer
	var total int64
	for _, f := range files {
		fmt.Fprintf(&lines, "%s  %s\n", f.SHA256, f.Path)
		total += f.Size
	}
	treeHash, treeHex = treeHashes(lines.Bytes())

	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", ManifestFormat)
	for _, kv := range [][2]string{
		{keyVersion, version}, {keyCompressor, Compressor}, {keyMethod, MethodRule},
		{keyTimestamp, TimestampRule}, {keyFiles, strconv.Itoa(len(files))},
		{keyBytes, strconv.FormatInt(total, 10)}, {keyTreeHash, treeHash}, {keyTreeSHA256, treeHex},
	} {
		fmt.Fprintf(&b, "# %s: %s\n", kv[0], kv[1])
	}
	for _, f := range files {
		if f.Mode&0o111 != 0 {
			fmt.Fprintf(&b, "# %s: %s\n", keyExecutable, f.Path)
		}
	}
	b.Write(lines.Bytes())
	return b.Bytes(), treeHash, treeHex
}

// ParseManifest parses and checks a manifest strictly; it accepts exactly
// what the writer writes for some tree, except that it does not require the
// compressor to be this package's. The checks, in order: LF line endings
// with a final LF and no CR; "#" lines only before the first file line;
// file lines "<64 lowercase hex>  <path>" with paths that pass [CheckPath],
// sorted byte-wise, none twice ([CodeListedTwice]); the header lines in
// their fixed order and format; every executable a listed file; then the
// header against the file lines: the count and the tree hashes
// ([CodeManifestMeta]); last, the rules on the set of paths ([CheckPaths]).
// Every other problem is [CodeManifestSyntax]. An error's Entry is the path
// concerned, or "line N".
func ParseManifest(data []byte) (*Manifest, *Error) {
	syntax := func(at string, format string, args ...any) *Error {
		return Errorf(CodeManifestSyntax, at, format, args...)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, syntax("", "empty or not ending in a newline")
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, syntax("", "contains a carriage return")
	}
	lines := strings.Split(string(data[:len(data)-1]), "\n")
	nhead := 0
	for nhead < len(lines) && strings.HasPrefix(lines[nhead], "#") {
		nhead++
	}
	lineAt := func(i int) string { return "line " + strconv.Itoa(i+1) }

	m := &Manifest{}
	var paths []string
	for i := nhead; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "#") {
			return nil, syntax(lineAt(i), "comment after the first file line")
		}
		sum, p, ok := ParseSumLine(l, false)
		if !ok || CheckPath(p) != nil || p == ManifestName {
			return nil, syntax(lineAt(i), "not %q with a clean relative path: %q", "<sha256>  <path>", l)
		}
		if k := len(paths); k > 0 {
			switch prev := paths[k-1]; {
			case p == prev:
				return nil, Errorf(CodeListedTwice, p, "listed more than once")
			case p < prev:
				return nil, syntax(lineAt(i), "%q is not sorted after %q", p, prev)
			}
		}
		paths = append(paths, p)
		m.Files = append(m.Files, File{Path: p, Mode: 0o644, SHA256: sum})
	}

	if len(lines) == 0 || lines[0] != "# "+ManifestFormat {
		return nil, syntax("line 1", "want %q", "# "+ManifestFormat)
	}
	ln := 1
	next := func(key string) (string, *Error) {
		prefix := "# " + key + ": "
		if ln >= nhead || !strings.HasPrefix(lines[ln], prefix) {
			got := "the file lines"
			if ln < nhead {
				got = strconv.Quote(lines[ln])
			}
			return "", syntax(lineAt(ln), "want the %q line, got %s", key, got)
		}
		ln++
		return strings.TrimPrefix(lines[ln-1], prefix), nil
	}
	var method, stamp, nfiles, nbytes, treeHex string
	for _, kv := range []struct {
		key string
		dst *string
	}{
		{keyVersion, &m.Version}, {keyCompressor, &m.Compressor}, {keyMethod, &method},
		{keyTimestamp, &stamp}, {keyFiles, &nfiles}, {keyBytes, &nbytes},
		{keyTreeHash, &m.TreeHash}, {keyTreeSHA256, &treeHex},
	} {
		v, err := next(kv.key)
		if err != nil {
			return nil, err
		}
		*kv.dst = v
	}
	if err := CheckVersion(m.Version); err != nil {
		return nil, syntax("line 2", "%v", err)
	}
	if method != MethodRule || stamp != TimestampRule {
		return nil, syntax("", "unknown method rule %q or timestamp rule %q", method, stamp)
	}
	count, err := strconv.Atoi(nfiles)
	if err != nil || count < 0 || strconv.Itoa(count) != nfiles {
		return nil, syntax("", "invalid file count %q", nfiles)
	}
	m.Bytes, err = strconv.ParseInt(nbytes, 10, 64)
	if err != nil || m.Bytes < 0 || strconv.FormatInt(m.Bytes, 10) != nbytes {
		return nil, syntax("", "invalid byte count %q", nbytes)
	}
	index := make(map[string]int, len(paths))
	for i, p := range paths {
		index[p] = i
	}
	prevExec := ""
	for ln < nhead {
		at := lineAt(ln)
		p, err := next(keyExecutable)
		if err != nil {
			return nil, err
		}
		i, listed := index[p]
		switch {
		case prevExec != "" && p <= prevExec:
			return nil, syntax(at, "executable %q out of order or repeated", p)
		case !listed:
			return nil, syntax(at, "executable %q is not a listed file", p)
		}
		m.Files[i].Mode, prevExec = 0o755, p
	}

	if len(m.Files) != count {
		return nil, Errorf(CodeManifestMeta, "", "says %d files, %d are listed", count, len(m.Files))
	}
	body := strings.Join(lines[nhead:], "\n")
	if body != "" {
		body += "\n"
	}
	wantH1, wantHex := treeHashes([]byte(body))
	if m.TreeHash != wantH1 || treeHex != wantHex {
		return nil, Errorf(CodeManifestMeta, "", "tree hash %s (%s), the file lines hash to %s", m.TreeHash, treeHex, wantH1)
	}
	m.TreeSHA256 = treeHex
	if probs := CheckPaths(paths); len(probs) > 0 {
		return nil, &Error{Code: CodeManifestSyntax, Entry: probs[0].Entry, Offset: -1, Detail: "lists a path the format refuses", Err: probs[0]}
	}
	return m, nil
}

// ParseSumLine parses one sha256sum line, "<64 lowercase hex>  <name>", or
// with allowBinary also "<hex> *<name>" (sha256sum -b).
func ParseSumLine(line string, allowBinary bool) (sum, name string, ok bool) {
	if len(line) < 67 || line[64] != ' ' {
		return "", "", false
	}
	sum = line[:64]
	for _, c := range []byte(sum) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", "", false
		}
	}
	switch {
	case line[65] == ' ':
	case line[65] == '*' && allowBinary:
	default:
		return "", "", false
	}
	name = line[66:]
	if strings.ContainsAny(name, "\r\n\\") {
		return "", "", false
	}
	return sum, name, true
}

// IsExec reports whether a manifest or tree mode is executable.
func IsExec(m fs.FileMode) bool { return m&0o111 != 0 }
