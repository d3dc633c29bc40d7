package cbor

import (
	"encoding/binary"
	"math"
	"math/big"
)

// AppendHead appends an initial byte with its argument in the shortest form.
func AppendHead(dst []byte, major byte, arg uint64) []byte {
	m := major << 5
	switch {
	case arg < 24:
		return append(dst, m|byte(arg))
	case arg <= math.MaxUint8:
		return append(dst, m|24, byte(arg))
	case arg <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(dst, m|25), uint16(arg))
	case arg <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(dst, m|26), uint32(arg))
	}
	return binary.BigEndian.AppendUint64(append(dst, m|27), arg)
}

// headLen is the size of the head AppendHead writes for arg.
func headLen(arg uint64) int {
	switch {
	case arg < 24:
		return 1
	case arg <= math.MaxUint8:
		return 2
	case arg <= math.MaxUint16:
		return 3
	case arg <= math.MaxUint32:
		return 5
	}
	return 9
}

// StartContainer reserves the one-byte head of an array or map whose count
// is not known yet; EndContainer writes it.
func StartContainer(dst []byte) ([]byte, int) { return append(dst, 0), len(dst) }

// EndContainer writes the head of the array or map started at mark with n
// items (pairs for a map), moving its content when the head needs more
// than one byte.
func EndContainer(dst []byte, mark int, major byte, n int) []byte {
	hl := headLen(uint64(n))
	if hl > 1 {
		end := len(dst)
		dst = append(dst, make([]byte, hl-1)...)
		copy(dst[mark+hl:], dst[mark+1:end])
	}
	AppendHead(dst[mark:mark], major, uint64(n))
	return dst
}

// AppendInt appends an integer.
func AppendInt(dst []byte, v int64) []byte {
	if v < 0 {
		return AppendHead(dst, MajorNeg, uint64(-1-v))
	}
	return AppendHead(dst, MajorUint, uint64(v))
}

// AppendBigInt appends an integer: major type 0 or 1 when it fits 64 bits,
// else a bignum (tag 2 or 3).
func AppendBigInt(dst []byte, v *big.Int) []byte {
	if v.IsUint64() {
		return AppendHead(dst, MajorUint, v.Uint64())
	}
	if v.Sign() < 0 {
		m := new(big.Int).Neg(v)
		m.Sub(m, big.NewInt(1))
		if m.IsUint64() {
			return AppendHead(dst, MajorNeg, m.Uint64())
		}
		dst = AppendHead(dst, MajorTag, TagNegBignum)
		return AppendBytes(dst, m.Bytes())
	}
	dst = AppendHead(dst, MajorTag, TagPosBignum)
	return AppendBytes(dst, v.Bytes())
}

// AppendBignum appends an integer always as a bignum (tag 2 or 3).
func AppendBignum(dst []byte, v *big.Int) []byte {
	if v.Sign() < 0 {
		m := new(big.Int).Neg(v)
		m.Sub(m, big.NewInt(1))
		dst = AppendHead(dst, MajorTag, TagNegBignum)
		return AppendBytes(dst, m.Bytes())
	}
	dst = AppendHead(dst, MajorTag, TagPosBignum)
	return AppendBytes(dst, v.Bytes())
}

// AppendDecimal appends mantissa times ten to the power exp as a decimal
// fraction (tag 4).
func AppendDecimal(dst []byte, mantissa *big.Int, exp int64) []byte {
	dst = AppendHead(dst, MajorTag, TagDecimal)
	dst = append(dst, MajorArray<<5|2)
	dst = AppendInt(dst, exp)
	return AppendBigInt(dst, mantissa)
}

// AppendText appends a text string.
func AppendText(dst []byte, s string) []byte {
	return append(AppendHead(dst, MajorText, uint64(len(s))), s...)
}

// AppendTextBytes appends a text string given as bytes.
func AppendTextBytes(dst, s []byte) []byte {
	return append(AppendHead(dst, MajorText, uint64(len(s))), s...)
}

// AppendBytes appends a byte string.
func AppendBytes(dst, b []byte) []byte {
	return append(AppendHead(dst, MajorBytes, uint64(len(b))), b...)
}

// AppendBool appends true or false.
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, 0xf5)
	}
	return append(dst, 0xf4)
}

// AppendNull appends null.
func AppendNull(dst []byte) []byte { return append(dst, 0xf6) }

// AppendFloat32 appends a single-precision float.
func AppendFloat32(dst []byte, f float32) []byte {
	return binary.BigEndian.AppendUint32(append(dst, 0xfa), math.Float32bits(f))
}

// AppendFloat64 appends a double-precision float.
func AppendFloat64(dst []byte, f float64) []byte {
	return binary.BigEndian.AppendUint64(append(dst, 0xfb), math.Float64bits(f))
}
