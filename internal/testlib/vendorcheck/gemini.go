package vendorcheck

import "regexp"

// geminiName is the Gemini API reference's rule for FunctionDeclaration.name
// (https://ai.google.dev/api/caching#FunctionDeclaration): "Must be a-z,
// A-Z, 0-9, or contain underscores, colons, dots, and dashes, with a
// maximum length of 128." Earlier versions of the page said 64; Vertex AI's
// reference additionally says "Must start with a letter or an underscore"
// and allows no colons. Those are other endpoints' rules and are not
// checked here.
var geminiName = regexp.MustCompile(`^[a-zA-Z0-9_:.-]{1,128}$`)

// geminiDeclarationMembers are the fields of FunctionDeclaration in the
// Gemini API reference.
var geminiDeclarationMembers = []string{"name", "description", "behavior", "parameters", "parametersJsonSchema", "response", "responseJsonSchema"}

// Gemini checks a Gemini API tools value, given as
// {"tools": [{"functionDeclarations": [...]}, ...]}.
//
// Rules, all from the Gemini API reference for FunctionDeclaration
// (https://ai.google.dev/api/caching#FunctionDeclaration):
//   - name is required and matches ^[a-zA-Z0-9_:.-]{1,128}$;
//   - description is required ("Required. A brief description of the
//     function.") and a string;
//   - parametersJsonSchema "must describe an object where the properties
//     are the parameters to the function", so its root type is "object";
//   - parametersJsonSchema "is mutually exclusive with parameters";
//   - no members other than the reference's fields.
//
// Not checked: neither the reference nor the function calling guide
// (https://ai.google.dev/gemini-api/docs/function-calling) lists JSON Schema
// keywords that parametersJsonSchema refuses, so no keyword subset is
// applied. Tool members other than functionDeclarations (googleSearch,
// codeExecution and so on) are left alone.
func Gemini(doc []byte) []Problem {
	var r report
	_, tools, ok := toolsArray(doc, &r)
	if !ok {
		return r.problems
	}
	for path, obj := range objects(&r, tools, "tools", "a Tool") {
		fd, present := obj["functionDeclarations"]
		if !present {
			continue
		}
		decls, isArr := fd.([]any)
		if !isArr {
			r.add(join(path, "functionDeclarations"), "must be an array, not %s", kind(fd))
			continue
		}
		for dpath, decl := range objects(&r, decls, join(path, "functionDeclarations"), "a FunctionDeclaration") {
			unknownMembers(&r, decl, dpath, geminiDeclarationMembers, "the Gemini API reference's FunctionDeclaration")
			if name, ok := reqString(&r, decl, dpath, "name"); ok && !geminiName.MatchString(name) {
				r.add(join(dpath, "name"), "%q does not match ^[a-zA-Z0-9_:.-]{1,128}$ (\"a-z, A-Z, 0-9, or contain underscores, colons, dots, and dashes, with a maximum length of 128\")", name)
			}
			reqString(&r, decl, dpath, "description")
			schema, hasJSON := decl["parametersJsonSchema"]
			if _, hasParams := decl["parameters"]; hasParams && hasJSON {
				r.add(join(dpath, "parameters"), "parametersJsonSchema is mutually exclusive with parameters")
			}
			if hasJSON {
				requireObjectRoot(&r, schema, join(dpath, "parametersJsonSchema"), "\"The schema must describe an object\"")
			}
		}
	}
	return r.problems
}
