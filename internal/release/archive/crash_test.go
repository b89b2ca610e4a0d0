//go:build unix

package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writePoints are WriteRelease's write points, in order.
var writePoints = []string{"selected", "locked", "zip-written", "sums-written", "signed", "sums-removed", "zip-renamed", "sidecar-renamed", "sums-renamed"}

// fakeSign is a [Signer] whose signatures a test can check without keys:
// each is "sig " and the SHA-256 of the bytes it signs, and the statement
// names the archive's SHA-256.
func fakeSign(res *Result, sums []byte) ([]Sidecar, error) {
	prov := []byte("statement for " + res.SHA256 + "\n")
	return []Sidecar{
		{Name: ProvenanceName(res.Version) + SigSuffix, Data: fakeSig(prov)},
		{Name: ProvenanceName(res.Version), Data: prov},
		{Name: SumsSigName, Data: fakeSig(sums)},
	}, nil
}

func fakeSig(b []byte) []byte {
	h := sha256.Sum256(b)
	return []byte("sig " + hex.EncodeToString(h[:]) + "\n")
}

// signedState describes the signed files in dir: "" when SHA256SUMS has no
// signature beside it, " signed" when its signature and every provenance
// statement's check out, or a description of the first mismatch.
func signedState(t *testing.T, dir string, sums []byte) string {
	t.Helper()
	provs, _ := filepath.Glob(filepath.Join(dir, "*.provenance.json"))
	for _, p := range provs {
		stmt, _ := os.ReadFile(p)
		sig, err := os.ReadFile(p + SigSuffix)
		if err != nil {
			return " statement without signature"
		}
		if string(sig) != string(fakeSig(stmt)) {
			return " statement beside a signature of other bytes"
		}
	}
	sig, err := os.ReadFile(filepath.Join(dir, SumsSigName))
	switch {
	case err != nil:
		return ""
	case string(sig) != string(fakeSig(sums)):
		return " SHA256SUMS beside a signature of other bytes"
	}
	return " signed"
}

// pairState describes what a reader of dir finds: "none" (no SHA256SUMS),
// "sums names a missing zip", "mismatch", or "pair <sha256 prefix>". It also
// returns the temporary files lying there.
func pairState(t *testing.T, dir string) (state string, temps []string) {
	t.Helper()
	temps, _ = filepath.Glob(filepath.Join(dir, tempPattern))
	sums, err := os.ReadFile(filepath.Join(dir, SumsName))
	if errors.Is(err, os.ErrNotExist) {
		return "none", temps
	}
	if err != nil {
		t.Fatal(err)
	}
	sum, name, ok := ParseSumLine(strings.TrimSuffix(string(sums), "\n"), false)
	if !ok {
		t.Fatalf("SHA256SUMS is not one sha256sum line: %q", sums)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return "sums names a missing zip", temps
	}
	got := sha256.Sum256(data)
	if hex.EncodeToString(got[:]) != sum {
		return "mismatch", temps
	}
	return "pair " + name + " " + sum[:12] + signedState(t, dir, sums), temps
}

// TestWriteReleaseCrash kills a real pack process (SIGKILL, as a crash) at
// each write point, signed and unsigned, starting from an empty folder, from
// an older version's release, from a release of the same version with other
// bytes, and from the same release signed or not. A reader must find the
// old release or the new one (or, while SHA256SUMS or a signature is
// replaced, a folder without SHA256SUMS), never a mismatched pair nor a
// signature of other bytes; the next run removes the killed run's temporary
// files and writes the new release.
func TestWriteReleaseCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash injection: a child process killed at each point of the write: make test runs it")
	}
	tree := filepath.Join(t.TempDir(), "tree")
	writeTree(t, tree, sampleTree(), plain)
	newState := map[bool]string{}
	for _, signed := range []bool{false, true} {
		dist := t.TempDir()
		if _, err := WriteRelease(context.Background(), tree, dist, crashOptions(signed)); err != nil {
			t.Fatal(err)
		}
		newState[signed], _ = pairState(t, dist)
	}
	if !strings.HasSuffix(newState[true], " signed") || strings.HasSuffix(newState[false], " signed") {
		t.Fatalf("signed release %q, unsigned %q: the fake signatures do not show", newState[true], newState[false])
	}

	older := func(version, extra string, signed bool) func(t *testing.T, out string) {
		return func(t *testing.T, out string) {
			old := filepath.Join(t.TempDir(), "old")
			writeTree(t, old, sampleTree(), plain)
			os.WriteFile(filepath.Join(old, "VERSION"), []byte(version+"\n"), 0o644)
			os.WriteFile(filepath.Join(old, "README.md"), []byte(extra), 0o644)
			if _, err := WriteRelease(context.Background(), old, out, crashOptions(signed)); err != nil {
				t.Fatal(err)
			}
		}
	}
	same := func(signed bool) func(t *testing.T, out string) {
		return func(t *testing.T, out string) {
			if _, err := WriteRelease(context.Background(), tree, out, crashOptions(signed)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name   string
		reason string
		setup  func(t *testing.T, out string)
		sign   bool // the killed run signs
		gap    bool // a reader may find no SHA256SUMS while the run replaces it
	}{
		{name: "empty", reason: "a first release", setup: func(*testing.T, string) {}},
		{name: "older-version", reason: "a new version beside an older pair", setup: older("0.0.9", "old\n", false)},
		{name: "same-version", reason: "the same version rebuilt from other files", setup: older("0.1.0", "other bytes\n", false), gap: true},
		{name: "signed/empty", reason: "a first signed release", setup: func(*testing.T, string) {}, sign: true},
		{name: "signed/older-signed", reason: "a signed release beside an older signed one", setup: older("0.0.9", "old\n", true), sign: true, gap: true},
		{name: "signed/same-version-signed", reason: "a signed rebuild of the same version from other files", setup: older("0.1.0", "other bytes\n", true), sign: true, gap: true},
		{name: "signed/same-unsigned", reason: "signing a release already packed unsigned", setup: same(false), sign: true, gap: true},
		{name: "unsigned/same-signed", reason: "an unsigned pack over the same release signed: the signatures go", setup: same(true)},
		{name: "unsigned/older-signed", reason: "an unsigned release beside an older signed one", setup: older("0.0.9", "old\n", true), gap: true},
	}
	for _, tt := range tests {
		for _, point := range writePoints {
			t.Run(tt.name+"/"+point, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "dist")
				os.MkdirAll(out, 0o755)
				tt.setup(t, out)
				oldState, _ := pairState(t, out)
				newPair := newState[tt.sign]

				cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
				cmd.Env = append(os.Environ(), "CATALOGKIT_CRASH_AT="+point, "CRASH_TREE="+tree, "CRASH_OUT="+out, fmt.Sprintf("CRASH_SIGN=%t", tt.sign))
				b, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				killed := errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL
				if !killed && err != nil {
					t.Fatalf("helper failed at %s: %v\n%s", point, err, b)
				}
				state, _ := pairState(t, out)
				allowed := []string{oldState, newPair}
				if tt.gap {
					allowed = append(allowed, "none")
				}
				if !contains(allowed, state) {
					t.Errorf("%s: killed at %s, a reader finds %q; want one of %q", tt.reason, point, state, allowed)
				}

				if _, err := WriteRelease(context.Background(), tree, out, crashOptions(tt.sign)); err != nil {
					t.Fatalf("the next run failed: %v", err)
				}
				state, temps := pairState(t, out)
				if state != newPair || len(temps) > 0 {
					t.Errorf("after the next run: %q with temporary files %q; want %q and none", state, temps, newPair)
				}
				if !tt.sign {
					for _, n := range SidecarNames("0.1.0") {
						if _, err := os.Lstat(filepath.Join(out, n)); err == nil {
							t.Errorf("an unsigned pack left %s of an earlier signed one", n)
						}
					}
				}
			})
		}
	}
}

// crashOptions signs with fakeSign if signed.
func crashOptions(signed bool) Options {
	if signed {
		return Options{Sign: fakeSign}
	}
	return Options{}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestCrashHelper is the pack process TestWriteReleaseCrash kills: it sends
// itself SIGKILL at the write point named by CATALOGKIT_CRASH_AT.
func TestCrashHelper(t *testing.T) {
	at := os.Getenv("CATALOGKIT_CRASH_AT")
	if at == "" {
		t.Skip("helper process for TestWriteReleaseCrash")
	}
	testHookPoint = func(point string) error {
		if point == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
	if _, err := WriteRelease(context.Background(), os.Getenv("CRASH_TREE"), os.Getenv("CRASH_OUT"), crashOptions(os.Getenv("CRASH_SIGN") == "true")); err != nil {
		t.Fatal(err)
	}
}

// TestWriteReleaseLocked checks that a second pack into a folder another
// holds is refused at once, saying why, and writes nothing.
func TestWriteReleaseLocked(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, sampleTree(), plain)
	out := t.TempDir()
	unlock, err := lockDir(filepath.Join(out, LockName))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = WriteRelease(context.Background(), tree, out, Options{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "(process ") {
		t.Fatalf("WriteRelease into a locked folder: %v, want ErrLocked naming the holder", err)
	}
	if diff := cmp.Diff([]string{LockName}, listDir(t, out)); diff != "" {
		t.Errorf("a refused pack changed the folder (-want +got):\n%s", diff)
	}
}

// TestWriteReleaseCancelled checks that a cancelled pack removes its
// temporary files and leaves the older pair as it was.
func TestWriteReleaseCancelled(t *testing.T) {
	tree := t.TempDir()
	writeTree(t, tree, sampleTree(), plain)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, SumsName), []byte("old\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	testHookPoint = func(point string) error {
		if point == "locked" {
			cancel()
		}
		return nil
	}
	t.Cleanup(func() { testHookPoint = nil })
	if _, err := WriteRelease(ctx, tree, out, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled WriteRelease: %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{LockName, SumsName}, listDir(t, out)); diff != "" {
		t.Errorf("a cancelled pack left (-want +got):\n%s", diff)
	}
}
