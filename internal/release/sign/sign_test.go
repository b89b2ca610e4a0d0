package sign

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"aead.dev/minisign"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/scrypt"
)

var testComment = Comment{
	File:     "SHA256SUMS",
	Version:  "0.1.0",
	TreeHash: "h1:" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)),
	Commit:   strings.Repeat("ab", 20),
}

const testSums = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  catalogkit-0.1.0.zip\n"

// newKey generates an unencrypted key pair (fast) and parses both halves.
func newKey(t *testing.T, name string) (*KeyPair, *SecretKey, PublicKey) {
	t.Helper()
	kp, err := GenerateKey(KeyOptions{Unencrypted: true})
	if err != nil {
		t.Fatal(err)
	}
	sk, err := ParseSecretKey(name+".key", kp.Secret, nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := ParsePublicKey(name+".pub", kp.Public)
	if err != nil {
		t.Fatal(err)
	}
	return kp, sk, pk
}

// Encrypting or decrypting a key with minisign's parameters (scrypt over
// 1 GiB) takes seconds, minutes under the race detector, and 1 GiB of memory
// (7 GiB under the race detector) each time. So the tests decrypt keys that
// are encrypted exactly as minisign encrypts, but with scrypt's smallest
// parameters (the cost is stored in the key file, and both aead.dev/minisign
// and the minisign tool honour it); a single test generates a key with the
// real cost, and the minisign tool decrypts it in the interoperability
// tests.

// cheapEncrypted is a key pair whose secret key is encrypted with
// testPassword at ops 2^15, mem 1 MiB (scrypt N=1024, r=8, p=1).
var cheapEncrypted struct {
	once sync.Once
	kp   *KeyPair
	err  error
}

const testPassword = "correct horse battery staple"

func encryptedKey(t *testing.T) *KeyPair {
	t.Helper()
	cheapEncrypted.once.Do(func() {
		cheapEncrypted.kp, cheapEncrypted.err = encryptCheaply(testPassword)
	})
	if cheapEncrypted.err != nil {
		t.Fatal(cheapEncrypted.err)
	}
	return cheapEncrypted.kp
}

// encryptCheaply makes a key pair and encrypts its secret key as minisign
// does (keystream = scrypt(password, salt); ciphertext = (key ID || Ed25519
// key || BLAKE2b-256("Ed" || key ID || key)) XOR keystream), with low cost
// parameters. It is a test fixture builder, not a way to make real keys.
func encryptCheaply(password string) (*KeyPair, error) {
	kp, err := GenerateKey(KeyOptions{Unencrypted: true})
	if err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Split(string(kp.Secret), "\n")[1])
	if err != nil {
		return nil, err
	}
	const ops, mem = 1 << 15, 1 << 20
	copy(raw[2:4], kdfScrypt)
	salt := raw[6:38]
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	binary.LittleEndian.PutUint64(raw[38:], ops)
	binary.LittleEndian.PutUint64(raw[46:], mem)
	plain := raw[54:126] // key ID, Ed25519 secret key
	sum := blake2b.Sum256(append([]byte(tagEdDSA), plain...))
	copy(raw[126:], sum[:])
	stream, err := scrypt.Key([]byte(password), salt, 1024, 8, 1, 104)
	if err != nil {
		return nil, err
	}
	for i, k := range stream {
		raw[54+i] ^= k
	}
	kp.Secret = []byte("untrusted comment: minisign encrypted secret key\n" + base64.StdEncoding.EncodeToString(raw) + "\n")
	return kp, nil
}

// TestGenerateKeyEncrypted generates one key with minisign's real cost and
// checks its header; the minisign tool decrypts such a key in
// TestCatalogkitVerifiesMinisign.
func TestGenerateKeyEncrypted(t *testing.T) {
	kp := realEncryptedKey(t)
	if !minisign.IsEncrypted(kp.Secret) {
		t.Fatalf("the secret key is not encrypted:\n%s", kp.Secret)
	}
	raw, err := keyLine("k.key", kp.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := [2]uint64{binary.LittleEndian.Uint64(raw[38:]), binary.LittleEndian.Uint64(raw[46:])}, [2]uint64{1 << 25, 1 << 30}; got != want {
		t.Errorf("scrypt ops, mem %v, want libsodium's sensitive limits %v, as minisign -G", got, want)
	}
	if string(raw[:6]) != tagEdDSA+kdfScrypt+"B2" {
		t.Errorf("key header %q, want \"EdScB2\"", raw[:6])
	}
	if _, err := ParsePublicKey("k.pub", kp.Public); err != nil {
		t.Error(err)
	}
}

// realEncrypted is the one key generated with minisign's real cost.
var realEncrypted struct {
	once sync.Once
	kp   *KeyPair
	err  error
}

// realEncryptedKey returns the key pair. Under the race detector it is made
// by GenerateKey in a catalogkit keygen built without it (the race
// detector's shadow of scrypt's 1 GiB was the peak memory of 'make test').
func realEncryptedKey(t *testing.T) *KeyPair {
	t.Helper()
	realEncrypted.once.Do(func() {
		if raceEnabled {
			realEncrypted.kp, realEncrypted.err = generateKeyNonRace(t.TempDir())
			return
		}
		realEncrypted.kp, realEncrypted.err = GenerateKey(KeyOptions{Password: testPassword})
	})
	if realEncrypted.err != nil {
		t.Fatal(realEncrypted.err)
	}
	return realEncrypted.kp
}

// generateKeyNonRace runs GenerateKey with testPassword through catalogkit
// keygen, built without the race detector, in dir.
func generateKeyNonRace(dir string) (*KeyPair, error) {
	bin := filepath.Join(dir, "catalogkit")
	build := exec.Command("go", "build", "-o", bin, "../../../cmd/catalogkit")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build catalogkit: %v\n%s", err, out)
	}
	pw := filepath.Join(dir, "pw.txt")
	if err := os.WriteFile(pw, []byte(testPassword+"\n"), 0o600); err != nil {
		return nil, err
	}
	prefix := filepath.Join(dir, "real")
	if out, err := exec.Command(bin, "keygen", "--password-file", pw, "--out", prefix).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("catalogkit keygen: %v\n%s", err, out)
	}
	kp := &KeyPair{}
	var err error
	if kp.Public, err = os.ReadFile(prefix + ".pub"); err != nil {
		return nil, err
	}
	if kp.Secret, err = os.ReadFile(prefix + ".key"); err != nil {
		return nil, err
	}
	pk, err := ParsePublicKey(prefix+".pub", kp.Public)
	if err != nil {
		return nil, err
	}
	kp.ID = pk.ID()
	return kp, nil
}

// editLine returns sig with line i (0-based) replaced by f(line).
func editLine(sig []byte, i int, f func(string) string) []byte {
	lines := strings.Split(string(sig), "\n")
	lines[i] = f(lines[i])
	return []byte(strings.Join(lines, "\n"))
}

// editRaw returns sig with its decoded signature line changed by f.
func editRaw(sig []byte, f func([]byte)) []byte {
	return editLine(sig, 1, func(s string) string {
		raw, _ := base64.StdEncoding.DecodeString(s)
		f(raw)
		return base64.StdEncoding.EncodeToString(raw)
	})
}

func TestVerify(t *testing.T) {
	_, skA, pkA := newKey(t, "a")
	_, skB, pkB := newKey(t, "b")
	sig, err := Sign(skA, []byte(testSums), testComment)
	if err != nil {
		t.Fatal(err)
	}
	sigB, err := Sign(skB, []byte(testSums), testComment)
	if err != nil {
		t.Fatal(err)
	}
	otherComment := testComment
	otherComment.Version = "0.2.0"
	legacy := minisign.SignWithComments(skA.key, []byte(testSums), testComment.String(), "legacy")
	plain := signText(skA, []byte(testSums), "timestamp:1796112842\tfile:SHA256SUMS\thashed")

	tests := []struct {
		name, reason string
		message, sig []byte
		keys         []PublicKey
		wantCode     Code // "" for success
		prehashed    bool
	}{
		{name: "ok", reason: "a signature by the one given key", message: []byte(testSums), sig: sig, keys: []PublicKey{pkA}, prehashed: true},
		{name: "ok-second-key", reason: "any of several keys may verify (key rotation)", message: []byte(testSums), sig: sig, keys: []PublicKey{pkB, pkA}, prehashed: true},
		{name: "ok-legacy", reason: "minisign -V accepts the legacy Ed algorithm, so do we", message: []byte(testSums), sig: legacy, keys: []PublicKey{pkA}},
		{name: "ok-untrusted-comment-changed", reason: "the untrusted comment is not signed, by the format's design, and nothing reads it",
			message: []byte(testSums), sig: editLine(sig, 0, func(string) string { return "untrusted comment: signed by the attacker" }), keys: []PublicKey{pkA}, prehashed: true},
		{name: "wrong-key", reason: "signed by A, only B given", message: []byte(testSums), sig: sig, keys: []PublicKey{pkB}, wantCode: CodeUnknownKey},
		{name: "no-keys", reason: "nothing to check against", message: []byte(testSums), sig: sig, wantCode: CodeNoKeys},
		{name: "other-bytes", reason: "the signed file was changed", message: []byte(strings.Replace(testSums, "0123", "9123", 1)), sig: sig, keys: []PublicKey{pkA}, wantCode: CodeBadSignature},
		{name: "forged-key-id", reason: "a signature by B that claims A's key ID is not A's",
			message: []byte(testSums), sig: editRaw(sigB, func(raw []byte) { copy(raw[2:10], rawID(t, pkA)) }), keys: []PublicKey{pkA}, wantCode: CodeBadSignature},
		{name: "trusted-comment-changed", reason: "the version in the trusted comment was edited",
			message: []byte(testSums), sig: editLine(sig, 2, func(string) string { return "trusted comment: " + otherComment.String() }), keys: []PublicKey{pkA}, wantCode: CodeCommentForged},
		{name: "trusted-comment-appended", reason: "a field added to the trusted comment",
			message: []byte(testSums), sig: editLine(sig, 2, func(s string) string { return s + "\tnote:x" }), keys: []PublicKey{pkA}, wantCode: CodeCommentForged},
		{name: "not-catalogkit-comment", reason: "a valid signature whose trusted comment is minisign's default",
			message: []byte(testSums), sig: plain, keys: []PublicKey{pkA}, wantCode: CodeCommentFormat},
		{name: "empty", reason: "an empty download", message: []byte(testSums), sig: nil, keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "truncated", reason: "cut in the middle of line 2", message: []byte(testSums), sig: sig[:60], keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "truncated-last-newline", reason: "the final newline is part of the file", message: []byte(testSums), sig: sig[:len(sig)-1], keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "truncated-line-4", reason: "the comment signature lost its last characters", message: []byte(testSums),
			sig: editLine(sig, 3, func(s string) string { return s[:len(s)-4] }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "crlf", reason: "re-encoded with CR LF line endings", message: []byte(testSums), sig: bytes.ReplaceAll(sig, []byte("\n"), []byte("\r\n")), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "bom", reason: "re-encoded with a byte order mark", message: []byte(testSums), sig: append([]byte("\xef\xbb\xbf"), sig...), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "utf16", reason: "re-encoded as UTF-16", message: []byte(testSums), sig: utf16(sig), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "rewrapped", reason: "the base64 line split in two", message: []byte(testSums),
			sig: editLine(sig, 1, func(s string) string { return s[:40] + "\n" + s[40:] }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "unpadded", reason: "base64 without its padding is another encoding", message: []byte(testSums),
			sig: editLine(sig, 1, func(s string) string { return strings.TrimRight(s, "=") }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "url-alphabet", reason: "URL-safe base64 is another encoding", message: []byte(testSums),
			sig: editLine(sig, 1, func(s string) string {
				raw, _ := base64.StdEncoding.DecodeString(s)
				return base64.URLEncoding.EncodeToString(raw)
			}), keys: []PublicKey{pkA}, wantCode: urlCode(sig), prehashed: true},
		{name: "trailing-space", reason: "white space after the base64", message: []byte(testSums),
			sig: editLine(sig, 3, func(s string) string { return s + " " }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "extra-line", reason: "a fifth line", message: []byte(testSums), sig: append(append([]byte{}, sig...), "extra\n"...), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "no-untrusted-prefix", reason: "line 1 must be an untrusted comment", message: []byte(testSums),
			sig: editLine(sig, 0, func(s string) string { return strings.TrimPrefix(s, "untrusted comment: ") }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "no-trusted-prefix", reason: "line 3 must be a trusted comment", message: []byte(testSums),
			sig: editLine(sig, 2, func(s string) string { return strings.Replace(s, "trusted", "trustee", 1) }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "too-large", reason: "a signature file cannot be this large", message: []byte(testSums),
			sig: editLine(sig, 2, func(s string) string { return s + strings.Repeat("x", MaxSignatureSize) }), keys: []PublicKey{pkA}, wantCode: CodeSigFormat},
		{name: "other-algorithm", reason: "algorithm bytes of another scheme", message: []byte(testSums),
			sig: editRaw(sig, func(raw []byte) { copy(raw, "RS") }), keys: []PublicKey{pkA}, wantCode: CodeSigAlgorithm},
		{name: "prehashed-flag-flipped", reason: "a pre-hashed signature relabelled legacy no longer verifies", message: []byte(testSums),
			sig: editRaw(sig, func(raw []byte) { copy(raw, "Ed") }), keys: []PublicKey{pkA}, wantCode: CodeBadSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := VerifySignature(tt.message, tt.sig, tt.keys)
			if err == nil {
				// Verify is VerifySignature plus the comment: same key, same answer.
				var v *Verified
				if v, err = Verify(tt.message, tt.sig, tt.keys); v != nil {
					got = &v.Signature
				} else {
					got = nil
				}
			}
			if code := CodeOf(err); code != tt.wantCode {
				t.Fatalf("%s: code %q, want %q (err: %v)", tt.reason, code, tt.wantCode, err)
			}
			if err != nil {
				if got != nil {
					t.Errorf("%s: a refusal returned a signature too", tt.reason)
				}
				return
			}
			want := &Signature{KeyID: pkA.ID(), KeyName: "a.pub", TrustedComment: testComment.String(), Prehashed: tt.prehashed}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: (-want +got)\n%s", tt.reason, diff)
			}
		})
	}
}

// urlCode is the code the URL-alphabet case expects: a signature whose
// base64 happens to use neither '+' nor '/' is the same in both alphabets.
func urlCode(sig []byte) Code {
	line := strings.Split(string(sig), "\n")[1]
	if strings.ContainsAny(line, "+/") {
		return CodeSigFormat
	}
	return ""
}

func rawID(t *testing.T, k PublicKey) []byte {
	raw, err := base64.StdEncoding.DecodeString(k.key.String())
	if err != nil {
		t.Fatal(err)
	}
	return raw[2:10]
}

func utf16(b []byte) []byte {
	out := []byte{0xff, 0xfe}
	for _, c := range b {
		out = append(out, c, 0)
	}
	return out
}

func TestVerifyComment(t *testing.T) {
	_, sk, pk := newKey(t, "a")
	sig, err := Sign(sk, []byte(testSums), testComment)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Verify([]byte(testSums), sig, []PublicKey{pk})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(testComment, v.Comment); diff != "" {
		t.Errorf("comment (-want +got)\n%s", diff)
	}
	tests := []struct {
		name, reason, file, version string
		wantCode                    Code
	}{
		{name: "match", reason: "the comment names this file and version", file: "SHA256SUMS", version: "0.1.0"},
		{name: "other-version", reason: "a trusted comment that names another version than the archive's", file: "SHA256SUMS", version: "0.1.1", wantCode: CodeVersionMismatch},
		{name: "other-file", reason: "a SHA256SUMS signature presented for the provenance", file: "catalogkit-0.1.0.provenance.json", version: "0.1.0", wantCode: CodeWrongFile},
	}
	for _, tt := range tests {
		if code := CodeOf(v.Comment.Check(tt.file, tt.version)); code != tt.wantCode {
			t.Errorf("%s: %s: code %q, want %q", tt.name, tt.reason, code, tt.wantCode)
		}
	}
}

func TestParseComment(t *testing.T) {
	good := testComment.String()
	tests := []struct {
		name, reason, text string
		wantCode           Code
	}{
		{name: "ok", reason: "what Sign writes", text: good},
		{name: "minisign-default", reason: "minisign's own comment", text: "timestamp:1796112842\tfile:SHA256SUMS\thashed", wantCode: CodeCommentFormat},
		{name: "future-format", reason: "a format this version does not know", text: strings.Replace(good, "/1", "/2", 1), wantCode: CodeCommentFormat},
		{name: "missing-field", reason: "no commit", text: good[:strings.LastIndex(good, "\t")], wantCode: CodeCommentFormat},
		{name: "reordered", reason: "fields in another order", text: strings.Join([]string{CommentFormat, "version:0.1.0", "file:SHA256SUMS", "tree:" + testComment.TreeHash, "commit:" + testComment.Commit}, "\t"), wantCode: CodeCommentFormat},
		{name: "short-commit", reason: "an abbreviated commit names no commit for sure", text: strings.Replace(good, testComment.Commit, testComment.Commit[:12], 1), wantCode: CodeCommentFormat},
		{name: "upper-commit", reason: "commit hashes are lower-case", text: strings.Replace(good, testComment.Commit, strings.ToUpper(testComment.Commit), 1), wantCode: CodeCommentFormat},
		{name: "bad-tree", reason: "a tree hash that is not h1", text: strings.Replace(good, "tree:h1:", "tree:h2:", 1), wantCode: CodeCommentFormat},
		{name: "space-version", reason: "white space in the version", text: strings.Replace(good, "version:0.1.0", "version:0.1.0 ", 1), wantCode: CodeCommentFormat},
		{name: "slash-file", reason: "a path, not a file name", text: strings.Replace(good, "file:SHA256SUMS", "file:../SHA256SUMS", 1), wantCode: CodeCommentFormat},
	}
	for _, tt := range tests {
		c, err := ParseComment(tt.text)
		if code := CodeOf(err); code != tt.wantCode {
			t.Errorf("%s: %s: code %q, want %q (err: %v)", tt.name, tt.reason, code, tt.wantCode, err)
		} else if err == nil && c != testComment {
			t.Errorf("%s: parsed %+v, want %+v", tt.name, c, testComment)
		}
	}
	bad := testComment
	bad.Commit = "HEAD"
	if _, err := Sign(nil, nil, bad); CodeOf(err) != CodeCommentValue {
		t.Errorf("Sign with commit %q: err %v, want code %s", bad.Commit, err, CodeCommentValue)
	}
}

func TestParsePublicKey(t *testing.T) {
	kp, _, pk := newKey(t, "a")
	line := strings.Split(string(kp.Public), "\n")[1]
	raw, _ := base64.StdEncoding.DecodeString(line)
	otherAlg := append([]byte("XX"), raw[2:]...)
	tests := []struct {
		name, reason, text string
		wantCode           Code
	}{
		{name: "file", reason: "a .pub file as keygen writes it", text: string(kp.Public)},
		{name: "bare", reason: "the base64 line alone, as minisign -P takes it", text: line},
		{name: "crlf", reason: "a .pub file saved with CR LF is still that key", text: strings.ReplaceAll(string(kp.Public), "\n", "\r\n")},
		{name: "secret", reason: "the secret key given instead of the public one", text: string(kp.Secret), wantCode: CodeNotPublicKey},
		{name: "ssh", reason: "an OpenSSH Ed25519 key is another format", text: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0f me@host\n", wantCode: CodeKeyAlgorithm},
		{name: "pgp", reason: "an OpenPGP key", text: "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINB\n", wantCode: CodeKeyAlgorithm},
		{name: "other-algorithm", reason: "a minisign-shaped key of another algorithm", text: base64.StdEncoding.EncodeToString(otherAlg), wantCode: CodeKeyAlgorithm},
		{name: "truncated", reason: "cut short", text: string(kp.Public[:len(kp.Public)-10]), wantCode: CodeKeyFormat},
		{name: "not-base64", reason: "junk", text: "untrusted comment: x\n!!!!\n", wantCode: CodeKeyFormat},
		{name: "three-lines", reason: "two keys in one file", text: string(kp.Public) + line + "\n", wantCode: CodeKeyFormat},
		{name: "empty", reason: "an empty file", text: "", wantCode: CodeKeyFormat},
		{name: "huge", reason: "larger than any key file", text: strings.Repeat("A", MaxKeyFileSize+1), wantCode: CodeKeyFormat},
	}
	for _, tt := range tests {
		got, err := ParsePublicKey("a.pub", []byte(tt.text))
		if code := CodeOf(err); code != tt.wantCode {
			t.Errorf("%s: %s: code %q, want %q (err: %v)", tt.name, tt.reason, code, tt.wantCode, err)
		} else if err == nil && got.ID() != pk.ID() {
			t.Errorf("%s: key ID %s, want %s", tt.name, got.ID(), pk.ID())
		}
	}
}

func TestParseSecretKey(t *testing.T) {
	kp, sk, _ := newKey(t, "a")
	lines := strings.Split(string(kp.Secret), "\n")
	raw, _ := base64.StdEncoding.DecodeString(lines[1])
	otherKDF := append(append(append([]byte{}, raw[:2]...), "Ar"...), raw[4:]...)
	enc := encryptedKey(t)
	encLines := strings.Split(string(enc.Secret), "\n")
	encRaw, _ := base64.StdEncoding.DecodeString(encLines[1])
	cheap := append([]byte{}, encRaw...)
	for i := 38; i < 54; i++ {
		cheap[i] = 0 // scrypt cost fields: quick to try, and wrong
	}
	cheap[38], cheap[46] = 1, 1
	fail := func() (string, error) { t.Fatal("asked for a password for an unencrypted key"); return "", nil }
	tests := []struct {
		name, reason, text string
		password           PasswordFunc
		wantCode           Code
		wantID             string
	}{
		{name: "unencrypted", reason: "keygen --unencrypted", text: string(kp.Secret), password: fail, wantID: sk.ID()},
		{name: "public", reason: "the public key given to sign with", text: string(kp.Public), wantCode: CodeNotSecretKey},
		{name: "other-kdf", reason: "a key derivation minisign does not have", text: lines[0] + "\n" + base64.StdEncoding.EncodeToString(otherKDF) + "\n", wantCode: CodeKeyAlgorithm},
		{name: "encrypted-no-source", reason: "an encrypted key and nowhere to get the password", text: string(enc.Secret), wantCode: CodePassword},
		{name: "encrypted-changed-cost", reason: "an edited key file does not decrypt", text: base64.StdEncoding.EncodeToString(cheap),
			password: func() (string, error) { return testPassword, nil }, wantCode: CodeWrongPassword},
		{name: "encrypted-wrong", reason: "the wrong password", text: string(enc.Secret),
			password: func() (string, error) { return "Tr0ub4dor&3", nil }, wantCode: CodeWrongPassword},
		{name: "encrypted-right", reason: "the right password", text: string(enc.Secret),
			password: func() (string, error) { return testPassword, nil }, wantID: enc.ID},
	}
	for _, tt := range tests {
		got, err := ParseSecretKey("a.key", []byte(tt.text), tt.password)
		if code := CodeOf(err); code != tt.wantCode {
			t.Errorf("%s: %s: code %q, want %q (err: %v)", tt.name, tt.reason, code, tt.wantCode, err)
		} else if err == nil && got.ID() != tt.wantID {
			t.Errorf("%s: key ID %s, want %s", tt.name, got.ID(), tt.wantID)
		}
	}
}

func TestGenerateKeyOptions(t *testing.T) {
	for _, opts := range []KeyOptions{{}, {Unencrypted: true, Password: "x"}} {
		if _, err := GenerateKey(opts); CodeOf(err) != CodePassword {
			t.Errorf("GenerateKey(%+v): err %v, want code %s", opts, err, CodePassword)
		}
	}
	kp, _, _ := newKey(t, "a")
	for name, f := range map[string][]byte{"pub": kp.Public, "key": kp.Secret} {
		if !bytes.HasSuffix(f, []byte("\n")) || bytes.Count(f, []byte("\n")) != 2 {
			t.Errorf("%s file %q: want two LF-terminated lines", name, f)
		}
	}
}

func TestPasswordSources(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, reason, content, want string
		wantCode                    Code
	}{
		{name: "lf", reason: "a line with its newline", content: "pw\n", want: "pw"},
		{name: "crlf", reason: "a line saved on Windows", content: "pw\r\n", want: "pw"},
		{name: "no-newline", reason: "printf without newline", content: "pw", want: "pw"},
		{name: "spaces-kept", reason: "spaces are part of a password", content: " p w \n", want: " p w "},
		{name: "empty", reason: "no password", content: "\n", wantCode: CodePassword},
		{name: "two-lines", reason: "which line would be the password?", content: "pw\nmore\n", wantCode: CodePassword},
		{name: "too-long", reason: "minisign's limit", content: strings.Repeat("x", MaxPasswordSize+1), wantCode: CodePassword},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := PasswordFile(path)()
		if code := CodeOf(err); code != tt.wantCode || got != tt.want {
			t.Errorf("file %s: %s: got %q, code %q; want %q, code %q", tt.name, tt.reason, got, code, tt.want, tt.wantCode)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() { w.WriteString(tt.content); w.Close() }()
		// PasswordFD closes the descriptor it is given: give it a copy, so
		// that closing r (and not its finalizer, later, on a number the
		// next open reuses) closes the original.
		fd, err := syscall.Dup(int(r.Fd()))
		if err != nil {
			t.Fatal(err)
		}
		got, err = PasswordFD(fd)()
		r.Close()
		if code := CodeOf(err); code != tt.wantCode || got != tt.want {
			t.Errorf("fd %s: %s: got %q, code %q; want %q, code %q", tt.name, tt.reason, got, code, tt.want, tt.wantCode)
		}
	}
	if _, err := PasswordFile(filepath.Join(dir, "missing"))(); CodeOf(err) != CodePassword {
		t.Errorf("missing password file: err %v, want code %s", err, CodePassword)
	}
}

func TestWriteKeyPair(t *testing.T) {
	dir := t.TempDir()
	kp, _, _ := newKey(t, "a")
	prefix := filepath.Join(dir, "release")
	sec, pub, err := WriteKeyPair(prefix, kp)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		path string
		mode os.FileMode
		data []byte
	}{{sec, 0o600, kp.Secret}, {pub, 0o644, kp.Public}} {
		fi, err := os.Stat(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != f.mode {
			t.Errorf("%s: mode %v, want %v", f.path, fi.Mode().Perm(), f.mode)
		}
		if got, _ := os.ReadFile(f.path); !bytes.Equal(got, f.data) {
			t.Errorf("%s: contents differ from the key pair", f.path)
		}
	}
	other, _, _ := newKey(t, "b")
	if _, _, err := WriteKeyPair(prefix, other); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second WriteKeyPair: err %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(sec); !bytes.Equal(got, kp.Secret) {
		t.Errorf("the existing secret key was overwritten")
	}
	// Only the .pub exists: nothing is written, the .pub is kept.
	onlyPub := filepath.Join(dir, "half")
	os.WriteFile(onlyPub+".pub", []byte("mine\n"), 0o644)
	if _, _, err := WriteKeyPair(onlyPub, other); !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteKeyPair over an existing .pub: err %v, want fs.ErrExist", err)
	}
	if _, err := os.Stat(onlyPub + ".key"); !os.IsNotExist(err) {
		t.Errorf("a .key was written beside an existing .pub: %v", err)
	}
	if _, _, err := WriteKeyPair(filepath.Join(dir, "missing", "k"), other); err == nil || errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteKeyPair into a missing directory: err %v, want an I/O error", err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"half.pub", "release.key", "release.pub"}, names); diff != "" {
		t.Errorf("files left in the directory (-want +got)\n%s", diff)
	}
}
