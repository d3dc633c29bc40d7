package valuegen

import (
	"github.com/smithycurl/smithycurl/model"
)

// NewLight returns a generator for m seeded with seed whose random source
// (splitmix64) is cheap to make, for a generator per request (New's takes
// microseconds to seed). Its values differ from New's for the same seed.
func NewLight(m *model.Model, seed int64) *Gen {
	return withSource(m, &splitMix{uint64(seed)})
}

// splitMix is the splitmix64 generator, a rand.Source64.
type splitMix struct{ s uint64 }

func (r *splitMix) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *splitMix) Int63() int64    { return int64(r.Uint64() >> 1) }
func (r *splitMix) Seed(seed int64) { r.s = uint64(seed) }
