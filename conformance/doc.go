// Package conformance runs the catalogkit conformance suite: 21
// language-neutral cases, one JSON file each under cases/, against the
// built-in Go implementation ([GoTarget]) or against a port in any language
// started as a child process and spoken to over the line protocol of
// PROTOCOL.md ([Port]).
//
// The case format is described by case.schema.json and, for porters, by
// README.md; the protocol messages by PROTOCOL.md and protocol.schema.json.
// The Go runner reads the cases through [Files], an embedded copy of the same
// files a port's author reads from disk.
//
// Outcomes compare as JSON values: object member order is irrelevant, array
// order is significant, numbers compare by exact value (integers of any
// magnitude), strings by their decoded content.
//
// This package and its tests import only the standard library and the
// catalog package, so an extracted release can run go test ./conformance/...
// offline with an empty module cache.
package conformance
