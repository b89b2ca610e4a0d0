//go:build race

package sign

// raceEnabled says the tests run with the race detector, under which
// scrypt at minisign's real cost takes minutes and about 7 GiB.
const raceEnabled = true
