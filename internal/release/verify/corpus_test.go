package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"github.com/klauspost/compress/flate"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// A hostile archive: a mutation of the good one (or raw bytes), the reason it
// must be rejected, and where and how.
type hostile struct {
	name   string
	reason string
	// build returns the archive bytes; sb is the sandbox directory, for
	// names that point into it.
	build    func(sb string) []byte
	opts     func(o *Options)
	wantStep string
	wantCode archive.Code
}

func mut(f func(a *zarc)) func(string) []byte {
	return func(string) []byte {
		a := canonical()
		f(a)
		return a.bytes()
	}
}

// bombOnce builds the deflate stream of 300 MiB of zeros once per test binary.
var bombOnce = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	w, _ := newBombWriter(&b)
	zeros := make([]byte, 1<<20)
	for range 300 {
		w.Write(zeros)
	}
	w.Close()
	return b.Bytes()
})

const bombSize = 300 << 20

// bombEntry returns an entry declaring the bomb's true sizes, or usize.
func bombEntry(usize uint32) *zent {
	data := bombOnce()
	h := hdr{
		madeBy: archive.CreatorVersion, needed: archive.ReaderVersion, flags: archive.Flags, method: archive.MethodDeflate,
		mdate: archive.DOSDate, crc: zeroCRC(bombSize), csize: uint32(len(data)), usize: usize,
		name: testRoot + "/bomb.bin", eattr: archive.AttrsRegular,
	}
	if usize != bombSize {
		h.crc = zeroCRC(int(usize))
	}
	return &zent{local: h, central: h, data: data}
}

func zeroCRC(n int) uint32 {
	c := crc32.NewIEEE()
	zeros := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, len(zeros))
		c.Write(zeros[:k])
		n -= k
	}
	return c.Sum32()
}

func hostileCorpus() []hostile {
	return []hostile{
		// The hash step.
		{name: "wrong-hash", reason: "the archive is not the one whose hash was published",
			build: mut(func(a *zarc) {}), opts: func(o *Options) { o.SHA256 = strings.Repeat("ab", 32) },
			wantStep: StepHash, wantCode: CodeArchiveHash},

		// The parse step: not a zip, truncated, framing.
		{name: "empty-file", reason: "a zero-byte file is not an archive",
			build: func(string) []byte { return nil }, wantStep: StepParse, wantCode: archive.CodeNotZip},
		{name: "not-a-zip", reason: "a text file has no end record",
			build: func(string) []byte { return []byte(strings.Repeat("this is not a zip archive\n", 10)) }, wantStep: StepParse, wantCode: archive.CodeNotZip},
		{name: "truncated", reason: "cut in the middle: local headers but no end record",
			build: func(sb string) []byte { b := canonical().bytes(); return b[:len(b)/2] }, wantStep: StepParse, wantCode: archive.CodeTruncated},
		{name: "truncated-end-record", reason: "the end record's last byte is missing",
			build: func(sb string) []byte { b := canonical().bytes(); return b[:len(b)-1] }, wantStep: StepParse, wantCode: archive.CodeTruncated},
		{name: "prepended-bytes", reason: "a stub before the first entry, offsets adjusted as in a self-extracting archive",
			build: mut(func(a *zarc) { a.prefix, a.fixOffsets = []byte("#!/bin/sh\nexit 0\n"), true }), wantStep: StepParse, wantCode: archive.CodePrepended},
		{name: "prepended-bytes-unadjusted", reason: "a stub before the first entry, offsets not adjusted (readers that search for the end record accept it)",
			build: mut(func(a *zarc) { a.prefix = []byte("MZ stub") }), wantStep: StepParse, wantCode: archive.CodePrepended},
		{name: "appended-bytes", reason: "data after the end record",
			build: mut(func(a *zarc) { a.suffix = []byte("trailing payload") }), wantStep: StepParse, wantCode: archive.CodeTrailing},
		{name: "archive-comment", reason: "the packager writes no comment",
			build: mut(func(a *zarc) { a.comment = []byte("signed by someone") }), wantStep: StepParse, wantCode: archive.CodeComment},
		{name: "entry-comment", reason: "the packager writes no entry comment",
			build: mut(func(a *zarc) { a.find("VERSION").central.comment = []byte("hi") }), wantStep: StepParse, wantCode: archive.CodeComment},
		{name: "gap-between-entries", reason: "hidden bytes between two entries",
			build: mut(func(a *zarc) { a.ents[0].descriptor = []byte("hidden") }), wantStep: StepParse, wantCode: archive.CodeGap},
		{name: "gap-before-central-directory", reason: "hidden bytes after the last entry",
			build: mut(func(a *zarc) { a.beforeCD = []byte("hidden") }), wantStep: StepParse, wantCode: archive.CodeGap},
		{name: "overlapping-entries", reason: "two central records share one local header",
			build: mut(func(a *zarc) {
				// The second record points back at the first entry's header.
				a.ents[1].offsetDelta = -int64(30 + len(a.ents[0].local.name) + len(a.ents[0].data))
			}), wantStep: StepParse, wantCode: archive.CodeOverlap},
		{name: "too-many-entries", reason: "more entries than the limit, refused from the end record before reading them",
			build: mut(func(a *zarc) {}), opts: func(o *Options) { o.Limits.MaxEntries = 3 }, wantStep: StepParse, wantCode: archive.CodeTooManyEntries},

		// The parse step: headers.
		{name: "local-central-name-mismatch", reason: "the local header names another file than the central directory",
			build: mut(func(a *zarc) {
				e := a.find("README.md")
				e.local.name = testRoot + "/README.mD"
			}), wantStep: StepParse, wantCode: archive.CodeHeaderMismatch},
		{name: "local-central-method-mismatch", reason: "the local header says Store, the central record Deflate",
			build: mut(func(a *zarc) {
				e := a.find("README.md")
				e.local.method, e.local.csize = archive.MethodStore, e.local.usize
			}), wantStep: StepParse, wantCode: archive.CodeHeaderMismatch},
		{name: "local-central-size-mismatch", reason: "the local header declares another size",
			build: mut(func(a *zarc) { a.find("README.md").local.usize++ }), wantStep: StepParse, wantCode: archive.CodeHeaderMismatch},
		{name: "local-central-crc-mismatch", reason: "the local header declares another crc",
			build: mut(func(a *zarc) { a.find("README.md").local.crc ^= 1 }), wantStep: StepParse, wantCode: archive.CodeHeaderMismatch},
		{name: "crc-mismatch", reason: "both headers declare a crc the data does not have",
			build: mut(func(a *zarc) { a.find("README.md").both(func(h *hdr) { h.crc ^= 0x80 }) }), wantStep: StepParse, wantCode: archive.CodeCRC},
		{name: "crc-zero", reason: "a zero crc is not \"unknown\" (Go's archive/zip skips the check)",
			build: mut(func(a *zarc) { a.find("README.md").both(func(h *hdr) { h.crc = 0 }) }), wantStep: StepParse, wantCode: archive.CodeCRC},
		{name: "extra-field", reason: "an extended-timestamp extra field (0x5455), as zip -r writes",
			build: mut(func(a *zarc) {
				a.find("VERSION").both(func(h *hdr) { h.extra = []byte{0x55, 0x54, 5, 0, 1, 0, 0, 0, 0} })
			}), wantStep: StepParse, wantCode: archive.CodeExtraField},
		{name: "zip64-extra", reason: "a zip64 extra field on an entry that does not need it",
			build: mut(func(a *zarc) {
				a.find("VERSION").both(func(h *hdr) { h.extra = []byte{1, 0, 8, 0, 6, 0, 0, 0, 0, 0, 0, 0} })
			}), wantStep: StepParse, wantCode: archive.CodeZip64},
		{name: "data-descriptor", reason: "flag bit 3 with a data descriptor after the data",
			build: mut(func(a *zarc) {
				e := a.find("VERSION")
				e.both(func(h *hdr) { h.flags |= 1 << 3 })
				e.local.crc, e.local.csize, e.local.usize = 0, 0, 0
				e.descriptor = []byte{0x50, 0x4b, 0x07, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
			}), wantStep: StepParse, wantCode: archive.CodeDataDescriptor},
		{name: "encrypted-flag", reason: "flag bit 0: archive/zip would hand back the ciphertext as content",
			build: mut(func(a *zarc) { a.find("VERSION").both(func(h *hdr) { h.flags |= 1 }) }), wantStep: StepParse, wantCode: archive.CodeEncrypted},
		{name: "other-flag", reason: "flag bit 1 (a deflate option) is not written by the packager",
			build: mut(func(a *zarc) { a.find("VERSION").both(func(h *hdr) { h.flags |= 2 }) }), wantStep: StepParse, wantCode: archive.CodeFlags},
		{name: "unknown-method", reason: "method 12 (bzip2) is not Store or Deflate",
			build: mut(func(a *zarc) { a.find("README.md").both(func(h *hdr) { h.method = 12 }) }), wantStep: StepParse, wantCode: archive.CodeMethod},
		{name: "version-made-by", reason: "an MS-DOS \"version made by\" carries no Unix mode",
			build: mut(func(a *zarc) { a.find("VERSION").central.madeBy = 20 }), wantStep: StepParse, wantCode: archive.CodeVersion},
		{name: "timestamp", reason: "a real modification time leaks the build machine's clock",
			build: mut(func(a *zarc) { a.find("VERSION").both(func(h *hdr) { h.mdate = 0x5a21 }) }), wantStep: StepParse, wantCode: archive.CodeTimestamp},
		{name: "corrupt-deflate", reason: "a deflate stream with an invalid block type",
			build: mut(func(a *zarc) { a.find("README.md").data[0] = 0xff }), wantStep: StepParse, wantCode: archive.CodeBadDeflate},
		{name: "stored-size-lie", reason: "a stored entry whose compressed and uncompressed sizes differ",
			build: mut(func(a *zarc) { a.find("VERSION").both(func(h *hdr) { h.usize++ }) }), wantStep: StepParse, wantCode: archive.CodeSizeMismatch},
		{name: "deflate-bomb", reason: "300 MiB of zeros in about 300 KiB: over the per-file limit from the declared size",
			build: mut(func(a *zarc) { a.ents = append(a.ents, bombEntry(bombSize)) }), wantStep: StepParse, wantCode: archive.CodeFileTooLarge},
		{name: "deflate-bomb-ratio", reason: "the same bomb with size limits raised: its ratio is over the limit",
			build: mut(func(a *zarc) { a.ents = append(a.ents, bombEntry(bombSize)) }),
			opts:  func(o *Options) { o.Limits.MaxFileSize, o.Limits.MaxTotalSize = 1<<30, 1<<30 }, wantStep: StepParse, wantCode: archive.CodeRatio},
		{name: "deflate-bomb-total", reason: "entries together over the total limit",
			build: mut(func(a *zarc) {}), opts: func(o *Options) { o.Limits.MaxTotalSize = 100 }, wantStep: StepParse, wantCode: archive.CodeTotalTooLarge},
		{name: "lying-uncompressed-size", reason: "the bomb declares 1000 bytes: the stream is cut one byte past the declared size",
			build: mut(func(a *zarc) { a.ents = append(a.ents, bombEntry(1000)) }), wantStep: StepParse, wantCode: archive.CodeSizeMismatch},

		// The parse step: names the writer never writes, refused before
		// anything is extracted (so --keep never keeps them).
		{name: "dot-git-config", reason: "a .git/config runs commands when git runs in the kept tree; the packager leaves dot files out",
			build: mut(func(a *zarc) { a.add(testRoot+"/.git/config", []byte("[core]\n\tfsmonitor = touch /tmp/pwned\n")) }), wantStep: StepParse, wantCode: archive.CodeExcluded},
		{name: "editor-litter", reason: "a .swp file is editor litter the packager leaves out",
			build: mut(func(a *zarc) { a.add(testRoot+"/catalog/x.go.swp", []byte("x")) }), wantStep: StepParse, wantCode: archive.CodeExcluded},
		{name: "nested-module", reason: "a folder with its own go.mod is a separate module the packager leaves out",
			build: mut(func(a *zarc) {
				a.add(testRoot+"/internal/other/go.mod", []byte("module other\n"))
				a.add(testRoot+"/internal/other/x.go", []byte("package other\n"))
			}), wantStep: StepParse, wantCode: archive.CodeExcluded},
		{name: "element-too-long", reason: "an element of 300 bytes cannot be a file name on most file systems; the packager refuses it",
			build: mut(func(a *zarc) { a.add(testRoot+"/testdata/"+strings.Repeat("a", 300), []byte("x")) }), wantStep: StepParse, wantCode: archive.CodeNameTooLong},

		// The extract step: names and types, all checked before anything is written.
		{name: "traversal", reason: "../ escapes the extraction directory",
			build: mut(func(a *zarc) { a.find("VERSION").rename("../evil") }), wantStep: StepExtract, wantCode: archive.CodeTraversal},
		{name: "traversal-nested", reason: "a/../../ escapes after looking nested",
			build: mut(func(a *zarc) { a.find("VERSION").rename(testRoot + "/a/../../../evil") }), wantStep: StepExtract, wantCode: archive.CodeTraversal},
		{name: "absolute-path", reason: "an absolute name would be written anywhere",
			build: func(sb string) []byte {
				a := canonical()
				a.find("VERSION").rename(filepath.ToSlash(filepath.Join(sb, "abs-evil")))
				return a.bytes()
			}, wantStep: StepExtract, wantCode: archive.CodeAbsolutePath},
		{name: "backslash", reason: "a backslash is a separator on Windows",
			build: mut(func(a *zarc) { a.find("VERSION").rename(testRoot + `\..\..\evil`) }), wantStep: StepExtract, wantCode: archive.CodeBackslash},
		{name: "drive-letter", reason: "C:evil is relative to a drive's current directory on Windows",
			build: mut(func(a *zarc) { a.find("VERSION").rename("C:evil") }), wantStep: StepExtract, wantCode: archive.CodeDriveLetter},
		{name: "nul-in-name", reason: "a NUL truncates the name in C APIs",
			build: mut(func(a *zarc) { a.find("VERSION").rename(testRoot + "/VERSION\x00.txt") }), wantStep: StepExtract, wantCode: archive.CodeControlChar},
		{name: "newline-in-name", reason: "a newline forges a line in sha256sum output",
			build: mut(func(a *zarc) { a.find("VERSION").rename(testRoot + "/a\nb") }), wantStep: StepExtract, wantCode: archive.CodeControlChar},
		{name: "not-utf8", reason: "names must be valid UTF-8",
			build: mut(func(a *zarc) { a.find("VERSION").rename(testRoot + "/\xff") }), wantStep: StepExtract, wantCode: archive.CodeNotUTF8},
		{name: "dot-element", reason: "a ./ element is not a clean path",
			build: mut(func(a *zarc) { a.find("VERSION").rename(testRoot + "/./VERSION") }), wantStep: StepExtract, wantCode: archive.CodeUncleanPath},
		{name: "windows-reserved-name", reason: "CON is a device on Windows; the packager refuses it",
			build: mut(func(a *zarc) { a.find("testdata/empty.txt").rename(testRoot + "/testdata/CON") }), wantStep: StepExtract, wantCode: archive.CodeWindowsName},
		{name: "outside-root", reason: "every entry must be under catalogkit-<version>/",
			build: mut(func(a *zarc) { a.find("VERSION").rename("elsewhere/VERSION") }), wantStep: StepExtract, wantCode: archive.CodeOutsideRoot},
		{name: "two-roots", reason: "two top-level folders",
			build: mut(func(a *zarc) { a.ents[len(a.ents)-1].rename(archive.TopPrefix + "9.9.9/x") }), wantStep: StepExtract, wantCode: archive.CodeOutsideRoot},
		{name: "symlink", reason: "a symlink entry would redirect later writes",
			build: mut(func(a *zarc) {
				e := a.add(testRoot+"/link", []byte("/etc"))
				e.both(func(h *hdr) { h.eattr = (0o120000 | 0o777) << 16 })
			}), wantStep: StepExtract, wantCode: archive.CodeNotRegular},
		{name: "through-symlink", reason: "a symlink, then a file \"through\" it",
			build: mut(func(a *zarc) {
				e := a.add(testRoot+"/link", []byte(".."))
				e.both(func(h *hdr) { h.eattr = (0o120000 | 0o777) << 16 })
				a.add(testRoot+"/link/evil", []byte("x"))
			}), wantStep: StepExtract, wantCode: archive.CodeNotRegular},
		{name: "directory-entry", reason: "the packager writes no directory entries",
			build: mut(func(a *zarc) {
				e := a.add(testRoot+"/dir/", nil)
				e.both(func(h *hdr) { h.eattr = (0o040000 | 0o755) << 16 })
			}), wantStep: StepExtract, wantCode: archive.CodeNotRegular},
		{name: "odd-mode", reason: "mode 0600 is neither 0644 nor 0755",
			build: mut(func(a *zarc) { a.find("VERSION").both(func(h *hdr) { h.eattr = (0o100000 | 0o600) << 16 }) }), wantStep: StepExtract, wantCode: archive.CodeMode},
		{name: "setuid-mode", reason: "a setuid bit",
			build: mut(func(a *zarc) { a.find("cmd/tool/run.sh").both(func(h *hdr) { h.eattr = (0o104000 | 0o755) << 16 }) }), wantStep: StepExtract, wantCode: archive.CodeMode},
		{name: "duplicate-name", reason: "two entries with one name: which one is extracted depends on the tool",
			build: mut(func(a *zarc) { a.add(testRoot+"/VERSION", []byte("6.6.6\n")) }), wantStep: StepExtract, wantCode: archive.CodeDuplicate},
		{name: "case-fold-collision", reason: "README.md and readme.md are one file on macOS and Windows",
			build: mut(func(a *zarc) { a.add(testRoot+"/readme.md", []byte("other")) }), wantStep: StepExtract, wantCode: archive.CodeCaseCollision},
		{name: "normalization-collision", reason: "café precomposed and decomposed are one name on macOS",
			build: mut(func(a *zarc) {
				a.add(testRoot+"/caf\u00e9", []byte("one"))
				a.add(testRoot+"/cafe\u0301", []byte("two"))
			}), wantStep: StepExtract, wantCode: archive.CodeCaseCollision},
		{name: "file-dir-clash", reason: "VERSION is a file and a directory",
			build: mut(func(a *zarc) { a.add(testRoot+"/VERSION/x", []byte("x")) }), wantStep: StepExtract, wantCode: archive.CodeFileDirClash},

		// The manifest step: the manifest.
		{name: "tampered-file", reason: "a file changed, its crc fixed, the manifest left as it was",
			build: mut(func(a *zarc) {
				e := a.find("README.md")
				*e = *newEntry(e.central.name, []byte("malicious readme\n"), false)
			}), wantStep: StepManifest, wantCode: CodeHashMismatch},
		{name: "unlisted-file", reason: "a file the manifest does not list",
			build: mut(func(a *zarc) { a.add(testRoot+"/zz-extra.go", []byte("package evil\n")) }), wantStep: StepManifest, wantCode: CodeUnlisted},
		{name: "missing-file", reason: "a file the manifest lists is not in the archive",
			build: mut(func(a *zarc) {
				for i, e := range a.ents {
					if e.central.name == testRoot+"/README.md" {
						a.ents = append(a.ents[:i], a.ents[i+1:]...)
						break
					}
				}
			}), wantStep: StepManifest, wantCode: CodeMissing},
		{name: "missing-manifest", reason: "no manifest at all",
			build: mut(func(a *zarc) {
				for i, e := range a.ents {
					if e.central.name == testRoot+"/"+archive.ManifestName {
						a.ents = append(a.ents[:i], a.ents[i+1:]...)
						break
					}
				}
			}), wantStep: StepManifest, wantCode: CodeManifestMissing},
		{name: "manifest-crlf", reason: "a manifest with CRLF line endings",
			build: mut(func(a *zarc) {
				m := a.find(archive.ManifestName).content()
				a.setManifest(bytes.ReplaceAll(m, []byte("\n"), []byte("\r\n")))
			}), wantStep: StepManifest, wantCode: archive.CodeManifestSyntax},
		{name: "manifest-listed-twice", reason: "a path listed twice",
			build: mut(func(a *zarc) {
				m := a.find(archive.ManifestName).content()
				last := m[bytes.LastIndexByte(m[:len(m)-1], '\n')+1:]
				a.setManifest(append(m, last...))
			}), wantStep: StepManifest, wantCode: archive.CodeListedTwice},

		{name: "exec-bit-dropped", reason: "the manifest metadata names run.sh executable, the entry is 0644",
			build: mut(func(a *zarc) { a.find("cmd/tool/run.sh").both(func(h *hdr) { h.eattr = archive.AttrsRegular }) }), wantStep: StepManifest, wantCode: CodeModeMismatch},
		{name: "manifest-file-count", reason: "the metadata's file count disagrees with the lines",
			build: mut(func(a *zarc) {
				m := a.find(archive.ManifestName).content()
				a.setManifest(bytes.Replace(m, []byte("# files: 6\n"), []byte("# files: 7\n"), 1))
			}), wantStep: StepManifest, wantCode: archive.CodeManifestMeta},
		{name: "manifest-byte-count", reason: "the metadata's byte count disagrees with the files",
			build: mut(func(a *zarc) {
				m := a.find(archive.ManifestName).content()
				i := bytes.Index(m, []byte("# bytes: "))
				j := i + bytes.IndexByte(m[i:], '\n')
				a.setManifest(append(append(append([]byte(nil), m[:i]...), "# bytes: 1"...), m[j:]...))
			}), wantStep: StepManifest, wantCode: archive.CodeManifestMeta},
		{name: "manifest-unknown-key", reason: "metadata the packager does not write",
			build: mut(func(a *zarc) {
				m := a.find(archive.ManifestName).content()
				a.setManifest(bytes.Replace(m, []byte("# files:"), []byte("# signed-by: mallory\n# files:"), 1))
			}), wantStep: StepManifest, wantCode: archive.CodeManifestSyntax},

		// The repack step: structure the parser lets through, caught by repacking.
		{name: "stored-not-deflated", reason: "README.md stored although Deflate shrinks it: valid zip, not canonical",
			build: mut(func(a *zarc) {
				e := a.find("README.md")
				data := []byte(strings.Repeat("catalogkit is a small, exact core.\n", 40))
				e.data = data
				e.both(func(h *hdr) { h.method, h.csize = archive.MethodStore, uint32(len(data)) })
			}), wantStep: StepRepack, wantCode: CodeRepackMismatch},
		{name: "unsorted-entries", reason: "entries out of order",
			build: mut(func(a *zarc) { a.ents[0], a.ents[1] = a.ents[1], a.ents[0] }), wantStep: StepRepack, wantCode: CodeRepackMismatch},
		{name: "other-deflate-encoding", reason: "the same content deflated at another level",
			build: mut(func(a *zarc) {
				e := a.find("README.md")
				var b bytes.Buffer
				w, _ := newLevelWriter(&b, flate.HuffmanOnly)
				w.Write([]byte(strings.Repeat("catalogkit is a small, exact core.\n", 40)))
				w.Close()
				e.data = b.Bytes()
				e.both(func(h *hdr) { h.csize = uint32(b.Len()) })
			}), wantStep: StepRepack, wantCode: CodeRepackMismatch},
	}
}

// sandbox is a directory holding the input archive, the parent of the fresh
// directory, and a sentinel directory, so a test can prove that nothing was
// written anywhere else.
type sandbox struct {
	dir, archive, tmp, sentinel string
}

func newSandbox(t testing.TB, archive []byte) *sandbox {
	t.Helper()
	dir := t.TempDir()
	sb := &sandbox{
		dir:      dir,
		archive:  filepath.Join(dir, "in", "catalogkit-"+testVersion+".zip"),
		tmp:      filepath.Join(dir, "tmp"),
		sentinel: filepath.Join(dir, "tmp-sentinel"),
	}
	for _, d := range []string{filepath.Dir(sb.archive), sb.tmp, sb.sentinel} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sb.sentinel, "keep"), []byte("sentinel"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sb.archive, archive, 0o444); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	os.Chtimes(sb.archive, old, old)
	return sb
}

// listing returns every path under dir with its size and mode, sorted.
func listing(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			out = append(out, "error "+err.Error())
			return nil
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel+" "+info.Mode().String()+" "+sizeOf(info))
		return nil
	})
	sort.Strings(out)
	return out
}

func sizeOf(info os.FileInfo) string {
	if info.IsDir() {
		return "-"
	}
	return strconv.FormatInt(info.Size(), 10)
}

// check asserts that the sandbox holds exactly the input archive, unchanged,
// an empty tmp directory and the sentinel.
func (sb *sandbox) check(t testing.TB, want []byte) {
	t.Helper()
	got, err := os.ReadFile(sb.archive)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("input archive changed (err %v)", err)
	}
	if info, err := os.Stat(sb.archive); err != nil || !info.ModTime().Equal(time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)) || info.Mode().Perm() != 0o444 {
		t.Errorf("input archive's metadata changed: %v %v", info, err)
	}
	l := listing(t, sb.dir)
	want1 := []string{
		". drwxr-xr-x -",
		"in drwxr-xr-x -",
		"in/catalogkit-" + testVersion + ".zip -r--r--r-- " + strconv.Itoa(len(want)),
		"tmp drwxr-xr-x -",
		"tmp-sentinel drwxr-xr-x -",
		"tmp-sentinel/keep -rw-r--r-- " + "8",
	}
	if strings.Join(l, "\n") != strings.Join(want1, "\n") {
		t.Errorf("sandbox changed:\n got %q\nwant %q", l, want1)
	}
}

func TestHostileCorpus(t *testing.T) {
	corpus := hostileCorpus()
	if len(corpus) < 68 {
		t.Fatalf("corpus has %d kinds, want at least the 68 that README.md promises", len(corpus))
	}
	for _, h := range corpus {
		t.Run(h.name, func(t *testing.T) {
			if testing.Short() && strings.HasPrefix(h.name, "deflate-bomb") {
				t.Skip("bomb in -short")
			}
			sb0 := t.TempDir()
			data := h.build(sb0)
			sb := newSandbox(t, data)
			if h.name == "absolute-path" {
				// Point the name into this sandbox instead.
				data = h.build(sb.dir)
				os.Chmod(sb.archive, 0o644)
				os.WriteFile(sb.archive, data, 0o444)
				os.Chmod(sb.archive, 0o444)
				old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
				os.Chtimes(sb.archive, old, old)
			}
			sum := sha256.Sum256(data)
			opts := Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, NoExec: true}
			if h.opts != nil {
				h.opts(&opts)
			}
			rep := Verify(context.Background(), sb.archive, opts)
			if rep.OK() {
				t.Fatalf("%s: verify passed, want failure (%s)", h.name, h.reason)
			}
			f := rep.FailedStep()
			if f == nil || f.Step != h.wantStep || f.Code() != h.wantCode {
				t.Errorf("%s (%s): failed at %v, want step %s code %s\nreport: %s", h.name, h.reason, stepCode(f), h.wantStep, h.wantCode, text(rep))
			}
			// Every later step is reported as not run, never as passed.
			after := false
			for _, s := range rep.Steps {
				if after && s.Status != NotRun {
					t.Errorf("step %s after the failure is %q", s.Step, s.Status)
				}
				if s == f {
					after = true
				}
			}
			sb.check(t, data)
		})
	}
}

// TestCancelled checks that a cancelled run (Ctrl-C before the first step)
// stops before reading anything, says so, and leaves nothing behind.
func TestCancelled(t *testing.T) {
	data := goodOnce()
	sb := newSandbox(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := Verify(ctx, sb.archive, Options{TempDir: sb.tmp, NoExec: true})
	if f := rep.FailedStep(); f == nil || f.Step != StepHash || f.Code() != CodeInterrupted {
		t.Errorf("cancelled run failed at %s, want hash/interrupted\n%s", stepCode(f), text(rep))
	}
	sb.check(t, data)
}

func TestReadSums(t *testing.T) {
	const name = "catalogkit-0.1.0.zip"
	sum := strings.Repeat("ab", 32)
	for _, tt := range []struct {
		name, reason, file string
		want               string
		wantCode           archive.Code
	}{
		{name: "text-mode", reason: "sha256sum's default output", file: sum + "  " + name + "\n", want: sum},
		{name: "binary-mode", reason: "sha256sum -b output", file: sum + " *" + name + "\n", want: sum},
		{name: "among-others", reason: "other files listed too", file: strings.Repeat("00", 32) + "  other.zip\n" + sum + "  " + name + "\n", want: sum},
		{name: "no-entry", reason: "the archive is not listed", file: sum + "  other.zip\n", wantCode: CodeSumsNoEntry},
		{name: "twice", reason: "listed twice is ambiguous", file: sum + "  " + name + "\n" + sum + "  " + name + "\n", wantCode: CodeSumsSyntax},
		{name: "uppercase", reason: "sha256sum writes lowercase hex", file: strings.ToUpper(sum) + "  " + name + "\n", wantCode: CodeSumsSyntax},
		{name: "one-space", reason: "not the sha256sum format", file: sum + " " + name + "\n", wantCode: CodeSumsSyntax},
		{name: "empty", reason: "no lines", file: "", wantCode: CodeSumsSyntax},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "SHA256SUMS")
			os.WriteFile(p, []byte(tt.file), 0o644)
			got, err := ReadSums(p, name)
			if archive.CodeOf(errOrNil(err)) != tt.wantCode || got != tt.want {
				t.Errorf("%s: ReadSums = %q, %v; want %q, code %q", tt.reason, got, err, tt.want, tt.wantCode)
			}
		})
	}
}

func errOrNil(e *archive.Error) error {
	if e == nil {
		return nil
	}
	return e
}

func stepCode(s *StepResult) string {
	if s == nil {
		return "<none>"
	}
	return s.Step + "/" + string(s.Code())
}

func text(r *Report) string {
	var b strings.Builder
	r.WriteText(&b)
	return b.String()
}

func TestGoodArchive(t *testing.T) {
	data := goodOnce()
	sb := newSandbox(t, data)
	sum := sha256.Sum256(data)
	rep := Verify(context.Background(), sb.archive, Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, NoExec: true})
	if !rep.OK() {
		t.Fatalf("good archive failed:\n%s", text(rep))
	}
	for _, s := range rep.Steps[:5] {
		if s.Status != Passed {
			t.Errorf("step %s: %s, want passed", s.Step, s.Status)
		}
	}
	if s := rep.Step(StepTests); s.Status != NotRun || s.Requested {
		t.Errorf("tests with NoExec: %+v, want not run and not requested", s)
	}
	sb.check(t, data)
}

// TestUnreadableSumsSaysWhy checks that when the expected hash cannot be
// read, the steps that did not run say so, never that the hash did not match.
func TestUnreadableSumsSaysWhy(t *testing.T) {
	archive := filepath.Join(t.TempDir(), "catalogkit-0.1.0.zip")
	if err := os.WriteFile(archive, []byte("not even a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := Verify(context.Background(), archive, Options{SumsFile: filepath.Join(t.TempDir(), "missing"), NoExec: true})
	if rep.OK() {
		t.Fatal("a missing SHA256SUMS passed")
	}
	for _, s := range rep.Steps[1:] {
		if s.Status != NotRun || strings.Contains(s.Summary, "did not match") || !strings.Contains(s.Summary, "could not be read") {
			t.Errorf("step %s: %s %q, want not run because the expected hash could not be read", s.Step, s.Status, s.Summary)
		}
	}
}
