package conformance

import (
	"encoding/json"
	"fmt"
)

// Judge compares the OUTCOME text got with the expected OUTCOME text want
// exactly as the runner judges a check of a case: a result by JSON value
// (object member order only where the contract gives it meaning), an error
// by its code alone (a detail is shown, never compared), not_implemented as
// [Skip]. It returns a [CheckResult] whose Status is [Pass], [Fail] (with
// the (-want +got) Diff), [Skip], or [Error] when got is not a valid
// OUTCOME. A want that is not a valid OUTCOME is an error of the caller.
// diff nil means [LineDiff].
func Judge(want, got []byte, diff DiffFunc) (*CheckResult, error) {
	t, err := parseTape(want)
	if err == nil {
		err = checkOutcome(t.root())
	}
	var w *node
	if err == nil {
		w, err = parseJSON(want)
	}
	if err != nil {
		return nil, fmt.Errorf("expected outcome: %v", err)
	}
	expect := newObject()
	for i, k := range w.keys {
		if k != "detail" {
			expect.set(k, w.vals[i])
		}
	}
	if diff == nil {
		diff = LineDiff
	}
	cr := &CheckResult{Want: json.RawMessage(expect.appendJSON(nil)), Got: json.RawMessage(got)}
	(&Runner{}).judge(expect, cr, got, diff)
	return cr, nil
}
