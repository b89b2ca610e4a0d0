// Package zipdiff explains why two ZIP archives differ, for a maintainer
// whose rebuild of a release does not match the published bytes: a
// diffoscope specialised to the format catalogkit's packager writes, though
// it reads any ZIP without ZIP64.
//
// [ReadFile] parses an archive's structures itself (end record, central
// directory, every local header), so that it can show fields archive/zip
// hides, and never extracts anything to disk. [Compare] then lists, in this
// order:
//
//   - archive-level differences: size, number of entries, archive comment,
//     bytes before the first entry or between entries, the central
//     directory's offset;
//   - entries only in A ("removed") or only in B ("added");
//   - entries in another order (the first position where the common entries'
//     order differs);
//   - per entry present in both, in A's order: the content (SHA-256 and size
//     of the uncompressed bytes, with a line diff for text), the Unix mode,
//     the compression method, compressed bytes that differ for the same
//     content and method (another compressor, version or level), and every
//     other header field of the central record and the local header
//     (versions, flags, time and date, CRC-32, sizes, extra fields,
//     comments, attributes);
//
// and then the first differing byte offset, with the structure of A it falls
// in. Two archives are identical when their bytes are.
//
// # Hostile input
//
// Every size and offset is checked against the file before it is used; an
// archive larger than [Limits].MaxArchiveSize, with more than MaxEntries
// entries, or whose structures are truncated or overlap the end of the file
// is refused with an [*Error] and its [Code]. Entry contents are inflated in
// memory only up to MaxEntrySize bytes (and never past their declared size),
// hashed as they stream, and kept for a line diff only when both sides are
// valid UTF-8 text of at most MaxTextSize bytes; an entry whose content
// cannot be read (unknown method, encryption, bad deflate data, wrong CRC or
// size) is reported as such, not fatal.
package zipdiff
