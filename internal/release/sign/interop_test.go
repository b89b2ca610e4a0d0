package sign

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// The interoperability tests run the real minisign command-line tool (the
// Debian package "minisign", which .ci/run installs): what catalogkit signs
// must verify with `minisign -V`, and what `minisign -S` signs must verify
// with this package, for keys made by either tool, encrypted or not.

// minisignTool returns the path of minisign (see skipreport.Tool).
func minisignTool(t *testing.T) string {
	t.Helper()
	return skipreport.Tool(t, "minisign", "internal/release/sign: minisign is not installed, so the interoperability tests with the real tool did NOT run; install it: sudo apt-get install minisign")
}

// runMinisign runs minisign with stdin and returns its combined output.
func runMinisign(t *testing.T, tool, dir, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "HOME="+dir) // never the user's ~/.minisign
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMinisignVerifiesCatalogkit: catalogkit keygen + Sign, then
// `minisign -Vm SHA256SUMS -p KEY.pub`, for an unencrypted and an encrypted
// key. A changed file must then fail minisign, so the check is not vacuous.
func TestMinisignVerifiesCatalogkit(t *testing.T) {
	tool := minisignTool(t)
	unencrypted, _, _ := newKey(t, "ci")
	tests := []struct {
		name, reason string
		kp           *KeyPair
		password     PasswordFunc
	}{
		{name: "unencrypted", reason: "keygen --unencrypted, as CI uses", kp: unencrypted},
		{name: "encrypted", reason: "a password-encrypted key (low scrypt cost, see encryptCheaply)", kp: encryptedKey(t),
			password: func() (string, error) { return testPassword, nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			sk, err := ParseSecretKey("k.key", tt.kp.Secret, tt.password)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := Sign(sk, []byte(testSums), testComment)
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, "k.pub"), tt.kp.Public)
			write(t, filepath.Join(dir, "SHA256SUMS"), []byte(testSums))
			write(t, filepath.Join(dir, "SHA256SUMS.minisig"), sig)
			out, err := runMinisign(t, tool, dir, "", "-Vm", "SHA256SUMS", "-p", "k.pub")
			if err != nil {
				t.Fatalf("%s: minisign -V refused catalogkit's signature: %v\n%s", tt.reason, err, out)
			}
			if want := "Trusted comment: " + testComment.String(); !strings.Contains(out, want) {
				t.Errorf("%s: minisign -V printed\n%s\nwant a line %q", tt.reason, out, want)
			}
			write(t, filepath.Join(dir, "SHA256SUMS"), []byte(strings.Replace(testSums, "0", "1", 1)))
			if out, err := runMinisign(t, tool, dir, "", "-Vm", "SHA256SUMS", "-p", "k.pub"); err == nil {
				t.Errorf("%s: minisign -V accepted a changed file:\n%s", tt.reason, out)
			}
		})
	}
}

// TestCatalogkitVerifiesMinisign: `minisign -S` with a key made by
// `minisign -G` and with a key made by catalogkit keygen, encrypted and not,
// pre-hashed (the default) and legacy (-l); then VerifySignature and Verify.
func TestCatalogkitVerifiesMinisign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds catalogkit and derives keys at minisign's real scrypt cost: make test runs it")
	}
	tool := minisignTool(t)
	unencrypted, _, _ := newKey(t, "ci")
	tests := []struct {
		name, reason string
		keygen       string   // "minisign" or "catalogkit"
		kp           *KeyPair // for catalogkit keys
		password     string   // "" for an unencrypted key
		signFlags    []string
		prehashed    bool
	}{
		{name: "minisign-key-unencrypted", reason: "minisign -G -W, minisign -S -W", keygen: "minisign", signFlags: []string{"-W"}, prehashed: true},
		{name: "minisign-key-unencrypted-legacy", reason: "minisign -S -l writes the legacy Ed algorithm", keygen: "minisign", signFlags: []string{"-W", "-l"}},
		{name: "minisign-key-encrypted", reason: "minisign -G with a password", keygen: "minisign", password: "minisign pass", prehashed: true},
		{name: "catalogkit-key-unencrypted", reason: "catalogkit keygen --unencrypted, minisign -S -W", keygen: "catalogkit", kp: unencrypted, signFlags: []string{"-W"}, prehashed: true},
		{name: "catalogkit-key-encrypted", reason: "catalogkit keygen with a password (minisign's real cost), minisign -S asks for it", keygen: "catalogkit", kp: realEncryptedKey(t), password: testPassword, prehashed: true},
		{name: "cheap-key-encrypted", reason: "the tests' low-cost encrypted key is one minisign decrypts too", keygen: "catalogkit", kp: encryptedKey(t), password: testPassword, prehashed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.keygen == "minisign" {
				args := []string{"-G", "-p", "k.pub", "-s", "k.key"}
				stdin := tt.password + "\n" + tt.password + "\n"
				if tt.password == "" {
					args, stdin = append(args, "-W"), ""
				}
				if out, err := runMinisign(t, tool, dir, stdin, args...); err != nil {
					t.Fatalf("minisign -G: %v\n%s", err, out)
				}
			} else {
				write(t, filepath.Join(dir, "k.pub"), tt.kp.Public)
				write(t, filepath.Join(dir, "k.key"), tt.kp.Secret)
			}
			write(t, filepath.Join(dir, "SHA256SUMS"), []byte(testSums))
			args := append([]string{"-S", "-s", "k.key", "-m", "SHA256SUMS", "-t", testComment.String()}, tt.signFlags...)
			if out, err := runMinisign(t, tool, dir, tt.password+"\n", args...); err != nil {
				t.Fatalf("%s: minisign -S: %v\n%s", tt.reason, err, out)
			}
			pk, err := ParsePublicKey("k.pub", read(t, filepath.Join(dir, "k.pub")))
			if err != nil {
				t.Fatalf("%s: the public key minisign -G wrote: %v", tt.reason, err)
			}
			sig := read(t, filepath.Join(dir, "SHA256SUMS.minisig"))
			v, err := Verify([]byte(testSums), sig, []PublicKey{pk})
			if err != nil {
				t.Fatalf("%s: Verify refused minisign's signature: %v\n%s", tt.reason, err, sig)
			}
			if v.Comment != testComment || v.Prehashed != tt.prehashed {
				t.Errorf("%s: got comment %+v, prehashed %v; want %+v, %v", tt.reason, v.Comment, v.Prehashed, testComment, tt.prehashed)
			}
			if _, err := VerifySignature([]byte(testSums+"x"), sig, []PublicKey{pk}); CodeOf(err) != CodeBadSignature {
				t.Errorf("%s: a changed file: err %v, want code %s", tt.reason, err, CodeBadSignature)
			}
			if tt.keygen == "minisign" && tt.password == "" {
				// A maintainer's existing minisign key signs with catalogkit too.
				sk, err := ParseSecretKey("k.key", read(t, filepath.Join(dir, "k.key")), nil)
				if err != nil {
					t.Fatalf("ParseSecretKey of minisign -G -W's key: %v", err)
				}
				if sk.ID() != pk.ID() {
					t.Errorf("secret key ID %s, public key ID %s", sk.ID(), pk.ID())
				}
				s, err := Sign(sk, []byte(testSums), testComment)
				if err != nil {
					t.Fatal(err)
				}
				// Ed25519 is deterministic: below the untrusted comment, the
				// two tools' pre-hashed signatures are the same bytes.
				if tt.prehashed && !bytes.Equal(s[bytes.IndexByte(s, '\n'):], sig[bytes.IndexByte(sig, '\n'):]) {
					t.Errorf("catalogkit and minisign signed the same bytes and comment differently:\n%s\n%s", s, sig)
				}
			}
		})
	}
	t.Run("default-comment", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "k.pub"), unencrypted.Public)
		write(t, filepath.Join(dir, "k.key"), unencrypted.Secret)
		write(t, filepath.Join(dir, "SHA256SUMS"), []byte(testSums))
		if out, err := runMinisign(t, tool, dir, "", "-S", "-W", "-s", "k.key", "-m", "SHA256SUMS"); err != nil {
			t.Fatalf("minisign -S: %v\n%s", err, out)
		}
		pk, _ := ParsePublicKey("k.pub", unencrypted.Public)
		sig := read(t, filepath.Join(dir, "SHA256SUMS.minisig"))
		if _, err := VerifySignature([]byte(testSums), sig, []PublicKey{pk}); err != nil {
			t.Errorf("VerifySignature of a signature with minisign's default comment: %v", err)
		}
		if _, err := Verify([]byte(testSums), sig, []PublicKey{pk}); CodeOf(err) != CodeCommentFormat {
			t.Errorf("Verify of a signature with minisign's default comment: err %v, want code %s", err, CodeCommentFormat)
		}
	})
}
