package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sbox "github.com/catalogkit/catalogkit/internal/release/sandbox"
)

// TestKeepOnlyRepackedTree checks that --keep leaves the extracted tree only
// when it passed the repack step: a tree that failed the manifest or the
// repack may hold what the packager never writes, and is removed, with the
// report saying so; KeepDir itself stays if it existed before.
func TestKeepOnlyRepackedTree(t *testing.T) {
	tests := []struct {
		name, reason string
		build        func(string) []byte
		existed      bool // KeepDir exists, empty, before verify
		wantKept     bool
		wantFailed   string
	}{
		{name: "good", reason: "a tree that repacks to the archive is kept", build: mut(func(*zarc) {}), wantKept: true},
		{name: "manifest-fails", reason: "an unlisted file fails the manifest step",
			build: mut(func(a *zarc) { a.add(testRoot+"/zz-extra.go", []byte("package evil\n")) }), wantFailed: StepManifest},
		{name: "repack-fails", reason: "entries out of order: only the repack notices",
			build: mut(func(a *zarc) { a.ents[0], a.ents[1] = a.ents[1], a.ents[0] }), wantFailed: StepRepack},
		{name: "repack-fails-existing-dir", reason: "an empty KeepDir given by the user stays, emptied",
			build: mut(func(a *zarc) { a.ents[0], a.ents[1] = a.ents[1], a.ents[0] }), existed: true, wantFailed: StepRepack},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := newSandbox(t, tt.build(""))
			keep := filepath.Join(t.TempDir(), "keep")
			if tt.existed {
				if err := os.Mkdir(keep, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			rep := Verify(context.Background(), sb.archive, Options{TempDir: sb.tmp, KeepDir: keep, NoExec: true})
			ents, err := os.ReadDir(keep)
			switch {
			case tt.wantKept && (err != nil || len(ents) == 0 || rep.Kept == ""):
				t.Errorf("%s: KeepDir %v %v, report kept %q; want the tree there\n%s", tt.reason, ents, err, rep.Kept, text(rep))
			case !tt.wantKept && len(ents) > 0:
				t.Errorf("%s: KeepDir still holds %v\n%s", tt.reason, ents, text(rep))
			case !tt.wantKept && tt.existed != (err == nil):
				t.Errorf("%s: KeepDir exists %v, want %v", tt.reason, err == nil, tt.existed)
			case !tt.wantKept && (rep.Kept != "" || !strings.Contains(rep.Unkept, "as the "+tt.wantFailed+" step failed")):
				t.Errorf("%s: report kept %q, unkept %q; want it to say the tree was removed after the %s step", tt.reason, rep.Kept, rep.Unkept, tt.wantFailed)
			}
		})
	}
}

// keepWriter is the test of an archive that writes into the tree it runs
// in, as an attacker's would to leave a trap in the tree --keep keeps: a
// .git/config whose fsmonitor hook git runs at the next git status, and a
// changed source file after the repack step passed. It writes through its
// working directory and, where the user's tree is reachable, to the kept
// tree's path (%q) itself.
const keepWriter = `package catalog

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteTree(t *testing.T) {
	for _, root := range []string{"..", %q} {
		os.MkdirAll(filepath.Join(root, ".git"), 0o755)
		os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n\tfsmonitor = touch /tmp/owned\n"), 0o644)
		os.WriteFile(filepath.Join(root, "VERSION"), []byte("changed\n"), 0o644)
	}
}
`

// TestKeepOnlyArchiveBytes verifies with --keep an archive whose test
// writes into the tree (keepWriter). Sandboxed, the tests run in a copy
// and the kept tree is the archive's bytes; unsandboxed, the test reaches
// the kept tree, and verify finds the change after the tests, fails with
// tree_changed and removes the tree.
func TestKeepOnlyArchiveBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("the re-run inside an archive, sandboxed and not: make test runs it")
	}
	gocache := userGOCACHE(t)
	for _, mode := range []SandboxMode{SandboxAuto, SandboxOff} {
		t.Run(string(mode), func(t *testing.T) {
			if mode == SandboxAuto && sbox.Check() != nil {
				t.Skip(sbox.Check())
			}
			keep := filepath.Join(t.TempDir(), "keep")
			src := fmt.Sprintf(keepWriter, filepath.Join(keep, testRoot))
			data := packTree(fakeRelease(21, nil, tfile{path: "catalog/write_test.go", data: []byte(src)}))
			sb := newSandbox(t, data)
			sum := sha256.Sum256(data)
			plan := ReleaseTests()
			plan.GOCACHE = gocache
			rep := Verify(context.Background(), sb.archive, Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, Tests: plan, KeepDir: keep, Sandbox: mode})
			t.Logf("report:\n%s", text(rep))
			version, verr := os.ReadFile(filepath.Join(keep, testRoot, "VERSION"))
			_, gerr := os.Stat(filepath.Join(keep, testRoot, ".git"))
			switch mode {
			case SandboxOff:
				s := rep.Step(StepTests)
				if s.Code() != CodeTreeChanged || rep.OK() {
					t.Errorf("unsandboxed, the test wrote the kept tree: tests %s [%s], want %s", s.Status, s.Code(), CodeTreeChanged)
				}
				if verr == nil || gerr == nil || rep.Kept != "" || !strings.Contains(rep.Unkept, "changed while the tests ran") {
					t.Errorf("unsandboxed, the changed tree was not removed: VERSION %v, .git %v, kept %q, unkept %q", verr, gerr, rep.Kept, rep.Unkept)
				}
			default:
				if !rep.OK() || rep.Kept == "" {
					t.Errorf("sandboxed: want verify ok with the tree kept")
				}
				if verr != nil || string(version) != testVersion+"\n" || gerr == nil {
					t.Errorf("sandboxed, the kept tree is not the archive's bytes: VERSION %q (%v), .git: %v", version, verr, gerr)
				}
			}
		})
	}
}
