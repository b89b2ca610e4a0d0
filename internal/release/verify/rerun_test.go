package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// fakeRelease is a release-shaped tree whose conformance and records tests
// are stand-ins with the real names: TestConformance runs one subtest per
// conformance/cases/*.json, named by its id, and does what the case's "do"
// says; TestRecordsUpToDate fails if records/FAIL exists. It proves the tests step's parsing
// and counting before the real suites land.
func fakeRelease(n int, do map[int]string, extra ...tfile) []tfile {
	goMod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		panic(err)
	}
	plan, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(PlanFile)))
	if err != nil {
		panic(err)
	}
	files := []tfile{
		{path: "VERSION", data: []byte(testVersion + "\n")},
		// The repository's own test plan, as a release states it.
		{path: PlanFile, data: plan},
		// The real go.mod, with its requirements, so that the offline run
		// proves a stdlib-only package builds without the module cache.
		{path: "go.mod", data: goMod},
		{path: "conformance/conformance_test.go", data: []byte(fakeConformance)},
		{path: "records/records_test.go", data: []byte(fakeRecords)},
		{path: "catalog/catalog_test.go", data: []byte("package catalog\n\nimport \"testing\"\n\nfunc TestCore(t *testing.T) {}\n")},
	}
	for i := 1; i <= n; i++ {
		files = append(files, tfile{
			path: fmt.Sprintf("conformance/cases/%02d.json", i),
			data: fmt.Appendf(nil, "{\"id\": \"case %02d\", \"do\": %q}\n", i, do[i]),
		})
	}
	return append(files, extra...)
}

const fakeConformance = `package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestConformance(t *testing.T) {
	files, _ := filepath.Glob("cases/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct{ ID, Do string }
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		switch c.Do {
		case "hide":
			continue
		case "extra":
			t.Run("not-a-case", func(t *testing.T) {})
		}
		t.Run(c.ID, func(t *testing.T) {
			switch c.Do {
			case "fail":
				t.Fatalf("case %s failed on purpose", c.ID)
			case "skip":
				t.Skip("skipped on purpose")
			}
		})
	}
}
`

const fakeRecords = `package records

import (
	"os"
	"testing"
)

func TestRecordsUpToDate(t *testing.T) {
	if _, err := os.Stat("FAIL"); err == nil {
		t.Fatal("records differ")
	}
}
`

// needsShort is a test that passes only with -test.short.
const needsShort = `package catalog

import "testing"

func TestNeedsShort(t *testing.T) {
	if !testing.Short() {
		t.Fatal("run without -short")
	}
}
`

// TestReleaseTimingTestsSkipShort checks that the tests of this repository
// whose verdict a loaded machine could change (the broken ports, minutes
// of Python processes with call timeouts) are not in what verify re-runs
// in a release: they skip under -short, which the release plan gives.
func TestReleaseTimingTestsSkipShort(t *testing.T) {
	if p, err := LoadPlan(filepath.Join("..", "..", "..")); err != nil || !p.Short {
		t.Fatalf("the release plan does not run the tests with -short (%v)", err)
	}
	if testing.Short() {
		t.Skip("runs go test on the conformance package: make test runs it")
	}
	userGOCACHE(t)
	out, err := exec.Command("go", "test", "-short", "-count=1", "-json", "-run", "^TestBrokenPorts$", "../../../conformance").Output()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"Action":"skip","Package":"github.com/catalogkit/catalogkit/conformance","Test":"TestBrokenPorts"`) {
		t.Errorf("TestBrokenPorts did not skip under -short:\n%s", out)
	}
}

// userGOCACHE returns the go command's build cache, so that tests do not
// compile the standard library for every run.
func userGOCACHE(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestRerun(t *testing.T) {
	gocache := userGOCACHE(t)
	tests := []struct {
		name     string
		reason   string
		files    []tfile
		noHash   bool
		noGo     bool
		wantCode archive.Code // "" means passed
	}{
		{name: "pass", reason: "21 cases ran and passed, and the records test", files: fakeRelease(21, nil)},
		{name: "one-fails", reason: "a failing case fails the step", files: fakeRelease(21, map[int]string{7: "fail"}), wantCode: CodeTestsFailed},
		{name: "one-skipped", reason: "a skipped case is not a passed case", files: fakeRelease(21, map[int]string{3: "skip"}), wantCode: CodeTestsFailed},
		{name: "one-not-run", reason: "a case file whose subtest never ran", files: fakeRelease(21, map[int]string{21: "hide"}), wantCode: CodeCases},
		{name: "extra-subtest", reason: "a subtest that is not a case id", files: fakeRelease(21, map[int]string{2: "extra"}), wantCode: CodeCases},
		{name: "twenty-two-cases", reason: "the count of cases comes from the case files: 22 run", files: fakeRelease(22, nil)},
		{name: "no-cases", reason: "a release without its conformance cases", files: fakeRelease(0, nil), wantCode: CodeCases},
		{name: "no-plan", reason: "a release that states no test plan", files: withoutPlan(fakeRelease(21, nil)), wantCode: CodeCases},
		{name: "plan-outside", reason: "a plan whose packages climb out of the tree", files: append(withoutPlan(fakeRelease(21, nil)), tfile{path: PlanFile, data: []byte(`{"packages": ["./../x/..."], "short": true, "cases": {"files": "conformance/cases/*.json", "package": "conformance", "test": "TestConformance"}, "required": []}`)}), wantCode: CodeCases},
		{name: "records-fail", reason: "the records test must pass too", files: fakeRelease(21, nil, tfile{path: "records/FAIL"}), wantCode: CodeRecords},
		{name: "build-fails", reason: "a package that does not compile", files: fakeRelease(21, nil, tfile{path: "conformance/broken_test.go", data: []byte("package conformance\nfunc {")}), wantCode: CodeTestsFailed},
		{name: "short", reason: "the release's tests run with -short", files: fakeRelease(21, nil, tfile{path: "catalog/short_test.go", data: []byte(needsShort)})},
		{name: "no-go", reason: "no go command on PATH", files: fakeRelease(21, nil), noGo: true, wantCode: CodeNoGo},
		{name: "identity-not-checked", reason: "code from an archive whose hash was not checked is not run", files: fakeRelease(21, nil), noHash: true, wantCode: CodeNotVerified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := packTree(tt.files)
			sb := newSandbox(t, data)
			sum := sha256.Sum256(data)
			plan := ReleaseTests()
			plan.GOCACHE = gocache
			opts := Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, Tests: plan}
			if tt.noHash {
				opts.SHA256 = ""
			}
			if tt.noGo {
				t.Setenv("PATH", t.TempDir())
			}
			rep := Verify(context.Background(), sb.archive, opts)
			s := rep.Step(StepTests)
			t.Logf("report:\n%s", text(rep))
			for _, prev := range rep.Steps[1:5] {
				if prev.Status != Passed {
					t.Fatalf("step %s: %s, want passed\n%s", prev.Step, prev.Status, text(rep))
				}
			}
			switch {
			case tt.wantCode == "" && (s.Status != Passed || !rep.OK()):
				t.Errorf("%s: tests %s, want passed\n%s", tt.reason, s.Status, text(rep))
			case tt.wantCode != "" && (s.Code() != tt.wantCode || rep.OK()):
				t.Errorf("%s: tests %s [%s], want code %s\n%s", tt.reason, s.Status, s.Code(), tt.wantCode, text(rep))
			}
			if tt.wantCode == CodeNotVerified && s.Status != NotRun {
				t.Errorf("tests without a checked hash: %s, want not run", s.Status)
			}
			sb.check(t, data)
		})
	}
}

// TestRerunFreshCache runs the default plan as catalogkit verify
// --cold-cache does: an empty module cache and an empty build cache,
// offline.
func TestRerunFreshCache(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the standard library from scratch")
	}
	userGOCACHE(t)
	data := packTree(fakeRelease(21, nil))
	sb := newSandbox(t, data)
	sum := sha256.Sum256(data)
	plan := ReleaseTests()
	plan.Cold = true
	rep := Verify(context.Background(), sb.archive, Options{SHA256: hex.EncodeToString(sum[:]), TempDir: sb.tmp, Tests: plan})
	if !rep.OK() || rep.Step(StepTests).Status != Passed {
		t.Fatalf("fresh-cache run failed:\n%s", text(rep))
	}
	if s := rep.Step(StepTests).Summary; !strings.Contains(s, "an empty build cache (--cold-cache)") {
		t.Errorf("the report does not say the cache was empty: %s", s)
	}
	sb.check(t, data)
}

func TestSubtestName(t *testing.T) {
	for _, tt := range []struct{ id, want string }{
		{"family-filter", "T/family-filter"},
		{"case 01", "T/case_01"},
		{"tab\there", "T/tab_here"},
		{"nul\x00", `T/nul\x00`},
	} {
		if got := SubtestName("T", tt.id); got != tt.want {
			t.Errorf("SubtestName(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

// TestTestEnv checks the one function that builds the environment of the
// go command and of the tests, and the choice of the build cache: offline,
// an empty module cache in the scratch folder, the build cache
// catalogkit's own (or a fresh one with Cold) while compiling and the
// tests' own when they run, never the user's GOCACHE, GOFLAGS or proxy,
// and no CI.
func TestTestEnv(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("os.UserCacheDir follows XDG_CACHE_HOME on Linux only")
	}
	cacheHome := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheHome)
	t.Setenv("GOCACHE", "/user/gocache")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "https://proxy.example")
	t.Setenv("CI", "true")
	tests := []struct {
		name, reason string
		cold, run    bool
		wantCache    string
	}{
		{name: "warm", reason: "compiling: catalogkit's own cache under the user cache folder", wantCache: filepath.Join(cacheHome, "catalogkit", "verify-go-build")},
		{name: "cold", reason: "compiling with --cold-cache: a fresh cache in the scratch folder", cold: true, wantCache: "SCRATCH/build/go-build"},
		{name: "tests", reason: "running the tests: their own cache in the scratch folder", run: true, wantCache: "SCRATCH/run/go-build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, serr := makeScratch(t.TempDir())
			if serr != nil {
				t.Fatal(serr)
			}
			defer removeScratch(sc.root)
			gocache, _, err := buildCache(&TestPlan{Cold: tt.cold}, sc)
			if err != nil {
				t.Fatal(err)
			}
			dir := sc.build
			if tt.run {
				dir, gocache = sc.run, filepath.Join(sc.run, "go-build")
			}
			got := map[string]string{}
			for _, kv := range goEnv(dir, gocache) {
				k, v, _ := strings.Cut(kv, "=")
				if _, dup := got[k]; dup {
					t.Errorf("%s set twice", k)
				}
				got[k] = strings.ReplaceAll(v, sc.root, "SCRATCH")
			}
			part := strings.TrimPrefix(dir, sc.root)
			want := map[string]string{
				"GOCACHE": tt.wantCache, "GOMODCACHE": "SCRATCH" + part + "/gomodcache",
				"GOPROXY": "off", "GOFLAGS": "-mod=readonly -buildvcs=false -trimpath", "TMPDIR": "SCRATCH" + part + "/tmp", "CI": "",
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s: %s=%q, want %q", tt.reason, k, got[k], w)
				}
			}
		})
	}
}

func TestTestEnvAllowList(t *testing.T) {
	t.Setenv("SECRET_TOKEN", "x")
	t.Setenv("CI", "true")
	for _, kv := range goEnv(t.TempDir(), t.TempDir()) {
		if strings.HasPrefix(kv, "SECRET_TOKEN=") || strings.HasPrefix(kv, "CI=") {
			t.Errorf("goEnv passed %q to the archive's code; want an allow-list without it", kv)
		}
	}
}

// withoutPlan returns files without the test plan.
func withoutPlan(files []tfile) []tfile {
	var out []tfile
	for _, f := range files {
		if f.path != PlanFile {
			out = append(out, f)
		}
	}
	return out
}

// TestRepositoryPlan checks the test plan this repository states for its
// releases: it loads, runs with -short, and its case files exist.
func TestRepositoryPlan(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	p, err := LoadPlan(root)
	if err != nil {
		t.Fatal(err)
	}
	files, gerr := filepath.Glob(filepath.Join(root, filepath.FromSlash(p.CasesGlob)))
	if gerr != nil || len(files) == 0 {
		t.Errorf("%s names case files %s, and there are none (%v)", PlanFile, p.CasesGlob, gerr)
	}
	if !p.Short {
		t.Errorf("%s does not run the tests with -short: a release's verdict would depend on the machine's speed", PlanFile)
	}
}
