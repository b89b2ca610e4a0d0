package sign

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// FileCommentFormat is the first field of the trusted comment of a signed
// file that is not part of a release (a catalog served by `catalogkit mcp`).
// A release comment ([CommentFormat]) and a file comment are never accepted
// one for the other.
const FileCommentFormat = "catalogkit-file/1"

// A FileComment is what the trusted comment of a signed file says: its
// name and the SHA-256 of its bytes, tab-separated after
// [FileCommentFormat]:
//
//	catalogkit-file/1	file:catalog.json	sha256:<64 hex digits>
type FileComment struct {
	File   string // the signed file's base name
	SHA256 string // lower-case hex SHA-256 of its bytes
}

func (c FileComment) String() string {
	return strings.Join([]string{FileCommentFormat, "file:" + c.File, "sha256:" + c.SHA256}, "\t")
}

// SignFile signs data, the content of the file named name (a base name),
// with a [FileComment] naming the file and data's SHA-256. The result is a
// minisign signature file: `minisign -Vm FILE -p KEY.pub` verifies it.
func SignFile(key *SecretKey, name string, data []byte) ([]byte, error) {
	if !plainName(name, 255, false) {
		return nil, errorf(CodeCommentValue, "file name %q: want a plain file name (no slash, space or control character)", name)
	}
	sum := sha256.Sum256(data)
	return signText(key, data, FileComment{File: name, SHA256: hex.EncodeToString(sum[:])}.String()), nil
}

// A VerifiedFile is a file signature checked by [VerifyFile].
type VerifiedFile struct {
	Signature
	Comment FileComment
}

// VerifyFile checks that sig is a signature of data by one of keys
// ([VerifySignature]'s refusals, in its order), that its trusted comment is
// a [FileComment] ([CodeCommentFormat] otherwise, a release signature
// included), and that the comment names the file name and data's SHA-256
// ([CodeWrongFile] otherwise: the signature belongs to another file).
func VerifyFile(name string, data, sig []byte, keys []PublicKey) (*VerifiedFile, error) {
	s, err := VerifySignature(data, sig, keys)
	if err != nil {
		return nil, err
	}
	c, err := ParseFileComment(s.TrustedComment)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	switch {
	case c.File != name:
		return nil, errorf(CodeWrongFile, "the signature is for a file named %q, not %q: serve the file under the name it was signed as (a staged copy is signed under its final name: catalogkit sign --as)", c.File, name)
	case c.SHA256 != hex.EncodeToString(sum[:]):
		return nil, errorf(CodeWrongFile, "the signed comment names SHA-256 %s but the file's is %s", c.SHA256, hex.EncodeToString(sum[:]))
	}
	return &VerifiedFile{Signature: *s, Comment: c}, nil
}

// ParseFileComment parses a trusted comment written by [SignFile]; anything
// else is a [CodeCommentFormat] refusal.
func ParseFileComment(s string) (FileComment, error) {
	fields := strings.Split(s, "\t")
	if fields[0] != FileCommentFormat {
		return FileComment{}, errorf(CodeCommentFormat, "the trusted comment %q is not a catalogkit file comment (it does not start with %q): the file was signed, but not with 'catalogkit sign'", s, FileCommentFormat)
	}
	if len(fields) != 3 {
		return FileComment{}, errorf(CodeCommentFormat, "the trusted comment %q has %d fields, want 3", s, len(fields))
	}
	file, ok1 := strings.CutPrefix(fields[1], "file:")
	sum, ok2 := strings.CutPrefix(fields[2], "sha256:")
	switch {
	case !ok1 || !ok2:
		return FileComment{}, errorf(CodeCommentFormat, "the trusted comment %q: want file:NAME and sha256:HEX", s)
	case !plainName(file, 255, false):
		return FileComment{}, errorf(CodeCommentFormat, "the trusted comment names file %q: want a plain file name", file)
	case !isHex(sum, 64):
		return FileComment{}, errorf(CodeCommentFormat, "the trusted comment names SHA-256 %q: want 64 lower-case hex digits", sum)
	}
	return FileComment{File: file, SHA256: sum}, nil
}
