// Package cbor reads and writes the CBOR data items (RFC 8949) the
// smithy.protocols#rpcv2Cbor protocol uses. The Reader is bounded for
// untrusted input: nesting depth is limited, every declared length is
// checked against the bytes left before anything is allocated (so no
// allocation is larger than the input), text strings must be UTF-8.
package cbor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"
)

// Major types.
const (
	MajorUint   = 0
	MajorNeg    = 1
	MajorBytes  = 2
	MajorText   = 3
	MajorArray  = 4
	MajorMap    = 5
	MajorTag    = 6
	MajorSimple = 7
)

// Tags the protocol uses.
const (
	TagEpoch     = 1
	TagPosBignum = 2
	TagNegBignum = 3
	TagDecimal   = 4
)

// MaxDepth is the deepest nesting of arrays, maps and tags a Reader accepts.
const MaxDepth = 512

// SyntaxError is input that is not well-formed CBOR, or that breaks a limit.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("CBOR at byte %d: %s", e.Offset, e.Msg) }

// Reader reads data items from a byte slice.
type Reader struct {
	data  []byte
	pos   int
	depth int
}

// NewReader returns a Reader of data.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// AtEnd reports whether every byte was read.
func (r *Reader) AtEnd() bool { return r.pos >= len(r.data) }

// Pos is the offset of the next byte.
func (r *Reader) Pos() int { return r.pos }

func (r *Reader) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: r.pos, Msg: fmt.Sprintf(format, args...)}
}

// Peek returns the major type and additional information of the next item
// without reading it.
func (r *Reader) Peek() (major, info byte, err error) {
	if r.pos >= len(r.data) {
		return 0, 0, r.errorf("unexpected end of data")
	}
	b := r.data[r.pos]
	return b >> 5, b & 0x1f, nil
}

// head reads an initial byte and its argument. indef is set for additional
// information 31 (indefinite length, or "break" for major type 7).
func (r *Reader) head() (major byte, arg uint64, indef bool, err error) {
	if r.pos >= len(r.data) {
		return 0, 0, false, r.errorf("unexpected end of data")
	}
	b := r.data[r.pos]
	major, info := b>>5, b&0x1f
	r.pos++
	switch {
	case info < 24:
		return major, uint64(info), false, nil
	case info <= 27:
		n := 1 << (info - 24)
		if len(r.data)-r.pos < n {
			r.pos--
			return 0, 0, false, r.errorf("unexpected end of data")
		}
		p := r.data[r.pos : r.pos+n]
		r.pos += n
		switch n {
		case 1:
			arg = uint64(p[0])
		case 2:
			arg = uint64(binary.BigEndian.Uint16(p))
		case 4:
			arg = uint64(binary.BigEndian.Uint32(p))
		default:
			arg = binary.BigEndian.Uint64(p)
		}
		return major, arg, false, nil
	case info == 31:
		if major == MajorUint || major == MajorNeg || major == MajorTag {
			r.pos--
			return 0, 0, false, r.errorf("indefinite length is not allowed for major type %d", major)
		}
		return major, 0, true, nil
	}
	r.pos--
	return 0, 0, false, r.errorf("reserved additional information %d", info)
}

// length checks a declared length of n items of at least min bytes each
// against the bytes left.
func (r *Reader) length(n uint64, min int) (int, error) {
	if n > uint64(len(r.data)-r.pos)/uint64(min) {
		return 0, r.errorf("declared length %d is longer than the data", n)
	}
	return int(n), nil
}

func (r *Reader) isBreak() bool {
	return r.pos < len(r.data) && r.data[r.pos] == 0xff
}

func (r *Reader) enter() error {
	r.depth++
	if r.depth > MaxDepth {
		return r.errorf("nesting deeper than %d", MaxDepth)
	}
	return nil
}

// IsNull reads a null or undefined (which the protocol reads as null) and
// reports whether it did.
func (r *Reader) IsNull() bool {
	if r.pos < len(r.data) && (r.data[r.pos] == 0xf6 || r.data[r.pos] == 0xf7) {
		r.pos++
		return true
	}
	return false
}

// string reads a byte or text string (major), joining indefinite chunks.
func (r *Reader) string(want byte) ([]byte, error) {
	start := r.pos
	major, arg, indef, err := r.head()
	if err != nil {
		return nil, err
	}
	if major != want {
		r.pos = start
		return nil, errType(r, want, major)
	}
	if !indef {
		n, err := r.length(arg, 1)
		if err != nil {
			return nil, err
		}
		b := r.data[r.pos : r.pos+n]
		r.pos += n
		return b, nil
	}
	var out []byte
	for {
		if r.pos >= len(r.data) {
			return nil, r.errorf("unexpected end of data")
		}
		if r.isBreak() {
			r.pos++
			if out == nil {
				out = []byte{}
			}
			return out, nil
		}
		cmaj, carg, cindef, err := r.head()
		if err != nil {
			return nil, err
		}
		if cmaj != want || cindef {
			return nil, r.errorf("chunk of an indefinite-length string is not a definite string of the same type")
		}
		n, err := r.length(carg, 1)
		if err != nil {
			return nil, err
		}
		out = append(out, r.data[r.pos:r.pos+n]...)
		r.pos += n
	}
}

func errType(r *Reader, want, got byte) error {
	return &TypeError{Offset: r.pos, Want: majorName(want), Got: majorName(got)}
}

// TypeError is a well-formed item of another type than the one asked for.
type TypeError struct {
	Offset    int
	Want, Got string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("CBOR at byte %d: expected %s, got %s", e.Offset, e.Want, e.Got)
}

func majorName(m byte) string {
	return [...]string{"an unsigned integer", "a negative integer", "a byte string", "a text string",
		"an array", "a map", "a tagged item", "a simple value or float"}[m&7]
}

// Text reads a text string (UTF-8 checked). The result may alias the input.
func (r *Reader) Text() ([]byte, error) {
	start := r.pos
	b, err := r.string(MajorText)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		r.pos = start
		return nil, r.errorf("text string is not valid UTF-8")
	}
	return b, nil
}

// Bytes reads a byte string. The result may alias the input.
func (r *Reader) Bytes() ([]byte, error) { return r.string(MajorBytes) }

// Bool reads true or false.
func (r *Reader) Bool() (bool, error) {
	if r.pos < len(r.data) {
		switch r.data[r.pos] {
		case 0xf4:
			r.pos++
			return false, nil
		case 0xf5:
			r.pos++
			return true, nil
		}
	}
	maj, _, err := r.Peek()
	if err != nil {
		return false, err
	}
	return false, &TypeError{Offset: r.pos, Want: "a boolean", Got: majorName(maj)}
}

// Tag reads a tag if the next item is one.
func (r *Reader) Tag() (uint64, bool, error) {
	maj, _, err := r.Peek()
	if err != nil || maj != MajorTag {
		return 0, false, err
	}
	_, arg, _, err := r.head()
	return arg, err == nil, err
}

// Array reads an array, calling f for each element; f must read it.
func (r *Reader) Array(f func(i int) error) error {
	start := r.pos
	major, arg, indef, err := r.head()
	if err != nil {
		return err
	}
	if major != MajorArray {
		r.pos = start
		return errType(r, MajorArray, major)
	}
	if err := r.enter(); err != nil {
		return err
	}
	defer func() { r.depth-- }()
	if indef {
		for i := 0; ; i++ {
			if r.pos >= len(r.data) {
				return r.errorf("unexpected end of data")
			}
			if r.isBreak() {
				r.pos++
				return nil
			}
			if err := f(i); err != nil {
				return err
			}
		}
	}
	n, err := r.length(arg, 1)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := f(i); err != nil {
			return err
		}
	}
	return nil
}

// Map reads a map whose keys are text strings, calling f with each key; f
// must read the value.
func (r *Reader) Map(f func(key []byte) error) error {
	start := r.pos
	major, arg, indef, err := r.head()
	if err != nil {
		return err
	}
	if major != MajorMap {
		r.pos = start
		return errType(r, MajorMap, major)
	}
	if err := r.enter(); err != nil {
		return err
	}
	defer func() { r.depth-- }()
	n := -1
	if !indef {
		if n, err = r.length(arg, 2); err != nil {
			return err
		}
	}
	for i := 0; n < 0 || i < n; i++ {
		if n < 0 {
			if r.pos >= len(r.data) {
				return r.errorf("unexpected end of data")
			}
			if r.isBreak() {
				r.pos++
				return nil
			}
		}
		key, err := r.Text()
		if err != nil {
			var te *TypeError
			if errors.As(err, &te) {
				return r.errorf("map key is %s, not a text string", te.Got)
			}
			return err
		}
		if err := f(key); err != nil {
			return err
		}
	}
	return nil
}

// NumKind is the kind of a Number.
type NumKind uint8

const (
	NumInt     NumKind = iota // U, Neg: -1-U when Neg
	NumFloat                  // F, Bits (16, 32 or 64)
	NumBig                    // Big (tags 2 and 3)
	NumDecimal                // Big times ten to the power Exp (tag 4)
)

// Number is a numeric item.
type Number struct {
	Kind NumKind
	Neg  bool
	U    uint64
	F    float64
	Bits int
	Big  *big.Int
	Exp  int64
}

// MaxBignumBytes bounds the bytes of a bignum (tags 2 and 3): 4 KiB is
// more than 9800 decimal digits.
const MaxBignumBytes = 4096

// Number reads an integer, a float, a bignum (tags 2, 3) or a decimal
// fraction (tag 4).
func (r *Reader) Number() (Number, error) {
	start := r.pos
	if r.pos >= len(r.data) {
		return Number{}, r.errorf("unexpected end of data")
	}
	b := r.data[r.pos]
	switch b >> 5 {
	case MajorUint, MajorNeg:
		major, arg, _, err := r.head()
		return Number{Kind: NumInt, Neg: major == MajorNeg, U: arg}, err
	case MajorSimple:
		info := b & 0x1f
		if info < 25 || info > 27 {
			return Number{}, &TypeError{Offset: r.pos, Want: "a number", Got: simpleName(b)}
		}
		_, arg, _, err := r.head()
		if err != nil {
			return Number{}, err
		}
		switch info {
		case 25:
			return Number{Kind: NumFloat, F: float16(uint16(arg)), Bits: 16}, nil
		case 26:
			return Number{Kind: NumFloat, F: float64(math.Float32frombits(uint32(arg))), Bits: 32}, nil
		}
		return Number{Kind: NumFloat, F: math.Float64frombits(arg), Bits: 64}, nil
	case MajorTag:
		_, tag, _, err := r.head()
		if err != nil {
			return Number{}, err
		}
		switch tag {
		case TagPosBignum, TagNegBignum:
			raw, err := r.Bytes()
			if err != nil {
				return Number{}, err
			}
			if len(raw) > MaxBignumBytes {
				r.pos = start
				return Number{}, r.errorf("bignum longer than %d bytes", MaxBignumBytes)
			}
			v := new(big.Int).SetBytes(raw)
			if tag == TagNegBignum {
				v.Neg(v).Sub(v, big.NewInt(1))
			}
			return Number{Kind: NumBig, Big: v}, nil
		case TagDecimal:
			var exp, mant Number
			count := 0
			if err := r.enter(); err != nil {
				return Number{}, err
			}
			defer func() { r.depth-- }()
			err := r.Array(func(i int) error {
				count++
				if i > 1 {
					return r.errorf("decimal fraction has more than two items")
				}
				n, err := r.Number()
				if err != nil {
					return err
				}
				if i == 0 {
					exp = n
				} else {
					mant = n
				}
				return nil
			})
			if err != nil {
				return Number{}, err
			}
			if count != 2 || exp.Kind != NumInt || (mant.Kind != NumInt && mant.Kind != NumBig) {
				r.pos = start
				return Number{}, r.errorf("decimal fraction is not [integer exponent, integer mantissa]")
			}
			e, ok := exp.Int64()
			if !ok || e < -1e6 || e > 1e6 {
				r.pos = start
				return Number{}, r.errorf("decimal fraction exponent out of range")
			}
			return Number{Kind: NumDecimal, Big: mant.BigInt(), Exp: e}, nil
		}
		r.pos = start
		return Number{}, r.errorf("tag %d is not a number", tag)
	}
	return Number{}, &TypeError{Offset: r.pos, Want: "a number", Got: majorName(b >> 5)}
}

func simpleName(b byte) string {
	switch b {
	case 0xf4, 0xf5:
		return "a boolean"
	case 0xf6, 0xf7:
		return "null"
	}
	return "a simple value"
}

// Int64 returns an integer's value when it fits.
func (n Number) Int64() (int64, bool) {
	if n.Kind != NumInt || n.U > math.MaxInt64 {
		return 0, false
	}
	if n.Neg {
		return -1 - int64(n.U), true
	}
	return int64(n.U), true
}

// BigInt returns an integer or bignum as a big.Int.
func (n Number) BigInt() *big.Int {
	if n.Kind == NumBig || n.Kind == NumDecimal {
		return n.Big
	}
	v := new(big.Int).SetUint64(n.U)
	if n.Neg {
		v.Neg(v).Sub(v, big.NewInt(1))
	}
	return v
}

// float16 converts IEEE 754 half precision bits.
func float16(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 31:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(frac+1024, exp-25)
}

// Skip reads one whole item of any type.
func (r *Reader) Skip() error {
	start := r.pos
	major, arg, indef, err := r.head()
	if err != nil {
		return err
	}
	switch major {
	case MajorUint, MajorNeg:
		return nil
	case MajorBytes, MajorText:
		r.pos = start
		if major == MajorText {
			_, err = r.Text()
		} else {
			_, err = r.Bytes()
		}
		return err
	case MajorArray:
		r.pos = start
		return r.Array(func(int) error { return r.Skip() })
	case MajorMap:
		if err := r.enter(); err != nil {
			return err
		}
		defer func() { r.depth-- }()
		n := -1
		if !indef {
			if n, err = r.length(arg, 2); err != nil {
				return err
			}
		}
		for i := 0; n < 0 || i < 2*n; i++ {
			if n < 0 {
				if r.pos >= len(r.data) {
					return r.errorf("unexpected end of data")
				}
				if r.isBreak() {
					r.pos++
					return nil
				}
			}
			if err := r.Skip(); err != nil {
				return err
			}
		}
		return nil
	case MajorTag:
		if err := r.enter(); err != nil {
			return err
		}
		defer func() { r.depth-- }()
		return r.Skip()
	}
	if indef {
		r.pos = start
		return r.errorf("unexpected break")
	}
	if r.data[start]&0x1f == 24 && arg < 32 {
		r.pos = start
		return r.errorf("simple value %d in two bytes", arg)
	}
	return nil
}
