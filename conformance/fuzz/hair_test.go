package fuzz

import "testing"

// TestHair checks the numbers drawn a hair from a bound: closer than a
// float64 tells apart, on the side asked for.
func TestHair(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		up   bool
		want string
	}{
		{"0.3", true, "0.30000000000000000001"},
		{"0.3", false, "0.29999999999999999999"},
		{"9007199254740992", true, "9007199254740993"},
		{"9007199254740992", false, "9007199254740991"},
		{"-1", true, "0"},
		{"-1", false, "-2"},
		{"0", false, "-1"},
		{"999", true, "1000"},
		{"1e400", true, "1.00000000000000000001e400"},
		{"1e400", false, "0.99999999999999999999e400"},
		{"-1e400", true, "-0.99999999999999999999e400"},
		{"1E+2", false, "0.99999999999999999999E+2"},
		{"2.50", true, "2.500000000000000000001"},
	} {
		if got := hair(tc.lit, tc.up); got != tc.want {
			t.Errorf("hair(%s, %v) = %s, want %s", tc.lit, tc.up, got, tc.want)
		}
	}
}
