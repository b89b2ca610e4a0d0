// Package proctest holds what the tests of processes share: it finds
// processes by what /proc says of them, for the tests that check that no
// process outlives a run (a port's, a sandboxed test's, a signalled
// command's), and where there is no /proc it finds none; and it listens on
// the network for the probes that check a sandbox keeps a process off it.
package proctest

import (
	"bytes"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// WithEnv returns the processes whose environment holds kv ("NAME=value").
func WithEnv(kv string) []int {
	want := []byte(kv + "\x00")
	return find("environ", func(b []byte) bool {
		return bytes.HasPrefix(b, want) || bytes.Contains(b, append([]byte{0}, want...))
	})
}

// Sleeping returns the processes whose command line ends with sleep arg.
func Sleeping(arg string) []int {
	want := []byte("sleep\x00" + arg + "\x00")
	return find("cmdline", func(b []byte) bool { return bytes.HasSuffix(b, want) })
}

// WithArg returns the processes whose command line holds s.
func WithArg(s string) []int {
	return find("cmdline", func(b []byte) bool { return bytes.Contains(b, []byte(s)) })
}

// find returns the processes whose /proc/<pid>/<file> matches.
func find(file string, match func([]byte) bool) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/" + file); err == nil && match(b) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Until reports whether cond held within d, asking it again every few
// milliseconds: for what /proc shows only after the kernel has caught up
// (an exec finished, a killed process reaped), which a loaded machine
// does not do at once. d bounds a machine that never gets there.
func Until(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// Listen starts a TCP listener on 127.0.0.1 that accepts and closes every
// connection until the test ends, and returns its address: a place on the
// network that a probe run in a sandbox must not reach.
func Listen(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// Parent returns the parent of pid as /proc/PID/stat says, or 0: the chain
// of ancestors a probe climbs to read their environments.
func Parent(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
