package fuzz

import (
	"strings"
)

// probes2 are calls each rule of §12 that two outcomes tell apart needs,
// and that a random draw meets too seldom: one format-2 call in three is
// one of them, in turn, so that each comes a few times in the gate's
// budget whatever the seed.
var probes2 = []struct {
	name string
	call func(g *gen) *node
}{
	{"array count before elements", func(g *gen) *node {
		most := 1 + g.n(2)
		items := array()
		for range most + 1 {
			items.items = append(items.items, object().set("x", number("1")))
		}
		items.items[g.n(len(items.items))] = object().set(oneOf(g, "y", "constructor"), number("1"))
		return probe2(`{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false},"maxItems":`+itoa(most)+`}`, items)
	}},
	{"enum by kind", func(g *gen) *node {
		pair := oneOf(g, [2]string{"1", "1.0"}, [2]string{"1.0", "1"}, [2]string{"100", "1e2"}, [2]string{"2.50", "2.5"}, [2]string{"0", "-0.0"})
		return probe2(`{"type":"number","enum":[`+pair[0]+`,7]}`, number(pair[1]))
	}},
	{"two wrong values", func(g *gen) *node {
		schema := `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"object","additionalProperties":false}},"additionalProperties":false}`
		args := object().set("b", object().set("zz", number("1"))).set("a", str("x"))
		if g.p(0.5) {
			schema = `{"type":"object","properties":{"b":{"type":"object","additionalProperties":false},"a":{"type":"integer"}},"additionalProperties":false}`
			args = object().set("a", str("x")).set("b", object().set("zz", number("1")))
		}
		return probe2Root(schema, args)
	}},
	{"const", func(g *gen) *node {
		c := oneOf(g, [2]string{`"x"`, `"y"`}, [2]string{"3", "4"}, [2]string{"true", "false"})
		typ := map[string]string{`"x"`: "string", "3": "integer", "true": "boolean"}[c[0]]
		return probe2(`{"type":"`+typ+`","const":`+c[0]+`}`, rawValue(c[1]))
	}},
	{"null and an enum", func(g *gen) *node {
		return probe2(oneOf(g, `{"type":["string","null"],"enum":["x"]}`, `{"type":["null","integer"],"enum":[1,2]}`, `{"anyOf":[{"type":"string","enum":["x"]},{"type":"null"}]}`), null())
	}},
	{"a hair from a bound", func(g *gen) *node {
		b := oneOf(g, "0.3", "9007199254740992", "1e400", "1.5", "-1e-400", "1234567890123456789012345678901234567890")
		kw := oneOf(g, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
		return probe2(`{"type":"number","`+kw+`":`+b+`}`, number(hair(b, g.p(0.5))))
	}},
	{"families before tools", func(g *gen) *node {
		cat := `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":{"type":"object","additionalProperties":false},"fields":{}}],"families":{"F":{"description":""}}}`
		return object().set("op", str("validate_arguments")).set("catalog", rawValue(cat)).set("name", str("t")).set("arguments", object())
	}},
	{"a described family no tool has", func(g *gen) *node {
		cat := `{"format":"catalogkit/2","families":{"spare":{"description":"No tool."},"f":{"description":"F."}},"tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":{"type":"object","additionalProperties":false}}]}`
		return object().set("op", str("discover")).set("catalog", rawValue(cat)).set("family", str(oneOf(g, "spare", "f")))
	}},
}

// probe2 is a validate_arguments call of a tool whose one property "a" has
// the schema given (JSON text), with "a" set to value.
func probe2(schema string, value *node) *node {
	return probe2Root(`{"type":"object","properties":{"a":`+schema+`},"additionalProperties":false}`, object().set("a", value))
}

// probe2Root is a validate_arguments call of a tool with the input schema
// given (JSON text) and the arguments given.
func probe2Root(schema string, args *node) *node {
	cat := `{"format":"catalogkit/2","tools":[{"name":"t","family":"f","effect":"read","enabled":true,"description":"","inputSchema":` + schema + `}]}`
	return object().set("op", str("validate_arguments")).set("catalog", rawValue(cat)).set("name", str("t")).set("arguments", args)
}

// integral returns the integer literal of a number literal written with a
// fraction or an exponent whose value is an integer of at most a few
// digits ("1.0", "1e2": "1", "100"), or "" for any other.
func integral(lit string) string {
	switch lit {
	case "1.0", "1e0", "1E0":
		return "1"
	case "100.0", "1e2", "1E+2", "1E2":
		return "100"
	case "-0.0", "0.0":
		return "0"
	case "2.0":
		return "2"
	}
	return ""
}

// hair returns a number literal a hair above (up) or below lit, closer
// than a float64 can tell apart: "0.3" gives "0.30000000000000001" or
// "0.29999999999999999", "9007199254740992" gives 9007199254740993, "1e400"
// gives "1.00000000000000001e400".
func hair(lit string, up bool) string {
	mant, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant, exp = lit[:i], lit[i:]
	}
	if !strings.Contains(mant, ".") && exp == "" {
		// An integer: one more or one less, in decimal.
		if strings.TrimLeft(mant, "-0") == "" {
			if up {
				return "1"
			}
			return "-1"
		}
		digits := []byte(strings.TrimPrefix(mant, "-"))
		neg := strings.HasPrefix(mant, "-")
		if up == neg {
			// Towards zero: subtract one, unless it is 0.
			for i := len(digits) - 1; i >= 0; i-- {
				if digits[i] > '0' {
					digits[i]--
					break
				}
				digits[i] = '9'
			}
		} else {
			i := len(digits) - 1
			for ; i >= 0 && digits[i] == '9'; i-- {
				digits[i] = '0'
			}
			if i < 0 {
				digits = append([]byte{'1'}, digits...)
			} else {
				digits[i]++
			}
		}
		out := strings.TrimLeft(string(digits), "0")
		if out == "" {
			out = "0"
		}
		if neg && out != "0" {
			out = "-" + out
		}
		return out
	}
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	neg := strings.HasPrefix(mant, "-")
	if up != neg {
		return mant + "0000000000000000001" + exp // a hair further from zero
	}
	// A hair closer to zero: 10^-19 of the last fractional unit less,
	// with a borrow; a mantissa of zero has nothing to take from.
	whole, frac, _ := strings.Cut(strings.TrimPrefix(mant, "-"), ".")
	digits := []byte(whole + frac + "0000000000000000000")
	i := len(digits) - 1
	for ; i >= 0 && digits[i] == '0'; i-- {
		digits[i] = '9'
	}
	if i < 0 {
		return mant + "0000000000000000001" + exp
	}
	digits[i]--
	out := string(digits[:len(whole)]) + "." + string(digits[len(whole):])
	if neg {
		out = "-" + out
	}
	return out + exp
}

// rawValue reads JSON text written in this package (a probe, a limit, a
// hostile value: never invalid) into a node, members in order and numbers
// as written.
func rawValue(text string) *node {
	v := parseNode([]byte(text))
	if v == nil {
		panic("fuzz: not valid JSON: " + text)
	}
	return v
}
