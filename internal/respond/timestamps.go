package respond

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Instant is a timestamp with nanosecond precision.
type Instant struct {
	sec  int64
	nsec int64
}

func (t Instant) String() string { return fmt.Sprintf("%d.%09d", t.sec, t.nsec) }

func (t Instant) time() time.Time { return time.Unix(t.sec, t.nsec).UTC() }

// epochInstant reads epoch seconds written as a decimal number, exactly.
func epochInstant(lit string) (Instant, error) {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return Instant{}, fmt.Errorf("invalid epoch seconds %q", lit)
	}
	sec := new(big.Int).Div(r.Num(), r.Denom()) // floor (Euclidean, positive denominator)
	if !sec.IsInt64() {
		return Instant{}, fmt.Errorf("epoch seconds %q out of range", lit)
	}
	frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(sec))
	frac.Mul(frac, big.NewRat(1e9, 1))
	nsec := new(big.Int).Div(frac.Num(), frac.Denom()).Int64()
	return Instant{sec.Int64(), nsec}, nil
}

func dateTimeInstant(s string) (Instant, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	if err != nil {
		return Instant{}, err
	}
	return Instant{t.Unix(), int64(t.Nanosecond())}, nil
}

// DocInstant reads a timestamp in the document form.
func DocInstant(v any) (Instant, error) {
	switch x := v.(type) {
	case json.Number:
		return epochInstant(string(x))
	case string:
		return dateTimeInstant(x)
	}
	return Instant{}, fmt.Errorf("a timestamp must be a number or a string, not %T", v)
}

// FormatInstant writes t as text in format.
func FormatInstant(format string, t Instant) string {
	switch format {
	case FmtHTTPDate:
		return t.time().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	case FmtEpoch:
		s := strconv.FormatInt(t.sec, 10)
		if t.nsec != 0 {
			// Exact decimal of sec + nsec/1e9.
			n := new(big.Int).Mul(big.NewInt(t.sec), big.NewInt(1e9))
			r := new(big.Rat).SetFrac(n.Add(n, big.NewInt(t.nsec)), big.NewInt(1e9))
			s = strings.TrimRight(r.FloatString(9), "0")
		}
		return s
	default:
		return t.time().Format(time.RFC3339Nano)
	}
}

// ParseInstant reads a timestamp written as text in format.
func ParseInstant(format, s string) (Instant, error) {
	switch format {
	case FmtHTTPDate:
		t, err := time.Parse("Mon, 02 Jan 2006 15:04:05 GMT", s)
		if err != nil {
			return Instant{}, err
		}
		return Instant{t.Unix(), 0}, nil
	case FmtEpoch:
		return epochInstant(s)
	default:
		return dateTimeInstant(s)
	}
}

// Truncate is t without its fraction of a second.
func (t Instant) Truncate() Instant { return Instant{t.sec, 0} }
