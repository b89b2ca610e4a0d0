package verify

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"

	"github.com/catalogkit/catalogkit/internal/pack"
	"github.com/klauspost/compress/flate"
)

// The archive format the packager writes, and so the only one the strict
// reader accepts.
const (
	sigLocal   = 0x04034b50
	sigCentral = 0x02014b50
	sigEnd     = 0x06054b50
	sigEnd64   = 0x06064b50
	sigLoc64   = 0x07064b50

	localLen   = 30
	centralLen = 46
	endLen     = 22

	// The packager's fixed header fields: "version made by" (Unix, 2.0),
	// "version needed" (2.0), the timestamp 1980-01-01 00:00:00, the flags
	// (bit 11, UTF-8, always and nothing else) and the two methods.
	VersionMadeBy = pack.CreatorVersion
	VersionNeeded = pack.ReaderVersion
	DOSTime       = pack.DOSTime
	DOSDate       = pack.DOSDate
	FlagUTF8      = pack.Flags
	MethodStore   = pack.MethodStore
	MethodDeflate = pack.MethodDeflate

	// MaxNameLen bounds the length of an entry name in bytes.
	MaxNameLen = 1024

	// attrsRegular and attrsExec are the external attributes of a 0644 and a
	// 0755 regular file (Unix mode in the high 16 bits).
	attrsRegular = (0o100000 | 0o644) << 16
	attrsExec    = (0o100000 | 0o755) << 16
)

// Limits bound what the strict parse accepts. They are enforced on the
// declared sizes before any data is read and on the actual bytes while they
// stream, so a lying header cannot make the reader produce more than the
// limits allow.
type Limits struct {
	MaxEntries   int   // number of entries
	MaxFileSize  int64 // uncompressed bytes of one entry
	MaxTotalSize int64 // uncompressed bytes of all entries together
	// MaxRatio bounds expansion: an entry's uncompressed size may be at most
	// MaxRatio times its compressed size plus RatioSlack bytes.
	MaxRatio int64
}

// RatioSlack is the allowance added to MaxRatio × compressed size, so that
// small, very regular files (an empty line repeated) are not mistaken for
// bombs.
const RatioSlack = 64 << 10

// DefaultLimits are generous for a catalogkit release (tens of files, well
// under a megabyte) and small enough that a hostile archive cannot fill a disk.
var DefaultLimits = Limits{
	MaxEntries:   10000,
	MaxFileSize:  64 << 20,
	MaxTotalSize: 512 << 20,
	MaxRatio:     100,
}

// An entry is one file of a strictly parsed archive.
type entry struct {
	Name       string
	Method     uint16
	Flags      uint16
	CRC32      uint32
	CSize      uint64 // compressed
	USize      uint64 // uncompressed
	Attrs      uint32 // external attributes
	MadeBy     uint16
	Offset     int64 // of the local header
	DataOffset int64
}

// Mode returns the entry's Unix permission bits and type, as io/fs sees them.
func (e *entry) Mode() fs.FileMode {
	unix := e.Attrs >> 16
	m := fs.FileMode(unix & 0o777)
	switch unix & 0o170000 {
	case 0o100000:
	case 0o040000:
		m |= fs.ModeDir
	case 0o120000:
		m |= fs.ModeSymlink
	default:
		m |= fs.ModeIrregular
	}
	return m
}

// archive is the result of a strict parse: the entries in file order.
type archive struct {
	r       io.ReaderAt
	size    int64
	entries []*entry
	total   uint64 // sum of uncompressed sizes
}

// parseStructure reads the end record, the central directory and every local
// header, and checks that they describe exactly the packager's layout: entries
// contiguous from byte 0, each local header equal to its central record, the
// central directory right after the last entry, the end record right after
// it, nothing else. It reads no entry data.
func parseStructure(r io.ReaderAt, size int64, lim Limits) (*archive, error) {
	if size < endLen {
		if size == 0 {
			return nil, errAt(CodeNotZip, "", 0, "file is empty")
		}
		return nil, errAt(CodeNotZip, "", 0, "file of %d bytes is too short to be a zip archive", size)
	}
	var end [endLen]byte
	if _, err := r.ReadAt(end[:], size-endLen); err != nil {
		return nil, &Error{Code: CodeIO, Offset: size - endLen, Detail: "reading end record", Err: err}
	}
	if le32(end[0:]) != sigEnd {
		return nil, diagnoseEnd(r, size)
	}
	disk, cdDisk := le16(end[4:]), le16(end[6:])
	nDisk, n := le16(end[8:]), le16(end[10:])
	cdSize, cdOff := int64(le32(end[12:])), int64(le32(end[16:]))
	commentLen := le16(end[20:])
	endOff := size - endLen
	switch {
	case commentLen != 0:
		return nil, errAt(CodeComment, "", endOff, "end record declares a %d-byte comment", commentLen)
	case disk != 0 || cdDisk != 0 || nDisk != n:
		return nil, errAt(CodeAttributes, "", endOff, "multi-disk fields in end record")
	case n == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff:
		return nil, errAt(CodeZip64, "", endOff, "end record defers to zip64 records")
	case int(n) > lim.MaxEntries:
		return nil, errAt(CodeTooManyEntries, "", endOff, "%d entries, limit is %d", n, lim.MaxEntries)
	case cdOff+cdSize != endOff:
		if cdOff+cdSize < endOff {
			if endOff >= 20 && le32at(r, endOff-20) == sigLoc64 {
				return nil, errAt(CodeZip64, "", endOff-20, "zip64 end locator")
			}
			// Bytes before the archive shift everything: the central
			// directory and the first entry sit exactly that far on.
			if shift := endOff - cdOff - cdSize; le32at(r, cdOff+shift) == sigCentral && le32at(r, shift) == sigLocal {
				return nil, errAt(CodePrepended, "", 0, "%d bytes before the first local header (every offset in the archive is %d bytes short)", shift, shift)
			}
			return nil, errAt(CodeGap, "", cdOff+cdSize, "%d bytes between central directory and end record", endOff-cdOff-cdSize)
		}
		return nil, errAt(CodeTruncated, "", endOff, "central directory (%d bytes at %d) runs past the end record", cdSize, cdOff)
	}

	a := &archive{r: r, size: size}
	cd := bufio.NewReaderSize(io.NewSectionReader(r, cdOff, cdSize), 64<<10)
	pos := int64(0) // where the next local header must start
	cdPos := cdOff
	for i := 0; i < int(n); i++ {
		e, err := readCentral(cd, cdPos, cdOff+cdSize)
		if err != nil {
			return nil, err
		}
		cdPos += centralLen + int64(len(e.Name))
		if e.USize > uint64(lim.MaxFileSize) {
			return nil, errAt(CodeFileTooLarge, e.Name, cdPos, "declares %d bytes, limit is %d", e.USize, lim.MaxFileSize)
		}
		a.total += e.USize
		if a.total > uint64(lim.MaxTotalSize) {
			return nil, errAt(CodeTotalTooLarge, e.Name, cdPos, "entries declare %d bytes so far, limit is %d", a.total, lim.MaxTotalSize)
		}
		if e.Method == MethodDeflate && lim.MaxRatio > 0 && e.USize > uint64(lim.MaxRatio)*e.CSize+RatioSlack {
			return nil, errAt(CodeRatio, e.Name, cdPos, "declares %d bytes from %d compressed, more than %d:1", e.USize, e.CSize, lim.MaxRatio)
		}
		switch {
		case e.Offset > pos && i == 0:
			return nil, errAt(CodePrepended, e.Name, 0, "%d bytes before the first local header", e.Offset)
		case e.Offset > pos:
			return nil, errAt(CodeGap, e.Name, pos, "%d bytes before this entry", e.Offset-pos)
		case e.Offset < pos:
			return nil, errAt(CodeOverlap, e.Name, e.Offset, "starts inside the previous entry (which ends at %d)", pos)
		}
		if err := checkLocal(r, e, cdOff); err != nil {
			return nil, err
		}
		pos = e.DataOffset + int64(e.CSize)
		a.entries = append(a.entries, e)
	}
	if cdPos != cdOff+cdSize {
		return nil, errAt(CodeGap, "", cdPos, "%d unused bytes at the end of the central directory", cdOff+cdSize-cdPos)
	}
	if pos < cdOff {
		if n == 0 {
			return nil, errAt(CodePrepended, "", 0, "%d bytes before the central directory", cdOff)
		}
		return nil, errAt(CodeGap, "", pos, "%d bytes between the last entry and the central directory", cdOff-pos)
	}
	return a, nil
}

// diagnoseEnd explains why the last 22 bytes are not an end record: a comment,
// trailing bytes, a truncated file, or not a zip archive at all.
func diagnoseEnd(r io.ReaderAt, size int64) error {
	start := max(0, size-(endLen+1<<16))
	buf := make([]byte, size-start)
	if _, err := r.ReadAt(buf, start); err != nil {
		return &Error{Code: CodeIO, Offset: start, Detail: "reading archive tail", Err: err}
	}
	for i := len(buf) - endLen; i >= 0; i-- {
		if le32(buf[i:]) != sigEnd {
			continue
		}
		off := start + int64(i)
		commentLen := int64(le16(buf[i+20:]))
		if commentLen > 0 && off+endLen+commentLen == size {
			return errAt(CodeComment, "", off, "archive has a %d-byte comment", commentLen)
		}
		if off+endLen+commentLen <= size {
			return errAt(CodeTrailing, "", off+endLen+commentLen, "%d bytes after the end record", size-off-endLen-commentLen)
		}
	}
	var head [4]byte
	if _, err := r.ReadAt(head[:], 0); err == nil && le32(head[:]) == sigLocal {
		return errAt(CodeTruncated, "", size, "no end record in the last 64 KiB: archive is truncated (or followed by that much data)")
	}
	return errAt(CodeNotZip, "", 0, "not a zip archive: no end record")
}

// readCentral reads one central directory record at offset off and checks the
// fields that must be fixed.
func readCentral(cd *bufio.Reader, off, cdEnd int64) (*entry, error) {
	var h [centralLen]byte
	if _, err := io.ReadFull(cd, h[:]); err != nil {
		return nil, errAt(CodeTruncated, "", off, "central directory ends inside a record")
	}
	if le32(h[0:]) != sigCentral {
		return nil, errAt(CodeNotZip, "", off, "bad central directory signature %#08x", le32(h[0:]))
	}
	nameLen, extraLen, commentLen := int(le16(h[28:])), int(le16(h[30:])), int(le16(h[32:]))
	if nameLen > MaxNameLen {
		return nil, errAt(CodeNameTooLong, "", off, "name of %d bytes, limit is %d", nameLen, MaxNameLen)
	}
	if off+centralLen+int64(nameLen) > cdEnd {
		return nil, errAt(CodeTruncated, "", off, "central directory ends inside a name")
	}
	name := make([]byte, nameLen)
	if _, err := io.ReadFull(cd, name); err != nil {
		return nil, errAt(CodeTruncated, "", off, "central directory ends inside a name")
	}
	e := &entry{
		Name:   string(name),
		MadeBy: le16(h[4:]),
		Flags:  le16(h[8:]),
		Method: le16(h[10:]),
		CRC32:  le32(h[16:]),
		CSize:  uint64(le32(h[20:])),
		USize:  uint64(le32(h[24:])),
		Attrs:  le32(h[38:]),
		Offset: int64(le32(h[42:])),
	}
	switch {
	case extraLen != 0:
		if isZip64Extra(cd, extraLen) {
			return nil, errAt(CodeZip64, e.Name, off, "zip64 extra field in central record")
		}
		return nil, errAt(CodeExtraField, e.Name, off, "central record has %d bytes of extra fields", extraLen)
	case commentLen != 0:
		return nil, errAt(CodeComment, e.Name, off, "central record has a %d-byte comment", commentLen)
	case e.CSize == 0xffffffff || e.USize == 0xffffffff || e.Offset == 0xffffffff:
		return nil, errAt(CodeZip64, e.Name, off, "sizes or offset deferred to zip64")
	}
	if err := checkFixed(e, le16(h[6:]), le16(h[12:]), le16(h[14:]), off, "central record"); err != nil {
		return nil, err
	}
	if disk, internal := le16(h[34:]), le16(h[36:]); disk != 0 || internal != 0 {
		return nil, errAt(CodeAttributes, e.Name, off, "disk number %d, internal attributes %#x", disk, internal)
	}
	if e.MadeBy != VersionMadeBy {
		return nil, errAt(CodeVersion, e.Name, off, "version made by %#04x, want %#04x", e.MadeBy, VersionMadeBy)
	}
	return e, nil
}

// isZip64Extra peeks whether an extra field block starts with the zip64 tag.
func isZip64Extra(cd *bufio.Reader, n int) bool {
	b, err := cd.Peek(min(n, 2))
	return err == nil && len(b) == 2 && le16(b) == 0x0001
}

// checkFixed checks the fields every header of the packager's format fixes.
func checkFixed(e *entry, needed, dtime, ddate uint16, off int64, where string) error {
	switch {
	case e.Flags&1 != 0 || e.Flags&(1<<6) != 0:
		return errAt(CodeEncrypted, e.Name, off, "%s flags %#04x mark the entry encrypted", where, e.Flags)
	case e.Flags&(1<<3) != 0:
		return errAt(CodeDataDescriptor, e.Name, off, "%s flags %#04x defer CRC and sizes to a data descriptor", where, e.Flags)
	case e.Flags != FlagUTF8:
		return errAt(CodeFlags, e.Name, off, "%s flags %#04x, want exactly %#04x (bit 11, utf-8)", where, e.Flags, FlagUTF8)
	case e.Method != MethodStore && e.Method != MethodDeflate:
		return errAt(CodeMethod, e.Name, off, "compression method %d, only store (0) and deflate (8) are allowed", e.Method)
	case e.Method == MethodStore && e.CSize != e.USize:
		return errAt(CodeSizeMismatch, e.Name, off, "stored entry with compressed size %d and size %d", e.CSize, e.USize)
	case needed != VersionNeeded:
		return errAt(CodeVersion, e.Name, off, "%s needs version %d, want %d", where, needed, VersionNeeded)
	case dtime != DOSTime || ddate != DOSDate:
		return errAt(CodeTimestamp, e.Name, off, "%s timestamp %#04x %#04x is not 1980-01-01 00:00:00", where, ddate, dtime)
	}
	return nil
}

// checkLocal reads e's local header and requires it to equal the central
// record, with its data ending before the central directory at cdOff.
func checkLocal(r io.ReaderAt, e *entry, cdOff int64) error {
	var h [localLen]byte
	if e.Offset+localLen > cdOff {
		return errAt(CodeTruncated, e.Name, e.Offset, "local header runs into the central directory")
	}
	if _, err := r.ReadAt(h[:], e.Offset); err != nil {
		return &Error{Code: CodeIO, Entry: e.Name, Offset: e.Offset, Detail: "reading local header", Err: err}
	}
	if le32(h[0:]) != sigLocal {
		return errAt(CodeHeaderMismatch, e.Name, e.Offset, "no local header signature where the central record points")
	}
	l := entry{
		Name:   e.Name,
		Flags:  le16(h[6:]),
		Method: le16(h[8:]),
		CRC32:  le32(h[14:]),
		CSize:  uint64(le32(h[18:])),
		USize:  uint64(le32(h[22:])),
	}
	nameLen, extraLen := int64(le16(h[26:])), int64(le16(h[28:]))
	if e.Offset+localLen+nameLen+extraLen > cdOff {
		return errAt(CodeTruncated, e.Name, e.Offset, "local header runs into the central directory")
	}
	if extraLen != 0 {
		var tag [2]byte
		if _, err := r.ReadAt(tag[:], e.Offset+localLen+nameLen); err == nil && le16(tag[:]) == 1 {
			return errAt(CodeZip64, e.Name, e.Offset, "zip64 extra field in local header")
		}
		return errAt(CodeExtraField, e.Name, e.Offset, "local header has %d bytes of extra fields", extraLen)
	}
	if err := checkFixed(&l, le16(h[4:]), le16(h[10:]), le16(h[12:]), e.Offset, "local header"); err != nil {
		return err
	}
	name := make([]byte, nameLen)
	if _, err := r.ReadAt(name, e.Offset+localLen); err != nil {
		return &Error{Code: CodeIO, Entry: e.Name, Offset: e.Offset, Detail: "reading local name", Err: err}
	}
	var diffs []string
	if string(name) != e.Name {
		diffs = append(diffs, fmt.Sprintf("name %q", name))
	}
	if l.Flags != e.Flags {
		diffs = append(diffs, fmt.Sprintf("flags %#x vs %#x", l.Flags, e.Flags))
	}
	if l.Method != e.Method {
		diffs = append(diffs, fmt.Sprintf("method %d vs %d", l.Method, e.Method))
	}
	if l.CRC32 != e.CRC32 {
		diffs = append(diffs, fmt.Sprintf("crc %#08x vs %#08x", l.CRC32, e.CRC32))
	}
	if l.CSize != e.CSize || l.USize != e.USize {
		diffs = append(diffs, fmt.Sprintf("sizes %d/%d vs %d/%d", l.CSize, l.USize, e.CSize, e.USize))
	}
	if len(diffs) > 0 {
		return errAt(CodeHeaderMismatch, e.Name, e.Offset, "local header differs from central record: %v", diffs)
	}
	e.DataOffset = e.Offset + localLen + nameLen
	if e.DataOffset+int64(e.CSize) > cdOff {
		return errAt(CodeTruncated, e.Name, e.DataOffset, "%d bytes of data run into the central directory", e.CSize)
	}
	return nil
}

// open returns a reader of e's uncompressed bytes that fails with an *Error
// as soon as the data exceeds the declared size, and at the end if the size,
// the CRC-32 or the compressed length is not the declared one. It never
// produces more than e.USize bytes.
func (a *archive) open(e *entry) io.Reader {
	src := io.NewSectionReader(a.r, e.DataOffset, int64(e.CSize))
	cr := &countingReader{br: bufio.NewReaderSize(src, 32<<10)}
	er := &entryReader{e: e, crc: crc32.NewIEEE(), cr: cr}
	if e.Method == MethodStore {
		er.r = cr
	} else {
		er.r = flate.NewReader(cr)
	}
	return er
}

type countingReader struct {
	br *bufio.Reader
	n  int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

type entryReader struct {
	e   *entry
	r   io.Reader
	cr  *countingReader
	crc interface {
		Sum32() uint32
		Write([]byte) (int, error)
	}
	n    uint64
	done error
}

func (er *entryReader) Read(p []byte) (int, error) {
	if er.done != nil {
		return 0, er.done
	}
	e := er.e
	// Ask for one byte past the declared size, so that a lie shows.
	if rem := e.USize + 1 - er.n; uint64(len(p)) > rem {
		p = p[:rem]
	}
	n, err := er.r.Read(p)
	er.n += uint64(n)
	if er.n > e.USize {
		er.done = errAt(CodeSizeMismatch, e.Name, e.DataOffset, "data is longer than the declared %d bytes", e.USize)
		n -= int(er.n - e.USize)
		er.crc.Write(p[:n])
		return n, er.done
	}
	er.crc.Write(p[:n])
	if err == io.EOF {
		er.done = er.finish()
		return n, er.done
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || e.Method == MethodDeflate {
			er.done = &Error{Code: CodeBadDeflate, Entry: e.Name, Offset: e.DataOffset, Detail: "corrupt compressed data", Err: err}
		} else {
			er.done = &Error{Code: CodeIO, Entry: e.Name, Offset: e.DataOffset, Detail: "reading entry data", Err: err}
		}
		return n, er.done
	}
	return n, nil
}

// finish runs the end-of-data checks and returns io.EOF if they pass.
func (er *entryReader) finish() error {
	e := er.e
	switch {
	case er.n != e.USize:
		return errAt(CodeSizeMismatch, e.Name, e.DataOffset, "data is %d bytes, declared %d", er.n, e.USize)
	case er.cr.n != int64(e.CSize):
		return errAt(CodeBadDeflate, e.Name, e.DataOffset, "compressed stream ends after %d of %d bytes", er.cr.n, e.CSize)
	case er.crc.Sum32() != e.CRC32:
		return errAt(CodeCRC, e.Name, e.DataOffset, "crc-32 of data is %#08x, declared %#08x", er.crc.Sum32(), e.CRC32)
	}
	return io.EOF
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

func le32at(r io.ReaderAt, off int64) uint32 {
	var b [4]byte
	if _, err := r.ReadAt(b[:], off); err != nil {
		return 0
	}
	return le32(b[:])
}
