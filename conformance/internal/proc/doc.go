// Package proc supervises the processes of the ports the conformance runner
// starts: each an ordinary process in a process group of its own, with a
// temporary folder of its own; every process a port left behind found by
// the marker in its environment and killed; the runner a child subreaper
// that reaps the orphans. The runner's Port
// (conformance/stdio.go) is its one user.
package proc

// MarkerEnv is the environment variable the runner sets for a port's
// process, with a value of its own for each process: what EndDescendants
// looks for in every process's environment.
const MarkerEnv = "CATALOGKIT_CONFORM_PORT"
