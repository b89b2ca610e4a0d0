package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/catalogkit/catalogkit/catalog"
)

// A Target is an implementation of the contract that the runner calls.
type Target interface {
	// Info describes the implementation, for the report. A port's Info is
	// known after its handshake.
	Info() PortInfo
	// Call makes one call, given as the JSON text of a CALL object of
	// PROTOCOL.md, and returns the JSON text of its OUTCOME object. An error
	// means there is no outcome; a [*TransportError] says why (ERROR, CRASH,
	// TIMEOUT).
	Call(call []byte) (outcome []byte, err error)
}

// PortInfo is what a port says about itself in its handshake. Its fields
// are never empty after a handshake; a report of a port that never
// completed one has them empty, and its JSON form omits them ("port": {}).
type PortInfo struct {
	Name     string `json:"name,omitempty"`
	Language string `json:"language,omitempty"`
	Version  string `json:"version,omitempty"`
	// TextLevel, if not nil and false, opts the port out of the text level
	// (PROTOCOL.md): the report then says so, and never counts it as passed.
	TextLevel *bool `json:"text_level,omitempty"`
	// ProtocolLevel, if not nil and false, opts the port out of the
	// protocol level, as TextLevel does for the text level.
	ProtocolLevel *bool `json:"protocol_level,omitempty"`
	// Format2Level, if not nil and false, opts the port out of the
	// format 2 level (catalogs of SPEC.md §12), as TextLevel does.
	Format2Level *bool `json:"format2_level,omitempty"`
}

// GoTarget returns the built-in Go implementation as a [Target]: the
// function-level [catalog.Discover] and [catalog.ValidateArguments], which
// take the call's raw JSON values exactly as a port receives them.
func GoTarget(version string) Target {
	return goTarget{info: PortInfo{Name: "catalogkit", Language: "Go", Version: version}}
}

// CompiledGoTarget is [GoTarget] for the compiled form: [catalog.Compile]
// once per call, then [catalog.Catalog.Discover],
// [catalog.Catalog.DiscoverTool] or [catalog.Catalog.ValidateArguments]. Those
// take Go strings, so a family or name that is not a JSON string is passed as
// a string that is never a label; a missing name to ValidateArguments as "".
func CompiledGoTarget(version string) Target {
	return goTarget{compiled: true, info: PortInfo{Name: "catalogkit-compiled", Language: "Go", Version: version}}
}

type goTarget struct {
	compiled bool
	info     PortInfo
}

func (g goTarget) Info() PortInfo { return g.info }

func (g goTarget) Call(call []byte) ([]byte, error) {
	v, err := catalog.ParseJSON(call)
	if err != nil {
		return errorOutcome(err), nil
	}
	return g.callValue(v)
}

// A valueTarget also takes a call its caller has read already with the
// strict reader, as [Serve] has it after reading the whole line: the call
// is not written out and read a second time.
type valueTarget interface {
	callValue(call catalog.Value) ([]byte, error)
}

func (g goTarget) callValue(v catalog.Value) ([]byte, error) {
	op, _ := v.Lookup("op")
	opName, _ := op.Str()
	switch opName {
	case "discover", "validate_arguments":
		c, err := g.prepare(v)
		if err != nil {
			return errorOutcome(err), nil
		}
		res, err := c.do()
		if err != nil {
			return errorOutcome(err), nil
		}
		return resultOutcome(res)
	case "mutate_and_repeat":
		inner, _ := v.Lookup("call")
		op, _ := inner.Lookup("op")
		if s, _ := op.Str(); s != "discover" && s != "validate_arguments" {
			// Not a call this implementation can get wrong: the request
			// itself is malformed.
			return nil, fmt.Errorf("mutate_and_repeat: inner op %s is not discover or validate_arguments", op)
		}
		c, err := g.prepare(inner)
		if err != nil {
			return errorOutcome(err), nil
		}
		args := catalog.Value{} // marshals as null
		if c.op == "validate_arguments" {
			args = c.arguments
		}
		return mutateAndRepeat(c.do, c.cat, args)
	}
	return append(append([]byte(`{"not_implemented":`), catalog.AppendQuote(nil, fmt.Sprintf("no op %s", op))...), '}'), nil
}

// goCall is one discover or validate_arguments call, its inputs decoded once.
type goCall struct {
	op                           string
	cat, family, name, arguments catalog.Value
	compiled                     *catalog.Catalog
	familyStr, nameStr           string
	useCompiled                  bool
}

func (g goTarget) prepare(call catalog.Value) (*goCall, error) {
	c := &goCall{useCompiled: g.compiled}
	op, _ := call.Lookup("op")
	c.op, _ = op.Str()
	c.cat, _ = call.Lookup("catalog")
	c.family, _ = call.Lookup("family")
	c.name, _ = call.Lookup("name")
	c.arguments, _ = call.Lookup("arguments")
	if g.compiled {
		var err error
		if c.compiled, err = catalog.Compile(c.cat); err != nil {
			return nil, err
		}
		c.familyStr = goString(c.family)
		c.nameStr = goString(c.name)
	}
	return c, nil
}

// goString returns the content of a JSON string, and for any other value a
// string that is never a label (labels start with a lowercase letter).
func goString(v catalog.Value) string {
	if s, ok := v.Str(); ok {
		return s
	}
	if v.Kind() == catalog.Absent {
		return ""
	}
	return "\x00" + v.String()
}

// do makes the call; the result is []catalog.Description or
// *catalog.Validation.
func (c *goCall) do() (any, error) {
	switch {
	case c.op == "discover" && !c.useCompiled:
		return catalog.Discover(c.cat, c.family, c.name)
	case c.op == "discover" && c.name.Kind() == catalog.Absent:
		return c.compiled.Discover(c.familyStr)
	case c.op == "discover":
		return c.compiled.DiscoverTool(c.familyStr, c.nameStr)
	case !c.useCompiled:
		return catalog.ValidateArguments(c.cat, c.name, c.arguments)
	}
	return c.compiled.ValidateArguments(c.nameStr, c.arguments)
}

func resultOutcome(res any) ([]byte, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("failed to encode the result: %v", err)
	}
	return append(append([]byte(`{"result":`), b...), '}'), nil
}

// errorOutcome returns the outcome of a failed call: every error of the
// catalog package is a *catalog.Error with its stable code.
func errorOutcome(err error) []byte {
	var ce *catalog.Error
	if !errors.As(err, &ce) {
		ce = &catalog.Error{Code: "UNEXPECTED_ERROR", Detail: err.Error()}
	}
	return codeOutcome(string(ce.Code), ce.Detail)
}

// codeOutcome returns {"error": code, "detail": detail}.
func codeOutcome(code, detail string) []byte {
	b := append([]byte(`{"error":`), catalog.AppendQuote(nil, code)...)
	b = append(b, `,"detail":`...)
	return append(catalog.AppendQuote(b, detail), '}')
}

// mutateAndRepeat is PROTOCOL.md's mutate_and_repeat for Go results: it
// keeps the first result's JSON, mutates the returned Go value in place
// through every exported field it can reach, and makes the same call again
// with the same in-memory catalog and arguments. catalog.Value is immutable
// (it has no exported fields), so the echoes of the catalog and arguments
// show they cannot have changed.
func mutateAndRepeat(do func() (any, error), cat, args catalog.Value) ([]byte, error) {
	res, first, outcome, err := callJSON(do)
	if outcome != nil || err != nil {
		return outcome, err
	}
	rv := reflect.ValueOf(&res).Elem().Elem() // the dynamic value
	if rv.Kind() == reflect.Slice {
		p := reflect.New(rv.Type())
		p.Elem().Set(rv)
		mutateGo(p.Elem())
	} else {
		mutateGo(rv)
	}
	_, second, outcome, err := callJSON(do)
	if outcome != nil || err != nil {
		return outcome, err
	}
	catJSON, _ := cat.MarshalJSON()
	argsJSON, _ := args.MarshalJSON()
	return []byte(fmt.Sprintf(`{"result":{"first":%s,"second":%s,"catalog":%s,"arguments":%s}}`, first, second, catJSON, argsJSON)), nil
}

// callJSON makes the call do and returns its result with the result's
// JSON, or the error outcome when the call fails; err only when the result
// cannot be written as JSON.
func callJSON(do func() (any, error)) (res any, text, outcome []byte, err error) {
	if res, err = do(); err != nil {
		return nil, nil, errorOutcome(err), nil
	}
	text, err = json.Marshal(res)
	return res, text, nil, err
}

// mutateGo is the mutation procedure of PROTOCOL.md for Go values: every
// settable string becomes "MUTATED", integers and booleans change, every
// slice has its elements mutated and then grows by one element; pointers
// and structs are followed.
func mutateGo(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			mutateGo(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				mutateGo(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			mutateGo(v.Index(i))
		}
		if v.CanSet() {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString("MUTATED")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(-v.Int() - 1)
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}
