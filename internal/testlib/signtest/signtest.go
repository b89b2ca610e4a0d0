// Package signtest makes signing keys for the tests of the packages that
// check signatures: unencrypted, so that no password is asked and no scrypt
// is paid.
package signtest

import (
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// Key generates an unencrypted key pair and parses both halves, named
// name.key and name.pub in errors; it fails tb if any step fails.
func Key(tb testing.TB, name string) (*sign.KeyPair, *sign.SecretKey, sign.PublicKey) {
	tb.Helper()
	kp, err := sign.GenerateKey(sign.KeyOptions{Unencrypted: true})
	if err == nil {
		var sk *sign.SecretKey
		if sk, err = sign.ParseSecretKey(name+".key", kp.Secret, nil); err == nil {
			var pk sign.PublicKey
			if pk, err = sign.ParsePublicKey(name+".pub", kp.Public); err == nil {
				return kp, sk, pk
			}
		}
	}
	tb.Fatalf("a test key %s: %v", name, err)
	return nil, nil, sign.PublicKey{}
}
