package lru

import (
	"fmt"
	"sync"
	"testing"
)

// The least recently used entry goes first; Get and GetOrAdd make an
// entry the most recent.
func TestEntries(t *testing.T) {
	c := Cache[string, int]{MaxEntries: 2}
	c.Add("a", 1)
	c.Add("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 { // a is now the most recent
		t.Fatalf("a: %d, %v", v, ok)
	}
	c.Add("c", 3) // b goes
	if _, ok := c.Get("b"); ok {
		t.Error("b kept, want it dropped as the least recently used")
	}
	made := 0
	if v := c.GetOrAdd("a", func() int { made++; return 9 }); v != 1 || made != 0 {
		t.Errorf("GetOrAdd of a present key: %d, made %d, want 1 and 0", v, made)
	}
	if v := c.GetOrAdd("d", func() int { made++; return 4 }); v != 4 || made != 1 {
		t.Errorf("GetOrAdd of a missing key: %d, made %d, want 4 and 1", v, made)
	}
	if _, ok := c.Get("c"); ok || c.Len() != 2 || len(c.byKey) != 2 {
		t.Errorf("c kept or %d entries (%d by key), want c dropped and 2", c.Len(), len(c.byKey))
	}
	c.Add("a", 10) // replaces
	if v, _ := c.Get("a"); v != 10 || c.Len() != 2 {
		t.Errorf("a replaced: %d with %d entries, want 10 and 2", v, c.Len())
	}
	c.Remove("a")
	c.Remove("zz")
	if _, ok := c.Get("a"); ok || c.Len() != 1 {
		t.Errorf("a removed: still there or %d entries, want 1", c.Len())
	}
}

// Weights bound the cache too; the most recent entry stays whatever it
// weighs, and removing or replacing an entry gives its weight back.
func TestWeight(t *testing.T) {
	c := Cache[int, int64]{MaxEntries: 10, MaxWeight: 100, Weigh: func(w int64) int64 { return w }}
	c.Add(1, 40)
	c.Add(2, 40)
	c.Add(3, 40) // 120 > 100: 1 goes
	if _, ok := c.Get(1); ok || c.Weight() != 80 {
		t.Errorf("1 kept or weight %d, want 1 dropped and 80", c.Weight())
	}
	c.Add(4, 500) // heavier than the bound: everything else goes, it stays
	if v, ok := c.Get(4); !ok || v != 500 || c.Len() != 1 || c.Weight() != 500 {
		t.Errorf("heavy entry: %d, %v with %d entries weighing %d, want it alone", v, ok, c.Len(), c.Weight())
	}
	c.Add(4, 10)
	c.Remove(5)
	if c.Weight() != 10 {
		t.Errorf("replaced: weight %d, want 10", c.Weight())
	}
	c.Remove(4)
	if c.Weight() != 0 || c.Len() != 0 {
		t.Errorf("emptied: %d entries weighing %d, want none", c.Len(), c.Weight())
	}
}

// The zero Cache is unbounded.
func TestZero(t *testing.T) {
	var c Cache[int, int]
	for i := range 1000 {
		c.Add(i, i)
	}
	if c.Len() != 1000 || c.Weight() != 0 {
		t.Errorf("%d entries weighing %d, want 1000 weighing 0", c.Len(), c.Weight())
	}
}

// Concurrent users (run under -race) leave the bound kept.
func TestConcurrent(t *testing.T) {
	c := Cache[string, *int]{MaxEntries: 8}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				key := fmt.Sprint(i % 4)
				c.GetOrAdd(key, func() *int { return new(int) })
				c.Add(fmt.Sprint("x", g, i), nil)
				c.Get(key)
			}
		}()
	}
	wg.Wait()
	if c.Len() != 8 {
		t.Errorf("%d entries, want 8", c.Len())
	}
}
