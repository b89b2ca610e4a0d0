// Package verify checks a catalogkit release archive the way a third party
// who downloaded it should: assuming it may have been crafted by an attacker.
// The format itself (the strict reader, the path rules, the manifest parser,
// the writer that the repack step runs) is package archive; this package adds
// only what verifying adds, one file per step, in this order:
//
//   - hash (hash.go, sums.go, signature.go, rebuild.go): the archive's
//     SHA-256 against an expected value (--sha256 or a SHA256SUMS file),
//     computed before a single byte is parsed. With Options.Keys, the
//     signature of SHA256SUMS is checked before the archive is read, and
//     the provenance beside it once its hash is known. The archive must be
//     a regular file, checked before it is opened for reading (a FIFO or a
//     device is refused, never read), and at most 4 GiB, checked before
//     hashing: no archive of this format is larger. Without an expected
//     value the step is not run and the report says the archive's identity
//     was not checked. With Options.Rebuild, a commit of the user's own git
//     checkout is packed in a clean clone and the archive must be exactly
//     those bytes; a mismatch is explained by package zipdiff from the two
//     files, with nothing extracted.
//   - parse (parse.go): [archive.NewReader]'s strict, bounded parse, then
//     every entry decompressed on all cores with its size and CRC-32 checked
//     while it streams.
//   - extract (extract.go): every name checked before anything is written
//     ([archive.Reader.CheckNames]), then files created with O_EXCL in a
//     fresh 0700 directory, one directory handle per folder, on all cores.
//     The directory is removed on every exit path unless Options.KeepDir is
//     set. The archive is opened read-only.
//   - manifest (manifest.go): MANIFEST.sha256, parsed by
//     [archive.ParseManifest], lists every file on disk exactly once with
//     its SHA-256 as read back from disk, none missing, none extra, and the
//     executable bits it names.
//   - repack (repack.go): packing the extracted tree with [archive.Pack]
//     gives the same bytes as the archive (and so the SHA-256 the hash step
//     computed: the tree on disk is what was hashed, even if the file
//     changed since).
//   - tests (rerun.go): go test -json on the catalog, conformance and
//     records packages of the extracted tree, offline, requiring exactly the
//     expected case ids to have run and passed, and the records test too.
//     This runs code from the archive with the user's permissions, so it
//     runs only after every earlier step passed, and only when the archive's
//     identity came from something the user gave: a signature by a key, a
//     typed SHA-256, a matching rebuild, or an explicit Options.Exec (an
//     unsigned SHA256SUMS is integrity, not identity). Its first row
//     (sandbox.go) decides, by Options.Sandbox, whether go test runs in
//     the sandbox of package sandbox (no network, its own PID namespace
//     and /proc, a read-only file system but the tree, the build cache and
//     a private temporary folder, no home, process and wall-clock limits,
//     every descendant ended with it), and the step's line says so, or why
//     not. Reading go test's output never blocks the step's end
//     (gotest.go). A --keep tree is left only if the repack step passed.
//
// The run is a table (steps in verify.go): each step is a line of the
// report, with what skips it, and a list of checks, each its own row with
// its own skip rule, its function and the reason it gives the later steps
// when it fails. Adding a check is adding a row; a step's number is its
// position in the table ([StepNumber]), written nowhere else. A check that
// fails stops the later steps, which are reported as not run with its
// reason. Options.OnStep sees each step as it ends, so a report can stream.
//
// Each problem is an [*archive.Error] with a stable [archive.Code]: the
// reader's and the path rules' codes from package archive, and this
// package's own (errors.go). A step that finds problems in bulk (names when
// extracting, files against the manifest, cases in the tests) reports all
// of them, the first deciding the step's code.
package verify
