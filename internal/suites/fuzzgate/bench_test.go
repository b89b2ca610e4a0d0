package fuzzgate

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/catalogkit/catalogkit/conformance"
	"github.com/catalogkit/catalogkit/conformance/fuzz"
)

// keepOpen hands a started port to one run after another: the benchmark
// measures calls, not process starts.
type keepOpen struct{ *conformance.Port }

func (keepOpen) Close() error { return nil }

// BenchmarkFuzz measures conform --fuzz's throughput in calls per second:
// generation, the reference, the port and the comparison of each call,
// against catalogkit port (this test binary serving conformance.GoTarget,
// which is all catalogkit port does) and the Python port, with 1 and 2
// jobs. The anchor, in the same run, is the conformance runner itself on
// the 21 cases over the same port process: what a port author runs
// otherwise. Ports start once, before the timing; each iteration is one run
// of 2000 calls of seed 1, and the benchmark reports the median calls/s.
func BenchmarkFuzz(b *testing.B) {
	ports := []struct {
		name      string
		newTarget func(b *testing.B) func() fuzz.Target
	}{
		{"go", func(b *testing.B) func() fuzz.Target { return goPort(b) }},
		{"python", func(b *testing.B) func() fuzz.Target {
			py, err := exec.LookPath("python3")
			if err != nil {
				b.Skip("no python3")
			}
			abs, _ := filepath.Abs(pythonPort)
			return func() fuzz.Target { return &conformance.Port{Command: []string{py, abs}} }
		}},
	}
	const calls = 2000
	for _, p := range ports {
		for _, jobs := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/jobs=%d", p.name, jobs), func(b *testing.B) {
				newTarget := p.newTarget(b)
				pool := make([]fuzz.Target, jobs)
				for i := range pool {
					pool[i] = newTarget()
					defer pool[i].Close()
					if _, err := pool[i].Call(fuzz.Call(1, 0)); err != nil {
						b.Fatal(err)
					}
				}
				var rates []float64
				for b.Loop() {
					next := 0
					start := time.Now()
					res, err := fuzz.Run(context.Background(), fuzz.Options{Calls: calls, Seed: 1, Jobs: jobs, NewTarget: func() fuzz.Target {
						t := pool[next%jobs]
						next++
						return keepOpen{t.(*conformance.Port)}
					}})
					if err != nil {
						b.Fatal(err)
					}
					if res.Disagreements != 0 {
						b.Fatalf("%d disagreements", res.Disagreements)
					}
					rates = append(rates, calls/time.Since(start).Seconds())
				}
				b.ReportMetric(median(rates), "calls/s")
			})
		}
		b.Run(p.name+"/runner-21-cases", func(b *testing.B) {
			cases, err := conformance.Cases()
			if err != nil {
				b.Fatal(err)
			}
			checks := 0
			for _, c := range cases {
				checks += len(c.Checks)
			}
			port := p.newTarget(b)()
			defer port.Close()
			// One pass, as the runner's second pass (in another order) would
			// double the calls a case counts.
			runner := &conformance.Runner{Target: port, Once: true}
			var rates []float64
			for b.Loop() {
				start := time.Now()
				if rep := runner.RunCases(cases); !rep.OK() {
					b.Fatal(rep.Summary())
				}
				rates = append(rates, float64(checks)/time.Since(start).Seconds())
			}
			b.ReportMetric(median(rates), "calls/s")
		})
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
