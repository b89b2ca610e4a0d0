package main

import (
	"context"
	"sync"

	"github.com/catalogkit/catalogkit/conformance"
)

// portSet holds the ports a --fuzz or --cases run started, so that a
// signal ends them all at once, whatever call each is waiting on.
type portSet struct {
	mu      sync.Mutex
	ports   []*conformance.Port
	aborted bool
}

// add registers p and returns it; a port added after abort is aborted at
// once, so it never starts a process.
func (s *portSet) add(p *conformance.Port) *conformance.Port {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ports = append(s.ports, p)
	if s.aborted {
		p.Abort()
	}
	return p
}

// abortOnSignal aborts every port of s when a signal cancels ctx (sig
// then returns its exit status). It returns when ctx ends.
func (s *portSet) abortOnSignal(ctx context.Context, sig func() int) {
	<-ctx.Done()
	if sig() == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.aborted = true
	for _, p := range s.ports {
		p.Abort()
	}
}

// end is the last sweep of a run with a port command: every child of this
// process, which has no children but the ports' (see
// conformance.EndChildren).
func (s *portSet) end() {
	s.mu.Lock()
	any := len(s.ports) > 0
	s.mu.Unlock()
	if any {
		conformance.EndChildren()
	}
}
