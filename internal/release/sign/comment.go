package sign

import (
	"strings"
)

// CommentFormat is the first field of every trusted comment catalogkit
// signs; a new layout of the fields gets a new number.
const CommentFormat = "catalogkit-signature/1"

// A Comment is what a catalogkit signature's trusted comment says about the
// signed file. Its text is tab-separated "key:value" fields after
// [CommentFormat], in this order, as minisign's own default comment
// ("timestamp:...\tfile:...") is laid out:
//
//	catalogkit-signature/1	file:SHA256SUMS	version:0.1.0	tree:h1:<base64>	commit:<hex>
//
// `minisign -V` prints it after "Trusted comment:".
type Comment struct {
	File     string // the signed file's name: "SHA256SUMS", "catalogkit-0.1.0.provenance.json"
	Version  string // the release version, as in the archive's name
	TreeHash string // the content tree hash of the archive, "h1:" + base64 SHA-256
	Commit   string // the git commit packed: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits
}

// String returns the comment's text, or a description of the bad field.
func (c Comment) String() string {
	s, err := c.format()
	if err != nil {
		return "invalid comment: " + err.Error()
	}
	return s
}

func (c Comment) format() (string, error) {
	if err := c.validate(CodeCommentValue); err != nil {
		return "", err
	}
	return strings.Join([]string{CommentFormat, "file:" + c.File, "version:" + c.Version,
		"tree:" + c.TreeHash, "commit:" + c.Commit}, "\t"), nil
}

// commentKeys lists the fields after CommentFormat, in order.
var commentKeys = []string{"file", "version", "tree", "commit"}

// ParseComment parses a trusted comment written by catalogkit; anything else
// is a [CodeCommentFormat] refusal.
func ParseComment(s string) (Comment, error) {
	fields := strings.Split(s, "\t")
	if fields[0] != CommentFormat {
		return Comment{}, errorf(CodeCommentFormat, "the trusted comment %q is not a catalogkit comment (it does not start with %q): the file was signed, but not by catalogkit's release process", s, CommentFormat)
	}
	if len(fields) != 1+len(commentKeys) {
		return Comment{}, errorf(CodeCommentFormat, "the trusted comment %q has %d fields, want %d", s, len(fields), 1+len(commentKeys))
	}
	values := make([]string, len(commentKeys))
	for i, key := range commentKeys {
		v, ok := strings.CutPrefix(fields[1+i], key+":")
		if !ok {
			return Comment{}, errorf(CodeCommentFormat, "field %d of the trusted comment %q is not %q", 2+i, s, key+":...")
		}
		values[i] = v
	}
	c := Comment{File: values[0], Version: values[1], TreeHash: values[2], Commit: values[3]}
	if err := c.validate(CodeCommentFormat); err != nil {
		return Comment{}, err
	}
	return c, nil
}

// validate checks every field, refusing with code.
func (c Comment) validate(code Code) error {
	switch {
	case !plainName(c.File, 255, false):
		return errorf(code, "file name %q: want a plain file name (no slash, space or control character)", c.File)
	case !plainName(c.Version, 64, true):
		return errorf(code, "version %q: want a version such as 0.1.0", c.Version)
	case !isTreeHash(c.TreeHash):
		return errorf(code, "tree hash %q: want \"h1:\" and the base64 of a SHA-256", c.TreeHash)
	case !isHex(c.Commit, 40) && !isHex(c.Commit, 64):
		return errorf(code, "commit %q: want a full git commit hash, 40 or 64 lower-case hex digits", c.Commit)
	}
	return nil
}

// Check reports whether c is the comment of file at version: a signature is
// accepted for what it says it signs, and nothing else.
func (c Comment) Check(file, version string) error {
	if c.File != file {
		return errorf(CodeWrongFile, "the signature is for %q, not %q", c.File, file)
	}
	if c.Version != version {
		return errorf(CodeVersionMismatch, "the signed comment names version %q but the archive is version %q: the signature belongs to another release", c.Version, version)
	}
	return nil
}

func plainName(s string, max int, version bool) bool {
	if s == "" || len(s) > max || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		switch {
		case r <= ' ' || r == 0x7f || r == '/' || r == '\\':
			return false
		case version && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune(".-+", r)):
			return false
		}
	}
	return true
}

func isTreeHash(s string) bool {
	b64, ok := strings.CutPrefix(s, "h1:")
	_, good := decodeExact(b64, 32)
	return ok && good
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
