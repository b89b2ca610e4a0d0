// Package zipdiff explains why two ZIP archives differ, for a maintainer
// whose rebuild of a release does not match the published bytes: a
// diffoscope specialised to the format catalogkit's packager writes, though
// it reads any ZIP without ZIP64.
//
// [DiffFiles] first compares the two files' bytes: when they are the same
// it reads no entry. Otherwise [Read] parses each archive's structures
// itself (end record, central directory, every local header and data
// descriptor), so that it can show fields archive/zip hides, and never
// extracts anything to disk. [Compare] then lists, in this order:
//
//   - archive-level differences: size, number of entries, archive comment,
//     the bytes before the first entry (their length, else their bytes),
//     unused byte ranges between entries, in or after the central directory
//     (their offsets, else their bytes), and entries whose bytes overlap
//     another entry's;
//   - names given to another number of entries ("duplicate"), entries only
//     in A ("removed") or only in B ("added");
//   - entries in another order (the first position where the common
//     entries' order differs, in the central directory or else in the
//     file);
//   - per entry present in both, in A's order: the content (SHA-256 and size
//     of the uncompressed bytes, with a line diff for text), the Unix mode,
//     the compression method, compressed bytes that differ for the same
//     content and method (another compressor, version or level: each side's
//     are deflated again with catalogkit's compressor and level, from
//     package archive, to say whose are its), the stored bytes of an entry
//     whose content could not be compared, and every other header field of
//     the central record, the local header and the data descriptor
//     (versions, flags, time and date, CRC-32, sizes, extra fields,
//     comments, attributes);
//
// and then the first differing byte offset, with the structure of A it falls
// in. Offsets (of local headers, of the central directory) are not
// differences of their own: they follow from the lengths before them, which
// are. Two archives are identical when their bytes are.
//
// [Report.WriteText] escapes every string an archive controls and prints a
// difference many entries share as one line; the JSON report lists each.
//
// # Hostile input
//
// Every size and offset is checked against the file before it is used; an
// archive larger than [Limits].MaxArchiveSize, with more than MaxEntries
// entries, with bytes after its end record, or whose structures are
// truncated or overlap the end of the file is refused with an [*Error] and
// its [Code]. Entries are compared a pair at a time, and only the pair being
// compared is held in memory. An entry whose bytes overlap another's (many
// central records pointing at one local header, say) is reported, not read.
// The data read from each archive, counting every reading, is bounded by
// twice its size plus 1 MiB; entry contents are inflated only up to
// MaxEntrySize bytes each (and never past their declared size) and
// MaxTotalSize bytes in all from each archive, hashed as they stream, and kept for a line diff
// only when both sides are valid UTF-8 text of at most MaxTextSize bytes.
// A line diff covers at most the first 32 KiB or 400 lines of the changed
// part of a text, shows at most 80 lines of 240 bytes, and a report holds
// at most 200 line diffs, 4000 lines in all, and 131072 differences; at most
// 64 MiB of content is deflated again. An entry whose content cannot be
// read (unknown method, encryption, bad deflate data, wrong CRC or size, a
// budget spent) is reported as such, with the header fields and stored
// bytes that differ, not fatal.
package zipdiff
