package verify

import (
	"encoding/json"
	"errors"
	"fmt"
)

// A Code identifies one kind of problem. Codes are the stable API: tests and
// automation match them, never message text. Each code belongs to the step
// that detects it; see the package documentation for the list.
type Code string

// Step 1, archive hash.
const (
	CodeArchiveHash Code = "archive_hash_mismatch" // the archive's SHA-256 is not the expected one
	CodeSumsSyntax  Code = "sums_syntax"           // the SHA256SUMS file is not in sha256sum format
	CodeSumsNoEntry Code = "sums_no_entry"         // SHA256SUMS has no line for the archive's name
)

// Step 2, strict parse.
const (
	CodeNotZip         Code = "not_zip"          // no end-of-central-directory record where one must be
	CodeTruncated      Code = "truncated"        // a record or entry runs past the end of the file
	CodePrepended      Code = "prepended_data"   // bytes before the first local header
	CodeTrailing       Code = "trailing_data"    // bytes after the end-of-central-directory record
	CodeComment        Code = "comment"          // an archive or entry comment
	CodeGap            Code = "gap"              // bytes between two entries or before the central directory
	CodeOverlap        Code = "overlap"          // an entry starts inside the previous one
	CodeHeaderMismatch Code = "header_mismatch"  // a local header differs from its central record
	CodeExtraField     Code = "extra_field"      // an extra field (ZIP64 is not written by the packager below 4 GiB)
	CodeZip64          Code = "zip64"            // ZIP64 records: the packager only writes them past 4 GiB, beyond every limit
	CodeDataDescriptor Code = "data_descriptor"  // flag bit 3: CRC and sizes not in the local header
	CodeEncrypted      Code = "encrypted"        // flag bit 0 or 6
	CodeFlags          Code = "flags"            // a flag other than bit 11 (UTF-8)
	CodeMethod         Code = "method"           // a compression method other than Store (0) or Deflate (8)
	CodeVersion        Code = "version"          // "version made by" or "version needed" not the packager's
	CodeTimestamp      Code = "timestamp"        // a timestamp other than 1980-01-01 00:00:00
	CodeAttributes     Code = "attributes"       // internal attributes or disk numbers not zero
	CodeNameTooLong    Code = "name_too_long"    // a name longer than MaxNameLen
	CodeTooManyEntries Code = "too_many_entries" // more entries than Limits.MaxEntries
	CodeFileTooLarge   Code = "file_too_large"   // an entry larger than Limits.MaxFileSize
	CodeTotalTooLarge  Code = "total_too_large"  // entries larger than Limits.MaxTotalSize together
	CodeRatio          Code = "ratio"            // an entry expands more than Limits.MaxRatio allows
	CodeSizeMismatch   Code = "size_mismatch"    // data not of the declared size (checked while streaming)
	CodeCRC            Code = "crc"              // CRC-32 of the data not the declared one (a zero CRC included)
	CodeBadDeflate     Code = "bad_deflate"      // a corrupt or overlong deflate stream
)

// Step 3, safe extraction.
const (
	CodeAbsolutePath  Code = "absolute_path"  // a name starting with "/"
	CodeTraversal     Code = "path_traversal" // a ".." element
	CodeBackslash     Code = "backslash"      // a "\" in a name
	CodeDriveLetter   Code = "drive_letter"   // a name starting with a drive letter such as "C:"
	CodeControlChar   Code = "control_char"   // NUL or another control character in a name
	CodeNotUTF8       Code = "not_utf8"       // a name that is not valid UTF-8
	CodeUncleanPath   Code = "unclean_path"   // empty or "." elements, or an empty name
	CodeOutsideRoot   Code = "outside_root"   // not under the single top-level folder catalogkit-<version>/
	CodeNotRegular    Code = "not_regular"    // a directory entry, symlink or other non-regular file
	CodeMode          Code = "mode"           // a mode other than 0644 or 0755
	CodeDuplicate     Code = "duplicate"      // the same name twice
	CodeCaseCollision Code = "case_collision" // two names equal under case folding
	CodeFileDirClash  Code = "file_dir_clash" // a name used as both a file and a directory
	CodeWindowsName   Code = "windows_name"   // a name reserved or invalid on Windows (CON, aux.go, "a.", <>:"|?*)
	CodeKeepDir       Code = "keep_dir"       // --keep names a directory that is not empty
)

// Step 4, manifest.
const (
	CodeManifestMissing Code = "manifest_missing" // no catalogkit-<version>/MANIFEST.sha256
	CodeManifestSyntax  Code = "manifest_syntax"  // a line not in sha256sum format, unsorted, CR, or bad metadata
	CodeManifestMeta    Code = "manifest_meta"    // metadata disagrees with the file lines or the files (count, bytes, tree hash, version)
	CodeListedTwice     Code = "listed_twice"     // a path listed more than once
	CodeHashMismatch    Code = "hash_mismatch"    // a file whose SHA-256 is not the listed one
	CodeMissing         Code = "missing"          // a listed file not in the archive
	CodeUnlisted        Code = "unlisted"         // a file in the archive the manifest does not list
	CodeModeMismatch    Code = "mode_mismatch"    // a file's executable bit disagrees with the manifest metadata
)

// Step 5, repack.
const (
	CodeRepackFailed   Code = "repack_failed"   // the packager refused the extracted tree
	CodeRepackMismatch Code = "repack_mismatch" // the repacked bytes differ from the archive
)

// Step 6, tests.
const (
	CodeNoGo        Code = "no_go"        // no go command on PATH
	CodeTestRun     Code = "test_run"     // go test did not run to completion or its output was not JSON
	CodeTestsFailed Code = "tests_failed" // a test failed, was skipped, or did not report
	CodeCases       Code = "cases"        // the case files or the subtests that ran are not exactly the expected ones
	CodeRecords     Code = "records"      // the records check did not pass
	CodeNotVerified Code = "not_verified" // tests not run because an earlier step did not pass
)

// Any step.
const (
	CodeIO          Code = "io"          // reading or writing failed
	CodeInterrupted Code = "interrupted" // the run was cancelled (Ctrl-C)
)

// An Error is one problem found by a step: a stable [Code], the offending
// entry (an archive name or a manifest path) when there is one, and the byte
// offset in the archive when it is known (-1 otherwise).
type Error struct {
	Code   Code
	Entry  string
	Offset int64
	Detail string // lowercase, human-readable; not part of the API
	Err    error  // underlying cause, if any
}

func (e *Error) Error() string {
	msg := e.Detail
	if e.Entry != "" {
		msg = fmt.Sprintf("%q: %s", e.Entry, msg)
	}
	if e.Offset >= 0 {
		msg = fmt.Sprintf("%s (at byte %d)", msg, e.Offset)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// MarshalJSON encodes the error for --json: its code, entry, offset (omitted
// when unknown) and full message.
func (e *Error) MarshalJSON() ([]byte, error) {
	var off *int64
	if e.Offset >= 0 {
		off = &e.Offset
	}
	return json.Marshal(struct {
		Code    Code   `json:"code"`
		Entry   string `json:"entry,omitempty"`
		Offset  *int64 `json:"offset,omitempty"`
		Message string `json:"message"`
	}{e.Code, e.Entry, off, e.Error()})
}

// errf returns an *Error with no offset.
func errf(code Code, entry string, format string, args ...any) *Error {
	return &Error{Code: code, Entry: entry, Offset: -1, Detail: fmt.Sprintf(format, args...)}
}

// errAt returns an *Error at a byte offset of the archive.
func errAt(code Code, entry string, off int64, format string, args ...any) *Error {
	return &Error{Code: code, Entry: entry, Offset: off, Detail: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the first *Error in err's chain, or "" if there
// is none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
