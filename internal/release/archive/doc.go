// Package archive is catalogkit's release format, in both directions: a
// deterministic ZIP whose bytes depend only on the release files' paths,
// contents and executable bits and on the version, a manifest inside it that
// standard tools check, and a SHA256SUMS file beside it. As archive/zip has
// a reader, a writer and shared structures, and golang.org/x/mod/zip has
// Create, CheckZip and Unzip over one set of checks, this package holds the
// format once:
//
//   - format.go: the constants every header carries, the names, the sizes
//     and the [Limits] that the writer and the reader share;
//   - paths.go: one set of path rules ([CheckPath], [CheckPaths]), each
//     refusal an *[Error] with a [Code] (errors.go lists them);
//   - select.go and checkout.go: which files of a tree are the release;
//   - writer.go: [Build] and [Pack]; release.go: [WriteRelease], the
//     locked, crash-safe write of the archive and SHA256SUMS;
//   - manifest.go: the one manifest encoder and its strict parser,
//     [ParseManifest];
//   - reader.go: the strict reader, [NewReader], which accepts exactly the
//     layout the writer writes, checks the data while it streams
//     ([Reader.Open]) and the names before anything is written
//     ([Reader.CheckSelection], [Reader.CheckNames]).
//
// Package verify builds on it: it adds what a third party's check adds (the
// expected hash, extraction, comparing the files on disk with the manifest,
// the byte-identical repack, the re-run of the tests).
//
// # Selection
//
// [Select] lists the release files of a tree: the top-level entries in
// [Allowlist] (directories recursively), less the rules in [Exclusions]
// (dot-names, build outputs, editor and OS litter, fuzz caches, nested
// modules). A generated MANIFEST.sha256 at the root of an extracted release is
// not allowlisted, so packing an extracted release selects exactly the files
// its manifest lists and regenerates the manifest. Symbolic links are never
// followed.
//
// # Refusals
//
// The writer refuses, listing every offending path with its code in a
// *[RefusalError]:
//
//   - symbolic links and other non-regular files;
//   - unclean paths (empty, absolute, "." or ".." elements, doubled slashes)
//     and paths that are not valid UTF-8;
//   - an element longer than [MaxElementLen] (255) bytes, which no common
//     file system can hold;
//   - names that sha256sum would escape: newline, backslash or any other
//     control character (C0, DEL, C1);
//   - names reserved or invalid on Windows: CON, PRN, AUX, NUL, COM0-9,
//     LPT0-9 (with any extension, any case), any of <>:"|?*, and an element
//     ending in a dot or a space;
//   - case-fold or Unicode-normalization collisions between any two paths,
//     files or directories;
//   - a path used both as a file and as a directory, or listed twice;
//   - the manifest's own name at the top, in any case;
//   - in a list of files given to [Build], a name that the selection rules
//     leave out ([CheckSelected]: a dot file, build output, editor litter, a
//     fuzz cache, a nested module's files): [Select] never picks one, and
//     the reader refuses an archive that holds one ([Reader.CheckSelection]);
//   - more entries, a larger file or total, or a higher compression ratio
//     than [Options.Limits] ([DefaultLimits] unless told otherwise: the
//     same limits catalogkit verify applies by default, so every archive
//     the writer makes passes it), and an archive of 4 GiB or more: the
//     format never uses ZIP64.
//
// # The archive
//
// Every entry is a regular file named "catalogkit-<version>/<path>" (see
// [TopFolder]); there are no directory entries. Entries are sorted byte-wise
// by name, the manifest "catalogkit-<version>/MANIFEST.sha256" among them. The
// headers are built from scratch, never from a file's metadata:
//
//   - version made by [CreatorVersion] (Unix, 2.0), version needed
//     [ReaderVersion] (2.0);
//   - flags [Flags]: bit 11 (UTF-8 names) always, nothing else, so no data
//     descriptors and no encryption;
//   - method [MethodDeflate] with github.com/klauspost/compress/flate at
//     [FlateLevel] if that is strictly smaller than the file, else
//     [MethodStore];
//   - modification time [DOSDate] [DOSTime], 1980-01-01 00:00:00, the same for
//     every entry whatever the time zone; no extended timestamp;
//   - CRC-32 and both sizes in the local header, equal to the central record;
//   - no extra fields, no file comments, internal attributes 0, external
//     attributes [ExternalAttrs]: a regular file of mode 0644, or 0755 if any
//     executable bit was set;
//   - the central directory follows the last entry, then the end record with
//     no comment. Nothing precedes the first local header.
//
// So the archive is: for each entry, a 30-byte local header, the name, the
// data; then for each entry a 46-byte central record and the name; then the
// 22-byte end record.
//
// # The manifest
//
// MANIFEST.sha256 is LF-terminated text. It starts with comment lines, which
// "sha256sum -c --strict" skips:
//
//	# catalogkit-manifest/1
//	# version: 0.1.0
//	# compressor: github.com/klauspost/compress v1.20.4 flate level 8
//	# method: deflate when strictly smaller, else store
//	# timestamp: 1980-01-01T00:00:00Z
//	# files: <number of file lines>
//	# bytes: <total size of the listed files>
//	# tree-hash: h1:<base64 SHA-256 of the file lines>
//	# tree-sha256: <hex of the same SHA-256>
//	# executable: <path>    (one line per file of mode 0755, sorted; often none)
//
// then one line "<sha256 hex>  <path>" per file other than the manifest,
// sorted byte-wise by path, the path relative to the top folder. The content
// tree hash is the SHA-256 of exactly those file lines, the construction of
// golang.org/x/mod/sumdb/dirhash's Hash1 over paths relative to the top
// folder: unlike the archive's SHA-256 it does not depend on the compressor.
// [ParseManifest] parses it strictly; it is the only manifest parser.
package archive
