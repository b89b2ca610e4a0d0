// Package zipfmt holds the ZIP bytes that catalogkit's archive writer and
// reader (package archive) and its archive comparer (package zipdiff)
// share: the record signatures, the fixed record lengths and the
// little-endian fields (APPNOTE.TXT 4.3). It knows nothing of releases.
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
