package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// poisonTest is the test of a hostile archive that poisons the build cache
// it runs with, as an attacker did to verify's persistent cache: it has
// the go command compile the standard library's testing package twice,
// once as it is and once with a Fail that does nothing (through an
// overlay), then rewrites the cache's action entry of the real package to
// point at the fake one (the go command does not re-hash what an entry
// points at). A later build that takes testing from that cache links the
// fake: every test passes. It fails if any step of the attack fails, so
// that its archive passing shows the attack ran to its end. It is in the
// conformance package, so that no test binary of the honest archives
// verified after it is the same as one of the poisoning archive's (the go
// command would take it from the cache, linked before the poison).
const poisonTest = `package conformance

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPoison(t *testing.T) {
	gocache := os.Getenv("GOCACHE")
	golist := func(args ...string) string {
		out, err := exec.Command("go", args...).Output()
		if err != nil {
			t.Fatalf("go %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	goroot := golist("env", "GOROOT")
	real := golist("list", "-export", "-f", "{{.Export}}", "testing")
	src, err := os.ReadFile(filepath.Join(goroot, "src", "testing", "testing.go"))
	if err != nil {
		t.Fatal(err)
	}
	fake := bytes.Replace(src, []byte("func (c *common) Fail() {\n"), []byte("func (c *common) Fail() { return\n"), 1)
	if bytes.Equal(fake, src) {
		t.Fatal("no Fail to rewrite in testing.go")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "testing.go"), fake, 0o644); err != nil {
		t.Fatal(err)
	}
	overlay := fmt.Sprintf("{\"Replace\": {%q: %q}}", filepath.Join(goroot, "src", "testing", "testing.go"), filepath.Join(dir, "testing.go"))
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	evil := golist("list", "-export", "-overlay", filepath.Join(dir, "overlay.json"), "-f", "{{.Export}}", "testing")
	info, err := os.Stat(evil)
	if err != nil {
		t.Fatal(err)
	}
	realID := strings.TrimSuffix(filepath.Base(real), "-d")
	evilID := strings.TrimSuffix(filepath.Base(evil), "-d")
	n := 0
	err = filepath.WalkDir(gocache, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "-a") {
			return err
		}
		entry, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f := strings.Fields(string(entry))
		if len(f) != 5 || f[2] != realID {
			return nil
		}
		n++
		os.Chmod(p, 0o644)
		return os.WriteFile(p, []byte(fmt.Sprintf("v1 %s %s %20d %20s\n", f[1], evilID, info.Size(), f[4])), 0o644)
	})
	if err != nil || n == 0 {
		t.Fatalf("rewrote %d entries of %s: %v", n, gocache, err)
	}
	t.Logf("the cache entry of testing in %s now points at a testing whose Fail does nothing", gocache)
}
`

// TestVerdictNotPoisoned verifies an archive whose test poisons the build
// cache it is given (poisonTest), then, with the same persistent build
// cache, an honest archive whose case must fail and one whose cases must
// pass: each gets the verdict it gets on a clean machine. The tests of one
// archive never change the verdict on another.
func TestVerdictNotPoisoned(t *testing.T) {
	if testing.Short() {
		t.Skip("the attack compiles the testing package and its dependencies twice")
	}
	userGOCACHE(t)
	cache := t.TempDir() // the persistent cache of one machine's verifies
	verify := func(files []tfile) *Report {
		data := packTree(files)
		sb := newSandbox(t, data)
		sum := sha256.Sum256(data)
		plan := ReleaseTests()
		plan.GOCACHE = cache
		return Verify(context.Background(), sb.archive, Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, Tests: plan})
	}
	if rep := verify(fakeRelease(21, nil, tfile{path: "conformance/poison_test.go", data: []byte(poisonTest)})); !rep.OK() {
		t.Fatalf("the poisoning archive's attack did not run to its end:\n%s", text(rep))
	}
	if rep := verify(fakeRelease(21, map[int]string{7: "fail"})); rep.Step(StepTests).Code() != CodeTestsFailed {
		t.Errorf("after the poisoning archive, an honest archive whose case 07 fails: tests %s [%s], want %s\n%s",
			rep.Step(StepTests).Status, rep.Step(StepTests).Code(), CodeTestsFailed, text(rep))
	}
	if rep := verify(fakeRelease(21, nil)); !rep.OK() {
		t.Errorf("after the poisoning archive, an honest archive whose cases pass:\n%s", text(rep))
	}
}
