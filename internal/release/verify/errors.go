package verify

import "github.com/catalogkit/catalogkit/internal/release/archive"

// The codes this package adds to package archive's. Codes are the stable
// API: tests and automation match them, never message text.

// The hash step, archive hash.
const (
	CodeArchiveHash  archive.Code = "archive_hash_mismatch" // the archive's SHA-256 is not the expected one
	CodeSumsSyntax   archive.Code = "sums_syntax"           // the SHA256SUMS file is not in sha256sum format
	CodeSumsNoEntry  archive.Code = "sums_no_entry"         // SHA256SUMS has no line for the archive's name
	CodeNotFile      archive.Code = "not_regular_file"      // the archive or SHA256SUMS is a FIFO, device or directory
	CodeNoSignature  archive.Code = "signature_missing"     // --key given but no SHA256SUMS.minisig (or provenance .minisig) beside --sums
	CodeKeyNeedsSums archive.Code = "key_needs_sums"        // --key given without --sums
	// CodeProvenanceKey: the provenance is signed by another key than SHA256SUMS.
	CodeProvenanceKey archive.Code = "PROVENANCE_KEY"
	// CodeCommentTree (the manifest step): the files' tree hash is not the one the
	// signed trusted comment names.
	CodeCommentTree archive.Code = "TRUSTED_COMMENT_TREE"
	// A refusal of a signature or provenance keeps package sign's or
	// provenance's upper-case code (BAD_SIGNATURE, UNKNOWN_KEY, ...).
)

// The extract step, extraction.
const (
	CodeKeepDir archive.Code = "keep_dir" // --keep names a directory that is not empty
)

// The manifest step, manifest against the files on disk.
const (
	CodeManifestMissing archive.Code = "manifest_missing" // no catalogkit-<version>/MANIFEST.sha256
	CodeHashMismatch    archive.Code = "hash_mismatch"    // a file whose SHA-256 is not the listed one
	CodeMissing         archive.Code = "missing"          // a listed file not in the archive
	CodeUnlisted        archive.Code = "unlisted"         // a file in the archive the manifest does not list
	CodeModeMismatch    archive.Code = "mode_mismatch"    // a file's executable bit disagrees with the manifest
)

// The repack step, repack.
const (
	CodeRepackFailed   archive.Code = "repack_failed"   // the writer refused the extracted tree
	CodeRepackMismatch archive.Code = "repack_mismatch" // the repacked bytes differ from the archive
)

// The tests step, tests.
const (
	CodeNoGo        archive.Code = "no_go"        // no go command on PATH
	CodeTestRun     archive.Code = "test_run"     // go test did not run to completion or its output was not JSON
	CodeTestsFailed archive.Code = "tests_failed" // a test failed, was skipped, or did not report
	CodeCases       archive.Code = "cases"        // the case files or the subtests that ran are not exactly the expected ones
	CodeRecords     archive.Code = "records"      // the records check did not pass
	CodeNotVerified archive.Code = "not_verified" // tests not run because the archive's identity was not checked
	CodeTreeChanged archive.Code = "tree_changed" // the kept tree (--keep) is not the archive's bytes after the tests ran
)

// Any step.
const (
	CodeInterrupted archive.Code = "interrupted" // the run was cancelled (Ctrl-C, SIGTERM)
)

// errf returns an *archive.Error with no offset.
var errf = archive.Errorf

// ioErr wraps an I/O failure.
func ioErr(entry, detail string, err error) *archive.Error {
	return &archive.Error{Code: archive.CodeIO, Entry: entry, Offset: -1, Detail: detail, Err: err}
}
