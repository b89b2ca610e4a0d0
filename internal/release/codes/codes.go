// Package codes holds the type of the release side's one code space:
// every refusal that packing, signing, verifying and diffing a release
// make carries a [Code], declared once, in the package that decides the
// refusal (archive for the format and the path rules, sign and provenance
// for signatures and statements, verify for what verifying adds).
//
// A code has one spelling for one condition. Two families keep the
// spellings users already match: the format's and verification's codes are
// lower case (not_zip, archive_hash_mismatch), the trust codes of
// signatures and provenance upper case (BAD_SIGNATURE, PROVENANCE_KEY).
// A test (code_test.go) reads every declaration and checks that no code is
// declared twice under any spelling, and that dist/SIGNING.md's refusal
// table lists exactly the trust codes.
package codes

// A Code identifies one kind of refusal. Codes are the stable API: tests,
// callers and automation match them, never message text.
type Code string
