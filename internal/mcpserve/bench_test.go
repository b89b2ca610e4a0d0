package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/testlib/benchdata"
	"github.com/catalogkit/catalogkit/internal/testlib/signtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// minimalServer is the anchor: the SDK's own minimal tool, as its README
// writes one (a typed handler that returns a short text), so that a round
// trip of the catalog's tools is measured beside the protocol's own cost.
func minimalServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "0"}, nil)
	type in struct {
		Name string `json:"name"`
	}
	type out struct {
		Greeting string `json:"greeting"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "say hi"}, func(_ context.Context, _ *mcp.CallToolRequest, x in) (*mcp.CallToolResult, out, error) {
		return nil, out{Greeting: "Hi " + x.Name}, nil
	})
	return s
}

// stdioPair serves srv over a pair of OS pipes, as stdio is, and returns a
// client session over the other ends.
func stdioPair(b *testing.B, serve func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error) *mcp.ClientSession {
	b.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { serve(ctx, inR, outW); outW.Close(); close(done) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx,
		&mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); inW.Close(); cancel(); <-done })
	return cs
}

func httpSession(b *testing.B, h http.Handler) *mcp.ClientSession {
	b.Helper()
	hs := httptest.NewServer(h)
	b.Cleanup(hs.Close)
	return connectHTTP(b, hs.URL)
}

// BenchmarkRoundTrip measures one tools/call round trip, over stdio (OS
// pipes) and over stateless HTTP, of discover (one family of the synthetic
// catalog) and of validate_arguments, each interleaved call by call with
// the SDK's minimal tool on the same transport, and reports the median of
// each and their ratio (overhead-x: the catalog tool's median over the
// minimal tool's). A third series, same-bytes, is an SDK tool that returns
// the catalog tool's very result ready made: vs-same-bytes-x is the
// catalog's own work, apart from the size of what it returns.
func BenchmarkRoundTrip(b *testing.B) {
	srv := newServer(b, syntheticPath)
	digest, _ := srv.Snapshot().Digest("page.read")
	calls := []struct {
		name string
		args map[string]any
	}{
		{ToolDiscover, map[string]any{"family": "reading"}},
		{ToolValidate, map[string]any{"name": "page.read", "arguments": map[string]any{"tab_id": 3}, "digest": digest}},
	}
	minimal := minimalServer()
	// A second anchor: an SDK tool (raw handler) that returns, ready made,
	// the very result the catalog tool returns. The difference between it
	// and the minimal tool is the cost of the payload's size in the SDK; the
	// difference between it and the catalog tool is the catalog's own work.
	for _, c := range calls {
		res, err := connect(b, srv).CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			b.Fatal(err)
		}
		structured, _ := json.Marshal(res.StructuredContent)
		fixed := result(structured, res.IsError)
		minimal.AddTool(&mcp.Tool{Name: "same-bytes-" + c.name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return fixed, nil })
	}
	minimalHTTP := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return minimal },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	transports := []struct {
		name             string
		catalog, minimal func(b *testing.B) *mcp.ClientSession
	}{
		{"stdio",
			func(b *testing.B) *mcp.ClientSession { return stdioPair(b, srv.ServeStdio) },
			func(b *testing.B) *mcp.ClientSession {
				return stdioPair(b, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
					return minimal.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
				})
			}},
		{"http",
			func(b *testing.B) *mcp.ClientSession {
				return httpSession(b, srv.HTTPHandler())
			},
			func(b *testing.B) *mcp.ClientSession { return httpSession(b, minimalHTTP) }},
	}
	for _, tr := range transports {
		for _, c := range calls {
			b.Run("transport="+tr.name+"/tool="+c.name, func(b *testing.B) {
				cat, min := tr.catalog(b), tr.minimal(b)
				ctx := context.Background()
				var tc, tm, ts []time.Duration
				callMinimal := func() time.Duration {
					t0 := time.Now()
					if _, err := min.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "x"}}); err != nil {
						b.Fatal(err)
					}
					return time.Since(t0)
				}
				callCatalog := func() time.Duration {
					t0 := time.Now()
					res, err := cat.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
					if err != nil || res.IsError {
						b.Fatalf("%s: %v %+v", c.name, err, res)
					}
					return time.Since(t0)
				}
				callSame := func() time.Duration {
					t0 := time.Now()
					if _, err := min.CallTool(ctx, &mcp.CallToolParams{Name: "same-bytes-" + c.name, Arguments: c.args}); err != nil {
						b.Fatal(err)
					}
					return time.Since(t0)
				}
				i := 0
				for b.Loop() {
					ts = append(ts, callSame())
					// Alternate which goes first, so that neither gains from
					// the other's warm caches.
					if i%2 == 0 {
						tm, tc = append(tm, callMinimal()), append(tc, callCatalog())
					} else {
						tc, tm = append(tc, callCatalog()), append(tm, callMinimal())
					}
					i++
				}
				mc, mm, ms := median(tc), median(tm), median(ts)
				b.ReportMetric(float64(mc.Microseconds()), "catalog-µs")
				b.ReportMetric(float64(mm.Microseconds()), "minimal-µs")
				b.ReportMetric(float64(mc)/float64(mm), "overhead-x")
				b.ReportMetric(float64(ms.Microseconds()), "same-bytes-µs")
				b.ReportMetric(float64(mc)/float64(ms), "vs-same-bytes-x")
			})
		}
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// resultBytes is the size of a JSON-RPC result as it goes over the wire.
func resultBytes(b *testing.B, v any) int {
	j, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return len(j)
}

// BenchmarkContextBytes compares what a model's context holds for the
// 1000-tool benchmark catalog (families of 50): this server's tools/list
// plus the discover result of one family, against a plain MCP server that
// lists all 1000 tools with their input schemas (the catalog's own
// descriptions, the smallest a plain server could list). It reports both
// sizes and their ratio (the instructions counted on our side); the time is
// that of getting our tools/list and one family's discover.
func BenchmarkContextBytes(b *testing.B) {
	data := benchdata.MustCatalog(benchdata.Max)
	snap, err := NewSnapshot(data, Unsigned)
	if err != nil {
		b.Fatal(err)
	}
	srv := NewForSnapshot(snap, Options{})
	cat, _ := catalog.Parse(data)
	all, _ := cat.Discover("all")
	plain := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "0"}, nil)
	for _, d := range all {
		desc, _ := d.MarshalJSON() // the catalog's exact JSON form
		var full struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		json.Unmarshal(desc, &full)
		plain.AddTool(&mcp.Tool{Name: d.Name, InputSchema: full.InputSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, nil
		})
	}
	ctx := context.Background()
	connectTo := func(s *mcp.Server) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := s.Connect(ctx, st, nil); err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close() })
		return cs
	}
	ours, theirs := connectTo(srv.MCPServer()), connectTo(plain)
	var plainTools []*mcp.Tool
	for t, err := range theirs.Tools(ctx, nil) { // every page
		if err != nil {
			b.Fatal(err)
		}
		plainTools = append(plainTools, t)
	}
	if len(plainTools) != len(all) {
		b.Fatalf("the plain server listed %d tools, want %d", len(plainTools), len(all))
	}
	plainBytes := resultBytes(b, plainTools)
	var oursBytes int
	for b.Loop() {
		list, err := ours.ListTools(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		fam, err := ours.CallTool(ctx, &mcp.CallToolParams{Name: ToolDiscover, Arguments: map[string]any{"family": all[0].Family}})
		if err != nil || fam.IsError {
			b.Fatal(err)
		}
		oursBytes = resultBytes(b, list) + resultBytes(b, fam) + len(Instructions(snap))
	}
	b.ReportMetric(float64(oursBytes), "catalog-bytes")
	b.ReportMetric(float64(plainBytes), "plain-bytes")
	b.ReportMetric(float64(plainBytes)/float64(oursBytes), "saved-x")
}

// BenchmarkReload reloads the 1000-tool benchmark catalog (30 fields a
// tool), unsigned and signed. It reports the time of one reload, the bytes
// it allocates (alloc-MB, an upper bound of what it adds to the peak heap),
// the live size of a served catalog (live-MB), and their sum (peak-MB, an
// upper bound of the heap at the swap, when the old and new catalogs are
// both alive). Then, untimed, it reloads 10 times while two clients call
// discover without pause, fails if any call fails, and reports the calls
// served per reload.
func BenchmarkReload(b *testing.B) {
	data := benchdata.MustCatalog(benchdata.Max)
	dir := b.TempDir()
	path := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	_, key, pub := signtest.Key(b, "bench")
	sig, _ := sign.SignFile(key, "catalog.json", data)
	if err := sign.WriteSignature(path+sign.SignatureSuffix, sig); err != nil {
		b.Fatal(err)
	}
	// The anchor: compiling the same bytes with catalog.Parse, which any
	// server of this catalog must do.
	b.Run("catalog=tools-1000/anchor=catalog.Parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := catalog.Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, mode := range []struct {
		name string
		keys []sign.PublicKey
	}{{"unsigned", nil}, {"signed", []sign.PublicKey{pub}}} {
		b.Run("catalog=tools-1000/"+mode.name, func(b *testing.B) {
			srv, err := New(path, mode.keys, Options{})
			if err != nil {
				b.Fatal(err)
			}
			live := benchdata.LiveBytes(b, func() (*Snapshot, error) { return Load(path, mode.keys) })
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			n := 0
			for b.Loop() {
				if err := srv.Reload(); err != nil {
					b.Fatal(err)
				}
				n++
			}
			runtime.ReadMemStats(&m1)
			alloc := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n) / (1 << 20)
			b.ReportMetric(alloc, "alloc-MB")
			b.ReportMetric(float64(live)/(1<<20), "live-MB")
			b.ReportMetric(alloc+float64(live)/(1<<20), "peak-MB")

			// Not timed: the same reloads while two clients call discover
			// without pause; no call may fail.
			family := srv.Snapshot().Families()[0].Name
			ctx, cancel := context.WithCancel(context.Background())
			var served, failed atomic.Int64
			var wg sync.WaitGroup
			for range 2 {
				cs := connect(b, srv)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for ctx.Err() == nil {
						res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolDiscover, Arguments: map[string]any{"family": family}})
						switch {
						case ctx.Err() != nil:
						case err != nil || res.IsError:
							failed.Add(1)
						default:
							served.Add(1)
						}
					}
				}()
			}
			for range 10 {
				if err := srv.Reload(); err != nil {
					b.Fatal(err)
				}
			}
			cancel()
			wg.Wait()
			if failed.Load() > 0 || served.Load() == 0 {
				b.Fatalf("during 10 reloads %d calls failed and %d were served, want none failed and some served", failed.Load(), served.Load())
			}
			b.ReportMetric(float64(served.Load())/10, "calls/reload")
		})
	}
}
