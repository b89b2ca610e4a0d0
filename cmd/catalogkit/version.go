package main

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/provenance"
	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// version, when set at link time (-X main.version=...; 'make build' stamps
// it from VERSION), overrides the embedded release version.
var version string

// embeddedVersion is a copy of the repository's VERSION file, so that every
// build knows its release version, including 'go run ./cmd/catalogkit' and
// 'go build' without flags (go:embed cannot reach ../../VERSION).
// TestEmbeddedVersionMatchesVERSION keeps the two equal.
//
//go:embed version.txt
var embeddedVersion string

// readBuildInfo and goVersion are variables so that tests can give the
// version command fixed build information.
var (
	readBuildInfo = debug.ReadBuildInfo
	goVersion     = func() string { return runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH }
)

// buildVersion returns catalogkit's release version: the link-time stamp if
// there is one, else the embedded VERSION.
func buildVersion() string {
	if version != "" {
		return version
	}
	return strings.TrimSpace(embeddedVersion)
}

// versionInfo is what 'catalogkit version' reports.
type versionInfo struct {
	Version    string     `json:"version"`
	Module     moduleInfo `json:"module"`
	VCS        *vcsInfo   `json:"vcs,omitempty"`
	Go         string     `json:"go"`
	Compressor compressor `json:"compressor"`
	Warnings   []string   `json:"warnings,omitempty"`
}

type moduleInfo struct {
	Path    string `json:"path"`
	Version string `json:"version"` // "(devel)" for a build in a checkout
	Sum     string `json:"sum,omitempty"`
}

type vcsInfo struct {
	Revision string `json:"revision"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified"`
}

// compressor is the module that makes the bytes of a release archive.
type compressor struct {
	Path    string `json:"path"`
	Version string `json:"version"` // linked into this binary
	Pinned  string `json:"pinned"`  // what the release format pins
	Level   int    `json:"level"`
}

// readVersionInfo gathers the release version, the build information of the
// binary and the compressor module linked into it.
func readVersionInfo() versionInfo {
	v := versionInfo{
		Version: buildVersion(),
		Go:      goVersion(),
		Compressor: compressor{
			Path:   archive.CompressModule,
			Pinned: archive.CompressVersion,
			Level:  archive.FlateLevel,
		},
	}
	bi, ok := readBuildInfo()
	if !ok {
		v.Module = moduleInfo{Path: "github.com/catalogkit/catalogkit", Version: "unknown"}
		v.Compressor.Version = "unknown"
		v.Warnings = append(v.Warnings, "the binary carries no build information (built without module support?)")
		return v
	}
	v.Module = moduleInfo{Path: bi.Main.Path, Version: bi.Main.Version, Sum: bi.Main.Sum}
	if v.Module.Version == "" {
		v.Module.Version = "(devel)"
	}
	if releaseTag.MatchString(v.Module.Version) && v.Module.Version[1:] != v.Version {
		v.Warnings = append(v.Warnings, fmt.Sprintf("module version %s but VERSION says %s: the release was tagged without updating VERSION", v.Module.Version, v.Version))
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if v.VCS == nil {
				v.VCS = &vcsInfo{}
			}
			v.VCS.Revision = s.Value
		case "vcs.time":
			if v.VCS == nil {
				v.VCS = &vcsInfo{}
			}
			v.VCS.Time = s.Value
		case "vcs.modified":
			if v.VCS == nil {
				v.VCS = &vcsInfo{}
			}
			v.VCS.Modified = s.Value == "true"
		}
	}
	// The compressor's version is provenance's fact: the one it records
	// in a signed release, by the same rules.
	m, err := provenance.Compressor(bi, archive.CompressModule)
	switch {
	case err != nil:
		v.Compressor.Version = "unknown"
		var se *sign.Error
		if errors.As(err, &se) {
			err = errors.New(se.Detail)
		}
		v.Warnings = append(v.Warnings, err.Error()+": this binary cannot pack a release")
	case m.Path != archive.CompressModule || m.Version != archive.CompressVersion:
		v.Compressor.Version = strings.TrimPrefix(m.Path+" ", archive.CompressModule+" ") + m.Version
		v.Warnings = append(v.Warnings, fmt.Sprintf("linked %s %s, but releases pin %s: archives packed by this binary may not match published ones",
			archive.CompressModule, v.Compressor.Version, archive.CompressVersion))
	default:
		v.Compressor.Version = m.Version
	}
	return v
}

// releaseTag matches a module version that is a release (not a
// pseudo-version, a pre-release or a dirty build).
var releaseTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

const versionExample = `catalogkit version
catalogkit version --json`

// runVersion prints the release version, the module and Go versions of the
// build, and the compressor version that makes the archive bytes.
func runVersion(c *cli, args []string) int {
	fs := c.flags("version", "[--json]", versionExample)
	asJSON := fs.Bool("json", false, "print the versions as a JSON object")
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}
	v := readVersionInfo()
	if *asJSON {
		return c.printJSON(v)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "catalogkit %s\n", v.Version)
	if v.Module.Version == "(devel)" {
		// Go's word for a main module built from a source tree, not a
		// module download: the release version above comes from VERSION.
		fmt.Fprintf(&b, "module      %s, built from a source tree\n", v.Module.Path)
	} else {
		fmt.Fprintf(&b, "module      %s %s\n", v.Module.Path, v.Module.Version)
	}
	if v.VCS != nil {
		modified := ""
		if v.VCS.Modified {
			modified = " (modified)"
		}
		fmt.Fprintf(&b, "commit      %s %s%s\n", v.VCS.Revision, v.VCS.Time, modified)
	}
	fmt.Fprintf(&b, "go          %s\n", v.Go)
	fmt.Fprintf(&b, "compressor  %s %s, flate level %d (makes the archive bytes)\n", v.Compressor.Path, v.Compressor.Version, v.Compressor.Level)
	for _, w := range v.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if _, err := fmt.Fprint(c.stdout, b.String()); err != nil {
		return c.cannotRun("", "failed to write the versions: %v", err)
	}
	return exitOK
}
