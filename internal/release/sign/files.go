package sign

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
)

// Key file suffixes that keygen writes after its --out prefix.
const (
	SecretKeySuffix = ".key"
	PublicKeySuffix = ".pub"
	// SignatureSuffix is what a signature file adds to the signed file's
	// name, as `minisign -S` names it.
	SignatureSuffix = ".minisig"
)

// WriteKeyPair writes kp to prefix+".key" (mode 0600) and prefix+".pub"
// (mode 0644). Each file appears whole or not at all (written to a temporary
// file in the same directory, then hard-linked into place), and neither is
// ever overwritten: if either exists, nothing is written and the error wraps
// [fs.ErrExist]. If the second file cannot be placed, the first is removed.
func WriteKeyPair(prefix string, kp *KeyPair) (secretPath, publicPath string, err error) {
	secretPath, publicPath = prefix+SecretKeySuffix, prefix+PublicKeySuffix
	for _, p := range []string{secretPath, publicPath} {
		if _, err := os.Lstat(p); err == nil {
			return "", "", fmt.Errorf("refusing to overwrite %s: %w", p, fs.ErrExist)
		}
	}
	if err := writeNew(secretPath, kp.Secret, 0o600); err != nil {
		return "", "", err
	}
	if err := writeNew(publicPath, kp.Public, 0o644); err != nil {
		os.Remove(secretPath)
		return "", "", err
	}
	return secretPath, publicPath, nil
}

// WriteSignature writes a signature file atomically: a reader sees the old
// file or the new one, whole, never a part; an old signature is replaced.
func WriteSignature(path string, sig []byte) error {
	if err := atomicfile.WriteFile(path, sig, 0o644); err != nil {
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
	return nil
}

// writeNew atomically creates path with data and perm, failing with an error
// that wraps fs.ErrExist if path exists.
func writeNew(path string, data []byte, perm fs.FileMode) error {
	switch err := atomicfile.WriteNew(path, data, perm); {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist) && !errors.Is(err, atomicfile.ErrCreate):
		return fmt.Errorf("refusing to overwrite %s: %w", path, fs.ErrExist)
	default:
		return fmt.Errorf("failed to write %s: %w", path, err)
	}
}
