package sign

import (
	"errors"
	"fmt"

	"github.com/catalogkit/catalogkit/internal/release/codes"
)

// A Code names one kind of refusal: the release side's one code type
// ([codes.Code]). Codes are stable: scripts and tests match them, never
// the message text.
type Code = codes.Code

// The codes, in the order the checks run (see the package documentation).
const (
	CodeSigFormat       Code = "SIGNATURE_FORMAT"
	CodeSigAlgorithm    Code = "SIGNATURE_ALGORITHM"
	CodeNoKeys          Code = "NO_PUBLIC_KEY"
	CodeKeyFormat       Code = "KEY_FORMAT"
	CodeKeyAlgorithm    Code = "KEY_ALGORITHM"
	CodeNotPublicKey    Code = "NOT_PUBLIC_KEY"
	CodeUnknownKey      Code = "UNKNOWN_KEY"
	CodeBadSignature    Code = "BAD_SIGNATURE"
	CodeCommentForged   Code = "TRUSTED_COMMENT_FORGED"
	CodeCommentFormat   Code = "TRUSTED_COMMENT_FORMAT"
	CodeWrongFile       Code = "WRONG_FILE"
	CodeVersionMismatch Code = "VERSION_MISMATCH"

	// Codes of secret keys and passwords (signing and key generation).
	CodeNotSecretKey  Code = "NOT_SECRET_KEY"
	CodeWrongPassword Code = "WRONG_PASSWORD"
	CodePassword      Code = "PASSWORD"
	CodeCommentValue  Code = "COMMENT_VALUE"
)

// Error is a refusal with its stable [Code]. Detail says what was found,
// where, and what to do.
type Error struct {
	Code   Code
	Detail string
	Err    error // underlying error, if any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Detail, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Detail)
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of err if it is (or wraps) an *[Error], else "".
func CodeOf(err error) Code {
	if e := (*Error)(nil); errors.As(err, &e) {
		return e.Code
	}
	return ""
}
