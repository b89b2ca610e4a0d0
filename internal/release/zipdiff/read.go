package zipdiff

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/zipfmt"
)

// A Code names why an archive could not be read: the codes are package
// archive's, which has one code for each condition of the format.
type Code = archive.Code

// Error is an archive that could not be read: package archive's error,
// with File saying which of the two archives, the code, and the byte offset
// in that file where the problem was found (-1 if none).
type Error = archive.Error

// Limits bound what reading an archive may cost.
type Limits struct {
	MaxArchiveSize int64 // bytes of the archive file
	MaxEntries     int   // central directory records
	MaxEntrySize   int64 // uncompressed bytes of one entry that are read and hashed
	MaxTextSize    int64 // uncompressed bytes of one entry that are kept for a line diff
	MaxTotalSize   int64 // uncompressed bytes of all entries of one archive that are read and hashed
}

// DefaultLimits are generous for catalogkit's releases (a few MiB).
var DefaultLimits = Limits{
	MaxArchiveSize: 1 << 30,
	MaxEntries:     1 << 16,
	MaxEntrySize:   256 << 20,
	MaxTextSize:    1 << 20,
	MaxTotalSize:   1 << 30,
}

// Header holds the fields of one header, central or local, as stored.
type Header = zipfmt.Header

// A Descriptor is the data descriptor that follows an entry's data when
// bit 3 of its flags is set.
type Descriptor struct {
	Signature      bool // starts with the optional signature 0x08074b50
	CRC32          uint32
	CompressedSize uint32
	Size           uint32
}

// An Entry is one central directory record and the local header it points to.
type Entry struct {
	Index      int   // position in the central directory
	CentralAt  int64 // offset of its central directory record
	Central    Header
	Local      Header
	HeaderAt   int64       // offset of the local header
	DataAt     int64       // offset of the compressed data
	DescAt     int64       // offset of the data descriptor (DataEnd if there is none)
	DataEnd    int64       // offset after the compressed data and the data descriptor, if any
	Descriptor *Descriptor // nil unless bit 3 of the flags is set
	// Overlaps is the index of an entry whose bytes (local header to the
	// end of the data) overlap this one's, -1 if none: the content of an
	// overlapping entry is never read, so that many records pointing at
	// the same data cost no more than one.
	Overlaps int
	// Occurrence numbers the entries of one name from 1, in central
	// directory order.
	Occurrence int
}

// An Archive is a parsed ZIP file. Its entries' contents are read when
// [Compare] needs them, from the reader [Read] was given.
type Archive struct {
	Name          string
	Size          int64
	Entries       []*Entry
	Comment       string
	CentralAt     int64 // offset of the central directory
	CentralSize   int64
	EndAt         int64     // offset of the end record
	Prefix        int64     // bytes before the first local header (0 in a clean archive)
	Gaps          []Gap     // unused byte ranges between entries, in or after the central directory
	DiskNumbers   [2]uint16 // this disk, disk with the central directory
	EntriesOnDisk uint16
	Overlapping   int // entries whose bytes overlap an earlier entry's

	r    io.ReaderAt
	lim  Limits
	read int64 // bytes of entry data still allowed to be read (see readBudget)
	left int64 // uncompressed bytes still allowed to be inflated (MaxTotalSize)

	overlapMsg map[int]string // see overlapErr
	names      map[string]int // how many entries have each name
}

// readBudget is how many bytes of entries' data (and of the bytes outside
// every entry) may be read from an archive of size bytes, counting every
// reading: twice its size covers hashing each entry's stored bytes once and
// inflating them once, since overlapping entries are never read.
func readBudget(size int64) int64 { return 2*size + 1<<20 }

// A Gap is a byte range no structure covers.
type Gap struct{ From, To int64 }

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Read parses the structures of the archive of size bytes read from r (end
// record, central directory, local headers, data descriptors); name is used
// in errors. It reads no entry's data: r must stay readable while the
// archive is compared.
func Read(name string, r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	fail := func(code Code, off int64, format string, args ...any) (*Archive, error) {
		return nil, &Error{File: name, Code: code, Offset: off, Detail: fmt.Sprintf(format, args...)}
	}
	if size > lim.MaxArchiveSize {
		return fail(archive.CodeTooLarge, -1, "the archive is %d bytes, more than the limit of %d", size, lim.MaxArchiveSize)
	}
	if size < zipfmt.EndLen {
		return fail(archive.CodeNotZip, -1, "%d bytes is too short for a ZIP archive (no end of central directory record)", size)
	}
	// The end record is in the last 22 + 65535 bytes.
	tailLen := min(size, zipfmt.EndLen+zipfmt.MaxCommentLen)
	tail := make([]byte, tailLen)
	if _, err := r.ReadAt(tail, size-tailLen); err != nil {
		return nil, &Error{File: name, Code: archive.CodeIO, Offset: size - tailLen, Detail: "cannot read", Err: err}
	}
	endRel := -1
	for i := len(tail) - zipfmt.EndLen; i >= 0; i-- {
		if zipfmt.LE32(tail[i:]) == zipfmt.SigEnd &&
			i+zipfmt.EndLen+int(zipfmt.LE16(tail[i+20:])) == len(tail) {
			endRel = i
			break
		}
	}
	if endRel < 0 {
		if at, n := trailingEnd(r, tail, size-tailLen); at >= 0 {
			return fail(archive.CodeTrailing, at, "%d bytes after the end of central directory record: something was appended to the archive (a ZIP archive ends with that record and its comment)", n)
		}
		return fail(archive.CodeNotZip, -1, "no end of central directory record: not a ZIP archive, or truncated at the end")
	}
	a := &Archive{Name: name, Size: size, EndAt: size - tailLen + int64(endRel), r: r, lim: lim, read: readBudget(size), left: lim.MaxTotalSize}
	end := zipfmt.DecodeEnd(tail[endRel:])
	a.DiskNumbers = [2]uint16{end.Disk, end.CentralDisk}
	a.EntriesOnDisk = end.DiskEntries
	count := int(end.Entries)
	a.CentralSize = int64(end.CentralSize)
	a.CentralAt = int64(end.CentralAt)
	a.Comment = string(tail[endRel+zipfmt.EndLen:])
	if a.EndAt >= 20 {
		var loc [4]byte
		if _, err := r.ReadAt(loc[:], a.EndAt-20); err == nil && zipfmt.LE32(loc[:]) == zipfmt.SigZip64Locator {
			return fail(archive.CodeZip64, a.EndAt-20, "a ZIP64 archive (catalogkit never writes ZIP64)")
		}
	}
	switch {
	case count == 0xffff || a.CentralSize == 0xffffffff || a.CentralAt == 0xffffffff:
		return fail(archive.CodeZip64, a.EndAt, "a ZIP64 archive (catalogkit never writes ZIP64)")
	case a.DiskNumbers != [2]uint16{} || int(a.EntriesOnDisk) != count:
		return fail(archive.CodeAttributes, a.EndAt, "a multi-disk (split) archive")
	case count > lim.MaxEntries:
		return fail(archive.CodeTooManyEntries, a.EndAt, "%d entries, more than the limit of %d", count, lim.MaxEntries)
	case a.CentralAt+a.CentralSize > a.EndAt:
		return fail(archive.CodeTruncated, a.EndAt, "the central directory (offset %d, %d bytes) runs past the end record at %d", a.CentralAt, a.CentralSize, a.EndAt)
	case int64(count)*zipfmt.CentralLen > a.CentralSize:
		return fail(archive.CodeTruncated, a.EndAt, "%d entries cannot fit in a %d-byte central directory", count, a.CentralSize)
	}
	cd := make([]byte, a.CentralSize)
	if _, err := r.ReadAt(cd, a.CentralAt); err != nil {
		return nil, &Error{File: name, Code: archive.CodeIO, Offset: a.CentralAt, Detail: "cannot read the central directory", Err: err}
	}
	pos := 0
	a.Entries = make([]*Entry, 0, count)
	a.names = make(map[string]int, count)
	block := make([]Entry, count) // one allocation for all entries
	for i := 0; i < count; i++ {
		at := a.CentralAt + int64(pos)
		if len(cd)-pos < zipfmt.CentralLen || zipfmt.LE32(cd[pos:]) != zipfmt.SigCentral {
			return fail(archive.CodeNotZip, at, "central directory record %d is missing or has a bad signature", i)
		}
		rec := cd[pos:]
		h, l := zipfmt.DecodeCentral(rec)
		if zipfmt.CentralLen+l.Total() > len(rec) {
			return fail(archive.CodeTruncated, at, "central directory record %d runs past the central directory", i)
		}
		v := rec[zipfmt.CentralLen:]
		h.Name = string(v[:l.Name])
		if l.Extra > 0 {
			h.Extra = append([]byte(nil), v[l.Name:l.Name+l.Extra]...)
		}
		h.Comment = string(v[l.Name+l.Extra : l.Total()])
		pos += zipfmt.CentralLen + l.Total()
		if h.CompressedSize == 0xffffffff || h.Size == 0xffffffff || h.Offset == 0xffffffff {
			return fail(archive.CodeZip64, at, "entry %d %s uses ZIP64 sizes", i, quote(h.Name))
		}
		a.names[h.Name]++
		block[i] = Entry{Index: i, CentralAt: at, Central: h, HeaderAt: int64(h.Offset), Overlaps: -1, Occurrence: a.names[h.Name]}
		a.Entries = append(a.Entries, &block[i])
	}
	// The local headers, in the order of the file: a header that several
	// records point at is read once.
	inFile := make([]*Entry, len(a.Entries))
	copy(inFile, a.Entries)
	sort.SliceStable(inFile, func(i, j int) bool { return inFile[i].HeaderAt < inFile[j].HeaderAt })
	lr := localReader{budget: size + 1<<20}
	var prev *Entry
	for _, e := range inFile {
		if err := lr.read(name, r, a, e, prev); err != nil {
			return nil, err
		}
		prev = e
	}
	if pos != len(cd) {
		a.Gaps = append(a.Gaps, Gap{a.CentralAt + int64(pos), a.CentralAt + a.CentralSize})
	}
	if end := a.CentralAt + a.CentralSize; end < a.EndAt {
		a.Gaps = append(a.Gaps, Gap{end, a.EndAt})
	}
	a.findGaps(inFile)
	return a, nil
}

// trailingEnd looks in tail (the end of the file, starting at file offset
// base) for an end record followed by more bytes than its comment: the
// offset of the record and how many bytes follow it and its comment, or -1.
// The record must be plausible (a central directory before it that starts
// with a record's signature), so that four stray bytes of data are not
// taken for one.
func trailingEnd(r io.ReaderAt, tail []byte, base int64) (int64, int64) {
	for i := len(tail) - zipfmt.EndLen; i >= 0; i-- {
		if zipfmt.LE32(tail[i:]) != zipfmt.SigEnd {
			continue
		}
		end := zipfmt.DecodeEnd(tail[i:])
		rest := len(tail) - (i + zipfmt.EndLen + int(end.CommentLen))
		if rest <= 0 {
			continue
		}
		at := base + int64(i)
		count, cdSize, cdAt := end.Entries, int64(end.CentralSize), int64(end.CentralAt)
		if cdAt+cdSize > at || int64(count)*zipfmt.CentralLen > cdSize {
			continue
		}
		if count > 0 {
			var sig [4]byte
			if _, err := r.ReadAt(sig[:], cdAt); err != nil || zipfmt.LE32(sig[:]) != zipfmt.SigCentral {
				continue
			}
		}
		return at, int64(rest)
	}
	return -1, 0
}

// localReader reads local headers, refusing local headers that add up to
// more than the archive's size (plus a MiB): only overlapping headers can.
type localReader struct {
	budget int64
	buf    []byte
}

// read reads the local header e's central record points to; prev is the
// entry read before it, in the order of the file.
func (lr *localReader) read(name string, r io.ReaderAt, a *Archive, e *Entry, prev *Entry) error {
	i, h := e.Index, e.Central
	fail := func(code Code, off int64, format string, args ...any) error {
		return &Error{File: name, Code: code, Offset: off, Detail: fmt.Sprintf(format, args...)}
	}
	at := e.HeaderAt
	if at+zipfmt.LocalLen > a.CentralAt {
		return fail(archive.CodeOverlap, at, "the local header of entry %d %s (offset %d) is not before the central directory", i, quote(h.Name), at)
	}
	if prev != nil && prev.HeaderAt == at {
		// Another record points at the same local header.
		e.Local, e.DataAt = prev.Local, prev.DataAt
	} else {
		var fixed [zipfmt.LocalLen]byte
		if _, err := r.ReadAt(fixed[:], at); err != nil {
			return &Error{File: name, Code: archive.CodeIO, Offset: at, Detail: "cannot read a local header", Err: err}
		}
		if zipfmt.LE32(fixed[:]) != zipfmt.SigLocal {
			return fail(archive.CodeHeaderMismatch, at, "entry %d %s: no local header signature at its offset", i, quote(h.Name))
		}
		l, lens := zipfmt.DecodeLocal(fixed[:])
		n, m := int64(lens.Name), int64(lens.Extra)
		e.DataAt = at + zipfmt.LocalLen + n + m
		if e.DataAt > a.CentralAt {
			return fail(archive.CodeOverlap, at, "entry %d %s: its local header runs into the central directory", i, quote(h.Name))
		}
		if lr.budget -= zipfmt.LocalLen + n + m; lr.budget < 0 {
			return fail(archive.CodeOverlap, at, "entry %d %s: the local headers add up to more bytes than the archive has: they overlap", i, quote(h.Name))
		}
		if int64(cap(lr.buf)) < n+m {
			lr.buf = make([]byte, n+m)
		}
		varPart := lr.buf[:n+m]
		if _, err := r.ReadAt(varPart, at+zipfmt.LocalLen); err != nil {
			return &Error{File: name, Code: archive.CodeIO, Offset: at + zipfmt.LocalLen, Detail: "cannot read a local header", Err: err}
		}
		if string(varPart[:n]) == h.Name {
			l.Name = h.Name // the usual case: one string for both
		} else {
			l.Name = string(varPart[:n])
		}
		if m > 0 {
			l.Extra = append([]byte(nil), varPart[n:]...)
		}
		e.Local = l
	}
	e.DescAt = e.DataAt + int64(h.CompressedSize)
	e.DataEnd = e.DescAt
	if h.Flags&0x8 != 0 {
		// A data descriptor: CRC-32 and two sizes, maybe after a signature.
		var b [16]byte
		n, _ := r.ReadAt(b[:], e.DescAt)
		d := &Descriptor{}
		fields := b[:]
		if n >= 4 && zipfmt.LE32(b[:]) == zipfmt.SigDescriptor {
			d.Signature = true
			fields = b[4:]
			n -= 4
		}
		if n < 12 {
			return fail(archive.CodeTruncated, e.DescAt, "entry %d %s: its data descriptor runs past the end of the file", i, quote(h.Name))
		}
		d.CRC32, d.CompressedSize, d.Size = zipfmt.LE32(fields), zipfmt.LE32(fields[4:]), zipfmt.LE32(fields[8:])
		e.Descriptor = d
		e.DataEnd += 12
		if d.Signature {
			e.DataEnd += 4
		}
	}
	if e.DataEnd > a.CentralAt {
		return fail(archive.CodeTruncated, e.DataAt, "entry %d %s: its %d bytes of data run into the central directory", i, quote(h.Name), h.CompressedSize)
	}
	return nil
}

// findGaps records bytes before the first local header and between entries,
// and which entries overlap another's bytes.
// spans are the entries in the order of the file.
func (a *Archive) findGaps(spans []*Entry) {
	next := int64(0)
	var owner *Entry // the entry whose bytes end at next
	for i, e := range spans {
		if i == 0 {
			a.Prefix = e.HeaderAt
		}
		switch {
		case i > 0 && e.HeaderAt < next:
			e.Overlaps = owner.Index
			a.Overlapping++
		case e.HeaderAt > next && i > 0:
			a.Gaps = append(a.Gaps, Gap{next, e.HeaderAt})
		}
		if e.DataEnd > next {
			next, owner = e.DataEnd, e
		}
	}
	if len(spans) == 0 {
		a.Prefix = a.CentralAt
	} else if a.CentralAt > next {
		a.Gaps = append(a.Gaps, Gap{next, a.CentralAt})
	}
	sort.Slice(a.Gaps, func(i, j int) bool { return a.Gaps[i].From < a.Gaps[j].From })
}
