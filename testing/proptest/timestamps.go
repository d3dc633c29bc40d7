package proptest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// instant is a timestamp with nanosecond precision.
type instant struct {
	sec  int64
	nsec int64
}

func (t instant) String() string { return fmt.Sprintf("%d.%09d", t.sec, t.nsec) }

func (t instant) time() time.Time { return time.Unix(t.sec, t.nsec).UTC() }

func timeText(sec int64, ms int) string {
	return time.Unix(sec, int64(ms)*1e6).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// epochInstant reads epoch seconds written as a decimal number, exactly.
func epochInstant(lit string) (instant, error) {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return instant{}, fmt.Errorf("invalid epoch seconds %q", lit)
	}
	sec := new(big.Int).Div(r.Num(), r.Denom()) // floor (Euclidean, positive denominator)
	if !sec.IsInt64() {
		return instant{}, fmt.Errorf("epoch seconds %q out of range", lit)
	}
	frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(sec))
	frac.Mul(frac, big.NewRat(1e9, 1))
	nsec := new(big.Int).Div(frac.Num(), frac.Denom()).Int64()
	return instant{sec.Int64(), nsec}, nil
}

func dateTimeInstant(s string) (instant, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	if err != nil {
		return instant{}, err
	}
	return instant{t.Unix(), int64(t.Nanosecond())}, nil
}

// docInstant reads a timestamp in the document form.
func docInstant(v any) (instant, error) {
	switch x := v.(type) {
	case json.Number:
		return epochInstant(string(x))
	case string:
		return dateTimeInstant(x)
	}
	return instant{}, fmt.Errorf("a timestamp must be a number or a string, not %T", v)
}

// formatInstant writes t as text in format.
func formatInstant(format string, t instant) string {
	switch format {
	case fmtHTTPDate:
		return t.time().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	case fmtEpoch:
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

// parseInstant reads a timestamp written as text in format.
func parseInstant(format, s string) (instant, error) {
	switch format {
	case fmtHTTPDate:
		t, err := time.Parse("Mon, 02 Jan 2006 15:04:05 GMT", s)
		if err != nil {
			return instant{}, err
		}
		return instant{t.Unix(), 0}, nil
	case fmtEpoch:
		return epochInstant(s)
	default:
		return dateTimeInstant(s)
	}
}
