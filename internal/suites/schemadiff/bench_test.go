package schemadiff

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	gjsonschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/mcpimport"
)

// A benchCall is one real tool's schema and arguments that fit it, ready
// for each validator.
type benchCall struct {
	name     string
	args     []byte
	ours     *catalog.Catalog
	santhosh *jsonschema.Schema
	google   *gjsonschema.Resolved
}

// realCalls returns, for every real server tool whose schema is in the
// subset as written, arguments that fit it (generated), and the tool
// compiled by each validator.
func realCalls(tb testing.TB) []benchCall {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "mcpimport", "testdata", "servers", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no servers (%v)", err)
	}
	g := gen{rand.New(rand.NewPCG(5, 6))}
	var calls []benchCall
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		list, _ := catalog.ParseJSON(data)
		all, _ := list.Lookup("tools")
		for i := range all.Len() {
			tool := all.Index(i)
			schema, _ := tool.Lookup("inputSchema")
			text := schema.String()
			cat := `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":` + text + `}]}`
			c, err := catalog.Parse([]byte(cat))
			if err != nil {
				continue
			}
			props, _ := schema.Lookup("properties")
			names := []string{"q"}
			for j := range props.Len() {
				names = append(names, props.Key(j))
			}
			// The first generated arguments that fit, with as many keys as
			// the schema allows: a realistic call.
			var args string
			for range 20000 {
				a := g.objectOf(2, names)
				v, _ := catalog.ParseJSON([]byte(a))
				if _, err := c.ValidateArguments("t", v); err == nil && len(a) >= len(args) {
					args = a
				}
			}
			if args == "" {
				continue
			}
			doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(text))
			sc := jsonschema.NewCompiler()
			sc.DefaultDraft(jsonschema.Draft2020)
			if err := sc.AddResource("s.json", doc); err != nil {
				tb.Fatal(err)
			}
			ss, err := sc.Compile("s.json")
			if err != nil {
				tb.Fatal(err)
			}
			var gs gjsonschema.Schema
			if err := json.Unmarshal([]byte(text), &gs); err != nil {
				tb.Fatal(err)
			}
			gr, err := gs.Resolve(nil)
			if err != nil {
				continue // a $schema of draft-07 the Go SDK's validator does not take
			}
			name, _ := tool.Lookup("name")
			calls = append(calls, benchCall{name: name.String(), args: []byte(args), ours: c, santhosh: ss, google: gr})
		}
	}
	if len(calls) < 20 {
		tb.Fatalf("%d real calls, want at least 20", len(calls))
	}
	return calls
}

// BenchmarkValidate2 measures one call's check, from the argument bytes to
// the verdict, over the real servers' schemas (one op is one call to each
// tool, in turn), for format 2 and for the Go JSON Schema validators a user
// would pick instead, each decoding as it requires: catalog.ParseJSON,
// jsonschema.UnmarshalJSON (santhosh-tekuri), encoding/json (google).
func BenchmarkValidate2(b *testing.B) {
	calls := realCalls(b)
	b.Run("catalogkit", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			c := &calls[i%len(calls)]
			v, err := catalog.ParseJSON(c.args)
			if err == nil {
				_, err = c.ours.ValidateArguments("t", v)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("santhosh-tekuri", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			c := &calls[i%len(calls)]
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(c.args)))
			if err == nil {
				err = c.santhosh.Validate(v)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("google-jsonschema-go", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			c := &calls[i%len(calls)]
			var v any
			err := json.Unmarshal(c.args, &v)
			if err == nil {
				err = c.google.Validate(v)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// catalog1000 returns a format-2 catalog of 1000 tools: the real servers'
// tools that import, renamed and repeated.
func catalog1000(tb testing.TB) []byte {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "mcpimport", "testdata", "servers", "*.json"))
	var tools []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		res, err := mcpimport.Import(data, mcpimport.Options{Family: strings.ReplaceAll(strings.TrimSuffix(filepath.Base(f), ".json"), "-", "")})
		if err != nil {
			tb.Fatal(err)
		}
		cat, _ := catalog.ParseJSON(res.Catalog)
		list, _ := cat.Lookup("tools")
		for i := range list.Len() {
			tools = append(tools, list.Index(i).String())
		}
	}
	var out []string
	for i := range catalog.MaxTools {
		t := tools[i%len(tools)]
		out = append(out, strings.Replace(t, `{"name":"`, `{"name":"t`+strconv.Itoa(i)+`_`, 1))
	}
	return []byte(`{"format":"catalogkit/2","tools":[` + strings.Join(out, ",") + `]}`)
}

// BenchmarkParse2 measures Parse of a format-2 catalog of 1000 real tools:
// the time, the bytes allocated per byte of input, and the bytes the
// compiled catalog keeps (live after a collection) per byte of input.
func BenchmarkParse2(b *testing.B) {
	data := catalog1000(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := catalog.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep, _ := catalog.Parse(data)
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(data)), "live-B/B")
	b.ReportMetric(float64(len(data))/(1<<20), "input-MB")
	runtime.KeepAlive(keep)
}
