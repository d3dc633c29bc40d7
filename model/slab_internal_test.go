package model

import (
	"slices"
	"testing"
)

// TestSlab: slices built in place or copied into a slab keep their values
// when later ones fill the slab's arrays and move to new ones, and an append
// to one never writes over the next.
func TestSlab(t *testing.T) {
	var s slab[[4]int]
	var lists [][][4]int
	var want [][][4]int
	for n := range 3000 {
		size := n % 1100 // some lists outgrow an array (1024 values at most)
		var w [][4]int
		mark := s.mark()
		for i := range size {
			v := [4]int{n, i}
			w = append(w, v)
			s.push(&mark, v)
		}
		lists = append(lists, s.done(mark))
		want = append(want, w)
		if n%7 == 0 {
			lists = append(lists, s.copy(w))
			want = append(want, w)
		}
	}
	for i := range lists {
		lists[i] = append(lists[i], [4]int{-1}) // must copy
	}
	for i, l := range lists {
		if !slices.Equal(l[:len(l)-1], want[i]) {
			t.Fatalf("list %d: %v, want %v", i, l, want[i])
		}
	}
	var b byteSlab
	var strs []string
	for n := range 5000 {
		x := string(rune('a' + n%26))
		strs = append(strs, b.join("ns#S"+x, '$', x))
	}
	for n, got := range strs {
		x := string(rune('a' + n%26))
		if got != "ns#S"+x+"$"+x {
			t.Fatalf("string %d: %q", n, got)
		}
	}
}
