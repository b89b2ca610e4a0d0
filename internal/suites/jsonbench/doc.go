// Package jsonbench holds no code: its benchmarks measure catalog's JSON
// layer side by side with the parsers a user could pick instead
// (encoding/json, github.com/go-json-experiment/json) and with a
// validate-only scan (jsontext.Value.IsValid), on the benchmark catalog and
// on every shape of jsonshapes. They live outside package catalog so that
// catalog and its tests keep to the standard library.
package jsonbench
