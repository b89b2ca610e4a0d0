package catalog

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Code is a stable error code. Codes are the API: match them, never the
// message text.
type Code string

// The stable error codes, in the order the contract checks them (the table of
// conformance/SPEC.md §9 lists them in this order). See the package
// documentation for which step yields which code.
const (
	InvalidCatalog           Code = "INVALID_CATALOG"
	InvalidFields            Code = "INVALID_FIELDS"
	InvalidLabel             Code = "INVALID_LABEL"
	DuplicateTool            Code = "DUPLICATE_TOOL"
	InvalidMetadata          Code = "INVALID_METADATA"
	InvalidSpec              Code = "INVALID_SPEC"
	UnknownFamily            Code = "UNKNOWN_FAMILY"
	ToolNotAvailableInFamily Code = "TOOL_NOT_AVAILABLE_IN_FAMILY"
	InvalidArgumentKeys      Code = "INVALID_ARGUMENT_KEYS"
	InvalidArgumentValue     Code = "INVALID_ARGUMENT_VALUE"
	// InvalidJSON is the code of the JSON text layer ([ParseJSON]): malformed
	// JSON, trailing data, duplicate object keys, invalid UTF-8, lone
	// surrogate escapes, or input over [MaxInputBytes] or [MaxDepth].
	InvalidJSON Code = "INVALID_JSON"
)

// Codes lists every stable code, in the order of the constants above.
var Codes = []Code{
	InvalidCatalog, InvalidFields, InvalidLabel, DuplicateTool, InvalidMetadata,
	InvalidSpec, UnknownFamily, ToolNotAvailableInFamily, InvalidArgumentKeys,
	InvalidArgumentValue, InvalidJSON,
}

// Error is the error of every function in this package. An Error means that
// nothing ran: discovery or validation failed, and the caller should re-read
// the current definitions.
type Error struct {
	// Code is the stable code.
	Code Code
	// Path locates the offending value: "$[2].fields.query.max_length" inside
	// the catalog (or inside the JSON text, for InvalidJSON), "family", "name",
	// "arguments" or "arguments.query" for the parameters of a call.
	Path string
	// Offset is the byte offset in the JSON text where an InvalidJSON error
	// was found, and -1 for every other code.
	Offset int
	// Detail says what is wrong, for people.
	Detail string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s: %s", e.Code, e.Detail)
	}
	return fmt.Sprintf("%s at %s: %s", e.Code, e.Path, e.Detail)
}

func errorf(code Code, path string, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Offset: -1, Detail: fmt.Sprintf(format, args...)}
}

// maxQuoted is the longest user string an error message quotes whole.
const maxQuoted = 100

// quoteShort quotes s for a message as %q does, cut after maxQuoted bytes
// (at a character boundary) with the length of the whole: a 32 MiB name
// must not make a 32 MiB message.
func quoteShort[T string | []byte](s T) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(string(s))
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(string(s[:cut])), len(s))
}
