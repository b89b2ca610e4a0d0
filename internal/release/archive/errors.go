package archive

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/codes"
)

// A Code identifies one kind of problem: the release side's one code type
// ([codes.Code]). Codes are the stable API: tests, callers and
// automation match them, never message text.
type Code = codes.Code

// The strict reader's codes: what it refuses in an archive's structure and
// data.
const (
	CodeNotZip         Code = "not_zip"          // no end-of-central-directory record where one must be
	CodeTruncated      Code = "truncated"        // a record or entry runs past the end of the file
	CodePrepended      Code = "prepended_data"   // bytes before the first local header
	CodeTrailing       Code = "trailing_data"    // bytes after the end-of-central-directory record
	CodeComment        Code = "comment"          // an archive or entry comment
	CodeGap            Code = "gap"              // bytes between two entries or before the central directory
	CodeOverlap        Code = "overlap"          // an entry starts inside the previous one
	CodeHeaderMismatch Code = "header_mismatch"  // a local header differs from its central record
	CodeExtraField     Code = "extra_field"      // an extra field
	CodeZip64          Code = "zip64"            // ZIP64 records or fields: the format never uses them
	CodeDataDescriptor Code = "data_descriptor"  // flag bit 3: CRC and sizes not in the local header
	CodeEncrypted      Code = "encrypted"        // flag bit 0 or 6
	CodeFlags          Code = "flags"            // a flag other than bit 11 (UTF-8)
	CodeMethod         Code = "method"           // a compression method other than Store (0) or Deflate (8)
	CodeVersion        Code = "version"          // "version made by" or "version needed" not the format's
	CodeTimestamp      Code = "timestamp"        // a timestamp other than 1980-01-01 00:00:00
	CodeAttributes     Code = "attributes"       // internal attributes or disk numbers not zero
	CodeNameTooLong    Code = "name_too_long"    // a name longer than MaxNameLen, or an element longer than MaxElementLen
	CodeTooManyEntries Code = "too_many_entries" // more entries than Limits.MaxEntries
	CodeFileTooLarge   Code = "file_too_large"   // an entry (or a file to pack) larger than Limits.MaxFileSize
	CodeTotalTooLarge  Code = "total_too_large"  // entries larger than Limits.MaxTotalSize together
	CodeTooLarge       Code = "too_large"        // an archive of 4 GiB or more: the format never uses ZIP64
	CodeRatio          Code = "ratio"            // an entry expands more than Limits.MaxRatio allows
	CodeSizeMismatch   Code = "size_mismatch"    // data not of the declared size (checked while streaming)
	CodeCRC            Code = "crc"              // CRC-32 of the data not the declared one (a zero CRC included)
	CodeBadDeflate     Code = "bad_deflate"      // a corrupt or overlong deflate stream
)

// The path rules' codes, shared by the writer (refusing a tree) and the
// reader (refusing an archive's names).
const (
	CodeAbsolutePath  Code = "absolute_path"  // a name starting with "/"
	CodeTraversal     Code = "path_traversal" // a ".." element
	CodeBackslash     Code = "backslash"      // a "\" in a name
	CodeDriveLetter   Code = "drive_letter"   // a drive letter such as "C:", or a colon in any element
	CodeControlChar   Code = "control_char"   // a control character (C0, DEL, C1), newline and NUL included
	CodeNotUTF8       Code = "not_utf8"       // a name that is not valid UTF-8
	CodeUncleanPath   Code = "unclean_path"   // empty or "." elements, doubled slashes, or an empty name
	CodeOutsideRoot   Code = "outside_root"   // not under the single top-level folder catalogkit-<version>/
	CodeNotRegular    Code = "not_regular"    // a directory entry, symlink or other non-regular file
	CodeMode          Code = "mode"           // a mode other than 0644 or 0755
	CodeDuplicate     Code = "duplicate"      // the same name twice
	CodeCaseCollision Code = "case_collision" // two names equal under case folding or Unicode normalization
	CodeFileDirClash  Code = "file_dir_clash" // a name used as both a file and a directory
	CodeWindowsName   Code = "windows_name"   // a name reserved or invalid on Windows (CON, aux.go, "a.", <>"|?*)
	CodeReservedName  Code = "reserved_name"  // the manifest's own name, which the writer generates
	CodeExcluded      Code = "excluded"       // a name the selection rules leave out (.git/config, x.swp, a nested module's files)
)

// The writer's own refusals of a tree.
const (
	CodeMissingFile Code = "required_missing" // VERSION or go.mod missing or not a regular file
	CodeUntracked   Code = "untracked"        // a file git does not track (in a checkout)
	CodeUncommitted Code = "uncommitted"      // a file changed since the last commit (in a checkout)
	CodeGitFailed   Code = "git_failed"       // git could not say what is committed
)

// The manifest parser's codes.
const (
	CodeManifestSyntax Code = "manifest_syntax" // a line not in the format, unsorted, CR, or bad metadata
	CodeManifestMeta   Code = "manifest_meta"   // metadata disagrees with the file lines (count, tree hash)
	CodeListedTwice    Code = "listed_twice"    // a path listed more than once
)

// CodeIO is an I/O failure while reading or writing.
const CodeIO Code = "io"

// An Error is one problem: a stable [Code], the offending entry (an archive
// name, a tree path or a manifest path) when there is one, and the byte
// offset in the archive when it is known (-1 otherwise). It is the error of
// every reader of release bytes: the strict reader here, verify, and
// package zipdiff, which names in File which of its two archives it is
// about.
type Error struct {
	Code   Code
	Entry  string
	Offset int64
	Detail string // lowercase, human-readable; not part of the API
	Err    error  // underlying cause, if any
	File   string // the archive file, when the caller reads more than one (diff)
}

func (e *Error) Error() string {
	if e.File != "" {
		// diff's form: the file and the code first, for a reader comparing two.
		s := fmt.Sprintf("%s: %s: %s", e.File, e.Code, e.Detail)
		if e.Offset >= 0 {
			s += fmt.Sprintf(" (at byte offset %d)", e.Offset)
		}
		if e.Err != nil {
			s += ": " + e.Err.Error()
		}
		return s
	}
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
		File    string `json:"file,omitempty"`
		Entry   string `json:"entry,omitempty"`
		Offset  *int64 `json:"offset,omitempty"`
		Message string `json:"message"`
	}{e.Code, e.File, e.Entry, off, e.Error()})
}

// Errorf returns an *Error with no offset.
func Errorf(code Code, entry string, format string, args ...any) *Error {
	return &Error{Code: code, Entry: entry, Offset: -1, Detail: fmt.Sprintf(format, args...)}
}

// errAt returns an *Error at a byte offset of the archive.
func errAt(code Code, entry string, off int64, format string, args ...any) *Error {
	return &Error{Code: code, Entry: entry, Offset: off, Detail: fmt.Sprintf(format, args...)}
}

// ioErr wraps an I/O failure.
func ioErr(entry string, off int64, detail string, err error) *Error {
	return &Error{Code: CodeIO, Entry: entry, Offset: off, Detail: detail, Err: err}
}

// CodeOf returns the code of the first *Error in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// AsError returns err as an *Error, wrapping anything else as CodeIO.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return ioErr("", -1, "unexpected error", err)
}

// A RefusalError lists every file of a tree that the writer refuses, so
// that a maintainer can fix everything in one go. [Select], [Build],
// [WriteRelease] and [CheckCheckout] return it.
type RefusalError struct {
	Problems []*Error // sorted by path, then code
}

func (e *RefusalError) Error() string {
	if len(e.Problems) == 1 {
		return fmt.Sprintf("refusing to pack 1 file: %v", e.Problems[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to pack %d files:", len(e.Problems))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n\t%v", p)
	}
	return b.String()
}

// refuse returns problems sorted as a *RefusalError, or nil if there are none.
func refuse(problems []*Error) error {
	if len(problems) == 0 {
		return nil
	}
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].Entry != problems[j].Entry {
			return problems[i].Entry < problems[j].Entry
		}
		return problems[i].Code < problems[j].Code
	})
	return &RefusalError{Problems: problems}
}
