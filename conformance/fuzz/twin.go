package fuzz

import "strconv"

// This file holds the twins: a call made again, right after the call it
// copies and to the same process, with one small change that changes its
// meaning (a tool's fields in another order, 1 where there was true, a tool
// disabled) or with none at all. A port that keeps something from one call
// to the next under a key that misses the change answers the twin with what
// it worked out for the first call; a correct port answers each on its own.

// One call in cornerEvery is a twin of the call just before it; the job
// that claims that call claims its twin with it (see [run.claim]).
const (
	twinBaseTurn = 12
	twinTurn     = twinBaseTurn + 1
)

func turnOf(seed uint64, i int) uint64 { return (uint64(i) + seed) % cornerEvery }

// isTwinBase reports whether call i of the run with the given seed is the
// one the next call repeats.
func isTwinBase(seed uint64, i int) bool { return turnOf(seed, i) == twinBaseTurn }

// twinChanges are the changes a twin makes, in turn order: a twin whose
// base has nothing to change (no tool with two fields, no argument) takes
// the next that applies; "same" always does.
var twinChanges = []struct {
	name  string
	apply func(g *gen, call *node) bool
}{
	{"fields reordered", func(g *gen, call *node) bool {
		return g.someToolMember(call, func(t *node) bool {
			f := t.get("fields")
			if f == nil || f.kind != kObject || len(f.keys) < 2 {
				return false
			}
			i := g.n(len(f.keys) - 1)
			f.keys[i], f.keys[i+1] = f.keys[i+1], f.keys[i]
			f.vals[i], f.vals[i+1] = f.vals[i+1], f.vals[i]
			return true
		})
	}},
	{"1 and true swapped", func(g *gen, call *node) bool {
		args := call.get("arguments")
		if args == nil || args.kind != kObject {
			return false
		}
		for _, k := range g.r.Perm(len(args.vals)) {
			if v, ok := boolIntTwin[args.vals[k].lit]; ok && (args.vals[k].kind == kNumber || args.vals[k].kind == kBool) {
				args.vals[k] = v
				return true
			}
		}
		return false
	}},
	{"enabled flipped", func(g *gen, call *node) bool {
		return g.someToolMember(call, func(t *node) bool { return flipBool(t, "enabled") })
	}},
	{"effect flipped", func(g *gen, call *node) bool {
		return g.someToolMember(call, func(t *node) bool {
			switch e := t.get("effect"); {
			case e == nil || e.kind != kString:
				return false
			case e.plain() == "read":
				replace(t, "effect", str("change"))
			default:
				replace(t, "effect", str("read"))
			}
			return true
		})
	}},
	{"required flipped", func(g *gen, call *node) bool {
		return g.someSpec(call, func(spec *node) bool { return flipBool(spec, "required") })
	}},
	{"max_length moved", func(g *gen, call *node) bool {
		return g.someSpec(call, func(spec *node) bool {
			m := spec.get("max_length")
			if m == nil || m.kind != kNumber {
				return false
			}
			n, err := strconv.Atoi(m.lit)
			if err != nil || n < 0 || n > 1<<20 {
				return false
			}
			if n <= 1 || g.p(0.5) {
				n++
			} else {
				n--
			}
			replace(spec, "max_length", number(itoa(n)))
			return true
		})
	}},
	{"another name", func(g *gen, call *node) bool {
		if call.get("name") == nil {
			return false
		}
		return g.someToolMember(call, func(t *node) bool {
			name := t.get("name")
			if name == nil || name.kind != kString || name.plain() == call.get("name").plain() {
				return false
			}
			replace(call, "name", name.clone())
			return true
		})
	}},
	{"same", func(*gen, *node) bool { return true }},
}

// boolIntTwin is what "1 and true swapped" writes for each literal: the
// values a dynamic language may find equal (in Python 1 == True and they
// hash alike) but the contract does not.
var boolIntTwin = map[string]*node{"1": boolean(true), "0": boolean(false), "true": number("1"), "false": number("0")}

// twin returns the call that call i-1 of the run is made again as, call i
// being a twin turn.
func (g *gen) twin(seed uint64, i int) *node {
	base := generate(seed, i-1)
	call := base.call.clone()
	inner := call
	if c := call.get("call"); c != nil {
		inner = c
	}
	start := g.n(len(twinChanges))
	for k := range twinChanges {
		c := twinChanges[(start+k)%len(twinChanges)]
		if c.apply(g, inner) {
			g.drew("twin " + c.name)
			return call
		}
	}
	panic("unreachable: the change \"same\" always applies")
}

// primeTwinBase makes a base call carry what its twin changes: an argument
// of an integer or boolean field written 0, 1, true or false.
func (g *gen) primeTwinBase(call *node) {
	if c := call.get("call"); c != nil {
		call = c
	}
	args := call.get("arguments")
	if args == nil || args.kind != kObject {
		return
	}
	for k, v := range args.vals {
		switch v.kind {
		case kNumber:
			args.vals[k] = number(oneOf(g, "0", "1"))
			return
		case kBool:
			args.vals[k] = boolean(g.p(0.5))
			return
		}
	}
}

// someToolMember calls change on the tool objects of call's catalog,
// starting at a random one, until it reports that it changed one.
func (g *gen) someToolMember(call *node, change func(tool *node) bool) bool {
	cat := call.get("catalog")
	if cat == nil || cat.kind != kArray || len(cat.items) == 0 {
		return false
	}
	start := g.n(len(cat.items))
	for k := range cat.items {
		if t := cat.items[(start+k)%len(cat.items)]; t.kind == kObject && change(t) {
			return true
		}
	}
	return false
}

// someSpec calls change on the field specs of call's catalog, tool by tool
// from a random one, until it reports that it changed one.
func (g *gen) someSpec(call *node, change func(spec *node) bool) bool {
	return g.someToolMember(call, func(t *node) bool {
		f := t.get("fields")
		if f == nil || f.kind != kObject {
			return false
		}
		for _, spec := range f.vals {
			if spec.kind == kObject && change(spec) {
				return true
			}
		}
		return false
	})
}

// flipBool writes the opposite of obj's boolean member key, and reports
// whether there was one.
func flipBool(obj *node, key string) bool {
	v := obj.get(key)
	if v == nil || v.kind != kBool {
		return false
	}
	replace(obj, key, boolean(v.lit != "true"))
	return true
}
