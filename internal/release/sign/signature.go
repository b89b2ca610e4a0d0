package sign

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"strings"

	"aead.dev/minisign"
	"golang.org/x/crypto/blake2b"
)

// MaxSignatureSize bounds a signature file read. minisign limits a comment
// to 1024 bytes, so a real signature file is under 1.5 KiB.
const MaxSignatureSize = 4 << 10

const (
	untrustedPrefix = "untrusted comment: "
	trustedPrefix   = "trusted comment: "
	sigLineSize     = 2 + 8 + ed25519.SignatureSize // algorithm, key ID, signature
)

// A Signature is a verified signature: the key that made it and its trusted
// comment, which is authentic.
type Signature struct {
	KeyID          string // upper-case hex
	KeyName        string // the Name of the public key that verified it
	TrustedComment string // without the "trusted comment: " prefix
	Prehashed      bool   // algorithm "ED" (BLAKE2b-512, then Ed25519), not legacy "Ed"
}

// Sign signs message with key and returns the signature file: the
// pre-hashed algorithm, c as the trusted comment, and an untrusted comment
// naming the key.
func Sign(key *SecretKey, message []byte, c Comment) ([]byte, error) {
	trusted, err := c.format()
	if err != nil {
		return nil, err
	}
	return signText(key, message, trusted), nil
}

// signText signs message with a trusted comment given as text.
func signText(key *SecretKey, message []byte, trusted string) []byte {
	r := minisign.NewReader(bytes.NewReader(message))
	io.Copy(io.Discard, r) // a bytes.Reader does not fail
	return r.SignWithComments(key.key, trusted, "signature from catalogkit secret key "+key.ID())
}

// parsed is a signature file that is well formed, not yet verified.
type parsed struct {
	raw     []byte // the decoded signature line: algorithm, key ID, signature
	trusted string
}

// parseSignature checks the signature file's shape strictly: minisign's
// parser (and the format) would accept some re-encoded files, but a release's
// signature file is exactly what the signer wrote.
func parseSignature(sig []byte) (*parsed, error) {
	bad := func(format string, args ...any) (*parsed, error) {
		return nil, errorf(CodeSigFormat, format+": download the .minisig file again, unchanged", args...)
	}
	switch {
	case len(sig) == 0:
		return bad("the signature file is empty")
	case len(sig) > MaxSignatureSize:
		return bad("the signature file is %d bytes, more than a minisign signature can be (%d)", len(sig), MaxSignatureSize)
	case bytes.HasPrefix(sig, []byte("\xef\xbb\xbf")):
		return bad("the signature file starts with a byte order mark (re-encoded)")
	case bytes.IndexByte(sig, '\r') >= 0:
		return bad("the signature file has CR line endings (re-encoded)")
	case bytes.IndexByte(sig, 0) >= 0:
		return bad("the signature file has a NUL byte (re-encoded as UTF-16?)")
	case sig[len(sig)-1] != '\n':
		return bad("the signature file does not end with a newline (truncated)")
	}
	lines := strings.Split(string(sig[:len(sig)-1]), "\n")
	if len(lines) != 4 {
		return bad("the signature file has %d lines, want 4 (untrusted comment, signature, trusted comment, comment signature)", len(lines))
	}
	if !strings.HasPrefix(lines[0], untrustedPrefix) {
		return bad("line 1 does not start with %q", untrustedPrefix)
	}
	if !strings.HasPrefix(lines[2], trustedPrefix) {
		return bad("line 3 does not start with %q", trustedPrefix)
	}
	raw, ok := decodeExact(lines[1], sigLineSize)
	if !ok {
		return bad("line 2 is not the standard base64 of a %d-byte signature", sigLineSize)
	}
	if _, ok := decodeExact(lines[3], ed25519.SignatureSize); !ok {
		return bad("line 4 is not the standard base64 of a %d-byte comment signature", ed25519.SignatureSize)
	}
	if alg := string(raw[:2]); alg != tagHashEdDSA && alg != tagEdDSA {
		return nil, errorf(CodeSigAlgorithm, "signature algorithm %q, want %q or %q (Ed25519)", alg, tagHashEdDSA, tagEdDSA)
	}
	return &parsed{raw: raw, trusted: strings.TrimPrefix(lines[2], trustedPrefix)}, nil
}

// decodeExact decodes canonical standard base64 of exactly n bytes.
func decodeExact(s string, n int) ([]byte, bool) {
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil || len(b) != n || base64.StdEncoding.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}

// VerifySignature checks that sig, the text of a minisign signature file, is
// a valid signature of message by one of keys, and returns it. Both
// algorithms are accepted, as `minisign -V` accepts them; the trusted
// comment is returned as it is, whatever it says. The refusals and their
// order are in the package documentation.
func VerifySignature(message, sig []byte, keys []PublicKey) (*Signature, error) {
	p, err := parseSignature(sig)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, errorf(CodeNoKeys, "no public key to check the signature with: give the publisher's public key")
	}
	id := keyID(p.raw)
	var key *PublicKey
	var have []string
	for i := range keys {
		if keys[i].key.ID() == id {
			key = &keys[i]
			break
		}
		have = append(have, keys[i].ID()+" ("+keys[i].Name+")")
	}
	if key == nil {
		return nil, errorf(CodeUnknownKey, "signed by key %s, which is none of the given keys: %s", formatID(id), strings.Join(have, ", "))
	}
	if !minisign.Verify(key.key, message, sig) {
		// The library decided; say which half failed.
		if !messageSignatureValid(key.key, message, p.raw) {
			return nil, errorf(CodeBadSignature, "the signature by key %s is not over these bytes: the signed file was changed, or the signature belongs to another file", key.ID())
		}
		return nil, errorf(CodeCommentForged, "the trusted comment %q was changed after it was signed by key %s", p.trusted, key.ID())
	}
	return &Signature{
		KeyID:          key.ID(),
		KeyName:        key.Name,
		TrustedComment: p.trusted,
		Prehashed:      string(p.raw[:2]) == tagHashEdDSA,
	}, nil
}

// messageSignatureValid reports whether the message half of a signature
// line is valid, to tell a changed file from a changed trusted comment after
// minisign.Verify has refused the whole.
func messageSignatureValid(key minisign.PublicKey, message, raw []byte) bool {
	pub, err := base64.StdEncoding.DecodeString(key.String())
	if err != nil || len(pub) != publicKeySize {
		return false
	}
	if string(raw[:2]) == tagHashEdDSA {
		h := blake2b.Sum512(message)
		message = h[:]
	}
	return ed25519.Verify(ed25519.PublicKey(pub[10:]), message, raw[10:])
}

// A Verified is a signature checked by [Verify]: its key and its parsed
// trusted comment.
type Verified struct {
	Signature
	Comment Comment
}

// Verify is [VerifySignature] followed by [ParseComment] of the trusted
// comment: the signature must be catalogkit's. Callers then check the
// comment against what they expect with [Comment.Check].
func Verify(message, sig []byte, keys []PublicKey) (*Verified, error) {
	s, err := VerifySignature(message, sig, keys)
	if err != nil {
		return nil, err
	}
	c, err := ParseComment(s.TrustedComment)
	if err != nil {
		return nil, err
	}
	return &Verified{Signature: *s, Comment: c}, nil
}
