package conformance

// The text and protocol levels are generated from the tables of
// internal/levelgen; TestGeneratedLevels fails while the files differ.
//go:generate go run ./internal/levelgen/write
