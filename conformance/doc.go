// Package conformance runs the catalogkit conformance suite against the
// built-in Go implementation or against a port in any language.
//
// The suite is data, for every language: the contract cases under cases/
// (case.schema.json), the raw lines of the text level under text/
// (text.schema.json) and the sequences of the protocol level under
// protocol/ (protocol-case.schema.json), with the synthetic catalog they
// call. SPEC.md is the contract they check; PROTOCOL.md the line protocol
// between the runner and a port; README.md how a port author loads the
// cases and reads a report. The Go runner reads the same files through
// [Files], an embedded copy.
//
// The package's parts, by file:
//
//   - cases.go, json.go, compare.go: loading the cases (resolving catalog
//     references, the strict JSON of the case files) and comparing
//     outcomes as JSON values: member order irrelevant, array order
//     significant, numbers by exact value and kind, strings by content;
//   - runner.go, report.go, diff.go: [Runner], which sends each case to a
//     [Target] and judges the outcome, and its [Report] in text, JSON and
//     JUnit;
//   - target.go, serve.go: [GoTarget], the built-in implementation as a
//     Target, and [Serve], the port side of the protocol over any reader
//     and writer (what `catalogkit port` runs);
//   - stdio.go, exchange.go, session.go, rawline.go, tape.go: [Port], a
//     port as a child process spoken to over stdin and stdout: the
//     handshake, timeouts that grow with the lines sent, the reply limit,
//     the lines of the text and protocol levels, and tape, the runner's
//     strict, bounded reader of what a port writes;
//   - protocol.go: the protocol level's sequences and how they are judged.
//
// Below it, internal/proc supervises a port's processes (process groups,
// a private TMPDIR, the sweep of what a port left behind), internal/levelgen
// generates the text and protocol levels from tables (go generate), and
// package fuzz generates calls from the contract's grammar and shrinks
// disagreements (catalogkit conform --fuzz).
//
// This package and its tests import only the standard library and the
// catalog package, so an extracted release can run its tests offline with
// an empty module cache.
package conformance
