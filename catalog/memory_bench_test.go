package catalog

import (
	"runtime"
	"testing"

	"github.com/catalogkit/catalogkit/internal/jsonshapes"
)

// shapeBenchSize is the input size of the shape benchmarks: large enough
// that the constant part of the memory is small beside the part that grows
// with the input.
const shapeBenchSize = 4 << 20

// liveBytes returns the bytes the parsed form of data holds once the parse
// is over: the heap in use after a collection with the value alive, less the
// heap before the parse.
func liveBytes(tb testing.TB, data []byte, parse func([]byte) (any, error)) uint64 {
	tb.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := parse(data)
	if err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// BenchmarkParseJSONShapes parses each shape of jsonshapes at 4 MiB and
// reports the memory per input byte: alloc-B/B is every byte allocated during
// the parse (an upper bound of its peak heap), live-B/B the bytes the parsed
// value keeps (the input itself not counted in either).
func BenchmarkParseJSONShapes(b *testing.B) {
	parse := func(data []byte) (any, error) { return ParseJSON(data) }
	for _, s := range jsonshapes.Shapes {
		data := s.Generate(shapeBenchSize)
		b.Run("shape="+s.Name, func(b *testing.B) {
			live := liveBytes(b, data, parse)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			n := 0
			for b.Loop() {
				if _, err := ParseJSON(data); err != nil {
					b.Fatal(err)
				}
				n++
			}
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n)/float64(len(data)), "alloc-B/B")
			b.ReportMetric(float64(live)/float64(len(data)), "live-B/B")
		})
	}
}
