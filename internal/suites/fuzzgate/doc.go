// Package fuzzgate holds the gates and the benchmark of catalogkit conform
// --fuzz (package conformance/fuzz): every broken port under
// conformance/testdata/broken-ports is found and shrunk, our own ports give no
// disagreement, the case files written validate against
// conformance/case.schema.json, and BenchmarkFuzz measures calls per
// second. They live here, not beside the fuzzer, because they start Python
// ports and use third-party test modules, while the release verifier
// re-runs go test ./conformance/... offline with the standard library only.
package fuzzgate
