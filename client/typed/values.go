package typed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Document is a Smithy document: any JSON value, kept as its text. nil
// (the zero value) is no document; a JSON null is the text "null".
type Document []byte

// MarshalJSON returns d, or null when d is empty.
func (d Document) MarshalJSON() ([]byte, error) {
	if len(d) == 0 {
		return []byte("null"), nil
	}
	if !json.Valid(d) {
		return nil, fmt.Errorf("document %.40q is not JSON", d)
	}
	return d, nil
}

// UnmarshalJSON keeps a copy of b.
func (d *Document) UnmarshalJSON(b []byte) error {
	*d = append((*d)[:0], b...)
	return nil
}

// Decimal is a bigDecimal (or any number whose digits must all be kept):
// its JSON number text, e.g. "12.3456789012345678901".
type Decimal string

// MarshalJSON writes the number as it is; text that is not a JSON number
// is an error.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if !isJSONNumber(string(d)) {
		return nil, fmt.Errorf("decimal %q is not a number", string(d))
	}
	return []byte(d), nil
}

// UnmarshalJSON keeps the number's text (a quoted number is accepted).
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if len(s) >= 2 && s[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	if !isJSONNumber(s) {
		return fmt.Errorf("decimal %.40q is not a number", s)
	}
	*d = Decimal(s)
	return nil
}

// isJSONNumber reports whether s follows the JSON number grammar.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	start := i
	if n := digits(); n == 0 || (n > 1 && s[start] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// Float64 is a double as the document form writes it: a number, or the
// strings "NaN", "Infinity" and "-Infinity". Generated structures keep
// float64 fields and use Float64 only to marshal them.
type Float64 float64

// Float32 is a float as the document form writes it (see Float64).
type Float32 float32

// MarshalJSON writes f.
func (f Float64) MarshalJSON() ([]byte, error) { return appendFloat(nil, float64(f), 64), nil }

// UnmarshalJSON reads a number or one of the three strings.
func (f *Float64) UnmarshalJSON(b []byte) error {
	v, err := parseFloat(b, 64)
	*f = Float64(v)
	return err
}

// MarshalJSON writes f.
func (f Float32) MarshalJSON() ([]byte, error) { return appendFloat(nil, float64(f), 32), nil }

// UnmarshalJSON reads a number or one of the three strings.
func (f *Float32) UnmarshalJSON(b []byte) error {
	v, err := parseFloat(b, 32)
	*f = Float32(v)
	return err
}

func appendFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

func parseFloat(b []byte, bits int) (float64, error) {
	switch string(b) {
	case `"NaN"`:
		return math.NaN(), nil
	case `"Infinity"`:
		return math.Inf(1), nil
	case `"-Infinity"`:
		return math.Inf(-1), nil
	}
	v, err := strconv.ParseFloat(string(b), bits)
	if err != nil {
		return 0, fmt.Errorf("%.40q is not a float", b)
	}
	return v, nil
}
