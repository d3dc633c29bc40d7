package client

import (
	"testing"

	"github.com/smithycurl/smithycurl/identity"
)

// The session caches are bounded: the least recently used goes first.
func TestExpressSessionsLRU(t *testing.T) {
	var s expressSessions
	s.MaxEntries = 2
	made := 0
	newCache := func() *identity.Cache[identity.AWS] {
		made++
		return identity.NewCache[identity.AWS](identity.ProviderFunc[identity.AWS](nil), "test")
	}
	a := s.get("a", newCache)
	s.get("b", newCache)
	if s.get("a", newCache) != a { // a is now the most recent
		t.Fatal("a was not kept")
	}
	s.get("c", newCache) // b goes
	if s.get("a", newCache) != a || made != 3 {
		t.Errorf("a made again or b kept: %d caches made, want 3", made)
	}
	if s.get("b", newCache); made != 4 || s.Len() != 2 {
		t.Errorf("b: %d made, %d kept, want 4 made and 2 kept", made, s.Len())
	}
}
