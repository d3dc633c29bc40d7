package proptest

import (
	"encoding/json"
)

// Shrink returns a smaller input for which fails still holds: it drops
// members, map entries and list items and simplifies scalars one at a time
// while the failure remains, trying at most budget candidates.
func Shrink(in map[string]any, fails func(map[string]any) bool, budget int) map[string]any {
	cur := in
	for budget > 0 {
		improved := false
		for _, cand := range candidates(cur) {
			if budget--; budget < 0 {
				break
			}
			c, _ := cand.(map[string]any)
			if c != nil && fails(c) {
				cur, improved = c, true
				break
			}
		}
		if !improved {
			break
		}
	}
	return cur
}

// candidates lists the values one step simpler than v.
func candidates(v any) []any {
	var out []any
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			c := Clone(x).(map[string]any)
			delete(c, k)
			out = append(out, c)
		}
		for _, k := range sortedKeys(x) {
			for _, sub := range candidates(x[k]) {
				c := Clone(x).(map[string]any)
				c[k] = sub
				out = append(out, c)
			}
		}
	case []any:
		for i := range x {
			c := append(append([]any(nil), x[:i]...), x[i+1:]...)
			out = append(out, c)
		}
		for i := range x {
			for _, sub := range candidates(x[i]) {
				c := Clone(x).([]any)
				c[i] = sub
				out = append(out, c)
			}
		}
	case string:
		if r := []rune(x); len(r) > 1 {
			out = append(out, string(r[:len(r)/2]), "a")
		}
	case json.Number:
		if x != "0" && x != "1" {
			out = append(out, json.Number("0"), json.Number("1"))
		}
	}
	return out
}
