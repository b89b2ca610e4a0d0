package records

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// pythonRedump re-serializes each JSON file given after the output folder
// with the Python code of FORMAT.md's section "The same thing in Python"
// (passed in $FORMAT_PYTHON, run as it is printed there with obj bound to
// the loaded value), and writes the bytes it calls data to a file of the
// same name in the output folder.
const pythonRedump = `
import json, os, sys
code = compile(os.environ["FORMAT_PYTHON"], "FORMAT.md", "exec")
out = sys.argv[1]
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        obj = json.loads(f.read().decode("utf-8"))
    scope = {"json": json, "obj": obj}
    exec(code, scope)
    with open(os.path.join(out, os.path.basename(path)), "wb") as f:
        f.write(scope["data"])
`

// formatPython returns the Python block of FORMAT.md: the code the tests
// run, so that the document, not a copy of it, is what is checked.
func formatPython(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n```python\n")
	if !ok {
		t.Fatal("FORMAT.md has no python block")
	}
	code, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("FORMAT.md: the python block does not end")
	}
	return code + "\n"
}

// python returns the path of python3, or skips the test (failing it under
// CI=true, where a missing interpreter is a broken CI image, not a choice).
func python(t *testing.T) string {
	t.Helper()
	return skipreport.Tool(t, "python3", "records: python3 not found, so the Python byte-identity checks of the records did NOT run (the canonical form equals Python's json.dumps(ordered(obj), indent=2, ensure_ascii=False)); install it: sudo apt-get install python3")
}

// redump runs pythonRedump on files and returns what Python wrote for each.
func redump(t *testing.T, files []string) map[string][]byte {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(python(t), append([]string{"-I", "-B", "-c", pythonRedump, out}, files...)...)
	cmd.Env = append(os.Environ(), "PYTHONUTF8=1", "FORMAT_PYTHON="+formatPython(t))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3: %v\n%s", err, b)
	}
	got := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(out, filepath.Base(f)))
		if err != nil {
			t.Fatal(err)
		}
		got[f] = b
	}
	return got
}

// TestPythonReproducesRecords checks FORMAT.md's claim on the committed
// records: Python, loading each record and running FORMAT.md's Python code
// (json.dumps(ordered(obj), indent=2, ensure_ascii=False) + "\n", keys
// sorted except at OrderedPath), gives the file's bytes.
func TestPythonReproducesRecords(t *testing.T) {
	set := generate(t)
	var files []string
	for _, f := range set.Files {
		if !recordFileName.MatchString(f.Name) {
			continue // the page is not JSON
		}
		files = append(files, f.Name) // the committed files, in this folder
		checkPythonPrecondition(t, f.Name, f.Data)
	}
	for file, got := range redump(t, files) {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Python's bytes differ from the record (-want +got):\n%s", file, lineDiff(want, got))
		}
	}
}

// TestPythonReproducesCanonical checks the same claim on many generated JSON
// values with every kind of string character, key order and nesting the
// canonical form has a rule for; one in three is placed at OrderedPath, where
// member order is kept, inside objects that are sorted.
func TestPythonReproducesCanonical(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 2026))
	var files []string
	want := map[string][]byte{}
	for i := range 300 {
		text := randomJSON(rng, 0)
		if i%3 == 0 {
			text = fmt.Appendf(nil, `{"title":"x","outcome":{"result":[{"name":"t","inputSchema":{"type":"object","properties":%s}},%s]}}`, text, randomJSON(rng, 2))
		}
		canon, err := Canonical(text)
		if err != nil {
			t.Fatalf("Canonical(%s): %v", text, err)
		}
		f := filepath.Join(dir, fmt.Sprintf("%03d.json", i))
		if err := os.WriteFile(f, canon, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		want[f] = canon
	}
	for f, got := range redump(t, files) {
		if !bytes.Equal(got, want[f]) {
			t.Errorf("%s: Python's bytes differ from Canonical (-want +got):\n%s", f, lineDiff(want[f], got))
		}
	}
}

// checkPythonPrecondition fails if a record holds a number that is not an
// integer literal other than -0: for those, Python's float or int round trip
// would change the literal, and FORMAT.md's equivalence does not hold.
func checkPythonPrecondition(t *testing.T, name string, data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if n, ok := tok.(json.Number); ok {
			if strings.ContainsAny(string(n), ".eE") || n == "-0" {
				t.Errorf("%s holds the number %s: not an integer literal, so Python's json.dumps would not reproduce it", name, n)
			}
		}
	}
}

// palette holds the characters the canonical form has a rule for: escapes,
// characters that must not be escaped, and pairs whose order differs between
// UTF-16 and code points.
var palette = []string{
	"a", "b", "B", "z", " ", "0", "_", "-", ".",
	`"`, `\`, "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x01", "\x1f", "\x7f",
	"<", ">", "&", "'", "é", "ß", "한", "국", "語", "\u00ad", "\u2028", "\u2029", "\ufeff", "\uffff", "\ufb00",
	"😀", "🌤", "\U0010ffff",
}

func randomString(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(6) {
		b.WriteString(palette[rng.IntN(len(palette))])
	}
	return b.String()
}

// randomJSON returns a compact JSON text. Strings are escaped by
// encoding/json (which writes <, > and & as \u003c...), so the canonical
// encoder never reads its own escapes. Numbers are integer literals: the
// values for which FORMAT.md claims equality with Python.
func randomJSON(rng *rand.Rand, depth int) []byte {
	kind := rng.IntN(8)
	if depth >= 4 {
		kind = rng.IntN(5)
	}
	switch kind {
	case 0:
		return []byte("null")
	case 1:
		return []byte(strconv.FormatBool(rng.IntN(2) == 0))
	case 2:
		switch rng.IntN(3) {
		case 0:
			return []byte(strconv.Itoa(rng.IntN(2001) - 1000))
		case 1:
			return []byte("-" + strconv.FormatUint(rng.Uint64(), 10) + strconv.FormatUint(rng.Uint64(), 10))
		}
		return []byte(strconv.FormatUint(rng.Uint64()|1<<63, 10) + "000000000000000000000")
	case 3, 4:
		b, _ := json.Marshal(randomString(rng))
		return b
	case 5:
		var b bytes.Buffer
		b.WriteByte('[')
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(randomJSON(rng, depth+1))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for i := range rng.IntN(6) {
		k := randomString(rng)
		if seen[k] {
			continue
		}
		seen[k] = true
		if i > 0 && b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(randomJSON(rng, depth+1))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// pythonPort is the Python port of the catalog contract, from this folder.
var pythonPort = filepath.Join("..", "conformance", "ports", "python")

// TestPythonPortRegeneratesRecords is the cross-language byte check:
// testdata/regenerate.py, written from FORMAT.md alone, makes the five calls
// with the Python port's own implementation of the contract and serializes
// the records with Python's json module; every file must equal the Go
// generation byte for byte.
func TestPythonPortRegeneratesRecords(t *testing.T) {
	if _, err := os.Stat(filepath.Join(pythonPort, "catalogkit.py")); err != nil {
		msg := fmt.Sprintf("the Python port is not in this tree (%v): the cross-language byte check of the records did NOT run", err)
		fmt.Fprintf(os.Stderr, "WARNING: %s: %s\n", t.Name(), msg)
		t.Skip(msg)
	}
	py := python(t)
	set := generate(t)
	out := t.TempDir()
	cmd := exec.Command(py, "-I", "-B", filepath.Join("testdata", "regenerate.py"), "..", pythonPort, out)
	cmd.Env = append(os.Environ(), "PYTHONUTF8=1", "PYTHONDONTWRITEBYTECODE=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 testdata/regenerate.py: %v\n%s", err, b)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	var want []string
	var recordFiles []File // not the page: the port makes the records only
	for _, f := range set.Files {
		if recordFileName.MatchString(f.Name) {
			want = append(want, f.Name)
			recordFiles = append(recordFiles, f)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("Python wrote %v, want %v", names, want)
	}
	for _, f := range recordFiles {
		got, err := os.ReadFile(filepath.Join(out, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s: the Python port's record differs from Go's (-go +python):\n%s", f.Name, lineDiff(f.Data, got))
		}
	}
}
