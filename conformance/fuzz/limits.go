package fuzz

import (
	"strings"
	"sync"

	"github.com/catalogkit/catalogkit/catalog"
)

// The limits of the specification, at, one under and one over: one call
// in cornerEvery (limitTurn) puts one of them, in turn, into a call whose
// outcome changes at the limit, so that every limit comes a few times in
// the gate's budget whatever the seed. The limits come from one table,
// limits, whose values are package catalog's constants: a limit that
// changes there changes here.

// limitTurn is the turn (see generate) that carries a limit.
const limitTurn = 15

// A limit is one dimension the specification bounds: the value at which
// the outcome changes, and a call that puts n into that dimension.
type limit struct {
	name string
	at   int
	call func(g *gen, n int) *node
	// drawn: the call draws from g (a label, a text), so it is made anew
	// each time; any other is made once and copied.
	drawn bool
}

// limits is the table of the specification's limits (and of the integer
// sizes a port's number types have, which the specification does not
// have but a port does).
var limits = []limit{
	// Format 1 (conformance/SPEC.md §5, §6, §7).
	{"a family of n characters", catalog.MaxLabelLength, func(g *gen, n int) *node {
		return discoverOf(toolText(g.longLabel(n), "page.read", `{}`), "all")
	}, true},
	{"a tool name of n characters", catalog.MaxLabelLength, func(g *gen, n int) *node {
		name := g.longLabel(n)
		return validateOf(toolText("reading", name, `{}`), name, `{}`)
	}, true},
	{"a field name of n characters", catalog.MaxLabelLength, func(g *gen, n int) *node {
		f := g.longLabel(n)
		return validateOf(toolText("reading", "t", `{"`+f+`":{"type":"integer","required":true,"max_length":5}}`), "t", `{"`+f+`":1}`)
	}, true},
	{"max_length n", catalog.MaxMaxLength, func(g *gen, n int) *node {
		return validateOf(toolText("reading", "t", `{"s":{"type":"string","required":false,"max_length":`+itoa(n)+`}}`), "t", `{}`)
	}, false},
	{"max_length n, the least", catalog.MinMaxLength, func(g *gen, n int) *node {
		return validateOf(toolText("reading", "t", `{"s":{"type":"string","required":false,"max_length":`+itoa(n)+`}}`), "t", `{}`)
	}, false},
	{"a string of n code points for max_length 16", 16, func(g *gen, n int) *node {
		call := validateOf(toolText("reading", "t", `{"s":{"type":"string","required":true,"max_length":16}}`), "t", `{}`)
		call.get("arguments").set("s", g.text(n))
		return call
	}, true},
	{"n fields", catalog.MaxFields, func(g *gen, n int) *node {
		var fs []string
		for i := range n {
			fs = append(fs, `"f`+itoa(i)+`":{"type":"boolean","required":false,"max_length":1}`)
		}
		return validateOf(toolText("reading", "t", "{"+strings.Join(fs, ",")+"}"), "t", `{}`)
	}, false},
	{"n tools", catalog.MaxTools, func(g *gen, n int) *node {
		var ts []string
		for i := range n {
			ts = append(ts, strings.TrimSuffix(strings.TrimPrefix(toolText("reading", "t"+itoa(i), `{}`), "["), "]"))
		}
		// validate_arguments: the catalog is checked whole, and the reply
		// stays small (a discover would list the thousand).
		return validateOf("["+strings.Join(ts, ",")+"]", "t0", `{}`)
	}, false},
	{"n tools listed", 100, func(g *gen, n int) *node {
		// No page: discover lists every tool, a hundred and one as well.
		var ts []string
		for i := range n {
			ts = append(ts, strings.TrimSuffix(strings.TrimPrefix(toolText("reading", "t"+itoa(i), `{}`), "["), "]"))
		}
		return discoverOf("["+strings.Join(ts, ",")+"]", "all")
	}, false},
	{"nesting n deep, the message at depth 1", catalog.MaxDepth, func(g *gen, n int) *node {
		// {"type":"call",...,"call":{...,"arguments":{"s":[[...]]}}}: the
		// arguments are at depth 3, the array under s at 4.
		call := validateOf(toolText("reading", "t", `{}`), "t", `{}`)
		call.get("arguments").set("s", number(strings.Repeat("[", n-3)+strings.Repeat("]", n-3)))
		return call
	}, false},
	{"an integer of 2^63 - 2 + n", 1, func(g *gen, n int) *node {
		return integerArgument([]string{"9223372036854775806", "9223372036854775807", "9223372036854775808"}[n])
	}, false},
	{"an integer of 2^64 - 2 + n", 1, func(g *gen, n int) *node {
		return integerArgument([]string{"18446744073709551614", "18446744073709551615", "18446744073709551616"}[n])
	}, false},
	{"an integer of 10^19 - 2 + n", 1, func(g *gen, n int) *node {
		return integerArgument([]string{"9999999999999999998", "9999999999999999999", "10000000000000000000"}[n])
	}, false},
	{"an exponent of 2^31 - 2 + n in a number", 1, func(g *gen, n int) *node {
		// A valid number, not an integer: INVALID_ARGUMENT_VALUE, not
		// INVALID_JSON, whatever the exponent's size.
		return integerArgument("1e" + []string{"2147483646", "2147483647", "2147483648"}[n])
	}, false},
	{"an exponent of 2^32 - 1 + n in a number", 1, func(g *gen, n int) *node {
		return integerArgument("1e" + []string{"4294967295", "4294967296", "4294967297"}[n])
	}, false},
	// Format 2 (conformance/SPEC.md §12).
	{"a format-2 tool name of n characters", catalog.MaxNameLength2, func(g *gen, n int) *node {
		name := "t" + strings.Repeat("x", n-1)
		return validate2(name, `""`, `{"type":"object","additionalProperties":false}`)
	}, false},
	{"a description of n characters", catalog.MaxDescription, func(g *gen, n int) *node {
		return validate2("t", `"`+strings.Repeat("d", n)+`"`, `{"type":"object","additionalProperties":false}`)
	}, false},
	{"a title of n characters", catalog.MaxTitle, func(g *gen, n int) *node {
		call := validate2("t", `""`, `{"type":"object","additionalProperties":false}`)
		call.get("catalog").get("tools").items[0].set("title", str(strings.Repeat("T", n)))
		return call
	}, false},
	{"an origin's tool of n characters", catalog.MaxOriginText, func(g *gen, n int) *node {
		call := validate2("t", `""`, `{"type":"object","additionalProperties":false}`)
		call.get("catalog").get("tools").items[0].set("origin", object().set("server", str("s")).set("tool", str(strings.Repeat("o", n))))
		return call
	}, false},
	{"a schema n deep", catalog.MaxSchemaDepth, func(g *gen, n int) *node {
		schema := `{"type":"integer"}`
		for range n - 1 {
			schema = `{"type":"object","properties":{"a":` + schema + `},"additionalProperties":false}`
		}
		return validate2("t", `""`, schema)
	}, false},
	{"a schema n deep, each level nullable by anyOf", catalog.MaxSchemaDepth, func(g *gen, n int) *node {
		// anyOf is not a level: the n levels are the root, the objects
		// and the integer, each but the root wrapped in [S, {"type": "null"}].
		schema := `{"anyOf":[{"type":"integer"},{"type":"null"}]}`
		for range n - 2 {
			schema = `{"anyOf":[{"type":"object","properties":{"a":` + schema + `},"additionalProperties":false},{"type":"null"}]}`
		}
		return validate2("t", `""`, `{"type":"object","properties":{"a":`+schema+`},"additionalProperties":false}`)
	}, false},
	{"n properties", catalog.MaxProperties, func(g *gen, n int) *node {
		var ps []string
		for i := range n {
			ps = append(ps, `"p`+itoa(i)+`":{"type":"boolean"}`)
		}
		return validate2("t", `""`, `{"type":"object","properties":{`+strings.Join(ps, ",")+`},"additionalProperties":false}`)
	}, false},
	{"a property name of n characters", catalog.MaxPropertyName, func(g *gen, n int) *node {
		return validate2("t", `""`, `{"type":"object","properties":{"`+strings.Repeat("p", n)+`":{"type":"boolean"}},"additionalProperties":false}`)
	}, false},
	{"an enum of n values", catalog.MaxEnum, func(g *gen, n int) *node {
		var vs []string
		for i := range n {
			vs = append(vs, itoa(i))
		}
		return validate2("t", `""`, `{"type":"object","properties":{"a":{"type":"integer","enum":[`+strings.Join(vs, ",")+`]}},"additionalProperties":false}`)
	}, false},
}

// limitCall returns limit k of the table, in turn at one under, at and one
// over its value: turn k of len(limits)*3.
func (g *gen) limitCall(k int) *node {
	k %= len(limits) * 3
	l := limits[k/3]
	n := l.at - 1 + k%3
	g.drew("limit " + l.name + ", n = " + itoa(n))
	if l.drawn {
		return l.call(g, n)
	}
	limitCalls.Lock()
	defer limitCalls.Unlock()
	if limitCalls.m == nil {
		limitCalls.m = map[int]*node{}
	}
	c := limitCalls.m[k]
	if c == nil {
		c = l.call(g, n)
		split(c)
		limitCalls.m[k] = c
	}
	return c
}

// split splits every string under n into its units now, so that reading
// the node later (a string's us, as the shrinker calls it) writes nothing:
// a shared call is read by several runs at once.
func split(n *node) {
	n.us()
	for _, c := range n.items {
		split(c)
	}
	for i := range n.keys {
		split(n.keys[i])
		split(n.vals[i])
	}
}

// limitCalls holds the calls of the limits made once (a thousand tools,
// eight thousand characters of description), by turn. A call is shared by
// every sample that draws it, and by runs at once: nothing changes a
// sample's call in place (the shrinker copies the path it changes, and a
// limit's turn draws no mutation), and its strings are split into units
// before it is shared, the one thing reading a node could write.
var limitCalls struct {
	sync.Mutex
	m map[int]*node
}

// toolText is a format-1 catalog of one enabled tool, as JSON text.
func toolText(family, name, fields string) string {
	return `[{"name":"` + name + `","family":"` + family + `","effect":"read","enabled":true,"fields":` + fields + `}]`
}

func discoverOf(catalog, family string) *node {
	return object().set("op", str("discover")).set("catalog", rawValue(catalog)).set("family", str(family))
}

func validateOf(catalog, name, args string) *node {
	return object().set("op", str("validate_arguments")).set("catalog", rawValue(catalog)).set("name", str(name)).set("arguments", rawValue(args))
}

// integerArgument is a validate_arguments call whose one argument, n, an
// integer field, is the literal lit.
func integerArgument(lit string) *node {
	call := validateOf(toolText("reading", "t", `{"n":{"type":"integer","required":true,"max_length":40}}`), "t", `{}`)
	call.get("arguments").set("n", number(lit))
	return call
}

// validate2 is a validate_arguments call with no arguments of a format-2
// tool with the name, description (JSON text) and input schema given.
func validate2(name, description, schema string) *node {
	cat := `{"format":"catalogkit/2","tools":[{"name":"` + name + `","family":"f","effect":"read","enabled":true,"description":` + description + `,"inputSchema":` + schema + `}]}`
	return object().set("op", str("validate_arguments")).set("catalog", rawValue(cat)).set("name", str(name)).set("arguments", object())
}
