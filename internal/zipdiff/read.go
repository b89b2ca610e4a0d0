package zipdiff

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

// A Code names why an archive could not be read.
type Code string

const (
	CodeIO             Code = "IO"
	CodeNotZip         Code = "NOT_ZIP"
	CodeTruncated      Code = "TRUNCATED"
	CodeUnsupported    Code = "UNSUPPORTED"
	CodeTooLarge       Code = "TOO_LARGE"
	CodeTooManyEntries Code = "TOO_MANY_ENTRIES"
	CodeCorrupt        Code = "CORRUPT"
)

// Error is an archive that could not be read: its file, the code, and the
// byte offset in the file where the problem was found (-1 if none).
type Error struct {
	File   string
	Code   Code
	Offset int64
	Detail string
	Err    error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s: %s", e.File, e.Code, e.Detail)
	if e.Offset >= 0 {
		s += fmt.Sprintf(" (at byte offset %d)", e.Offset)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Limits bound what reading an archive may cost.
type Limits struct {
	MaxArchiveSize int64 // bytes of the archive file
	MaxEntries     int   // central directory records
	MaxEntrySize   int64 // uncompressed bytes of one entry that are read and hashed
	MaxTextSize    int64 // uncompressed bytes of one entry that are kept for a line diff
	MaxTotalSize   int64 // uncompressed bytes of all entries that are read and hashed
}

// DefaultLimits are generous for catalogkit's releases (a few MiB).
var DefaultLimits = Limits{
	MaxArchiveSize: 1 << 30,
	MaxEntries:     1 << 16,
	MaxEntrySize:   256 << 20,
	MaxTextSize:    1 << 20,
	MaxTotalSize:   1 << 30,
}

// Signatures and fixed sizes of the ZIP structures (APPNOTE.TXT 4.3).
const (
	localSig      = 0x04034b50
	centralSig    = 0x02014b50
	endSig        = 0x06054b50
	zip64LocSig   = 0x07064b50
	localLen      = 30
	centralLen    = 46
	endLen        = 22
	maxCommentLen = 1<<16 - 1
)

// Header holds the fields of one header, central or local, as stored.
type Header struct {
	CreatorVersion uint16 // central only
	ReaderVersion  uint16
	Flags          uint16
	Method         uint16
	ModTime        uint16
	ModDate        uint16
	CRC32          uint32
	CompressedSize uint32
	Size           uint32
	Name           string
	Extra          []byte
	Comment        string // central only
	InternalAttrs  uint16 // central only
	ExternalAttrs  uint32 // central only
	Offset         uint32 // central only: the local header's offset
}

// An Entry is one central directory record and the local header it points to.
type Entry struct {
	Index    int // position in the central directory
	Central  Header
	Local    Header
	HeaderAt int64 // offset of the local header
	DataAt   int64 // offset of the compressed data
	DataEnd  int64 // offset after the compressed data (and a data descriptor, if any)
	Content  Content
}

// An Archive is a parsed ZIP file.
type Archive struct {
	Name          string
	Size          int64
	Entries       []*Entry
	Comment       string
	CentralAt     int64 // offset of the central directory
	CentralSize   int64
	EndAt         int64     // offset of the end record
	Prefix        int64     // bytes before the first local header (0 in a clean archive)
	Gaps          []Gap     // unused byte ranges between entries or before the central directory
	DiskNumbers   [2]uint16 // this disk, disk with the central directory
	EntriesOnDisk uint16
}

// A Gap is a byte range no structure covers.
type Gap struct{ From, To int64 }

// ReadFile opens and parses the archive at path, reading each entry's
// content within lim. The file is closed before it returns.
func ReadFile(path string, lim Limits) (*Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Code: CodeIO, Offset: -1, Detail: "cannot open", Err: unwrapPath(err)}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &Error{File: path, Code: CodeIO, Offset: -1, Detail: "cannot stat", Err: err}
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{File: path, Code: CodeIO, Offset: -1, Detail: "not a regular file"}
	}
	return Read(path, f, fi.Size(), lim)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Read parses the archive of size bytes read from r; name is used in errors.
func Read(name string, r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	fail := func(code Code, off int64, format string, args ...any) (*Archive, error) {
		return nil, &Error{File: name, Code: code, Offset: off, Detail: fmt.Sprintf(format, args...)}
	}
	if size > lim.MaxArchiveSize {
		return fail(CodeTooLarge, -1, "the archive is %d bytes, more than the limit of %d", size, lim.MaxArchiveSize)
	}
	if size < endLen {
		return fail(CodeNotZip, -1, "%d bytes is too short for a ZIP archive (no end of central directory record)", size)
	}
	// The end record is in the last 22 + 65535 bytes.
	tailLen := min(size, endLen+maxCommentLen)
	tail := make([]byte, tailLen)
	if _, err := r.ReadAt(tail, size-tailLen); err != nil {
		return nil, &Error{File: name, Code: CodeIO, Offset: size - tailLen, Detail: "cannot read", Err: err}
	}
	endRel := -1
	for i := len(tail) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == endSig &&
			i+endLen+int(binary.LittleEndian.Uint16(tail[i+20:])) == len(tail) {
			endRel = i
			break
		}
	}
	if endRel < 0 {
		return fail(CodeNotZip, -1, "no end of central directory record: not a ZIP archive, or truncated at the end")
	}
	a := &Archive{Name: name, Size: size, EndAt: size - tailLen + int64(endRel)}
	end := tail[endRel:]
	a.DiskNumbers = [2]uint16{le16(end[4:]), le16(end[6:])}
	a.EntriesOnDisk = le16(end[8:])
	count := int(le16(end[10:]))
	a.CentralSize = int64(le32(end[12:]))
	a.CentralAt = int64(le32(end[16:]))
	a.Comment = string(end[endLen:])
	if a.EndAt >= 20 {
		var loc [4]byte
		if _, err := r.ReadAt(loc[:], a.EndAt-20); err == nil && binary.LittleEndian.Uint32(loc[:]) == zip64LocSig {
			return fail(CodeUnsupported, a.EndAt-20, "a ZIP64 archive (catalogkit never writes ZIP64)")
		}
	}
	switch {
	case count == 0xffff || a.CentralSize == 0xffffffff || a.CentralAt == 0xffffffff:
		return fail(CodeUnsupported, a.EndAt, "a ZIP64 archive (catalogkit never writes ZIP64)")
	case a.DiskNumbers != [2]uint16{} || int(a.EntriesOnDisk) != count:
		return fail(CodeUnsupported, a.EndAt, "a multi-disk (split) archive")
	case count > lim.MaxEntries:
		return fail(CodeTooManyEntries, a.EndAt, "%d entries, more than the limit of %d", count, lim.MaxEntries)
	case a.CentralAt+a.CentralSize > a.EndAt:
		return fail(CodeTruncated, a.EndAt, "the central directory (offset %d, %d bytes) runs past the end record at %d", a.CentralAt, a.CentralSize, a.EndAt)
	case int64(count)*centralLen > a.CentralSize:
		return fail(CodeCorrupt, a.EndAt, "%d entries cannot fit in a %d-byte central directory", count, a.CentralSize)
	}
	cd := make([]byte, a.CentralSize)
	if _, err := r.ReadAt(cd, a.CentralAt); err != nil {
		return nil, &Error{File: name, Code: CodeIO, Offset: a.CentralAt, Detail: "cannot read the central directory", Err: err}
	}
	pos := 0
	for i := 0; i < count; i++ {
		at := a.CentralAt + int64(pos)
		if len(cd)-pos < centralLen || le32(cd[pos:]) != centralSig {
			return fail(CodeCorrupt, at, "central directory record %d is missing or has a bad signature", i)
		}
		rec := cd[pos:]
		h := Header{
			CreatorVersion: le16(rec[4:]), ReaderVersion: le16(rec[6:]), Flags: le16(rec[8:]), Method: le16(rec[10:]),
			ModTime: le16(rec[12:]), ModDate: le16(rec[14:]), CRC32: le32(rec[16:]), CompressedSize: le32(rec[20:]),
			Size: le32(rec[24:]), InternalAttrs: le16(rec[36:]), ExternalAttrs: le32(rec[38:]), Offset: le32(rec[42:]),
		}
		n, m, k := int(le16(rec[28:])), int(le16(rec[30:])), int(le16(rec[32:]))
		if centralLen+n+m+k > len(rec) {
			return fail(CodeCorrupt, at, "central directory record %d runs past the central directory", i)
		}
		h.Name = string(rec[centralLen : centralLen+n])
		h.Extra = append([]byte(nil), rec[centralLen+n:centralLen+n+m]...)
		h.Comment = string(rec[centralLen+n+m : centralLen+n+m+k])
		pos += centralLen + n + m + k
		if h.CompressedSize == 0xffffffff || h.Size == 0xffffffff || h.Offset == 0xffffffff {
			return fail(CodeUnsupported, at, "entry %q uses ZIP64 sizes", h.Name)
		}
		e, err := readLocal(name, r, a, i, h)
		if err != nil {
			return nil, err
		}
		a.Entries = append(a.Entries, e)
	}
	if pos != len(cd) {
		a.Gaps = append(a.Gaps, Gap{a.CentralAt + int64(pos), a.CentralAt + a.CentralSize})
	}
	a.findGaps()
	budget := lim.MaxTotalSize
	var rd reader
	for _, e := range a.Entries {
		e.Content = rd.readContent(r, e, lim, &budget)
	}
	return a, nil
}

// readLocal reads the local header that central record i points to.
func readLocal(name string, r io.ReaderAt, a *Archive, i int, h Header) (*Entry, error) {
	fail := func(code Code, off int64, format string, args ...any) (*Entry, error) {
		return nil, &Error{File: name, Code: code, Offset: off, Detail: fmt.Sprintf(format, args...)}
	}
	at := int64(h.Offset)
	if at+localLen > a.CentralAt {
		return fail(CodeCorrupt, at, "the local header of entry %d %q (offset %d) is not before the central directory", i, h.Name, at)
	}
	var fixed [localLen]byte
	if _, err := r.ReadAt(fixed[:], at); err != nil {
		return nil, &Error{File: name, Code: CodeIO, Offset: at, Detail: "cannot read a local header", Err: err}
	}
	if le32(fixed[:]) != localSig {
		return fail(CodeCorrupt, at, "entry %d %q: no local header signature at its offset", i, h.Name)
	}
	l := Header{
		ReaderVersion: le16(fixed[4:]), Flags: le16(fixed[6:]), Method: le16(fixed[8:]), ModTime: le16(fixed[10:]),
		ModDate: le16(fixed[12:]), CRC32: le32(fixed[14:]), CompressedSize: le32(fixed[18:]), Size: le32(fixed[22:]),
	}
	n, m := int64(le16(fixed[26:])), int64(le16(fixed[28:]))
	dataAt := at + localLen + n + m
	if dataAt > a.CentralAt {
		return fail(CodeCorrupt, at, "entry %d %q: its local header runs into the central directory", i, h.Name)
	}
	varPart := make([]byte, n+m)
	if _, err := r.ReadAt(varPart, at+localLen); err != nil {
		return nil, &Error{File: name, Code: CodeIO, Offset: at + localLen, Detail: "cannot read a local header", Err: err}
	}
	l.Name, l.Extra = string(varPart[:n]), varPart[n:]
	dataEnd := dataAt + int64(h.CompressedSize)
	if h.Flags&0x8 != 0 {
		dataEnd += 12 // a data descriptor: CRC-32 and two sizes, maybe after a signature
		var sig [4]byte
		if _, err := r.ReadAt(sig[:], dataAt+int64(h.CompressedSize)); err == nil && le32(sig[:]) == 0x08074b50 {
			dataEnd += 4
		}
	}
	if dataEnd > a.CentralAt {
		return fail(CodeTruncated, dataAt, "entry %d %q: its %d bytes of data run into the central directory", i, h.Name, h.CompressedSize)
	}
	return &Entry{Index: i, Central: h, Local: l, HeaderAt: at, DataAt: dataAt, DataEnd: dataEnd}, nil
}

// findGaps records bytes before the first local header and between entries.
func (a *Archive) findGaps() {
	var spans []Gap
	for _, e := range a.Entries {
		spans = append(spans, Gap{e.HeaderAt, e.DataEnd})
	}
	sortGaps(spans)
	next := int64(0)
	for i, s := range spans {
		if i == 0 {
			a.Prefix = s.From
		}
		if s.From > next && i > 0 {
			a.Gaps = append(a.Gaps, Gap{next, s.From})
		}
		next = max(next, s.To)
	}
	if len(spans) == 0 {
		a.Prefix = a.CentralAt
	} else if a.CentralAt > next {
		a.Gaps = append(a.Gaps, Gap{next, a.CentralAt})
	}
	sortGaps(a.Gaps)
}

func sortGaps(g []Gap) {
	sort.Slice(g, func(i, j int) bool { return g[i].From < g[j].From })
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
