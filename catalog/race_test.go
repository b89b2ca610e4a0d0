//go:build race

package catalog

// raceEnabled says the tests run with the race detector, which makes large
// inputs slow.
const raceEnabled = true
