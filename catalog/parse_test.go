package catalog

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/jsonshapes"
)

// fieldsN renders a tool "t<i>" whose fields object has n valid fields, the
// name, family and effect given as raw JSON, with extra appended to the
// tool's keys (`,"x":1`) and fields written first or last.
func toolWithFields(name string, n int, fieldsFirst bool, extra string) string {
	head := fmt.Sprintf(`"name":%s,"family":"f","effect":"read","enabled":true`, name)
	fields := `"fields":` + nFields(n)
	if fieldsFirst {
		return "{" + fields + "," + head + extra + "}"
	}
	return "{" + head + "," + fields + extra + "}"
}

// catalogOf renders a catalog of the given tool texts.
func catalogOf(tools ...string) string { return "[" + strings.Join(tools, ",") + "]" }

// okTools renders n valid tools named from "p0000", for padding.
func okTools(from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = tool(fmt.Sprintf(`"p%04d"`, from+i), `"f"`, `"read"`, `true`, `{}`)
	}
	return out
}

// TestParseStopsKeepingTools checks that Parse, which stops keeping the tools
// that no catalog rule can reach (after the 1000th, or after a tool of more
// than 30 fields), returns exactly the error that ParseJSON and then Compile
// return: INVALID_JSON anywhere in the text first, then the catalog rules in
// their order.
func TestParseStopsKeepingTools(t *testing.T) {
	many := okTools(0, MaxTools+1)
	over := toolWithFields(`"t"`, MaxFields+1, false, "")
	tests := []struct {
		name     string
		catalog  string
		wantCode Code
		wantPath string
		dropped  bool // Parse kept fewer tools than the catalog has
		reason   string
	}{
		{"1001 tools", catalogOf(many...), InvalidCatalog, "$", true,
			"the 1001st tool crosses the limit"},
		{"1001 tools, bad JSON at the end", catalogOf(many...) + "x", InvalidJSON, "$", false,
			"INVALID_JSON for the whole text wins over the tool count"},
		{"1001 tools, duplicate key in the last", catalogOf(append(okTools(0, MaxTools), `{"name":"a","name":"b"}`)...), InvalidJSON, "$[1000]", false,
			"a dropped tool is still read strictly"},
		{"1001 tools, too deep in the last", catalogOf(append(okTools(0, MaxTools), strings.Repeat("[", MaxDepth)+strings.Repeat("]", MaxDepth))...), InvalidJSON, "$[1000]" + strings.Repeat("[0]", MaxDepth-1), false,
			"the depth limit holds in a dropped tool"},
		{"1001 tools, the first bad", catalogOf(append([]string{`{"name":"BAD"}`}, okTools(1, MaxTools)...)...), InvalidCatalog, "$", true,
			"the tool count is checked before any tool"},
		{"2000 tools", catalogOf(okTools(0, 2*MaxTools)...), InvalidCatalog, "$", true,
			"every tool over the limit is dropped"},
		{"31 fields", catalogOf(over), InvalidFields, "$[0].fields", false,
			"the tool itself is kept"},
		{"31 fields, later tools", catalogOf(append([]string{over}, okTools(0, 5)...)...), InvalidFields, "$[0].fields", true,
			"the tools after it cannot change the result"},
		{"31 fields, later duplicate", catalogOf(okTools(0, 1)[0], over, okTools(0, 1)[0]), InvalidFields, "$[1].fields", true,
			"a later duplicate name comes after the field count"},
		{"31 fields, earlier bad tool", catalogOf(tool(`"a"`, `"f"`, `"write"`, `true`, `{}`), over, okTools(0, 1)[0]), InvalidMetadata, "$[0].effect", true,
			"an earlier tool decides first"},
		{"31 fields, its name after the fields", catalogOf(toolWithFields(`"BAD"`, MaxFields+1, true, ""), okTools(0, 1)[0]), InvalidLabel, "$[0].name", true,
			"the tool's own name is checked before its field count, wherever it is written"},
		{"31 fields, its extra key after the fields", catalogOf(toolWithFields(`"t"`, MaxFields+1, false, `,"x":1`), okTools(0, 1)[0]), InvalidFields, "$[0]", true,
			"the tool's key set is checked before its field count"},
		{"31 fields, its duplicate name", catalogOf(okTools(0, 1)[0], toolWithFields(`"p0000"`, MaxFields+1, true, "")), DuplicateTool, "$[1].name", false,
			"a duplicate name is checked before the field count"},
		{"31 fields, bad JSON later", catalogOf(over, `{"a":1,"a":2}`), InvalidJSON, "$[1]", false,
			"INVALID_JSON for the whole text wins"},
		{"31 fields, then 1001 tools", catalogOf(append([]string{over}, okTools(0, MaxTools)...)...), InvalidCatalog, "$", true,
			"dropped tools are still counted"},
		{"30 fields, later tools", catalogOf(append([]string{toolWithFields(`"t"`, MaxFields, false, "")}, okTools(0, 3)...)...), "", "", false,
			"a tool at the limit stops nothing"},
		{"fields not in a tool", `[[{"fields":` + nFields(MaxFields+1) + `}],` + okTools(0, 1)[0] + `]`, InvalidFields, "$[0]", false,
			"only a tool's fields count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.catalog)
			_, parseErr := Parse(data)
			var twoStep error
			if v, err := ParseJSON(data); err != nil {
				twoStep = err
			} else {
				_, twoStep = Compile(v)
			}
			got := []string{string(codeOf(t, parseErr)), pathOf(parseErr)}
			if diff := diff([]string{string(tt.wantCode), tt.wantPath}, got); diff != "" {
				t.Errorf("Parse (%s): code, path (-want +got):\n%s\nerror: %v", tt.reason, diff, parseErr)
			}
			if diff := diff(fmt.Sprint(twoStep), fmt.Sprint(parseErr)); diff != "" {
				t.Errorf("Parse and ParseJSON+Compile differ (-two steps +Parse):\n%s", diff)
			}
			v, err := parseJSON(data, true)
			if err != nil {
				return
			}
			if dropped := v.has(flagTruncated); dropped != tt.dropped {
				t.Errorf("Parse dropped tools: %v, want %v (%s)", dropped, tt.dropped, tt.reason)
			}
		})
	}
}

// TestParseOverLimitMemory checks that the tools after the limit cost no
// memory: a catalog of 1000 tools followed by 100,000 more keeps as many
// nodes as the first 1000 alone.
func TestParseOverLimitMemory(t *testing.T) {
	first := okTools(0, MaxTools)
	limit, err := parseJSON([]byte(catalogOf(first...)), true)
	if err != nil {
		t.Fatal(err)
	}
	over, err := parseJSON([]byte(catalogOf(append(first, okTools(MaxTools, 100*MaxTools)...)...)), true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(over.d.nodes), len(limit.d.nodes); got != want {
		t.Errorf("an over-limit catalog kept %d nodes, want %d (those of its first %d tools)", got, want, MaxTools)
	}
	if got, want := over.Len(), 101*MaxTools; got != want {
		t.Errorf("tool count %d, want %d", got, want)
	}
}

// TestIndexLargeContainers checks Index and Key against an in-order walk on
// containers of every layout: flat, with nested values (found through marks),
// and objects past the size where duplicate keys are found with a hash set.
func TestIndexLargeContainers(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 31, 32, 33, 64, 65, 1000} {
		var arr, obj, flat []string
		for i := range n {
			arr = append(arr, fmt.Sprintf(`[%d,{"k":%d}]`, i, i))
			obj = append(obj, fmt.Sprintf(`"k%d":[%d]`, i, i))
			flat = append(flat, fmt.Sprintf(`"k%d":%d`, i, i))
		}
		for _, text := range []string{"[" + strings.Join(arr, ",") + "]", "{" + strings.Join(obj, ",") + "}", "{" + strings.Join(flat, ",") + "}"} {
			v := mustJSON(t, text)
			if v.Len() != n {
				t.Fatalf("Len = %d, want %d", v.Len(), n)
			}
			i := 0
			check := func(key string, val Value) {
				t.Helper()
				if got := v.Index(i).String(); got != val.String() {
					t.Errorf("n=%d: Index(%d) = %s, want %s", n, i, got, val)
				}
				if v.Kind() == Object {
					if got := v.Key(i); got != key {
						t.Errorf("n=%d: Key(%d) = %q, want %q", n, i, got, key)
					}
					if got, ok := v.Lookup(key); !ok || got.String() != val.String() {
						t.Errorf("n=%d: Lookup(%q) = %s, %v", n, key, got, ok)
					}
				}
				i++
			}
			if v.Kind() == Object {
				for k, val := range v.members() {
					check(k.text(), val)
				}
			} else {
				for e := range v.elems() {
					check("", e)
				}
			}
			if i != n {
				t.Errorf("walk saw %d children, want %d", i, n)
			}
			if got := v.String(); got != text {
				t.Errorf("String() differs from the compact input")
			}
		}
	}
}

// TestDuplicateKeyAnywhere puts a duplicate key at each position of objects
// small and large, where the parser switches from comparing keys to a hash
// set.
func TestDuplicateKeyAnywhere(t *testing.T) {
	for _, n := range []int{2, smallObject, smallObject + 1, smallObject + 2, 100, 1000} {
		for _, dupOf := range []int{0, (n - 1) / 2, n - 2} {
			keys := make([]string, n)
			for i := range keys {
				keys[i] = fmt.Sprintf(`"k%d":%d`, i, i)
			}
			keys[n-1] = fmt.Sprintf(`"k%d":0`, dupOf)
			_, err := ParseJSON([]byte("{" + strings.Join(keys, ",") + "}"))
			if codeOf(t, err) != InvalidJSON || !strings.Contains(err.Error(), fmt.Sprintf(`duplicate key "k%d"`, dupOf)) {
				t.Errorf("%d keys, the last repeating key %d: got %v, want a duplicate key error", n, dupOf, err)
			}
		}
	}
	// The same key text written with and without escapes is a duplicate.
	if _, err := ParseJSON([]byte(`{"a1":0,"a2":0,"a3":0,"a4":0,"a5":0,"a6":0,"a7":0,"a8":0,"a9":0,"\u0061\u0035":1}`)); codeOf(t, err) != InvalidJSON {
		t.Errorf("an escaped repeat of a key: got %v, want INVALID_JSON", err)
	}
}

// TestLongValues checks strings and literals too long for a node's length
// bits, escaped or not.
func TestLongValues(t *testing.T) {
	long := strings.Repeat("é", maxStrLen) // twice maxStrLen bytes
	for _, tt := range []struct {
		text, want, reason string
	}{
		{`"` + long + `"`, long, "an unescaped string over maxStrLen bytes"},
		{`"\n` + long + `"`, "\n" + long, "an escaped string over maxStrLen bytes"},
		{`{"` + long + `":1}`, long, "a long key"},
	} {
		v := mustJSON(t, tt.text)
		got, ok := v.Str()
		if v.Kind() == Object {
			got, ok = v.Key(0), true
		}
		if !ok || got != tt.want {
			t.Errorf("%s: got %d bytes, want %d", tt.reason, len(got), len(tt.want))
		}
	}
	digits := "1" + strings.Repeat("0", maxStrLen+10)
	v := mustJSON(t, "["+digits+"]")
	if lit, _ := v.Index(0).NumberLiteral(); lit != digits || !v.Index(0).isInteger() {
		t.Errorf("a long integer literal: got %d digits", len(lit))
	}
}

// TestParseMemory parses every shape of jsonshapes with ParseJSON and Parse
// and checks that the bytes allocated, an upper bound of the heap the parse
// adds, stay within the part of the documented rule for peak memory that
// grows with the input (10 times the input, less the input itself), at 8 MiB:
// the cost per byte does not depend on the size. cmd/catalogkit's TestMemoryAtTheLimit measures the
// resident memory of the command at the 32 MiB limit.
func TestParseMemory(t *testing.T) {
	size := 8 << 20
	if testing.Short() || raceEnabled {
		size = 2 << 20
	}
	parsers := []struct {
		name  string
		parse func([]byte) error
	}{
		{"ParseJSON", func(b []byte) error { _, err := ParseJSON(b); return err }},
		{"Parse", func(b []byte) error { _, err := Parse(b); return err }},
	}
	for _, s := range jsonshapes.Shapes {
		data := s.Generate(size)
		for _, p := range parsers {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			err := p.parse(data)
			runtime.ReadMemStats(&after)
			if p.name == "ParseJSON" && err != nil {
				t.Fatalf("%s %s: %v", p.name, s.Name, err)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			budget := 9*uint64(len(data)) + 1<<20
			t.Logf("%-11s %-9s %5.2f bytes allocated per input byte", s.Name, p.name, float64(alloc)/float64(len(data)))
			if alloc > budget {
				t.Errorf("%s of %s (%d bytes) allocated %d bytes, over 9×input+1 MiB = %d", p.name, s.Name, len(data), alloc, budget)
			}
		}
	}
}
