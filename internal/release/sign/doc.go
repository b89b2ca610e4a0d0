// Package sign signs and verifies catalogkit's release files in the minisign
// format (Ed25519), so that a third party can check a release with the
// `minisign` tool or any other implementation of the format. The format
// itself is aead.dev/minisign's: this package chooses how catalogkit uses it
// and gives every refusal a stable [Code].
//
// # Keys
//
// [GenerateKey] makes a key pair. The secret key file is encrypted with a
// password exactly as `minisign -G` does (scrypt, then XOR, with a BLAKE2b
// checksum), unless the caller asks for an unencrypted key (for CI), which
// is then written as `minisign -G -W` writes one. Both files are text: an
// "untrusted comment:" line and one line of standard base64.
// [ParsePublicKey] and [ParseSecretKey] read them; a password is asked for
// (through [PasswordFunc]) only when the secret key is encrypted. Passwords
// come from a file, a file descriptor or the terminal without echo (see
// [ReadPassword]), never from a command-line argument.
//
// # Signatures
//
// [Sign] signs bytes (a SHA256SUMS file, a provenance statement) with the
// pre-hashed algorithm ("ED", BLAKE2b-512 then Ed25519) that `minisign -S`
// uses by default, and a trusted comment in catalogkit's [Comment] format.
// [VerifySignature] checks a signature file against one or more public keys
// and accepts both the pre-hashed and the legacy ("Ed") algorithm, as
// `minisign -V` does; [Verify] also parses the trusted comment, and
// [Comment.Check] checks that it names the expected file and version.
//
// [SignFile] and [VerifyFile] do the same for a file that is not part of a
// release (a catalog that `catalogkit mcp` serves): the trusted comment is a
// [FileComment] naming the file and its SHA-256, and a release signature is
// never accepted for it, nor it for a release.
//
// # Refusals
//
// Checks run in this order; the first failure decides the [Code]:
//
//   - [CodeSigFormat]: the signature file is not exactly four LF-terminated
//     lines (untrusted comment, base64 signature, trusted comment, base64
//     comment signature), is larger than [MaxSignatureSize], has a CR, a BOM
//     or a NUL, or a base64 line that is not canonical standard base64 of
//     the right length (truncated, re-wrapped, re-encoded files);
//   - [CodeSigAlgorithm]: the signature's algorithm is neither "ED" nor "Ed";
//   - [CodeNoKeys], [CodeKeyFormat], [CodeKeyAlgorithm], [CodeNotPublicKey]:
//     no public key was given, or one is not a minisign public key (bad
//     base64, wrong length, a secret key, a key of another algorithm);
//   - [CodeUnknownKey]: the signature names a key ID that none of the given
//     public keys has (the file was signed by another key);
//   - [CodeBadSignature]: the key matches but the signature is not over these
//     bytes (the signed file was changed, or the signature belongs to another
//     file);
//   - [CodeCommentForged]: the signature is over these bytes but the trusted
//     comment was changed after signing;
//   - [CodeCommentFormat]: the trusted comment is authentic but is not a
//     catalogkit comment (for example `minisign -S`'s default comment);
//   - [CodeWrongFile], [CodeVersionMismatch]: the comment is for another file
//     or names another version than the archive's ([Comment.Check]).
//
// The untrusted comment is, by the format's design, not signed: changing it
// does not invalidate a signature, and nothing in this package reads it.
package sign
