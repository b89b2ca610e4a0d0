package vendorcheck

import (
	"encoding/json"
	"regexp"
	"strings"
)

// mcpName is the Tool Names section of the tools page
// (https://modelcontextprotocol.io/specification/2026-07-28/server/tools):
// names "SHOULD be between 1 and 128 characters in length (inclusive)" and
// "The following SHOULD be the only allowed characters: uppercase and
// lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen
// (-), and dot (.)".
var mcpName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// MCP checks a tools/list result, {"tools": [...], ...}, against revision
// 2026-07-28 of the Model Context Protocol.
//
// Rules, with sources:
//   - The result (schema.ts, ListToolsResult extends PaginatedResult and
//     CacheableResult, and Result): tools is an array; resultType is a
//     required string ("Servers implementing this protocol version MUST
//     include this field"); ttlMs is a required number, at least 0;
//     cacheScope is required and "public" or "private"; nextCursor, if
//     present, is a string.
//   - Tool (schema.ts, Tool and BaseMetadata): name is a required string;
//     title and description are strings; inputSchema is required, a JSON
//     object ("MUST be a valid JSON Schema object (not null)", tools page)
//     whose type is "object" ("type: "object" is required at the root") and
//     whose $schema, if present, is a string; outputSchema, if present, is a
//     JSON object with a string $schema if any; annotations is a
//     ToolAnnotations object (title a string, readOnlyHint, destructiveHint,
//     idempotentHint and openWorldHint booleans); icons is an array of Icon
//     objects with a string src.
//   - Tool names (tools page, "Tool Names", all SHOULD): 1 to 128
//     characters, only A-Z a-z 0-9 _ - and ., unique within the list.
//
// Not checked: that inputSchema is a valid JSON Schema beyond its root
// (that needs a meta-schema validator, which this package does without),
// and the x-mcp-header rules, which apply only to schemas that use
// x-mcp-header.
func MCP(doc []byte) []Problem {
	var r report
	root, tools, ok := toolsArray(doc, &r)
	if root == nil {
		return r.problems
	}
	if _, present := root["resultType"]; !present {
		r.add("resultType", "missing: servers implementing revision 2026-07-28 MUST include resultType (schema.ts, Result)")
	} else {
		optString(&r, root, "", "resultType")
	}
	if v, present := root["ttlMs"]; !present {
		r.add("ttlMs", "missing: ListToolsResult is a CacheableResult and requires ttlMs (schema.ts)")
	} else if n, isNum := v.(json.Number); !isNum || strings.HasPrefix(n.String(), "-") {
		r.add("ttlMs", "must be a number of at least 0 (schema.ts, CacheableResult)")
	}
	if v, present := root["cacheScope"]; !present {
		r.add("cacheScope", "missing: ListToolsResult is a CacheableResult and requires cacheScope (schema.ts)")
	} else if v != "public" && v != "private" {
		r.add("cacheScope", "must be \"public\" or \"private\" (schema.ts, CacheableResult)")
	}
	optString(&r, root, "", "nextCursor")
	if !ok {
		return r.problems
	}
	seen := map[string]string{}
	for path, obj := range objects(&r, tools, "tools", "a Tool") {
		if name, ok := reqString(&r, obj, path, "name"); ok {
			if !mcpName.MatchString(name) {
				r.add(join(path, "name"), "%q: tool names SHOULD be 1 to 128 characters of A-Z, a-z, 0-9, _, - and . (tools page, Tool Names)", name)
			}
			if first, dup := seen[name]; dup {
				r.add(join(path, "name"), "%q is also the name of %s: tool names SHOULD be unique within a server (tools page, Tool Names)", name, first)
			} else {
				seen[name] = path
			}
		}
		optString(&r, obj, path, "title")
		optString(&r, obj, path, "description")
		if schema, present := obj["inputSchema"]; !present {
			r.add(join(path, "inputSchema"), "missing: required member (schema.ts, Tool)")
		} else if m, _ := requireObjectRoot(&r, schema, join(path, "inputSchema"), "schema.ts: type \"object\" is required at the root"); m != nil {
			optString(&r, m, join(path, "inputSchema"), "$schema")
		}
		if schema, present := obj["outputSchema"]; present {
			if m, isObj := schema.(map[string]any); !isObj {
				r.add(join(path, "outputSchema"), "must be a JSON Schema object, not %s (schema.ts, Tool)", kind(schema))
			} else {
				optString(&r, m, join(path, "outputSchema"), "$schema")
			}
		}
		if a, present := obj["annotations"]; present {
			apath := join(path, "annotations")
			if m, isObj := a.(map[string]any); !isObj {
				r.add(apath, "must be a ToolAnnotations object, not %s (schema.ts)", kind(a))
			} else {
				optString(&r, m, apath, "title")
				for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
					optBool(&r, m, apath, hint)
				}
			}
		}
		if ic, present := obj["icons"]; present {
			ipath := join(path, "icons")
			arr, isArr := ic.([]any)
			if !isArr {
				r.add(ipath, "must be an array of Icon objects, not %s (schema.ts)", kind(ic))
			}
			for j, e := range arr {
				if m, isObj := e.(map[string]any); !isObj {
					r.add(index(ipath, j), "an Icon must be a JSON object, not %s (schema.ts)", kind(e))
				} else {
					reqString(&r, m, index(ipath, j), "src")
				}
			}
		}
		if m, present := obj["_meta"]; present {
			if _, isObj := m.(map[string]any); !isObj {
				r.add(join(path, "_meta"), "must be a JSON object, not %s (schema.ts, MetaObject)", kind(m))
			}
		}
	}
	return r.problems
}
