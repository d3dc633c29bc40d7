package valuegen

import (
	"math/big"
	"math/rand"
)

// pickInRange picks a number in [lo, hi] (decimal literals, "" for open):
// an end, or a value in between; integral when integer.
func pickInRange(r *rand.Rand, lo, hi string, integer bool) string {
	l, lok := new(big.Rat).SetString(lo)
	h, hok := new(big.Rat).SetString(hi)
	switch {
	case !lok && !hok:
		l, h = big.NewRat(-1000, 1), big.NewRat(1000, 1)
	case !lok:
		l = new(big.Rat).Sub(h, big.NewRat(1000, 1))
	case !hok:
		h = new(big.Rat).Add(l, big.NewRat(1000, 1))
	}
	if integer {
		l = ceilRat(l)
		h = floorRat(h)
	}
	var v *big.Rat
	switch r.Intn(4) {
	case 0:
		v = l
	case 1:
		v = h
	default:
		f := big.NewRat(int64(r.Intn(1001)), 1000)
		v = new(big.Rat).Add(l, new(big.Rat).Mul(f, new(big.Rat).Sub(h, l)))
		if integer {
			v = floorRat(v)
		}
	}
	if v.IsInt() {
		return v.Num().String()
	}
	return v.FloatString(6)
}

func ceilRat(x *big.Rat) *big.Rat {
	f := floorRat(x)
	if f.Cmp(x) < 0 {
		f.Add(f, big.NewRat(1, 1))
	}
	return f
}

func floorRat(x *big.Rat) *big.Rat {
	q := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean: floor for a positive denominator
	return new(big.Rat).SetInt(q)
}

func maxRat(a, b string) string {
	if b == "" {
		return a
	}
	x, _ := new(big.Rat).SetString(a)
	y, ok := new(big.Rat).SetString(b)
	if ok && y.Cmp(x) > 0 {
		return b
	}
	return a
}

func minRat(a, b string) string {
	if b == "" {
		return a
	}
	x, _ := new(big.Rat).SetString(a)
	y, ok := new(big.Rat).SetString(b)
	if ok && y.Cmp(x) < 0 {
		return b
	}
	return a
}
