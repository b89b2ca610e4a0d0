package catalog

import (
	"math/big"
	"strings"
)

// A decimal is the exact value of a JSON number literal: digits × 10^exp,
// negative when neg. digits has no leading or trailing zero; it is "" for
// zero, whatever the sign or spelling (0, -0, 0.0e9). Literals compare by
// their decimal value, never through a float: 9007199254740993 is more than
// 9007199254740992, and 1e400 is a number like any other.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

// parseDecimal returns the value of lit, a number literal the JSON text
// layer accepted (J7).
func parseDecimal(lit string) decimal {
	d := decimal{exp: new(big.Int)}
	if strings.HasPrefix(lit, "-") {
		d.neg, lit = true, lit[1:]
	}
	mant, expText, _ := strings.Cut(strings.ReplaceAll(lit, "E", "e"), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if expText != "" {
		d.exp.SetString(strings.TrimPrefix(expText, "+"), 10)
	}
	d.exp.Sub(d.exp, big.NewInt(int64(len(frac))))
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	d.exp.Add(d.exp, big.NewInt(int64(len(digits)-len(trimmed))))
	d.digits = trimmed
	if d.digits == "" {
		d.neg = false
		d.exp.SetInt64(0)
	}
	return d
}

// cmpDecimal returns -1, 0 or +1 as a is less than, equal to or more than b.
func cmpDecimal(a, b decimal) int {
	switch {
	case a.digits == "" && b.digits == "":
		return 0
	case a.digits == "":
		return sign(!b.neg) * -1
	case b.digits == "":
		return sign(!a.neg)
	case a.neg != b.neg:
		return sign(!a.neg)
	}
	m := cmpMagnitude(a, b)
	if a.neg {
		return -m
	}
	return m
}

// sign is +1 for true, -1 for false.
func sign(positive bool) int {
	if positive {
		return 1
	}
	return -1
}

// cmpMagnitude compares |a| and |b|, both not zero: first the place of
// their leading digits, then the digits.
func cmpMagnitude(a, b decimal) int {
	ta := new(big.Int).Add(a.exp, big.NewInt(int64(len(a.digits))))
	tb := new(big.Int).Add(b.exp, big.NewInt(int64(len(b.digits))))
	if c := ta.Cmp(tb); c != 0 {
		return c
	}
	n := min(len(a.digits), len(b.digits))
	if c := strings.Compare(a.digits[:n], b.digits[:n]); c != 0 {
		return c
	}
	// The longer one has more digits, none of them a trailing zero.
	return sign(len(a.digits) > len(b.digits)) * b2i(len(a.digits) != len(b.digits))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
