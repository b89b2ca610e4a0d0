package verify

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// maxWorkers bounds the goroutines that check or extract entries at once.
const maxWorkers = 8

// workers returns how many goroutines forEach runs for n items: one per
// core (GOMAXPROCS), at most maxWorkers, at least one.
func workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), maxWorkers, n)) }

// forEach calls fn(worker, i) for every i in [0, n) on up to GOMAXPROCS
// goroutines (at most maxWorkers), taking indexes in order. It stops taking
// new ones after an error or a cancellation and returns the error of the
// lowest index that failed, so that the report names the first bad entry a
// sequential walk would have met among those it reached. A panic in fn is
// turned into an error, so the caller's cleanup still runs.
func forEach(ctx context.Context, n int, fn func(worker, i int) *archive.Error) *archive.Error {
	var next atomic.Int64
	var stop atomic.Bool
	var mu sync.Mutex
	first, firstAt := (*archive.Error)(nil), n
	fail := func(i int, e *archive.Error) {
		mu.Lock()
		if i < firstAt {
			first, firstAt = e, i
		}
		mu.Unlock()
		stop.Store(true)
	}
	var wg sync.WaitGroup
	for w := range workers(n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := -1
			defer func() {
				if p := recover(); p != nil {
					fail(i, &archive.Error{Code: archive.CodeIO, Offset: -1, Detail: fmt.Sprintf("internal error: %v", p)})
				}
			}()
			for !stop.Load() {
				i = int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					fail(i, interrupted(err))
					return
				}
				if e := fn(w, i); e != nil {
					fail(i, e)
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}
