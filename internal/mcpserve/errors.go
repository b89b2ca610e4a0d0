package mcpserve

import "fmt"

// A Code is a stable code of this package, outside the catalog contract's
// codes (which keep their meaning here: see catalog.Codes).
type Code string

const (
	// CodeStaleDefinition: validate_arguments was given the digest of a tool
	// definition that is no longer the current one. Discover the tool again.
	CodeStaleDefinition Code = "STALE_DEFINITION"
	// CodeSignatureMissing: keys were given, so the catalog must be signed,
	// and its signature file does not exist.
	CodeSignatureMissing Code = "SIGNATURE_MISSING"
)

// Error is a refusal of this package with its stable [Code]; Path says
// where ("digest" for a parameter of a call, a file for a load).
type Error struct {
	Code   Code
	Path   string
	Detail string
}

func (e *Error) Error() string { return fmt.Sprintf("%s at %s: %s", e.Code, e.Path, e.Detail) }
