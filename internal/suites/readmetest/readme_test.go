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

	"github.com/catalogkit/catalogkit/catalog"

	"github.com/catalogkit/catalogkit/internal/testlib/gittest"
)

// root is the repository root, from this package's folder.
var root = filepath.Join("..", "..", "..")

// runDocs are the documents whose commands run, relative to the root.
func runDocs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	names := []string{"README.md", "conformance/README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		names = append(names, filepath.ToSlash(rel))
	}
	return names
}

// docBlocks returns the fenced blocks of the document name.
func docBlocks(t *testing.T, name string) []block {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	bs, err := blocks(name, string(text))
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

// docSteps returns the commands of every document that runs.
func docSteps(t *testing.T) []step {
	t.Helper()
	var all []step
	for _, name := range runDocs(t) {
		ss, err := steps(docBlocks(t, name))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ss...)
	}
	if len(all) < 10 {
		t.Fatalf("found %d commands in the documents, want at least 10: is the parser broken?", len(all))
	}
	return all
}

// installAt matches a go install of the command at a version.
var installAt = regexp.MustCompile("go\\s+install\\s+\\S*/cmd/catalogkit@([^\\s`]+)")

// pathSetup is the line that puts bin/ on PATH, which every document that
// runs a bare catalogkit shows.
const pathSetup = `export PATH="$PWD/bin:$PATH"`

// TestStatic checks, without running them, what reading the documents'
// commands can tell: each make target exists, catalogkit is said to be on
// PATH where it is used bare, no version is named that is not a tag, and
// the list of commands left to CI names real commands.
func TestStatic(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := exec.Command("git", "-C", root, "tag", "--list").Output()
	seen := map[string]bool{}
	for _, name := range runDocs(t) {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		ss, err := steps(docBlocks(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			cmd := withoutComment(s.command)
			seen[cmd] = true
			switch name := commandName(cmd); {
			case name == "catalogkit" && !bytes.Contains(text, []byte(pathSetup)):
				t.Errorf("%v: the document runs a bare catalogkit but never says how to put it on PATH (%s after make build)", s, pathSetup)
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
		}
		// go install MODULE/cmd/catalogkit@VERSION works only once the
		// version is a tag; until then the documents say go install from a
		// clone.
		for _, m := range installAt.FindAllSubmatchIndex(text, -1) {
			if v := string(text[m[2]:m[3]]); !slices.Contains(strings.Fields(string(tags)), v) {
				t.Errorf("%s:%d: %q cannot work: the repository has no tag %q (say go install ./cmd/catalogkit, from a clone, until the release is tagged)",
					name, 1+bytes.Count(text[:m[0]], []byte("\n")), text[m[0]:m[1]], v)
			}
		}
	}
	for cmd := range ciExercised {
		if !seen[cmd] {
			t.Errorf("ciExercised lists %q, which is no longer a documented command: remove it", cmd)
		}
	}
}

func TestSteps(t *testing.T) {
	text := "# x\n\n```sh\nmake build   # c\n\n# only a comment\nfoo \\\n  --bar\n```\n\n```\n$ catalogkit x\nout 1\nout 2\n$ catalogkit y\n```\n\n```\n1 hash passed\n```\n\n```go\nx := 1\n```\n"
	bs, err := blocks("x.md", text)
	if err != nil {
		t.Fatal(err)
	}
	got, err := steps(bs)
	if err != nil {
		t.Fatal(err)
	}
	want := []step{
		{file: "x.md", block: 0, line: 4, command: "make build   # c"},
		{file: "x.md", block: 0, line: 7, command: "foo  --bar"},
		{file: "x.md", block: 1, line: 12, command: "catalogkit x", transcript: true, want: "out 1\nout 2\n"},
		{file: "x.md", block: 1, line: 15, command: "catalogkit y", transcript: true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n got %+v\nwant %+v\n(shell lines one by one, comments and blank lines dropped, continuations joined; transcripts with their output; sample output and Go not run)", got, want)
	}
	if bs, err := blocks("x.md", "```sh example\n./my-port\n```\n"); err != nil || len(bs) != 1 {
		t.Fatalf("blocks: %v %v", bs, err)
	} else if ss, _ := steps(bs); len(ss) != 0 {
		t.Errorf("a block marked example gave steps %+v: its placeholders must not run", ss)
	}
	if _, err := blocks("x.md", "```sh\nmake build\n"); err == nil {
		t.Error("an unclosed block gave no error: everything after it would go unchecked")
	}
}

// TestCommands runs every block of every document that runs, each on its
// own in a fresh bash shell started at the root of a copy of the checkout
// where catalogkit has been built and put on PATH, in the documents'
// order. It runs when CATALOGKIT_README=run ('make readme', which .ci/run
// runs); otherwise it skips, saying so.
func TestCommands(t *testing.T) {
	if os.Getenv("CATALOGKIT_README") != "run" {
		t.Skip("set CATALOGKIT_README=run (make readme) to run every documented command; .ci/run does")
	}
	ss := docSteps(t)
	dir := copyCheckout(t)
	if out, err := exec.Command("make", "-C", dir, "build").CombinedOutput(); err != nil {
		t.Fatalf("make build in the copy: %v\n%s", err, out)
	}
	results := t.TempDir()
	// The commands' temporary folders (mktemp) and go install's output go
	// to folders of this test, to be checked below and removed after it.
	tmp, gobin := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "TMPDIR="+tmp, "GOBIN="+gobin, "PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))

	// One script a block: its lines in order, each one's output and status
	// kept, the block ending at the first command that fails.
	var scripts []string
	var first []int // the index in ss of each script's first step
	for i, s := range ss {
		if i == 0 || s.file != ss[i-1].file || s.block != ss[i-1].block {
			scripts, first = append(scripts, "set -o pipefail\n"), append(first, i)
		}
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
		script := fmt.Sprintf("# %s:%d\n{ %s\n} >%s 2>&1 </dev/null\necho $? >%s\n", s.file, s.line, cmd, shellQuote(out+".out"), shellQuote(out+".status"))
		if !s.transcript {
			script += fmt.Sprintf("[ \"$(cat %s)\" = 0 ] || exit 0\n", shellQuote(out+".status"))
		}
		scripts[len(scripts)-1] += script
	}
	for bi, script := range scripts {
		bash := exec.Command("bash", "--noprofile", "--norc", "-c", script)
		bash.Dir, bash.Env = dir, env
		if out, err := bash.CombinedOutput(); err != nil {
			t.Fatalf("%v: bash: %v\n%s", ss[first[bi]], err, out)
		}
	}

	for i, s := range ss {
		if ci, ok := ciExercised[withoutComment(s.command)]; ok && ci.instead == "" {
			continue
		}
		out := filepath.Join(results, strconv.Itoa(i))
		status, err := os.ReadFile(out + ".status")
		if err != nil {
			t.Errorf("%v: did not run (a command before it in its block failed)", s)
			continue
		}
		output, _ := os.ReadFile(out + ".out")
		code := strings.TrimSpace(string(status))
		switch {
		case !s.transcript && code != "0":
			t.Errorf("%v: exit status %s, want 0; the commands after it in its block were not run. Its output ends:\n%s", s, code, tail(output, 40))
		case s.transcript && s.want != "" && string(output) != s.want:
			t.Errorf("%v: the output differs from the document's transcript (exit status %s)\n--- document\n%s--- got\n%s", s, code, s.want, output)
		}
	}

	// The commands leave the tree as they found it, but for what
	// .gitignore covers (bin/, dist/, conformance.xml, ...).
	if out := gittest.Run(t, dir, "status", "--porcelain", "--untracked-files=all"); len(out) > 0 {
		t.Errorf("the documents' commands changed or created files that .gitignore does not cover (the document must say so and .gitignore cover them, or the commands must not write them):\n%s", out)
	}
	// Walk-throughs remove the secret keys they make.
	for _, k := range secretKeys(t, tmp) {
		t.Errorf("the documents' commands left a secret key behind: %s (a walk-through removes the keys it makes)", k)
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
	for _, b := range docBlocks(t, "README.md") {
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

// TestLayoutNamesEveryPackage: docs/architecture.md's table names every
// folder under internal/ and every top-level folder of the module that git
// does not ignore, so that a new one is described where a newcomer looks.
func TestLayoutNamesEveryPackage(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, pattern := range []string{"*", filepath.Join("internal", "*")} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, m...)
	}
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, d)
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() || strings.HasPrefix(filepath.Base(d), ".") || rel == "bin" {
			continue
		}
		// A folder git ignores is a run's output (CI's artifacts/, a
		// release's dist/ files), not part of the layout.
		ignored := exec.Command("git", "check-ignore", "-q", filepath.ToSlash(rel)+"/")
		ignored.Dir = root
		if ignored.Run() == nil {
			continue
		}
		name := "`" + filepath.ToSlash(rel) + "/"
		if !strings.Contains(string(text), name) {
			t.Errorf("docs/architecture.md's table does not name %s: add a row saying whom it serves", name)
		}
	}
}

// userDocs are the documents written for users, not contributors: they
// say what the program does, never which test or package checks it.
var userDocs = []string{"README.md", "docs/cli.md", "docs/mcp.md", "docs/hosts.md", "docs/records.md", "docs/releasing.md", "docs/verifying.md"}

// TestUserDocs: the README is short enough to finish (at most about 200
// lines, the rest in docs/), and no user document names a test function or
// an internal package outside its sample output.
func TestUserDocs(t *testing.T) {
	testName := regexp.MustCompile(`\bTest[A-Z]\w*|\binternal/`)
	for _, name := range userDocs {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		if name == "README.md" && len(lines) > 220 {
			t.Errorf("README.md has %d lines, want at most about 200: move the detail to docs/ and link it", len(lines))
		}
		fenced := false
		for i, line := range lines {
			if strings.HasPrefix(line, "```") {
				fenced = !fenced
				continue
			}
			if m := testName.FindString(line); m != "" && !fenced {
				t.Errorf("%s:%d: names %q: a user document says what is checked, not which test or package checks it", name, i+1, m)
			}
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
	for _, pattern := range []string{"docs/*.md", "dist/*.md", "internal/release/verify/*.go", "internal/release/verify/*.sh"} {
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

// TestREADMECodes: the README's contract screen names exactly the
// contract's error codes, catalog.Codes, in its order.
func TestREADMECodes(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, screen, ok := strings.Cut(string(text), "\n## The contract in one screen\n")
	if !ok {
		t.Fatal("README.md has no contract screen")
	}
	screen, _, _ = strings.Cut(screen, "\n## ")
	_, screen, ok = strings.Cut(screen, "The codes:")
	if !ok {
		t.Fatal("the README's contract screen has no list after \"The codes:\"")
	}
	var got []string
	for _, m := range regexp.MustCompile("`([A-Z][A-Z_]+)`").FindAllStringSubmatch(screen, -1) {
		got = append(got, m[1])
	}
	var want []string
	for _, c := range catalog.Codes {
		want = append(want, string(c))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the README's contract screen names other codes than catalog.Codes (-want +got):\n%s", diff)
	}
}
