package uuid

import (
	"regexp"
	"testing"
)

func TestV4(t *testing.T) {
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		u := V4()
		if !form.MatchString(u) || seen[u] {
			t.Fatalf("V4() = %q: not a fresh version 4 UUID", u)
		}
		seen[u] = true
	}
}
