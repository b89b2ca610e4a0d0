package sign

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"aead.dev/minisign"
)

// Sizes of the decoded key lines, fixed by the minisign format.
const (
	publicKeySize = 2 + 8 + 32                   // algorithm, key ID, Ed25519 public key
	secretKeySize = 2 + 2 + 2 + 32 + 8 + 8 + 104 // algorithm, KDF, checksum algorithm, salt, ops, mem, sealed key

	// MaxKeyFileSize bounds a key file read; real ones are under 300 bytes.
	MaxKeyFileSize = 4 << 10
)

// The two-byte tags of the format, as they appear at the start of a decoded
// key or signature line.
const (
	tagEdDSA     = "Ed" // Ed25519 over the message (legacy signatures; every key)
	tagHashEdDSA = "ED" // Ed25519 over BLAKE2b-512 of the message
	kdfNone      = "\x00\x00"
	kdfScrypt    = "Sc"
)

// A PublicKey is a minisign public key that signatures are checked against.
type PublicKey struct {
	key minisign.PublicKey
	// Name says where the key came from (a file name), for messages.
	Name string
}

// ID returns the key ID as `minisign` prints it: upper-case hex.
func (k PublicKey) ID() string { return formatID(k.key.ID()) }

// MarshalText returns the key in the format of a minisign .pub file,
// LF-terminated.
func (k PublicKey) MarshalText() ([]byte, error) {
	b, err := k.key.MarshalText()
	return append(b, '\n'), err
}

func formatID(id uint64) string { return strings.ToUpper(strconv.FormatUint(id, 16)) }

// A SecretKey signs. It is decrypted in memory; it is never written back.
type SecretKey struct {
	key minisign.PrivateKey
}

// ID returns the key ID, the same as its public key's.
func (k *SecretKey) ID() string { return formatID(k.key.ID()) }

// PublicKey returns the public key of k.
func (k *SecretKey) PublicKey() PublicKey {
	return PublicKey{key: k.key.Public().(minisign.PublicKey), Name: "public key of " + k.ID()}
}

// keyLine returns the decoded base64 line of a key file: the line after an
// optional "untrusted comment:" line, which is the format minisign writes and
// reads. name is used in messages.
func keyLine(name string, data []byte) ([]byte, error) {
	if len(data) > MaxKeyFileSize {
		return nil, errorf(CodeKeyFormat, "%s is %d bytes, more than a minisign key file can be (%d): give the .pub or .key file minisign or catalogkit keygen wrote", name, len(data), MaxKeyFileSize)
	}
	text := string(data)
	switch {
	case strings.HasPrefix(text, "ssh-ed25519 "), strings.HasPrefix(text, "ssh-rsa "), strings.HasPrefix(text, "ecdsa-sha2-"),
		strings.HasPrefix(text, "-----BEGIN OPENSSH"):
		return nil, errorf(CodeKeyAlgorithm, "%s is an OpenSSH key, not a minisign key", name)
	case strings.HasPrefix(text, "-----BEGIN PGP"):
		return nil, errorf(CodeKeyAlgorithm, "%s is an OpenPGP key, not a minisign key", name)
	case strings.HasPrefix(text, "-----BEGIN"):
		return nil, errorf(CodeKeyAlgorithm, "%s is a PEM file, not a minisign key", name)
	}
	lines := strings.Split(strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r"), "\n")
	if len(lines) == 2 && strings.HasPrefix(lines[0], "untrusted comment: ") {
		lines = lines[1:]
	}
	if len(lines) != 1 {
		return nil, errorf(CodeKeyFormat, "%s is not a minisign key file: want an optional \"untrusted comment:\" line and one base64 line, found %d lines", name, len(lines))
	}
	line := strings.TrimSuffix(lines[0], "\r")
	raw, err := base64.StdEncoding.Strict().DecodeString(line)
	if err != nil || strings.ContainsAny(line, "\r\n") {
		return nil, errorf(CodeKeyFormat, "%s: the key line is not standard base64", name)
	}
	return raw, nil
}

// ParsePublicKey reads a minisign public key: the text of a .pub file, or its
// base64 line alone (what `minisign -P` takes). name says where it came from.
func ParsePublicKey(name string, data []byte) (PublicKey, error) {
	raw, err := keyLine(name, data)
	if err != nil {
		return PublicKey{}, err
	}
	switch {
	case len(raw) == secretKeySize:
		return PublicKey{}, errorf(CodeNotPublicKey, "%s is a secret key: give the public key (the .pub file), and keep the secret key private", name)
	case len(raw) != publicKeySize:
		return PublicKey{}, errorf(CodeKeyFormat, "%s: the key is %d bytes, a minisign public key is %d", name, len(raw), publicKeySize)
	case string(raw[:2]) != tagEdDSA:
		return PublicKey{}, errorf(CodeKeyAlgorithm, "%s: key algorithm %q, want %q (Ed25519)", name, raw[:2], tagEdDSA)
	}
	var k minisign.PublicKey
	if err := k.UnmarshalText([]byte(base64.StdEncoding.EncodeToString(raw))); err != nil {
		return PublicKey{}, &Error{Code: CodeKeyFormat, Detail: name, Err: err}
	}
	return PublicKey{key: k, Name: name}, nil
}

// A PasswordFunc returns the password of an encrypted secret key. It is
// called only when one is needed.
type PasswordFunc func() (string, error)

// ParseSecretKey reads a minisign secret key file. If the key is encrypted,
// it calls password once and decrypts the key; a nil password is then a
// [CodePassword] refusal, and a process too limited in memory for scrypt a
// *[MemoryError], before password is called. name says where the key came
// from.
func ParseSecretKey(name string, data []byte, password PasswordFunc) (*SecretKey, error) {
	raw, err := keyLine(name, data)
	if err != nil {
		return nil, err
	}
	switch {
	case len(raw) == publicKeySize:
		return nil, errorf(CodeNotSecretKey, "%s is a public key: signing needs the secret key (the .key file)", name)
	case len(raw) != secretKeySize:
		return nil, errorf(CodeKeyFormat, "%s: the key is %d bytes, a minisign secret key is %d", name, len(raw), secretKeySize)
	case string(raw[:2]) != tagEdDSA:
		return nil, errorf(CodeKeyAlgorithm, "%s: key algorithm %q, want %q (Ed25519)", name, raw[:2], tagEdDSA)
	}
	text := []byte(base64.StdEncoding.EncodeToString(raw))
	switch kdf := string(raw[2:4]); kdf {
	case kdfNone:
		var k minisign.PrivateKey
		if err := k.UnmarshalText(text); err != nil {
			return nil, &Error{Code: CodeKeyFormat, Detail: name, Err: err}
		}
		return &SecretKey{key: k}, nil
	case kdfScrypt:
		if password == nil {
			return nil, errorf(CodePassword, "%s is encrypted and no password source was given", name)
		}
		// The key's header holds scrypt's memory limit (1 GiB for minisign's
		// keys), after the KDF algorithm, the checksum algorithm, the salt
		// and the operations limit.
		if err := CheckScryptMemory(int64(min(binary.LittleEndian.Uint64(raw[46:54]), 1<<40))); err != nil {
			return nil, err
		}
		pw, err := password()
		if err != nil {
			return nil, err
		}
		k, err := minisign.DecryptKey(pw, text)
		if err != nil {
			return nil, errorf(CodeWrongPassword, "%s: the password does not decrypt this key (or the key file was changed)", name)
		}
		return &SecretKey{key: k}, nil
	default:
		return nil, errorf(CodeKeyAlgorithm, "%s: key derivation %q, want scrypt or none", name, kdf)
	}
}

// KeyOptions says how [GenerateKey] protects the secret key.
type KeyOptions struct {
	// Password encrypts the secret key; it must not be empty unless
	// Unencrypted is set.
	Password string
	// Unencrypted writes the secret key in the clear, as `minisign -G -W`
	// does: for CI, where the file itself is the secret.
	Unencrypted bool
}

// A KeyPair is a generated key pair in file form.
type KeyPair struct {
	ID     string // upper-case hex, as minisign prints it
	Public []byte // the .pub file, LF-terminated
	Secret []byte // the .key file, LF-terminated
}

// GenerateKey makes a new Ed25519 key pair from the operating system's random
// source. Encrypting the secret key costs about a second of CPU and 1 GiB of
// memory (minisign's "sensitive" scrypt parameters), as every use of it does;
// a process too limited in memory for it gets a *[MemoryError].
func GenerateKey(opts KeyOptions) (*KeyPair, error) {
	switch {
	case opts.Unencrypted && opts.Password != "":
		return nil, errorf(CodePassword, "a password was given for an unencrypted key")
	case !opts.Unencrypted && opts.Password == "":
		return nil, errorf(CodePassword, "empty password: give one, or ask for an unencrypted key")
	}
	if !opts.Unencrypted {
		if err := CheckScryptMemory(ScryptMemory); err != nil {
			return nil, err
		}
	}
	pub, priv, err := minisign.GenerateKey(nil)
	if err != nil {
		return nil, fmt.Errorf("failed to generate a key: %w", err)
	}
	var sec []byte
	if opts.Unencrypted {
		sec, err = priv.MarshalText()
	} else {
		sec, err = minisign.EncryptKey(opts.Password, priv)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to encode the secret key: %w", err)
	}
	pubText, _ := pub.MarshalText() // never fails
	return &KeyPair{ID: formatID(pub.ID()), Public: append(pubText, '\n'), Secret: append(sec, '\n')}, nil
}

// keyID reads the little-endian key ID of a decoded signature line.
func keyID(raw []byte) uint64 { return binary.LittleEndian.Uint64(raw[2:10]) }
