package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/google/go-cmdtest"
	"github.com/google/go-cmp/cmp"
)

// TestEmbeddedVersionMatchesVERSION keeps cmd/catalogkit/version.txt, which
// every build embeds, equal to the repository's VERSION file.
func TestEmbeddedVersionMatchesVERSION(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", archive.VersionFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(embeddedVersion), want) {
		t.Errorf("cmd/catalogkit/version.txt is %q, VERSION is %q: run 'cp VERSION cmd/catalogkit/version.txt'", embeddedVersion, want)
	}
}

// fakeBuild replaces the build information and Go version the version
// command reads for the rest of the test.
func fakeBuild(t *testing.T, bi *debug.BuildInfo, stamp string) {
	t.Helper()
	oldRead, oldGo, oldStamp := readBuildInfo, goVersion, version
	t.Cleanup(func() { readBuildInfo, goVersion, version = oldRead, oldGo, oldStamp })
	readBuildInfo = func() (*debug.BuildInfo, bool) { return bi, bi != nil }
	goVersion = func() string { return "go1.26.0 linux/amd64" }
	version = stamp
}

func compressDep(version string) *debug.Module {
	return &debug.Module{Path: archive.CompressModule, Version: version, Sum: "h1:test"}
}

func TestReadVersionInfo(t *testing.T) {
	release := strings.TrimSpace(embeddedVersion)
	tests := []struct {
		name   string
		bi     *debug.BuildInfo
		stamp  string
		want   versionInfo
		reason string
	}{
		{
			name:   "go run in a checkout",
			bi:     &debug.BuildInfo{Main: debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"}, Deps: []*debug.Module{compressDep(archive.CompressVersion)}},
			want:   versionInfo{Version: release, Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"}},
			reason: "go run and go build without flags report the embedded VERSION, never \"devel\"",
		},
		{
			name: "go build with VCS information",
			bi: &debug.BuildInfo{
				Main:     debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "v0.1.1-0.20261201081500-0123456789ab+dirty"},
				Deps:     []*debug.Module{compressDep(archive.CompressVersion)},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-12-01T08:15:00Z"}, {Key: "vcs.modified", Value: "true"}},
			},
			want: versionInfo{
				Version: release,
				Module:  moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "v0.1.1-0.20261201081500-0123456789ab+dirty"},
				VCS:     &vcsInfo{Revision: "0123456789abcdef", Time: "2026-12-01T08:15:00Z", Modified: true},
			},
			reason: "a pseudo-version is shown as the module version, with the commit; VERSION stays the release version",
		},
		{
			name:   "go install at the release tag",
			bi:     &debug.BuildInfo{Main: debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "v" + release, Sum: "h1:abc"}, Deps: []*debug.Module{compressDep(archive.CompressVersion)}},
			want:   versionInfo{Version: release, Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "v" + release, Sum: "h1:abc"}},
			reason: "go install ...@vX reports the module version and its checksum",
		},
		{
			name: "tag disagrees with VERSION",
			bi:   &debug.BuildInfo{Main: debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "v99.0.0"}, Deps: []*debug.Module{compressDep(archive.CompressVersion)}},
			want: versionInfo{Version: release, Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "v99.0.0"},
				Warnings: []string{"module version v99.0.0 but VERSION says " + release + ": the release was tagged without updating VERSION"}},
			reason: "a release tag that is not VERSION is a release mistake worth a warning",
		},
		{
			name:   "link-time stamp",
			bi:     &debug.BuildInfo{Main: debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"}, Deps: []*debug.Module{compressDep(archive.CompressVersion)}},
			stamp:  "0.1.0+distro1",
			want:   versionInfo{Version: "0.1.0+distro1", Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"}},
			reason: "-X main.version=... overrides the embedded VERSION",
		},
		{
			name: "other compressor version",
			bi:   &debug.BuildInfo{Main: debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"}, Deps: []*debug.Module{compressDep("v1.0.0")}},
			want: versionInfo{Version: release, Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"},
				Warnings: []string{"linked " + archive.CompressModule + " v1.0.0, but releases pin " + archive.CompressVersion + ": archives packed by this binary may not match published ones"}},
			reason: "the compressor makes the archive bytes: a different version is worth a warning",
		},
		{
			name: "replaced compressor",
			bi: &debug.BuildInfo{Main: debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"},
				Deps: []*debug.Module{{Path: archive.CompressModule, Version: archive.CompressVersion, Replace: &debug.Module{Path: "../compress", Version: ""}}}},
			want: versionInfo{Version: release, Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"},
				Warnings: []string{archive.CompressModule + " is replaced by a local directory: its version is unknown, so the provenance would not say what built the archive: this binary cannot pack a release"}},
			reason: "a replace directive by a local directory leaves the compressor's version unknown, as provenance says",
		},
		{
			name:   "no build information",
			bi:     nil,
			want:   versionInfo{Version: release, Module: moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "unknown"}, Warnings: []string{"the binary carries no build information (built without module support?)"}},
			reason: "ReadBuildInfo can fail; the release version is still known",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeBuild(t, tt.bi, tt.stamp)
			tt.want.Go = "go1.26.0 linux/amd64"
			tt.want.Compressor = compressor{Path: archive.CompressModule, Version: archive.CompressVersion, Pinned: archive.CompressVersion, Level: archive.FlateLevel}
			switch tt.name {
			case "other compressor version":
				tt.want.Compressor.Version = "v1.0.0"
			case "replaced compressor":
				tt.want.Compressor.Version = "unknown"
			case "no build information":
				tt.want.Compressor.Version = "unknown"
			}
			if diff := cmp.Diff(tt.want, readVersionInfo()); diff != "" {
				t.Errorf("readVersionInfo() mismatch (%s) (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

// TestVersionCLI runs testdata/version/*.ct with fixed build information, so
// that the transcript does not depend on the Go toolchain that runs it.
func TestVersionCLI(t *testing.T) {
	fakeBuild(t, &debug.BuildInfo{
		Main:     debug.Module{Path: "github.com/catalogkit/catalogkit", Version: "(devel)"},
		Deps:     []*debug.Module{compressDep(archive.CompressVersion)},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.time", Value: "2026-12-01T08:15:00Z"}, {Key: "vcs.modified", Value: "false"}},
	}, "0.1.0")
	ts, err := cmdtest.Read(filepath.Join("testdata", "version"))
	if err != nil {
		t.Fatal(err)
	}
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	ts.Run(t, *update)
}

// TestBuiltVersion builds catalogkit as 'go run' and 'go build' do, with no
// link-time flags, and checks that the binary reports the VERSION file and
// the pinned compressor from its real build information.
func TestBuiltVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds catalogkit with the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "catalogkit")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("catalogkit version --json: %v", err)
	}
	var got versionInfo
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("catalogkit version --json printed %q: %v", out, err)
	}
	file, err := os.ReadFile(filepath.Join("..", "..", archive.VersionFile))
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != strings.TrimSpace(string(file)) {
		t.Errorf("version = %q, want %q from VERSION", got.Version, strings.TrimSpace(string(file)))
	}
	if got.Module.Path != "github.com/catalogkit/catalogkit" {
		t.Errorf("module path = %q, want github.com/catalogkit/catalogkit", got.Module.Path)
	}
	if got.Compressor.Version != archive.CompressVersion || len(got.Warnings) != 0 {
		t.Errorf("compressor %q, warnings %q: want the pinned %s and no warning", got.Compressor.Version, got.Warnings, archive.CompressVersion)
	}
	if !strings.HasPrefix(got.Go, "go") {
		t.Errorf("go = %q, want a Go version", got.Go)
	}
}
