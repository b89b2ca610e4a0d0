package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for catalogkit: run with
// CATALOGKIT_TEST_AS_MAIN=1 it is catalogkit, so transcripts can start
// "${CATALOGKIT} port" as a real child process without building anything.
func TestMain(m *testing.M) {
	if os.Getenv("CATALOGKIT_TEST_AS_MAIN") == "1" {
		os.Exit(Main())
	}
	exe, err := os.Executable()
	if err == nil {
		os.Setenv("CATALOGKIT", exe)
		os.Setenv("CATALOGKIT_TEST_AS_MAIN", "1") // inherited by children only
	}
	os.Exit(m.Run())
}
