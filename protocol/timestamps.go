package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Timestamp formats of the timestampFormat trait.
const (
	formatDateTime     = "date-time"
	formatHTTPDate     = "http-date"
	formatEpochSeconds = "epoch-seconds"
)

// timestamp is an instant with nanosecond precision.
type timestamp struct {
	sec  int64
	nsec int32
}

func (t timestamp) time() time.Time { return time.Unix(t.sec, int64(t.nsec)).UTC() }

func fromTime(tt time.Time) timestamp {
	return timestamp{sec: tt.Unix(), nsec: int32(tt.Nanosecond())}
}

// The range of timestamps: the years 0001 to 9999, what every timestamp
// format can write (date-time and http-date have four-digit years). Values
// outside it, in any form, are errors.
const (
	minEpoch = -62135596800 // 0001-01-01T00:00:00Z
	maxEpoch = 253402300799 // 9999-12-31T23:59:59Z (fractions up to .999999999)
)

func rangeError(what string) error {
	return fmt.Errorf("timestamp %s is out of range: years 0001 to 9999 (epoch seconds %d to %d.999999999)", what, int64(minEpoch), int64(maxEpoch))
}

// parseEpoch reads epoch seconds written as a decimal number (fractions and
// exponents allowed) without going through float64 for the common forms.
func parseEpoch(lit string) (timestamp, error) {
	if strings.ContainsAny(lit, "eE") {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return timestamp{}, fmt.Errorf("invalid epoch seconds %q", lit)
		}
		if !(f >= minEpoch && f < maxEpoch+1) { // NaN too
			return timestamp{}, rangeError(lit)
		}
		sec := int64(f)
		if f < 0 && float64(sec) != f {
			sec--
		}
		return timestamp{sec: sec, nsec: int32((f - float64(sec)) * 1e9)}, nil
	}
	whole, frac, _ := strings.Cut(lit, ".")
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return timestamp{}, rangeError(lit)
		}
		return timestamp{}, fmt.Errorf("invalid epoch seconds %q", lit)
	}
	var nsec int64
	if frac != "" {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		n, err := strconv.ParseUint(frac, 10, 32)
		if err != nil {
			return timestamp{}, fmt.Errorf("invalid epoch seconds %q", lit)
		}
		nsec = int64(n)
		for i := len(frac); i < 9; i++ {
			nsec *= 10
		}
	}
	if strings.HasPrefix(whole, "-") && nsec > 0 {
		sec--
		nsec = 1e9 - nsec
	}
	if sec < minEpoch || sec > maxEpoch {
		return timestamp{}, rangeError(lit)
	}
	return timestamp{sec: sec, nsec: int32(nsec)}, nil
}

// checkRange refuses a parsed text timestamp outside the years 0001 to 9999.
func checkRange(t timestamp, text string) (timestamp, error) {
	if t.sec < minEpoch || t.sec > maxEpoch {
		return timestamp{}, rangeError(strconv.Quote(text))
	}
	return t, nil
}

// appendEpoch writes epoch seconds, with the fraction only when there is one.
func appendEpoch(dst []byte, t timestamp) []byte {
	sec, nsec := t.sec, int64(t.nsec)
	if sec < 0 && nsec > 0 {
		// -1.5 is sec -2, nsec 5e8.
		sec++
		nsec = 1e9 - nsec
		if sec == 0 {
			dst = append(dst, '-')
		}
	}
	dst = strconv.AppendInt(dst, sec, 10)
	return appendFraction(dst, nsec)
}

func appendFraction(dst []byte, nsec int64) []byte {
	if nsec == 0 {
		return dst
	}
	var digits [9]byte
	for i := 8; i >= 0; i-- {
		digits[i] = byte('0' + nsec%10)
		nsec /= 10
	}
	n := 9
	for n > 0 && digits[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, digits[:n]...)
}

// appendDateTime writes RFC 3339 in UTC, fractional seconds kept when present.
func appendDateTime(dst []byte, t timestamp) []byte {
	tt := time.Unix(t.sec, 0).UTC()
	dst = tt.AppendFormat(dst, "2006-01-02T15:04:05")
	dst = appendFraction(dst, int64(t.nsec))
	return append(dst, 'Z')
}

// httpDate is the layout of an IMF-fixdate (RFC 9110), the http-date
// format.
const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// appendHTTPDate writes an IMF-fixdate; fractions of a second are dropped.
func appendHTTPDate(dst []byte, t timestamp) []byte {
	return time.Unix(t.sec, 0).UTC().AppendFormat(dst, httpDate)
}

// parseDateTime reads an RFC 3339 date-time with any offset.
func parseDateTime(s string) (timestamp, error) {
	tt, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		// time.Parse rejects lower-case t and z; RFC 3339 allows them.
		if tt2, err2 := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err2 == nil {
			return checkRange(fromTime(tt2), s)
		}
		return timestamp{}, fmt.Errorf("invalid date-time %q", s)
	}
	return checkRange(fromTime(tt), s)
}

// parseHTTPDate reads an IMF-fixdate (fractional seconds tolerated).
func parseHTTPDate(s string) (timestamp, error) {
	for _, layout := range []string{httpDate, "Mon, 02 Jan 2006 15:04:05.999999999 GMT", time.RFC850, time.ANSIC} {
		if tt, err := time.Parse(layout, s); err == nil {
			return checkRange(fromTime(tt), s)
		}
	}
	return timestamp{}, fmt.Errorf("invalid http-date %q", s)
}

// parseTimestampText reads a timestamp written as text in format.
func parseTimestampText(format, s string) (timestamp, error) {
	switch format {
	case formatEpochSeconds:
		return parseEpoch(s)
	case formatHTTPDate:
		return parseHTTPDate(s)
	default:
		return parseDateTime(s)
	}
}

// appendTimestampText writes t as text in format (no JSON quoting).
func appendTimestampText(dst []byte, format string, t timestamp) []byte {
	switch format {
	case formatEpochSeconds:
		return appendEpoch(dst, t)
	case formatHTTPDate:
		return appendHTTPDate(dst, t)
	default:
		return appendDateTime(dst, t)
	}
}

// readDocTimestamp reads a timestamp in the document form: epoch seconds as a
// number, or an RFC 3339 string. Errors are *valueError.
func readDocTimestamp(s *scanner) (timestamp, error) {
	var t timestamp
	var err error
	if s.peek() == '"' {
		var v string
		if v, err = s.str(); err != nil {
			return t, err
		}
		t, err = parseDateTime(v)
	} else {
		lit, err2 := readNumber(s)
		if err2 != nil {
			if ve, ok := err2.(*valueError); ok && ve.msg == "expected a number" {
				return t, typeError("epoch seconds or an RFC 3339 string")
			}
			return t, err2
		}
		t, err = parseEpoch(string(lit))
	}
	if err != nil {
		return t, badValue(err.Error())
	}
	return t, nil
}

// parseStrictTimestamp reads a timestamp as a server takes it: in its
// format and that form alone. Epoch seconds are a JSON number; a date-time
// is RFC 3339 in UTC ("Z", no offset); an http-date is an IMF-fixdate.
func parseStrictTimestamp(format, s string) (timestamp, error) {
	switch format {
	case formatEpochSeconds:
		sc := scanner{data: []byte(s)}
		if lit, err := sc.number(); err != nil || !sc.atEnd() || string(lit) != s {
			return timestamp{}, fmt.Errorf("invalid epoch seconds %q", s)
		}
		return parseEpoch(s)
	case formatHTTPDate:
		tt, err := time.Parse(httpDate, s)
		if err != nil {
			return timestamp{}, fmt.Errorf("invalid http-date %q", s)
		}
		return checkRange(fromTime(tt), s)
	}
	if !strictDateTime(s) {
		return timestamp{}, fmt.Errorf("invalid date-time %q (RFC 3339 in UTC)", s)
	}
	return parseDateTime(s)
}

// strictDateTime reports whether s is YYYY-MM-DDThh:mm:ss[.f+]Z.
func strictDateTime(s string) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(shape)+1 || s[len(s)-1] != 'Z' {
		return false
	}
	for i := 0; i < len(shape); i++ {
		if c := s[i]; (shape[i] == 'd' && (c < '0' || c > '9')) || (shape[i] != 'd' && c != shape[i]) {
			return false
		}
	}
	rest := s[len(shape) : len(s)-1]
	if rest == "" {
		return true
	}
	if rest[0] != '.' || len(rest) == 1 {
		return false
	}
	for i := 1; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return false
		}
	}
	return true
}

// strictTimestamp reads a timestamp of a request body: a number for
// epoch seconds (the default), a string in the member's format else.
func (o *jsonOptions) strictTimestamp(s *scanner, mc *memberCodec) (timestamp, error) {
	format := orDefault(mc.tsFormat, formatEpochSeconds)
	if format == formatEpochSeconds {
		lit, err := s.number()
		if err != nil {
			return timestamp{}, typeError("epoch seconds (a number)")
		}
		t, err := parseEpoch(string(lit))
		if err != nil {
			return t, badValue(err.Error())
		}
		return t, nil
	}
	if s.peek() != '"' {
		return timestamp{}, typeError("a " + format + " string")
	}
	v, err := s.str()
	if err != nil {
		return timestamp{}, badValue(err.Error())
	}
	t, err := parseStrictTimestamp(format, v)
	if err != nil {
		return t, badValue(err.Error())
	}
	return t, nil
}
