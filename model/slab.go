package model

import "unsafe"

// slab hands out many small slices and values of one type from a few large
// arrays, so that a load makes one allocation where it would make hundreds.
// Each slice it returns has its length as capacity: an append to it copies
// instead of writing over its neighbour. What a slab hands out keeps its
// whole array alive, so a slab serves only values that live and die together
// (the drafts of one file, the trait values of one model).
type slab[T any] struct {
	buf []T
	// size is the size in bytes of the last array (nextSize).
	size int
}

// The first array of a slab has slabMinBytes, each next one twice the last
// up to slabBytes: a small model keeps little room it does not use.
const (
	slabMinBytes = 512
	slabBytes    = 32 << 10
)

// nextSize returns the size of a slab's next array, after one of last bytes.
func nextSize(last int) int { return min(max(2*last, slabMinBytes), slabBytes) }

// grow makes room for n more values.
func (s *slab[T]) grow(n int) {
	if cap(s.buf)-len(s.buf) >= n {
		return
	}
	s.buf = make([]T, 0, max(n, s.chunk()))
}

// chunk is the number of values of the slab's next array.
func (s *slab[T]) chunk() int {
	var zero T
	s.size = nextSize(s.size)
	return max(s.size/max(int(unsafe.Sizeof(zero)), 1), 1)
}

// copy returns a copy of src; nil when src is empty.
func (s *slab[T]) copy(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	s.grow(len(src))
	n := len(s.buf)
	s.buf = append(s.buf, src...)
	return s.buf[n:len(s.buf):len(s.buf)]
}

// mark starts a slice that push builds at the end of the slab, in place:
// without a scratch list to copy from (a copy of values with pointers costs
// write barriers while the garbage collector runs).
func (s *slab[T]) mark() int { return len(s.buf) }

// push appends v to the slice started at *mark; when the array is full, the
// slice moves to a new one and *mark follows it.
func (s *slab[T]) push(mark *int, v T) {
	if len(s.buf) == cap(s.buf) {
		old := s.buf[*mark:]
		s.buf = append(make([]T, 0, max(2*len(old), s.chunk())), old...)
		clear(old)
		*mark = 0
	}
	s.buf = append(s.buf, v)
}

// built returns the slice started at mark as built so far, for changing
// its values in place.
func (s *slab[T]) built(mark int) []T { return s.buf[mark:len(s.buf):len(s.buf)] }

// done returns the slice started at mark; nil when empty.
func (s *slab[T]) done(mark int) []T {
	if len(s.buf) == mark {
		return nil
	}
	return s.buf[mark:len(s.buf):len(s.buf)]
}

// one returns a pointer to a new zero value.
func (s *slab[T]) one() *T {
	s.grow(1)
	var zero T
	s.buf = append(s.buf, zero)
	return &s.buf[len(s.buf)-1]
}

// byteSlab is a slab of strings: one allocation holds many, and since it
// holds no pointers the garbage collector does not scan it.
type byteSlab struct {
	buf  []byte
	size int // of the last array (nextSize)
}

// spare returns room for n more bytes, for keep.
func (s *byteSlab) spare(n int) []byte {
	if cap(s.buf)-len(s.buf) < n {
		s.size = nextSize(s.size)
		s.buf = make([]byte, 0, max(n, s.size))
	}
	return s.buf[len(s.buf):len(s.buf):cap(s.buf)]
}

// keep returns b, written into the room spare gave, as a string.
func (s *byteSlab) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if rest := s.buf[len(s.buf):cap(s.buf)]; len(b) > len(rest) || unsafe.SliceData(b) != unsafe.SliceData(rest) {
		return string(b) // b outgrew its room: it is not in the slab
	}
	s.buf = s.buf[:len(s.buf)+len(b)]
	return unsafe.String(unsafe.SliceData(b), len(b)) // never written again
}

// join returns x+sep+y.
func (s *byteSlab) join(x string, sep byte, y string) string {
	b := append(append(append(s.spare(len(x)+1+len(y)), x...), sep), y...)
	return s.keep(b)
}
