package cbor

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// Diagnostic writes the data items of data in CBOR diagnostic notation
// (RFC 8949 section 8), for people to read: {"a": [1, -2, 1.5]},
// h'0102', 1(1700000000), 2(h'010000000000000000'), [_ 1, 2],
// (_ "ab", "c"), NaN, Infinity, undefined, simple(16). Items are separated
// by ", ". Malformed data is written up to the error, then the error.
func Diagnostic(data []byte) string {
	r := NewReader(data)
	var out []byte
	for !r.AtEnd() {
		if len(out) > 0 {
			out = append(out, ", "...)
		}
		var err error
		if out, err = r.diag(out); err != nil {
			out = append(out, " <error: "...)
			out = append(out, err.Error()...)
			return string(append(out, '>'))
		}
	}
	return string(out)
}

// AppendDiagnostic reads one data item and appends it in diagnostic
// notation.
func (r *Reader) AppendDiagnostic(dst []byte) ([]byte, error) { return r.diag(dst) }

func (r *Reader) diag(dst []byte) ([]byte, error) {
	start := r.pos
	major, arg, indef, err := r.head()
	if err != nil {
		return dst, err
	}
	switch major {
	case MajorUint:
		return strconv.AppendUint(dst, arg, 10), nil
	case MajorNeg:
		if arg == math.MaxUint64 {
			return append(dst, "-18446744073709551616"...), nil
		}
		return strconv.AppendUint(append(dst, '-'), arg+1, 10), nil
	case MajorBytes, MajorText:
		if indef {
			dst = append(dst, "(_ "...)
			for i := 0; ; i++ {
				if r.pos >= len(r.data) {
					return dst, r.errorf("unexpected end of data")
				}
				if r.isBreak() {
					r.pos++
					return append(dst, ')'), nil
				}
				if i > 0 {
					dst = append(dst, ", "...)
				}
				if dst, err = r.diagString(dst, major); err != nil {
					return dst, err
				}
			}
		}
		r.pos = start
		return r.diagString(dst, major)
	case MajorArray:
		r.pos = start
		dst = append(dst, '[')
		if indef {
			dst = append(dst, "_ "...)
		}
		err := r.Array(func(i int) error {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			var err error
			dst, err = r.diag(dst)
			return err
		})
		return append(dst, ']'), err
	case MajorMap:
		if err := r.enter(); err != nil {
			return dst, err
		}
		defer func() { r.depth-- }()
		dst = append(dst, '{')
		if indef {
			dst = append(dst, "_ "...)
		}
		n := -1
		if !indef {
			if n, err = r.length(arg, 2); err != nil {
				return dst, err
			}
		}
		for i := 0; n < 0 || i < n; i++ {
			if n < 0 {
				if r.pos >= len(r.data) {
					return dst, r.errorf("unexpected end of data")
				}
				if r.isBreak() {
					r.pos++
					break
				}
			}
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = r.diag(dst); err != nil {
				return dst, err
			}
			dst = append(dst, ": "...)
			if dst, err = r.diag(dst); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case MajorTag:
		if err := r.enter(); err != nil {
			return dst, err
		}
		defer func() { r.depth-- }()
		dst = append(strconv.AppendUint(dst, arg, 10), '(')
		dst, err = r.diag(dst)
		return append(dst, ')'), err
	}
	info := r.data[start] & 0x1f
	switch {
	case indef:
		return dst, r.errorf("unexpected break")
	case info == 20:
		return append(dst, "false"...), nil
	case info == 21:
		return append(dst, "true"...), nil
	case info == 22:
		return append(dst, "null"...), nil
	case info == 23:
		return append(dst, "undefined"...), nil
	case info < 24 || info == 24:
		return append(strconv.AppendUint(append(dst, "simple("...), arg, 10), ')'), nil
	}
	var f float64
	bits := 64
	switch info {
	case 25:
		f = float16(uint16(arg))
	case 26:
		f, bits = float64(math.Float32frombits(uint32(arg))), 32
	default:
		f = math.Float64frombits(arg)
	}
	return appendFloat(dst, f, bits), nil
}

// appendFloat writes a float in diagnostic notation: NaN, Infinity,
// -Infinity, or a number with a decimal point or an exponent.
func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	start := len(dst)
	dst = appendShortest(dst, f, bits)
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' || c == 'n' || c == 'I' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

func (r *Reader) diagString(dst []byte, major byte) ([]byte, error) {
	if major == MajorBytes {
		b, err := r.Bytes()
		if err != nil {
			return dst, err
		}
		dst = append(dst, "h'"...)
		dst = hex.AppendEncode(dst, b)
		return append(dst, '\''), nil
	}
	b, err := r.string(MajorText)
	if err != nil {
		return dst, err
	}
	if !utf8.Valid(b) {
		// Shown as bytes so that the reader sees what was sent.
		dst = append(dst, "<invalid UTF-8> h'"...)
		dst = hex.AppendEncode(dst, b)
		return append(dst, '\''), nil
	}
	return strconv.AppendQuote(dst, string(b)), nil
}

// AppendJSON reads one data item and appends it as JSON: text strings as
// strings, byte strings as base64 strings, integers, bignums and decimal
// fractions with every digit, floats as numbers or "NaN", "Infinity",
// "-Infinity", null and undefined as null, other tags as their content.
// Map keys must be text strings. It is the value of a Smithy document, or
// of an error body no shape describes.
func (r *Reader) AppendJSON(dst []byte) ([]byte, error) {
	if r.IsNull() {
		return append(dst, "null"...), nil
	}
	major, info, err := r.Peek()
	if err != nil {
		return dst, err
	}
	switch major {
	case MajorText:
		b, err := r.Text()
		if err != nil {
			return dst, err
		}
		return jsonstr.Append(dst, b), nil
	case MajorBytes:
		b, err := r.Bytes()
		if err != nil {
			return dst, err
		}
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, b)
		return append(dst, '"'), nil
	case MajorArray:
		dst = append(dst, '[')
		err := r.Array(func(i int) error {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			dst, err = r.AppendJSON(dst)
			return err
		})
		return append(dst, ']'), err
	case MajorMap:
		dst = append(dst, '{')
		n := 0
		err := r.Map(func(key []byte) error {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = jsonstr.Append(dst, key)
			dst = append(dst, ':')
			var err error
			dst, err = r.AppendJSON(dst)
			return err
		})
		return append(dst, '}'), err
	case MajorSimple:
		if info == 20 || info == 21 {
			v, _ := r.Bool()
			return strconv.AppendBool(dst, v), nil
		}
	case MajorTag:
		start := r.pos
		tag, _, err := r.Tag()
		if err != nil {
			return dst, err
		}
		if tag == TagPosBignum || tag == TagNegBignum || tag == TagDecimal {
			r.pos = start
			break
		}
		if err := r.enter(); err != nil {
			return dst, err
		}
		defer func() { r.depth-- }()
		return r.AppendJSON(dst)
	}
	n, err := r.Number()
	if err != nil {
		return dst, err
	}
	return AppendNumber(dst, n), nil
}

// AppendNumber writes a number as JSON: every digit of integers, bignums
// and decimal fractions; floats in the shortest form that reads back the
// same at their width, or "NaN", "Infinity", "-Infinity" as strings.
func AppendNumber(dst []byte, n Number) []byte {
	switch n.Kind {
	case NumInt:
		if n.Neg {
			if n.U == math.MaxUint64 {
				return append(dst, "-18446744073709551616"...)
			}
			return strconv.AppendUint(append(dst, '-'), n.U+1, 10)
		}
		return strconv.AppendUint(dst, n.U, 10)
	case NumBig:
		return n.Big.Append(dst, 10)
	case NumDecimal:
		return AppendDecimalText(dst, n.Big, n.Exp)
	}
	switch {
	case math.IsNaN(n.F):
		return append(dst, `"NaN"`...)
	case math.IsInf(n.F, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(n.F, -1):
		return append(dst, `"-Infinity"`...)
	}
	bits := 64
	if n.Bits < 64 {
		bits = 32
	}
	return appendShortest(dst, n.F, bits)
}

// appendShortest writes a finite float in the shortest form that reads
// back the same at its width, without an exponent from 1e-6 to 1e21 (as
// JavaScript and most JSON writers do).
func appendShortest(dst []byte, f float64, bits int) []byte {
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.AppendFloat(dst, f, 'f', -1, bits)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// AppendDecimalText writes mantissa times ten to the power exp as a plain
// decimal number (an exponent only when it is far from the digits).
func AppendDecimalText(dst []byte, mantissa *big.Int, exp int64) []byte {
	digits := mantissa.String()
	neg := false
	if digits[0] == '-' {
		neg, digits = true, digits[1:]
	}
	if neg {
		dst = append(dst, '-')
	}
	switch {
	case exp >= 0 && exp <= 64:
		dst = append(dst, digits...)
		for i := int64(0); i < exp; i++ {
			dst = append(dst, '0')
		}
		return dst
	case exp < 0 && -exp < int64(len(digits)):
		k := len(digits) + int(exp)
		dst = append(dst, digits[:k]...)
		dst = append(dst, '.')
		return append(dst, digits[k:]...)
	case exp < 0 && -exp <= int64(len(digits))+64:
		dst = append(dst, "0."...)
		for i := int64(0); i < -exp-int64(len(digits)); i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits...)
	dst = append(dst, 'e')
	return strconv.AppendInt(dst, exp, 10)
}
