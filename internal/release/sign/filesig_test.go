package sign

import (
	"path/filepath"
	"strings"
	"testing"
)

const testCatalog = `[{"name":"page.read","family":"reading","effect":"read","enabled":true,"fields":{}}]`

func TestSignVerifyFile(t *testing.T) {
	_, sk, pk := newKey(t, "catalog")
	_, otherSK, otherPK := newKey(t, "other")
	good, err := SignFile(sk, "catalog.json", []byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	renamed, _ := SignFile(sk, "old.json", []byte(testCatalog))
	release, _ := Sign(sk, []byte(testCatalog), testComment)
	lying := signText(sk, []byte(testCatalog), FileComment{File: "catalog.json", SHA256: strings.Repeat("0", 64)}.String())
	byOther, _ := SignFile(otherSK, "catalog.json", []byte(testCatalog))
	tests := []struct {
		name, reason string
		data, sig    []byte
		keys         []PublicKey
		want         Code
	}{
		{name: "good", reason: "the file, its name, its hash, signed by the key given", data: []byte(testCatalog), sig: good, keys: []PublicKey{pk}},
		{name: "second-key", reason: "any of the keys given may have signed", data: []byte(testCatalog), sig: good, keys: []PublicKey{otherPK, pk}},
		{name: "changed", reason: "one byte of the catalog changed after signing", data: []byte(strings.Replace(testCatalog, "read", "reed", 1)), sig: good, keys: []PublicKey{pk}, want: CodeBadSignature},
		{name: "other-key", reason: "signed by a key that was not given", data: []byte(testCatalog), sig: byOther, keys: []PublicKey{pk}, want: CodeUnknownKey},
		{name: "renamed", reason: "the signature names another file: a signed catalog is served under its signed name", data: []byte(testCatalog), sig: renamed, keys: []PublicKey{pk}, want: CodeWrongFile},
		{name: "wrong-hash", reason: "an authentic comment whose SHA-256 is not the file's", data: []byte(testCatalog), sig: lying, keys: []PublicKey{pk}, want: CodeWrongFile},
		{name: "release-signature", reason: "a release's signature is not a catalog signature, even over the same bytes", data: []byte(testCatalog), sig: release, keys: []PublicKey{pk}, want: CodeCommentFormat},
		{name: "no-keys", reason: "verifying needs a key", data: []byte(testCatalog), sig: good, want: CodeNoKeys},
		{name: "truncated", reason: "a cut signature file", data: []byte(testCatalog), sig: good[:len(good)-3], keys: []PublicKey{pk}, want: CodeSigFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := VerifyFile("catalog.json", tt.data, tt.sig, tt.keys)
			if got := CodeOf(err); got != tt.want {
				t.Fatalf("%s: code %q (%v), want %q", tt.reason, got, err, tt.want)
			}
			if err == nil && (v.KeyID != pk.ID() || v.Comment.File != "catalog.json") {
				t.Errorf("%s: verified %+v, want key %s and file catalog.json", tt.reason, v, pk.ID())
			}
		})
	}
	if _, err := SignFile(sk, "dir/catalog.json", nil); CodeOf(err) != CodeCommentValue {
		t.Errorf("SignFile with a path, not a base name: %v, want %s", err, CodeCommentValue)
	}
}

// TestSignFileMinisign: `minisign -Vm catalog.json -p KEY.pub` accepts
// SignFile's signature and prints its trusted comment, and refuses it once
// the catalog has changed.
func TestSignFileMinisign(t *testing.T) {
	tool := minisignTool(t)
	kp, sk, _ := newKey(t, "catalog")
	dir := t.TempDir()
	sig, err := SignFile(sk, "catalog.json", []byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "k.pub"), kp.Public)
	write(t, filepath.Join(dir, "catalog.json"), []byte(testCatalog))
	write(t, filepath.Join(dir, "catalog.json"+SignatureSuffix), sig)
	out, err := runMinisign(t, tool, dir, "", "-Vm", "catalog.json", "-p", "k.pub")
	if err != nil {
		t.Fatalf("minisign -V refused the catalog signature: %v\n%s", err, out)
	}
	if want := "Trusted comment: catalogkit-file/1\tfile:catalog.json\tsha256:"; !strings.Contains(out, want) {
		t.Errorf("minisign -V printed\n%s\nwant a line starting %q", out, want)
	}
	write(t, filepath.Join(dir, "catalog.json"), []byte(testCatalog+" "))
	if out, err := runMinisign(t, tool, dir, "", "-Vm", "catalog.json", "-p", "k.pub"); err == nil {
		t.Errorf("minisign -V accepted a changed catalog:\n%s", out)
	}
}
