package readmetest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
)

// root is the repository root, from this package's folder.
var root = filepath.Join("..", "..", "..")

// readmeBlocks returns the README's fenced blocks.
func readmeBlocks(t *testing.T) []block {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	bs, err := blocks(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

func readmeSteps(t *testing.T) []step {
	t.Helper()
	ss, err := steps(readmeBlocks(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) < 10 {
		t.Fatalf("found %d commands in README.md, want at least 10: is the parser broken?", len(ss))
	}
	return ss
}

// installAt matches a go install of the command at a version.
var installAt = regexp.MustCompile("go\\s+install\\s+\\S*/cmd/catalogkit@([^\\s`]+)")

// pathSetup is the README's setup line that puts bin/ on PATH.
const pathSetup = `export PATH="$PWD/bin:$PATH"`

// TestStatic checks, without running them, what reading the README's
// commands can tell: each program is available where it is used, each make
// target exists, and the list of commands left to CI names real commands.
func TestStatic(t *testing.T) {
	ss := readmeSteps(t)
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	built, onPath := false, false
	seen := map[string]bool{}
	for _, s := range ss {
		cmd := withoutComment(s.command)
		seen[cmd] = true
		switch name := commandName(cmd); {
		case name == "catalogkit" && !onPath:
			t.Errorf("%v: 'catalogkit' is not on PATH here: the README must first run %s (after make build), or say bin/catalogkit", s, pathSetup)
		case name == "bin/catalogkit" && !built:
			t.Errorf("%v: bin/catalogkit does not exist yet: the README must run 'make build' first", s)
		case name == "make":
			for _, target := range strings.Fields(cmd)[1:] {
				if strings.Contains(target, "=") || strings.HasPrefix(target, "-") {
					continue
				}
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `:`).Match(makefile) {
					t.Errorf("%v: the Makefile has no target %q", s, target)
				}
			}
		}
		if cmd == "make build" {
			built = true
		}
		if cmd == pathSetup {
			if !built {
				t.Errorf("%v: bin/ is put on PATH before 'make build' made bin/catalogkit", s)
			}
			onPath = true
		}
	}
	// go install MODULE/cmd/catalogkit@VERSION works only once the version
	// is a tag; until then the README says go install from a clone.
	tags, _ := exec.Command("git", "-C", root, "tag", "--list").Output()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range installAt.FindAllSubmatchIndex(readme, -1) {
		if v := string(readme[m[2]:m[3]]); !slices.Contains(strings.Fields(string(tags)), v) {
			t.Errorf("README.md:%d: %q cannot work: the repository has no tag %q (say go install ./cmd/catalogkit, from a clone, until the release is tagged)",
				1+bytes.Count(readme[:m[0]], []byte("\n")), readme[m[0]:m[1]], v)
		}
	}
	for cmd := range ciExercised {
		if !seen[cmd] {
			t.Errorf("ciExercised lists %q, which is no longer a README command: remove it", cmd)
		}
	}
}

func TestSteps(t *testing.T) {
	text := "# x\n\n```sh\nmake build   # c\n\n# only a comment\nfoo \\\n  --bar\n```\n\n```\n$ catalogkit x\nout 1\nout 2\n$ catalogkit y\n```\n\n```\n1 hash passed\n```\n\n```go\nx := 1\n```\n"
	bs, err := blocks(text)
	if err != nil {
		t.Fatal(err)
	}
	got, err := steps(bs)
	if err != nil {
		t.Fatal(err)
	}
	want := []step{
		{line: 4, command: "make build   # c"},
		{line: 7, command: "foo  --bar"},
		{line: 12, command: "catalogkit x", transcript: true, want: "out 1\nout 2\n"},
		{line: 15, command: "catalogkit y", transcript: true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n got %+v\nwant %+v\n(shell lines one by one, comments and blank lines dropped, continuations joined; transcripts with their output; sample output and Go not run)", got, want)
	}
	if _, err := blocks("```sh\nmake build\n"); err == nil {
		t.Error("an unclosed block gave no error: everything after it would go unchecked")
	}
}

// TestCommands runs every README command as printed, in order, in one bash
// shell, in a copy of the checkout. It runs when CATALOGKIT_README=run
// ('make readme', which .ci/run runs); otherwise it skips, saying so.
func TestCommands(t *testing.T) {
	if os.Getenv("CATALOGKIT_README") != "run" {
		t.Skip("set CATALOGKIT_README=run (make readme) to run every README command; .ci/run does")
	}
	ss := readmeSteps(t)
	dir := copyCheckout(t)
	results := t.TempDir()
	// The commands' temporary folders (mktemp) and go install's output go
	// to folders of this test, to be checked below and removed after it.
	tmp, gobin := t.TempDir(), t.TempDir()

	var script strings.Builder
	script.WriteString("set -o pipefail\n")
	for i, s := range ss {
		cmd := s.command
		if ci, ok := ciExercised[withoutComment(cmd)]; ok {
			t.Logf("%v: not run here: %s", s, ci.why)
			if ci.instead == "" {
				continue
			}
			t.Logf("%v: runs instead: %s", s, ci.instead)
			cmd = ci.instead
		}
		out := filepath.Join(results, strconv.Itoa(i))
		fmt.Fprintf(&script, "# README.md:%d\n{ %s\n} >%s 2>&1 </dev/null\necho $? >%s\n", s.line, cmd, shellQuote(out+".out"), shellQuote(out+".status"))
		if !s.transcript {
			fmt.Fprintf(&script, "[ \"$(cat %s)\" = 0 ] || exit 0\n", shellQuote(out+".status"))
		}
	}
	bash := exec.Command("bash", "--noprofile", "--norc", "-c", script.String())
	bash.Dir = dir
	bash.Env = append(os.Environ(), "TMPDIR="+tmp, "GOBIN="+gobin)
	if out, err := bash.CombinedOutput(); err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}

	for i, s := range ss {
		if ci, ok := ciExercised[withoutComment(s.command)]; ok && ci.instead == "" {
			continue
		}
		out := filepath.Join(results, strconv.Itoa(i))
		status, err := os.ReadFile(out + ".status")
		if err != nil {
			t.Fatalf("%v: did not run (the shell stopped before it)", s)
		}
		output, _ := os.ReadFile(out + ".out")
		code := strings.TrimSpace(string(status))
		switch {
		case !s.transcript && code != "0":
			t.Fatalf("%v: exit status %s, want 0; the commands after it were not run. Its output ends:\n%s", s, code, tail(output, 40))
		case s.transcript && s.want != "" && string(output) != s.want:
			t.Errorf("%v: the output differs from the README's transcript (exit status %s)\n--- README\n%s--- got\n%s", s, code, s.want, output)
		}
	}

	// The README's commands leave the tree as they found it, but for what
	// .gitignore covers (bin/, dist/, conformance.xml, ...).
	if out := gittest.Run(t, dir, "status", "--porcelain", "--untracked-files=all"); len(out) > 0 {
		t.Errorf("the README's commands changed or created files that .gitignore does not cover (the README must say so and .gitignore cover them, or the commands must not write them):\n%s", out)
	}
	// Walk-throughs remove the secret keys they make.
	for _, k := range secretKeys(t, tmp) {
		t.Errorf("the README's commands left a secret key behind: %s (a walk-through removes the keys it makes)", k)
	}
}

// secretKeys returns the secret key files (catalogkit keygen's NAME.key)
// under dir.
func secretKeys(t *testing.T, dir string) []string {
	t.Helper()
	var keys []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".key") {
			keys = append(keys, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// copyCheckout copies the checkout's files that a commit would hold (tracked,
// and untracked but not ignored) into a temporary folder, keeping the
// executable bits, commits them there in a new git repository, and returns
// that folder. Build outputs (bin/, dist/) are
// ignored files, so the copy starts without them, as a fresh clone does.
func copyCheckout(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v (the README commands run in a copy of a git checkout)", err)
	}
	dir := filepath.Join(t.TempDir(), "catalogkit")
	copied := 0
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or not a regular file
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := copyFile(src, dst, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		copied++
	}
	if copied == 0 {
		t.Fatal("git ls-files listed no file to copy")
	}
	// A git checkout of one commit, as a fresh clone is: pack --sign
	// records the commit it packs.
	gittest.Commit(t, dir, "README test copy")
	return dir
}

func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, nil))
}

// exampleFile holds the Example whose body the README's Go program shows.
var exampleFile = filepath.Join(root, "catalog", "example_readme_test.go")

// TestGoExample checks that the README's Go block is exactly the program
// made of exampleFile's imports and the body of its Example, and that it
// builds as printed.
func TestGoExample(t *testing.T) {
	var goBlocks []block
	for _, b := range readmeBlocks(t) {
		if b.info == "go" {
			goBlocks = append(goBlocks, b)
		}
	}
	if len(goBlocks) != 1 {
		t.Fatalf("README.md has %d go blocks, want exactly 1 (the In Go program)", len(goBlocks))
	}
	got := strings.Join(goBlocks[0].lines, "\n") + "\n"

	src, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, exampleFile, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var imports, body string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				imports = string(src[fset.Position(d.Pos()).Offset:fset.Position(d.End()).Offset])
			}
		case *ast.FuncDecl:
			if d.Name.Name == "Example" && d.Recv == nil {
				body = string(src[fset.Position(d.Body.Lbrace).Offset+1 : fset.Position(d.Body.Rbrace).Offset])
			}
		}
	}
	if imports == "" || body == "" {
		t.Fatalf("%s: no import declaration or no func Example", exampleFile)
	}
	if !strings.Contains(body, "// Output:") {
		t.Errorf("%s: Example has no // Output: comment, so go test does not check what it prints", exampleFile)
	}
	want := "package main\n\n" + imports + "\n\nfunc main() {" + body + "}\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("README.md:%d: the Go program is not %s's Example as a main function (-want +got):\n%s", goBlocks[0].line, exampleFile, diff)
	}

	// As printed, it builds against this checkout's catalog package.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", os.DevNull, filepath.Join(dir, "main.go"))
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("README.md:%d: the Go program does not build as printed: %v\n%s", goBlocks[0].line, err, out)
	}
}

// TestLayoutNamesEveryPackage: the README's Layout table names every
// folder under internal/, so that a new package is described where a
// newcomer looks.
func TestLayoutNamesEveryPackage(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(text), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	dirs, err := filepath.Glob(filepath.Join(root, "internal", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no folders under internal/ (%v)", err)
	}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		name := "`internal/" + filepath.Base(d) + "/`"
		if !strings.Contains(layout, name) {
			t.Errorf("README.md's Layout table does not name %s: add a row saying what it is for", name)
		}
	}
}

// TestStepsByName: the prose of the documents a verifier reads, and the
// comments of package verify, name verify's steps ("the hash step"), never
// number them ("step 1"): the numbers come from verify's table, and adding
// a step in the middle would make every written number wrong. Fenced
// blocks (sample output, which prints the numbers) are left out.
func TestStepsByName(t *testing.T) {
	number := regexp.MustCompile(`(?i)\bsteps? [0-9]`)
	files := []string{"README.md", "CONTRIBUTING.md", "SECURITY.md"}
	for _, pattern := range []string{"dist/*.md", "internal/release/verify/*.go", "internal/release/verify/*.sh"} {
		m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	read := 0
	for _, name := range files {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		read++
		fenced := false
		for i, line := range strings.Split(string(text), "\n") {
			if strings.HasSuffix(name, ".md") && strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
				continue
			}
			if !fenced && number.MatchString(line) {
				t.Errorf("%s:%d: %q numbers a verify step: name it (the `hash` step, every step before `tests`)", name, i+1, strings.TrimSpace(line))
			}
		}
	}
	if read < 5 {
		t.Fatalf("read %d files; want README.md, dist/*.md and internal/release/verify's sources", read)
	}
}
