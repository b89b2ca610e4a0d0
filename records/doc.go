// Package records makes the five example records of catalogkit: five calls
// on the synthetic catalog (conformance/synthetic-catalog.json) and what the
// [catalog] package returned for each, written as canonical JSON files that
// people read first and that ports in other languages reproduce byte for
// byte.
//
// The records are, in order:
//
//  1. 01-family-listing.json: discover the "reading" family;
//  2. 02-single-tool.json: discover one tool by exact name;
//  3. 03-shape-valid-input.json: validate arguments of a valid shape
//     (shape_valid true, authorized and executed false);
//  4. 04-disabled-tool-rejected.json: a disabled tool asked for by exact name
//     is rejected;
//  5. 05-unknown-key-rejected.json: arguments with an unknown key are
//     rejected.
//
// The records are defined as data in definitions.json (an id, a title, a
// call and the kind of outcome each is meant to show), which ports read too.
// [Generate] makes them by really calling the catalog package, never from
// expected output written by hand, and does no I/O: it takes the catalog's
// bytes and its path, and returns a [Set] of [Record]s and the [File]s that
// hold them. [Set.Write] writes the files atomically into a folder and
// [Set.Check] compares a folder with a fresh generation, reporting every
// missing, extra and stale file.
//
// Beside the records, the set holds [PageFile] (index.html): a static page
// that shows them, in Korean and English, generated from the same records and
// written and checked with them.
//
// Every record file is the [Canonical] form of the record's JSON. The record
// format and the canonical serialization are specified, for implementers in
// other languages, in FORMAT.md beside this file; record.schema.json is the
// record format's JSON Schema.
//
// The package and its tests import only the standard library and [catalog],
// so that an extracted release can re-run them offline.
package records
