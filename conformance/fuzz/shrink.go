package fuzz

import (
	"bytes"
	"math/big"
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
	for {
		accepted, spent := false, false
		bestSize, bestText := best.size(), []byte(nil)
		candidates(best, func(c *node) bool {
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
		if !accepted || spent {
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
	visitCall(call, func(n *node) *node { return n }, emit)
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
		for _, s := range shorterStrings(n.units) {
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
			half := new(big.Int).Quo(&n, big.NewInt(2))
			tenth := new(big.Int).Quo(&n, big.NewInt(10))
			out = append(out, half.String(), tenth.String())
		}
	}
	return out
}
