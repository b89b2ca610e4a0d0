// Package jsonshapes generates JSON texts of a given size in the shapes that
// cost a JSON parser the most memory per input byte: many tiny values, deep
// nesting, many keys, long strings and long number literals. The memory
// tests and benchmarks of the catalog package and of the command line share
// them, so that every input is made in code and none is stored in the
// repository.
package jsonshapes

import (
	"fmt"
	"strconv"
)

// A Shape is one family of JSON texts.
type Shape struct {
	// Name is a short name for test and benchmark names.
	Name string
	// Text describes the shape for a table.
	Text string
	gen  func(size int) []byte
}

// Generate returns a valid JSON text of the shape of at most size bytes, and
// of exactly size bytes where the shape allows (every shape comes within a
// few bytes). size must be at least 16.
func (s Shape) Generate(size int) []byte { return s.gen(size) }

// Shapes lists the shapes, worst first as measured when they were chosen.
var Shapes = []Shape{
	{"numbers", "`[0,0,...]`: an array of one-digit numbers", repeat("[", "0", ",", "]")},
	{"arrays", "`[[],[],...]`: an array of empty arrays", repeat("[", "[]", ",", "]")},
	{"objects", "`[{},{},...]`: an array of empty objects", repeat("[", "{}", ",", "]")},
	{"strings", "`[\"\",\"\",...]`: an array of empty strings", repeat("[", `""`, ",", "]")},
	{"escapes", "`[\"\\n\",...]`: an array of short strings with an escape", repeat("[", `"\n"`, ",", "]")},
	{"keys", "`{\"0\":0,\"1\":0,...}`: one object with many short keys", keys},
	{"deep", "`[{\"a\":{\"a\":...}},...]`: objects of one key nested 63 deep", repeat("[", deepObject(63), ",", "]")},
	{"tools", "`[{\"name\":\"t\"},...]`: an array of one-key objects (as many tools as fit)", repeat("[", `{"name":"t"}`, ",", "]")},
	{"long-string", "`\"aaa...\"`: one string", repeat(`"`, "a", "", `"`)},
	{"big-number", "`123...`: one number literal", repeat("", "1", "", "")},
}

// Lookup returns the shape with the given name.
func Lookup(name string) (Shape, bool) {
	for _, s := range Shapes {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

// repeat makes texts prefix elem sep elem ... suffix.
func repeat(prefix, elem, sep, suffix string) func(int) []byte {
	return func(size int) []byte {
		b := make([]byte, 0, size)
		b = append(b, prefix...)
		for i := 0; ; i++ {
			need := len(elem) + len(suffix)
			if i > 0 {
				need += len(sep)
			}
			if len(b)+need > size {
				break
			}
			if i > 0 {
				b = append(b, sep...)
			}
			b = append(b, elem...)
		}
		return append(b, suffix...)
	}
}

func deepObject(depth int) string {
	s := "0"
	for range depth {
		s = `{"a":` + s + "}"
	}
	return s
}

// keys makes {"0":0,"1":0,...} with keys in base 36.
func keys(size int) []byte {
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i := 0; ; i++ {
		var key [16]byte
		k := strconv.AppendInt(key[:0], int64(i), 36)
		need := len(k) + 5 // "k":0 and '}'
		if i > 0 {
			need++
		}
		if len(b)+need > size {
			break
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, `":0`...)
	}
	return append(b, '}')
}

// Catalog renders a valid catalog of n tools of 30 fields each (the
// contract's maxima at n = 1000, about 3 MB), spread over families of
// familySize tools: the benchmark catalog. Field types cycle string, integer,
// boolean; every other field is required.
func Catalog(n, familySize int) []byte {
	var b []byte
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"name":"tool.%04d","family":"family.%03d","effect":"read","enabled":true,"fields":{`, i, i/familySize)
		for j := range 30 {
			if j > 0 {
				b = append(b, ',')
			}
			typ := [...]string{"string", "integer", "boolean"}[j%3]
			b = fmt.Appendf(b, `"field_%02d":{"type":%q,"required":%v,"max_length":%d}`, j, typ, j%2 == 0, 64)
		}
		b = append(b, "}}"...)
	}
	return append(b, ']')
}
