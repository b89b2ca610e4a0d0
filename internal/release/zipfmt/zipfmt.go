// Package zipfmt holds the ZIP bytes that catalogkit's archive writer and
// reader (package archive) and its archive comparer (package zipdiff)
// share: the record signatures, the fixed record lengths, the little-endian
// fields and the one codec of the three records catalogkit writes (local
// file header, central directory record, end record; APPNOTE.TXT 4.3), so
// that where each field sits is written down once. It knows nothing of
// releases and judges nothing: what a release may hold is package
// archive's, what two archives differ in is package zipdiff's.
package zipfmt

import "encoding/binary"

// Record signatures.
const (
	SigLocal        = 0x04034b50 // local file header
	SigCentral      = 0x02014b50 // central directory file header
	SigEnd          = 0x06054b50 // end of central directory record
	SigZip64Locator = 0x07064b50 // ZIP64 end of central directory locator
	SigDescriptor   = 0x08074b50 // optional data descriptor signature
)

// Fixed lengths of the records, before their variable fields.
const (
	LocalLen      = 30
	CentralLen    = 46
	EndLen        = 22
	MaxCommentLen = 1<<16 - 1 // the longest archive comment
)

// LE16 returns the little-endian uint16 at the start of b.
func LE16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }

// LE32 returns the little-endian uint32 at the start of b.
func LE32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

// A Header holds the fields of a central directory record or of a local
// file header, as stored. The fields marked "central only" are zero in a
// local header.
type Header struct {
	CreatorVersion uint16 // central only: "version made by"
	ReaderVersion  uint16 // "version needed to extract"
	Flags          uint16
	Method         uint16
	ModTime        uint16 // MS-DOS time
	ModDate        uint16 // MS-DOS date
	CRC32          uint32
	CompressedSize uint32
	Size           uint32
	Name           string
	Extra          []byte
	Comment        string // central only
	DiskStart      uint16 // central only: the disk the entry starts on
	InternalAttrs  uint16 // central only
	ExternalAttrs  uint32 // central only
	Offset         uint32 // central only: the local header's offset
}

// Lens are the lengths of a record's variable fields (name, extra field,
// comment), as its fixed part declares them.
type Lens struct{ Name, Extra, Comment int }

// Total is the length of the variable fields together.
func (l Lens) Total() int { return l.Name + l.Extra + l.Comment }

// DecodeCentral decodes the fixed part of a central directory record: b
// holds at least CentralLen bytes and starts with the signature (which it
// does not check). Name, Extra and Comment are left empty: they follow the
// fixed part, of the lengths it returns.
func DecodeCentral(b []byte) (Header, Lens) {
	b = b[:CentralLen]
	return Header{
			CreatorVersion: LE16(b[4:]), ReaderVersion: LE16(b[6:]), Flags: LE16(b[8:]), Method: LE16(b[10:]),
			ModTime: LE16(b[12:]), ModDate: LE16(b[14:]), CRC32: LE32(b[16:]), CompressedSize: LE32(b[20:]),
			Size: LE32(b[24:]), DiskStart: LE16(b[34:]), InternalAttrs: LE16(b[36:]), ExternalAttrs: LE32(b[38:]),
			Offset: LE32(b[42:]),
		},
		Lens{Name: int(LE16(b[28:])), Extra: int(LE16(b[30:])), Comment: int(LE16(b[32:]))}
}

// DecodeLocal decodes the fixed part of a local file header, as
// DecodeCentral does a central record's (b holds at least LocalLen bytes).
func DecodeLocal(b []byte) (Header, Lens) {
	b = b[:LocalLen]
	return Header{
			ReaderVersion: LE16(b[4:]), Flags: LE16(b[6:]), Method: LE16(b[8:]), ModTime: LE16(b[10:]),
			ModDate: LE16(b[12:]), CRC32: LE32(b[14:]), CompressedSize: LE32(b[18:]), Size: LE32(b[22:]),
		},
		Lens{Name: int(LE16(b[26:])), Extra: int(LE16(b[28:]))}
}

// AppendLocal appends h as a local file header: signature, fixed part, name
// and extra field.
func AppendLocal(b []byte, h Header) []byte {
	b = appendShared(le32(b, SigLocal), h)
	b = le16(b, uint16(len(h.Extra)))
	return append(append(b, h.Name...), h.Extra...)
}

// AppendCentral appends h as a central directory record: signature, fixed
// part, name, extra field and comment.
func AppendCentral(b []byte, h Header) []byte {
	b = appendShared(le16(le32(b, SigCentral), h.CreatorVersion), h)
	b = le16(b, uint16(len(h.Extra)), uint16(len(h.Comment)), h.DiskStart, h.InternalAttrs)
	b = le32(b, h.ExternalAttrs, h.Offset)
	return append(append(append(b, h.Name...), h.Extra...), h.Comment...)
}

// appendShared appends the fields that a local header and a central record
// share, from "version needed" to the name's length.
func appendShared(b []byte, h Header) []byte {
	b = le16(b, h.ReaderVersion, h.Flags, h.Method, h.ModTime, h.ModDate)
	b = le32(b, h.CRC32, h.CompressedSize, h.Size)
	return le16(b, uint16(len(h.Name)))
}

// le16 and le32 append little-endian fields.
func le16(b []byte, vs ...uint16) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func le32(b []byte, vs ...uint32) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// An End is the end of central directory record's fixed part.
type End struct {
	Disk        uint16 // this disk's number
	CentralDisk uint16 // the disk the central directory starts on
	DiskEntries uint16 // central directory records on this disk
	Entries     uint16 // central directory records in all
	CentralSize uint32
	CentralAt   uint32 // offset of the central directory
	CommentLen  uint16 // the archive comment's length
}

// DecodeEnd decodes an end record's fixed part: b holds at least EndLen
// bytes and starts with the signature (which it does not check).
func DecodeEnd(b []byte) End {
	b = b[:EndLen]
	return End{
		Disk: LE16(b[4:]), CentralDisk: LE16(b[6:]), DiskEntries: LE16(b[8:]), Entries: LE16(b[10:]),
		CentralSize: LE32(b[12:]), CentralAt: LE32(b[16:]), CommentLen: LE16(b[20:]),
	}
}

// AppendEnd appends e as an end record with its signature, and comment as
// the archive comment (whose length it writes in place of e.CommentLen).
func AppendEnd(b []byte, e End, comment string) []byte {
	b = le16(le32(b, SigEnd), e.Disk, e.CentralDisk, e.DiskEntries, e.Entries)
	b = le32(b, e.CentralSize, e.CentralAt)
	b = le16(b, uint16(len(comment)))
	return append(b, comment...)
}
