package archive

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Names of the release format.
const (
	// VersionFile is the file at the tree root that holds the release version.
	VersionFile = "VERSION"
	// ManifestName is the manifest's name inside the top folder. The writer
	// generates it; it is never packed from the tree.
	ManifestName = "MANIFEST.sha256"
	// ManifestFormat is the manifest's first line, after "# ".
	ManifestFormat = "catalogkit-manifest/1"
	// SumsName is the checksum file written beside the archive.
	SumsName = "SHA256SUMS"
	// SigSuffix ends the name of a minisign signature: the signed file's
	// name plus SigSuffix.
	SigSuffix = ".minisig"
	// SumsSigName is the signature of SHA256SUMS, beside it.
	SumsSigName = SumsName + SigSuffix
	// TopPrefix starts the name of the single top-level folder,
	// "catalogkit-<version>/", and of the archive, "catalogkit-<version>.zip".
	TopPrefix = "catalogkit-"
)

// The Deflate implementation and level. CompressVersion is kept equal to
// go.mod by a test.
const (
	CompressModule  = "github.com/klauspost/compress"
	CompressVersion = "v1.20.4"
	FlateLevel      = 8
)

// Header fields of every entry. The writer writes exactly these and the
// reader accepts nothing else.
const (
	// CreatorVersion is the "version made by" of every central record: host
	// system 3 (Unix, so that the external attributes carry the mode) and ZIP
	// specification 2.0.
	CreatorVersion uint16 = 3<<8 | 20
	// ReaderVersion is the "version needed to extract" of every entry (2.0).
	ReaderVersion uint16 = 20
	// Flags is the general purpose bit flag of every entry: bit 11 (names
	// are UTF-8) and nothing else, so no data descriptor and no encryption.
	Flags uint16 = 0x0800
	// DOSTime and DOSDate are the MS-DOS modification time and date of every
	// entry: 1980-01-01 00:00:00 (year 0 since 1980, month 1, day 1).
	DOSTime uint16 = 0
	DOSDate uint16 = 1<<5 | 1

	// MethodStore and MethodDeflate are the only methods: an entry is
	// Deflated when that makes it strictly smaller, else Stored.
	MethodStore   uint16 = 0
	MethodDeflate uint16 = 8

	// AttrsRegular and AttrsExec are the external attributes of a regular
	// file of mode 0644 and 0755: the Unix mode in the high 16 bits.
	AttrsRegular uint32 = (0o100000 | 0o644) << 16
	AttrsExec    uint32 = (0o100000 | 0o755) << 16
)

// Sizes. The format never uses ZIP64, so every size, offset and count fits
// the classic 32-bit and 16-bit fields.
const (
	// MaxEntries is the most entries (files plus the manifest) an archive
	// holds without ZIP64.
	MaxEntries = 1<<16 - 2
	// MaxSize is the largest archive, and the largest file in one, that the
	// format allows: 4 GiB less one byte. No archive of this format is
	// larger, so a reader may refuse a larger file before reading it.
	MaxSize = 1<<32 - 1
	// MaxNameLen bounds the length of an entry name in bytes.
	MaxNameLen = 1024
)

// ExternalAttrs returns the external attributes of an entry of mode 0644 or
// 0755.
func ExternalAttrs(mode fs.FileMode) uint32 {
	if mode&0o111 != 0 {
		return AttrsExec
	}
	return AttrsRegular
}

// TopFolder returns the single top-level folder of the archive for version,
// with its trailing slash: "catalogkit-<version>/".
func TopFolder(version string) string { return TopPrefix + version + "/" }

// ArchiveName returns the archive's file name for version.
func ArchiveName(version string) string { return TopPrefix + version + ".zip" }

// ProvenanceName returns the name of the provenance statement published
// beside the archive of version.
func ProvenanceName(version string) string { return TopPrefix + version + ".provenance.json" }

// SidecarNames are the files a signed release publishes beside the archive
// and SHA256SUMS, in the order [WriteRelease] puts them in place: the
// provenance statement's signature, the statement, and the signature of
// SHA256SUMS.
func SidecarNames(version string) []string {
	prov := ProvenanceName(version)
	return []string{prov + SigSuffix, prov, SumsSigName}
}

// A File is one file of a release tree.
type File struct {
	Path   string      // slash-separated, relative to the tree root (and to the top folder)
	Size   int64       // bytes
	Mode   fs.FileMode // 0644, or 0755 if any executable bit was set
	SHA256 string      // lowercase hex; empty in the result of Select
}

// modeOf maps a file mode to 0755 if any executable bit is set, else 0644.
func modeOf(m fs.FileMode) fs.FileMode {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// CheckVersion reports whether v is a valid release version: a semantic
// version such as 0.1.0 or 1.2.3-rc.1, with no "v" prefix, no slash and no
// whitespace, at most 64 bytes.
func CheckVersion(v string) error {
	if len(v) > 64 || !versionRE.MatchString(v) {
		return fmt.Errorf("invalid version %q: want a semantic version such as 0.1.0 (no \"v\", slash or whitespace)", v)
	}
	return nil
}

// ReadVersion reads the release version from the file VERSION in dir: the
// version, optionally followed by one newline, and nothing else.
func ReadVersion(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, VersionFile))
	if err != nil {
		return "", fmt.Errorf("failed to read version: %w", err)
	}
	v := strings.TrimSuffix(string(b), "\n")
	if err := CheckVersion(v); err != nil {
		return "", fmt.Errorf("failed to read version from %s: %w", VersionFile, err)
	}
	return v, nil
}

// Limits bound what the writer writes and the reader accepts: one rule for
// both, so that an archive the writer makes under some limits always passes
// a reader with the same limits. The reader checks them on the declared
// sizes before reading any data and on the actual bytes while they stream.
type Limits struct {
	MaxEntries   int   // entries, the manifest included
	MaxFileSize  int64 // uncompressed bytes of one entry
	MaxTotalSize int64 // uncompressed bytes of all entries together
	// MaxRatio bounds expansion: a Deflate entry's uncompressed size may be
	// at most MaxRatio times its compressed size plus RatioSlack bytes.
	MaxRatio int64
}

// RatioSlack is the allowance added to MaxRatio × compressed size, so that
// small, very regular files (an empty line repeated) are not mistaken for
// bombs.
const RatioSlack = 64 << 10

// DefaultLimits are what catalogkit pack writes and catalogkit verify
// accepts unless told otherwise: every entry count the format allows, and
// sizes generous for a source release (tens of files, well under a
// megabyte) yet small enough that a hostile archive cannot fill a disk.
var DefaultLimits = Limits{
	MaxEntries:   MaxEntries,
	MaxFileSize:  64 << 20,
	MaxTotalSize: 512 << 20,
	MaxRatio:     100,
}

// OrDefault returns l with every zero field set from DefaultLimits.
func (l Limits) OrDefault() Limits {
	d := DefaultLimits
	if l.MaxEntries == 0 {
		l.MaxEntries = d.MaxEntries
	}
	if l.MaxFileSize == 0 {
		l.MaxFileSize = d.MaxFileSize
	}
	if l.MaxTotalSize == 0 {
		l.MaxTotalSize = d.MaxTotalSize
	}
	if l.MaxRatio == 0 {
		l.MaxRatio = d.MaxRatio
	}
	return l
}

// Check reports whether the limits are usable: positive, and within what
// the format can hold.
func (l Limits) Check() error {
	switch {
	case l.MaxEntries <= 0 || l.MaxFileSize <= 0 || l.MaxTotalSize <= 0 || l.MaxRatio <= 0:
		return fmt.Errorf("limits must be positive")
	case l.MaxEntries > MaxEntries:
		return fmt.Errorf("at most %d entries: the format never uses ZIP64", MaxEntries)
	case l.MaxFileSize > MaxSize:
		return fmt.Errorf("files must be below 4 GiB: the format never uses ZIP64")
	}
	return nil
}

// ratioOK reports whether an entry of usize bytes from csize compressed
// bytes stays within the ratio limit.
func (l Limits) ratioOK(usize, csize uint64) bool {
	return usize <= uint64(l.MaxRatio)*csize+RatioSlack
}
