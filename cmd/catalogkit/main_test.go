package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"aead.dev/minisign"
	"github.com/google/go-cmdtest"

	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
)

var update = flag.Bool("update", false, "update the .ct transcripts in testdata with the actual output")

// TestCLI runs the go-cmdtest transcripts in testdata/*.ct with catalogkit
// running in-process. ${ROOT} is the repository root and ${REPOCATALOG} the
// synthetic catalog in it; ${CATALOG} is a copy of that catalog in each
// transcript's own directory, which go-cmdtest prints as ${ROOTDIR}, so
// that no transcript shows where the repository happens to be.
func TestCLI(t *testing.T) { cliSuite(t, "testdata").Run(t, *update) }

// TestCLIHeavy runs the transcripts that start real processes by the
// hundred (conform against ports) or derive keys with minisign's real
// scrypt cost: make test runs them, the short tier does not.
func TestCLIHeavy(t *testing.T) {
	if testing.Short() {
		t.Skip("conform against real ports, and scrypt at its real cost: make test runs these transcripts")
	}
	cliSuite(t, filepath.Join("testdata", "heavy")).Run(t, *update)
}

// cliSuite returns the transcripts in dir, with the commands and the
// folder every transcript of the command line runs with.
func cliSuite(t *testing.T, dir string) *cmdtest.TestSuite {
	ts, err := cmdtest.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOT", root)
	synthetic := filepath.Join(root, "conformance", "synthetic-catalog.json")
	data, err := os.ReadFile(synthetic)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("REPOCATALOG", synthetic)
	keys := testKeyFiles(t)
	ts.Setup = func(dir string) error {
		copyPath := filepath.Join(dir, "synthetic-catalog.json")
		os.Setenv("CATALOG", copyPath) // restored by t.Setenv below
		for name, data := range keys {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				return err
			}
		}
		return os.WriteFile(copyPath, data, 0o644)
	}
	t.Setenv("CATALOG", "")
	ts.Commands["catalogkit"] = cmdtest.InProcessProgram("catalogkit", Main)
	// catalogkit-nonrace is the same command built without the race
	// detector, for the one transcript step that derives a key with
	// minisign's real scrypt cost (1 GiB): under the race detector that
	// takes minutes and about 7 GiB, which made the peak of 'make test'.
	pkgDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var built struct {
		once sync.Once
		path string
		err  error
	}
	ts.Commands["catalogkit-nonrace"] = func(args []string, inputFile string) ([]byte, error) {
		built.once.Do(func() { built.path, built.err = buildNonRace(pkgDir, t.TempDir()) })
		if built.err != nil {
			return nil, built.err
		}
		return cmdtest.Program(built.path)(args, inputFile)
	}
	// git, with fixed names and dates so that commits, and so the
	// transcripts, are the same on every machine.
	if gitPath, err := exec.LookPath("git"); err == nil {
		ts.Commands["git"] = cmdtest.Program(gitPath)
	} else {
		t.Logf("no git: the transcripts that use it fail")
	}
	gittest.Setenv(t)
	return ts
}

// testKeyFiles returns the key files every transcript's folder holds:
// test.key and test.pub, other.pub (another key), and
// other-algorithm.pub (test.pub with another algorithm's tag). The keys
// come from fixed seeds, so that key IDs and signatures are the same in
// every run; the secret key is unencrypted, so no password and no scrypt.
func testKeyFiles(t *testing.T) map[string][]byte {
	t.Helper()
	keyPair := func(seed byte) (pub, sec []byte) {
		p, s, err := minisign.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{seed}, 64)))
		if err != nil {
			t.Fatal(err)
		}
		pub, _ = p.MarshalText()
		sec, err = s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		return append(pub, '\n'), append(sec, '\n')
	}
	pub, sec := keyPair(1)
	other, _ := keyPair(2)
	lines := strings.Split(string(pub), "\n")
	raw, err := base64.StdEncoding.DecodeString(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	copy(raw, "RS")
	lines[1] = base64.StdEncoding.EncodeToString(raw)
	return map[string][]byte{
		"test.key": sec, "test.pub": pub, "other.pub": other,
		"other-algorithm.pub": []byte(strings.Join(lines, "\n")),
	}
}

// TestPanicExitsThree checks that a panic in a command is an internal error
// with exit status 3 and a message that says so, never a crash whose status
// could read as bad usage.
func TestPanicExitsThree(t *testing.T) {
	for _, interruptible := range []bool{false, true} {
		var stderr bytes.Buffer
		c := &cli{stdout: io.Discard, stderr: &stderr}
		boom := command{name: "boom", run: func(*cli, []string) int { panic("boom") }, interruptible: interruptible}
		var code int
		if interruptible {
			code = c.runInterruptible(boom, nil)
		} else {
			code = c.runRecovered(boom, nil)
		}
		if code != exitCannotRun {
			t.Errorf("interruptible=%v: exit status %d, want %d", interruptible, code, exitCannotRun)
		}
		if msg := stderr.String(); !strings.HasPrefix(msg, "catalogkit: error: internal error in boom: boom\n") || !strings.Contains(msg, "hint: this is a bug in catalogkit") {
			t.Errorf("interruptible=%v: message:\n%s", interruptible, msg)
		}
	}
}

// buildNonRace builds the catalogkit in pkgDir into dir without the race
// detector and returns the binary's path.
func buildNonRace(pkgDir, dir string) (string, error) {
	bin := filepath.Join(dir, "catalogkit")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// TestUsageHintNamesTheBinary checks that hints name the binary as it was
// invoked, so that the command they give can be pasted as it is.
func TestUsageHintNamesTheBinary(t *testing.T) {
	saved := os.Args[0]
	defer func() { os.Args[0] = saved }()
	os.Args[0] = "./bin/catalogkit"
	if got, want := usageHint("pack"), "run './bin/catalogkit pack -h' for usage"; got != want {
		t.Errorf("usageHint(pack) = %q, want %q", got, want)
	}
	if got, want := usageHint(""), "run './bin/catalogkit -h' to list the commands"; got != want {
		t.Errorf("usageHint() = %q, want %q", got, want)
	}
}

// TestIOHint: an I/O error without a hint of its own gets one from its
// errno, wherever it is among the message's arguments; other errors get
// none.
func TestIOHint(t *testing.T) {
	wrapped := func(errno syscall.Errno) error {
		return fmt.Errorf("failed: %w", &os.PathError{Op: "rename", Path: "x", Err: errno})
	}
	tests := []struct {
		args []any
		want string
	}{
		{[]any{"x", wrapped(syscall.ENOSPC)}, "the disk (or whatever the output goes to) is full"},
		{[]any{wrapped(syscall.EACCES)}, "permission denied"},
		{[]any{wrapped(syscall.EROFS)}, "read-only"},
		{[]any{wrapped(syscall.EEXIST)}, "already where this is to be written"},
		{[]any{wrapped(syscall.EISDIR)}, "a folder stands where a file is to be written"},
		{[]any{wrapped(syscall.ENOENT)}, "check the path"},
		{[]any{errors.New("no errno")}, ""},
		{[]any{"not an error", 3}, ""},
	}
	for _, tt := range tests {
		if got := ioHint(tt.args); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("ioHint(%v) = %q, want %q", tt.args, got, tt.want)
		}
	}
}
