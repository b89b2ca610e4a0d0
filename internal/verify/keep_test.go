package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
