package fuzz

import (
	"bytes"
	"math/big"
	"slices"
	"strings"
)

// shrink cuts call down while keep holds for the smaller call: it tries
// candidates in a fixed order (drop the mutate_and_repeat wrapper, remove
// tools, fields, members and arguments in halves then one by one, shorten
// strings and labels, simplify numbers and characters), accepts the first
// one keep holds for, and starts again from the smaller call, until no
// candidate holds or budget calls of keep are spent. A candidate must be
// smaller: fewer or shorter pieces, or as many and a smaller text, so the
// search ends, and it is the same for the same call.
func shrink(call *node, keep func(*node) bool, budget int) (best *node, tries int) {
	best = call
	// A pass starts where the last one accepted a candidate (the calls
	// before it were just tried), and a pass from there that finds nothing
	// is followed by one from the start; a pass from the start that finds
	// nothing ends the search.
	from := 0
	for {
		accepted, spent, index := false, false, -1
		bestSize, bestText := best.size(), []byte(nil)
		candidates(best, func(c *node) bool {
			index++
			if index < from {
				return false
			}
			if s := c.size(); s > bestSize {
				return false
			} else if s == bestSize {
				if bestText == nil {
					bestText = best.appendJSON(nil)
				}
				if bytes.Compare(c.appendJSON(nil), bestText) >= 0 {
					return false
				}
			}
			if tries >= budget {
				spent = true
				return true
			}
			tries++
			if keep(c) {
				best, accepted = c, true
				return true
			}
			return false
		})
		switch {
		case spent:
			return best, tries
		case accepted:
			from = index
		case from > 0:
			from = 0
		default:
			return best, tries
		}
	}
}

// A rebuild returns the whole call with one node replaced: candidates are
// built by copying only the path from the root to the node that changes.
type rebuild func(*node) *node

// candidates calls emit with each smaller variant of call, in order, until
// emit returns true.
func candidates(call *node, emit func(*node) bool) {
	if op := call.get("op"); op != nil && op.plain() == "mutate_and_repeat" {
		if inner := call.get("call"); inner != nil && emit(inner) {
			return
		}
	}
	if fieldsWithArguments(call, func(n *node) *node { return n }, emit) {
		return
	}
	visitCall(call, func(n *node) *node { return n }, emit)
}

// fieldsWithArguments emits, for a validate_arguments call (or one inside
// mutate_and_repeat), the call without one field of one tool and without
// the argument of that name: two steps the shrinker could not take one at a
// time, since each alone changes the outcome.
func fieldsWithArguments(call *node, rb rebuild, emit func(*node) bool) bool {
	if inner := call.get("call"); inner != nil {
		return fieldsWithArguments(inner, func(n *node) *node {
			c := call.shallow()
			replace(c, "call", n)
			return rb(c)
		}, emit)
	}
	cat, args := call.get("catalog"), call.get("arguments")
	if cat == nil || cat.kind != kArray || args == nil || args.kind != kObject {
		return false
	}
	for ti, tool := range cat.items {
		fields := tool.get("fields")
		if fields == nil || fields.kind != kObject {
			continue
		}
		for fi, k := range fields.keys {
			ai := slices.IndexFunc(args.keys, func(a *node) bool { return a.plain() == k.plain() })
			if ai < 0 {
				continue
			}
			t := tool.shallow()
			replace(t, "fields", withoutMembers(fields, fi, fi+1))
			c := cat.shallow()
			c.items[ti] = t
			out := call.shallow()
			replace(out, "catalog", c)
			replace(out, "arguments", withoutMembers(args, ai, ai+1))
			if emit(rb(out)) {
				return true
			}
		}
	}
	return false
}

// visitCall visits the members of a CALL object: its op and the keys a case
// requires stay; name may go, and a repeated key (a text-level mutation)
// may go too.
func visitCall(call *node, rb rebuild, emit func(*node) bool) bool {
	if call.kind != kObject {
		return visit(call, rb, emit)
	}
	seen := map[string]bool{}
	for i, k := range call.keys {
		key := k.plain()
		if key == "name" || seen[key] {
			if emit(rb(withoutMembers(call, i, i+1))) {
				return true
			}
		}
		seen[key] = true
		if key == "op" {
			continue
		}
		sub := func(v *node) *node {
			c := call.shallow()
			c.vals[i] = v
			return rb(c)
		}
		if key == "call" {
			if visitCall(call.vals[i], sub, emit) {
				return true
			}
			continue
		}
		if visit(call.vals[i], sub, emit) {
			return true
		}
	}
	return false
}

func withoutMembers(obj *node, from, to int) *node {
	c := obj.shallow()
	c.keys = append(c.keys[:from:from], c.keys[to:]...)
	c.vals = append(c.vals[:from:from], c.vals[to:]...)
	return c
}

// visit emits the smaller variants of n and of everything inside it.
func visit(n *node, rb rebuild, emit func(*node) bool) bool {
	switch n.kind {
	case kArray:
		for size := len(n.items); size >= 1; size /= 2 {
			for from := 0; from+size <= len(n.items); from += size {
				c := n.shallow()
				c.items = append(c.items[:from:from], c.items[from+size:]...)
				if emit(rb(c)) {
					return true
				}
			}
		}
		for i, it := range n.items {
			sub := func(v *node) *node {
				c := n.shallow()
				c.items[i] = v
				return rb(c)
			}
			if visit(it, sub, emit) {
				return true
			}
		}
	case kObject:
		for size := len(n.keys); size >= 1; size /= 2 {
			for from := 0; from+size <= len(n.keys); from += size {
				if emit(rb(withoutMembers(n, from, from+size))) {
					return true
				}
			}
		}
		for i := range n.keys {
			subVal := func(v *node) *node {
				c := n.shallow()
				c.vals[i] = v
				return rb(c)
			}
			if visit(n.vals[i], subVal, emit) {
				return true
			}
			subKey := func(k *node) *node {
				c := n.shallow()
				c.keys[i] = k
				return rb(c)
			}
			if visit(n.keys[i], subKey, emit) {
				return true
			}
		}
	case kString:
		for _, s := range shorterStrings(n.us()) {
			if emit(rb(&node{kind: kString, units: s})) {
				return true
			}
		}
	case kNumber:
		for _, l := range simplerNumbers(n.lit) {
			if emit(rb(number(l))) {
				return true
			}
		}
	}
	return false
}

// shorterStrings returns the string variants to try: empty, the first
// half, without the last or the first unit, every unit an "a", and each of
// the first few units that is not a plain letter made an "a".
func shorterStrings(units []string) [][]string {
	if len(units) == 0 {
		return nil
	}
	out := [][]string{{}, units[:len(units)/2], units[:len(units)-1], units[1:]}
	plain := make([]string, len(units))
	for i := range plain {
		plain[i] = "a"
	}
	out = append(out, plain)
	changed := 0
	for i, u := range units {
		if changed == 8 {
			break
		}
		if len(u) == 1 && 'a' <= u[0] && u[0] <= 'z' {
			continue
		}
		c := append([]string{}, units...)
		c[i] = "a"
		out = append(out, c)
		changed++
	}
	return out
}

// simplerNumbers returns the number literals to try instead of lit: 0 and
// 1, and for an integer literal its half and its tenth.
func simplerNumbers(lit string) []string {
	out := []string{"0", "1"}
	var n big.Int
	if !strings.ContainsAny(lit, ".eE") {
		if _, ok := n.SetString(lit, 10); ok {
			digits := len(strings.TrimPrefix(lit, "-"))
			for _, d := range []*big.Int{new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits/2)), nil), big.NewInt(10), big.NewInt(2)} {
				out = append(out, new(big.Int).Quo(&n, d).String())
			}
		}
	}
	return out
}
