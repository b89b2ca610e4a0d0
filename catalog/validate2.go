package catalog

import (
	"strconv"
	"unicode/utf8"
)

// checkArguments checks a call's arguments against a format-2 input schema
// (W1 to W8): arguments that are not an object are INVALID_ARGUMENT_KEYS,
// as in format 1; then the check of the root schema.
func (n *schemaNode) checkArguments(args Value) error {
	if args.Kind() != Object {
		return errorf(InvalidArgumentKeys, "arguments", "arguments is %s, want an object", describeKind(args.Kind()))
	}
	return n.check(args, &vpath{key: "arguments", index: -1})
}

// A vpath is where a value is: its parent, and its key or index. It lives
// on the stack of the check and is written out only for an error, so that
// a valid call builds no path.
type vpath struct {
	parent *vpath
	key    string // the property's name, or the root's whole path
	index  int    // the element's index, -1 for a property or the root
}

func (p *vpath) String() string {
	if p.parent == nil {
		return p.key
	}
	if p.index >= 0 {
		return p.parent.String() + "[" + strconv.Itoa(p.index) + "]"
	}
	return p.parent.String() + pathKey(p.key)
}

func valueErr(path *vpath, format string, args ...any) error {
	return errorf(InvalidArgumentValue, path.String(), format, args...)
}

// check checks v against the schema at path, depth first in the schema's
// order: null, the type, enum and const, the bounds; then an array's
// elements in order, or an object's keys (an unknown key, then a missing
// required one) and then its properties' values in the schema's order. The
// first failure decides.
func (n *schemaNode) check(v Value, path *vpath) error {
	// W3: null.
	if v.Kind() == Null {
		switch {
		case !n.nullable:
			return valueErr(path, "value is null, want %s", n.describeType())
		case n.nullSkips:
			return nil
		}
		return n.checkEnum(v, path)
	}
	// W4: the type.
	ok := false
	switch n.typ {
	case typeString:
		ok = v.Kind() == String
	case typeInteger:
		ok = v.isInteger()
	case typeNumber:
		ok = v.Kind() == Number
	case typeBoolean:
		ok = v.Kind() == Bool
	case typeArray:
		ok = v.Kind() == Array
	case typeObject:
		ok = v.Kind() == Object
	}
	if !ok {
		if n.typ == typeInteger && v.Kind() == Number {
			return valueErr(path, "value is %s, want an integer written with no fraction or exponent", brief(v))
		}
		return valueErr(path, "value is %s, want %s", brief(v), n.describeType())
	}
	if err := n.checkEnum(v, path); err != nil {
		return err
	}
	// W6 to W8: by type.
	switch n.typ {
	case typeString:
		return n.checkString(v, path)
	case typeInteger, typeNumber:
		return n.checkNumber(v, path)
	case typeArray:
		return n.checkArray(v, path)
	case typeObject:
		return n.checkObject(v, path)
	}
	return nil
}

// checkEnum: W5, enum and const.
func (n *schemaNode) checkEnum(v Value, path *vpath) error {
	if n.enum != nil && !containsValue(n.enum, v) {
		return valueErr(path, "value is %s, want one of %s", brief(v), listValues(n.enum))
	}
	if n.constant != nil && !equalValues(*n.constant, v) {
		return valueErr(path, "value is %s, want %s", brief(v), brief(*n.constant))
	}
	return nil
}

func containsValue(list []Value, v Value) bool {
	for _, x := range list {
		if equalValues(x, v) {
			return true
		}
	}
	return false
}

// checkString: W5, the length in code points.
func (n *schemaNode) checkString(v Value, path *vpath) error {
	s := v.text()
	if n.maxLength >= 0 && !codePointsAtMost(s, n.maxLength) {
		return valueErr(path, "string is %d code points, longer than maxLength %d (strings are never truncated)", utf8.RuneCountInString(s), n.maxLength)
	}
	if n.minLength > 0 && codePointsAtMost(s, n.minLength-1) {
		return valueErr(path, "string is %d code points, shorter than minLength %d", utf8.RuneCountInString(s), n.minLength)
	}
	return nil
}

// checkNumber: W6, the bounds, by exact decimal value.
func (n *schemaNode) checkNumber(v Value, path *vpath) error {
	if n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil {
		return nil
	}
	x, small := smallInt(v.text())
	switch {
	case n.minimum != nil && cmpBound(v, x, small, n.minimum) < 0:
		return valueErr(path, "value is %s, less than minimum %s", brief(v), n.minimum.lit)
	case n.exclMin != nil && cmpBound(v, x, small, n.exclMin) <= 0:
		return valueErr(path, "value is %s, not more than exclusiveMinimum %s", brief(v), n.exclMin.lit)
	case n.maximum != nil && cmpBound(v, x, small, n.maximum) > 0:
		return valueErr(path, "value is %s, more than maximum %s", brief(v), n.maximum.lit)
	case n.exclMax != nil && cmpBound(v, x, small, n.exclMax) >= 0:
		return valueErr(path, "value is %s, not less than exclusiveMaximum %s", brief(v), n.exclMax.lit)
	}
	return nil
}

// checkArray: W7, the count, then each element in order.
func (n *schemaNode) checkArray(v Value, path *vpath) error {
	if n.minItems >= 0 && v.Len() < n.minItems {
		return valueErr(path, "array has %d elements, fewer than minItems %d", v.Len(), n.minItems)
	}
	if n.maxItems >= 0 && v.Len() > n.maxItems {
		return valueErr(path, "array has %d elements, more than maxItems %d", v.Len(), n.maxItems)
	}
	i := 0
	for e := range v.elems() {
		if err := n.items.check(e, &vpath{parent: path, index: i}); err != nil {
			return err
		}
		i++
	}
	return nil
}

// checkObject: W8, the keys (an unknown key, in the object's order; then a
// missing required one, in the order of required), then the values of the
// properties present, in the schema's order.
func (n *schemaNode) checkObject(v Value, path *vpath) error {
	var small [16]Value // most objects have few properties: no allocation
	vals := small[:0]
	if len(n.props) <= len(small) {
		vals = small[:len(n.props)]
	} else {
		vals = make([]Value, len(n.props))
	}
	for k, x := range v.members() {
		j, ok := n.index[k.text()]
		if !ok {
			return unknownKey2(n, path, k.text())
		}
		vals[j] = x
	}
	for _, j := range n.required {
		if vals[j].Kind() == Absent {
			return errorf(InvalidArgumentKeys, path.String(), "required key %q is missing", n.props[j].name)
		}
	}
	for j, p := range n.props {
		if vals[j].Kind() == Absent {
			continue
		}
		if err := p.node.check(vals[j], &vpath{parent: path, key: p.name, index: -1}); err != nil {
			return err
		}
	}
	return nil
}

func unknownKey2(n *schemaNode, path *vpath, key string) error {
	names := make([]string, len(n.props))
	for i, p := range n.props {
		names[i] = p.name
	}
	allowed := "no keys"
	if len(names) > 0 {
		quoted := make([]string, len(names))
		for i, s := range names {
			quoted[i] = strconv.Quote(s)
		}
		allowed = joinComma(quoted)
	}
	if m := closest(key, names); m != "" {
		return errorf(InvalidArgumentKeys, path.String()+pathKey(key), "unknown key %q, did you mean %q? (the schema allows %s)", key, m, allowed)
	}
	return errorf(InvalidArgumentKeys, path.String()+pathKey(key), "unknown key %s (the schema allows %s)", quoteShort(key), allowed)
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
