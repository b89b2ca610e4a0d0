package catalog

import (
	"runtime"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/benchdata"
	"github.com/catalogkit/catalogkit/internal/testlib/jsonshapes"
)

// shapeBenchSize is the input size of the shape benchmarks: large enough
// that the constant part of the memory is small beside the part that grows
// with the input.
const shapeBenchSize = 4 << 20

// BenchmarkParseJSONShapes parses each shape of jsonshapes at 4 MiB and
// reports the memory per input byte: alloc-B/B is every byte allocated during
// the parse (an upper bound of its peak heap), live-B/B the bytes the parsed
// value keeps (the input itself not counted in either).
func BenchmarkParseJSONShapes(b *testing.B) {
	for _, s := range jsonshapes.Shapes {
		data := s.Generate(shapeBenchSize)
		b.Run("shape="+s.Name, func(b *testing.B) {
			live := benchdata.LiveBytes(b, func() (Value, error) { return ParseJSON(data) })
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
