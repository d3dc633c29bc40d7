package model

import (
	"fmt"
	"math/big"
	"time"
)

// TimestampValue reads a timestamp written in the model (a @default, an
// example): a number is epoch seconds (fractions allowed), a string is in
// the member's @timestampFormat (format, "" when none: date-time), and a
// date-time or http-date string is accepted whatever the format says.
// Every generator, the document form's defaults and `example` turn a
// timestamp value of the model into a time here.
func TimestampValue(n Node, format string) (time.Time, error) {
	switch n.Kind() {
	case NumberNode:
		f, ok := new(big.Float).SetPrec(128).SetString(n.Literal())
		if !ok {
			return time.Time{}, fmt.Errorf("invalid epoch seconds %s", n.Literal())
		}
		sec, _ := f.Int(nil)
		if f.Sign() < 0 && !f.IsInt() {
			sec.Sub(sec, big.NewInt(1)) // floor: -1.5 is -2 s + 0.5 s
		}
		if !sec.IsInt64() {
			return time.Time{}, fmt.Errorf("epoch seconds %s out of range", n.Literal())
		}
		frac := new(big.Float).Sub(f, new(big.Float).SetInt(sec))
		ns, _ := frac.Mul(frac, big.NewFloat(1e9)).Int64()
		return time.Unix(sec.Int64(), ns).UTC(), nil
	case StringNode:
		s := n.Str()
		layouts := []string{time.RFC3339Nano, httpDate}
		if format == "http-date" {
			layouts = []string{httpDate, time.RFC3339Nano}
		}
		if format == "epoch-seconds" {
			if t, err := TimestampValue(Number(s), ""); err == nil {
				return t, nil
			}
		}
		for _, l := range layouts {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), nil
			}
		}
		return time.Time{}, fmt.Errorf("invalid timestamp %q (want a date-time, an http-date or epoch seconds)", s)
	}
	return time.Time{}, fmt.Errorf("a timestamp is a number or a string, not %s", n.Kind())
}

// httpDate is the IMF-fixdate of http-date timestamps (fractions of a
// second tolerated by time.Parse).
const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// TimestampDefault is the @default of mem, a member targeting a
// timestamp, as a time; ok is false when it has none (or a null one).
func (m *Model) TimestampDefault(mem *Member) (t time.Time, ok bool, err error) {
	d, has := mem.Traits.Get(TraitDefault)
	if !has || d.IsNull() {
		return time.Time{}, false, nil
	}
	format, _ := m.MemberTrait(mem, TraitTimestampFormat)
	t, err = TimestampValue(d, format.Str())
	if err != nil {
		return time.Time{}, false, fmt.Errorf("%s: @default: %w", mem.ID, err)
	}
	return t, true, nil
}
