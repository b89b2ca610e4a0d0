// Package schemacheck holds the tests that validate the project's
// language-neutral data files (the conformance cases, the records) against
// their JSON Schemas with a real JSON Schema validator, and the two helpers
// every test that checks a document against one of the project's schemas
// uses: [Load], which compiles the schemas, and [Rejects], which shows a
// schema can fail.
//
// It lives apart from the packages it checks so that those stay
// standard-library-only: an extracted release re-runs them offline with an
// empty module cache.
package schemacheck
