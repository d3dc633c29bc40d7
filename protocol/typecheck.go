package protocol

import (
	"errors"
	"fmt"
	"github.com/smithycurl/smithycurl/internal/b64"
	"math"
	"strconv"
	"strings"
)

// Type checks of input and output values. They are not constraint
// validation: they always run, because a value that does not fit its Smithy
// type cannot be written correctly on the wire, nor handed to a typed client
// (WithoutValidation does not turn them off). Encoders check what the caller
// gives, decoders what the service sends, by the same rules:
//
//   - byte, short, integer, long and intEnum (an integer): a whole number in
//     the type's range. A whole number written with a fraction or an
//     exponent (1.0, 1e2) is the integer it equals, and is sent as plain
//     digits (1, 100); 1.5 is refused.
//   - bigInteger: a whole number (same rule), at most maxBigDigits digits.
//   - float, double: a finite number in the type's range (a value too small
//     to represent rounds to zero), or "NaN", "Infinity", "-Infinity".
//   - bigDecimal: any JSON number.
//   - every number: the JSON grammar (01, 1., .5 and +1 are refused).
//   - blob: standard base64 with padding (RFC 4648 section 4); the URL-safe
//     alphabet and unpadded text are refused.
//   - timestamp: see minEpoch and maxEpoch.

// valueError is an input or output value that does not fit its type, with
// the member path to it. Containers add their part of the path as the error
// goes up, so the leaf only says what is wrong.
type valueError struct {
	rev []string // path parts, innermost first: "name", "[3]", `["key"]`
	msg string
}

func (e *valueError) Error() string {
	if len(e.rev) == 0 {
		return e.msg
	}
	return "member " + e.path() + ": " + e.msg
}

// path is the member path, outermost first ("items[2].name").
func (e *valueError) path() string {
	var b strings.Builder
	for i := len(e.rev) - 1; i >= 0; i-- {
		p := e.rev[i]
		if i < len(e.rev)-1 && p[0] != '[' {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func badValue(msg string) error { return &valueError{msg: msg} }

// within adds a path part to a *valueError; other errors pass unchanged.
// (The test for nil comes first: errors.As makes its target escape, and
// the path of every member of every value goes through here.)
func within(err error, part string) error {
	if err == nil {
		return nil
	}
	if ve, ok := err.(*valueError); ok {
		ve.rev = append(ve.rev, part)
		return err
	}
	var ve *valueError
	if errors.As(err, &ve) {
		ve.rev = append(ve.rev, part)
	}
	return err
}

func inMember(err error, name string) error {
	if err == nil {
		return nil
	}
	return within(err, name)
}

func inIndex(err error, i int) error {
	if err == nil {
		return nil
	}
	return within(err, "["+strconv.Itoa(i)+"]")
}

func inKey(err error, key []byte) error {
	if err == nil {
		return nil
	}
	return within(err, "["+strconv.Quote(string(key))+"]")
}

// nullItem consumes a null item of list or map sc and reports it; a null
// in a collection that is not @sparse is an input error (its member type
// has no null, boto3 refuses it too, and leaving it out would shift the
// indexes of a list). Protocols without a null form leave a sparse null out.
func nullItem(s *scanner, sc *shapeCodec) (bool, error) {
	if !s.isNull() {
		return false, nil
	}
	if !sc.sparse {
		what := "list"
		if sc.kind == kMap {
			what = "map"
		}
		return true, badValue("null in a " + what + " that is not @sparse")
	}
	return true, nil
}

// inputMember looks up member key of structure or union sc in an input.
func inputMember(sc *shapeCodec, key []byte) (*memberCodec, error) {
	if mc, ok := sc.byName[string(key)]; ok {
		return mc, nil
	}
	if sc.kind == kUnion {
		return nil, badValue(fmt.Sprintf("union %s has no member %q", sc.shape.ID, key))
	}
	return nil, badValue(fmt.Sprintf("%s has no member %q", sc.shape.ID, key))
}

// setMembers calls f for each member set (not null) in the input object at
// s of structure or union sc: an unknown member is refused, and a union
// needs exactly one member set. It returns how many members f saw.
func setMembers(s *scanner, sc *shapeCodec, f func(mc *memberCodec) error) (int, error) {
	count := 0
	err := s.object(func(key []byte) error {
		if sc.kind == kUnion && string(key) == unknownMemberKey {
			return unknownMemberInput(s, sc)
		}
		mc, err := inputMember(sc, key)
		if err != nil {
			return err
		}
		if s.isNull() {
			return nil
		}
		if sc.kind != kUnion {
			count++
		} else if err := oneUnionMember(&count, sc); err != nil {
			return err
		}
		return f(mc)
	})
	if err == nil && sc.kind == kUnion && count == 0 {
		err = badValue(fmt.Sprintf("union %s: no member is set", sc.shape.ID))
	}
	return count, err
}

// oneUnionMember counts a set member of union sc; a second is an error.
func oneUnionMember(count *int, sc *shapeCodec) error {
	if *count++; *count > 1 {
		return manyUnionMembers(sc)
	}
	return nil
}

func manyUnionMembers(sc *shapeCodec) error {
	return badValue(fmt.Sprintf("union %s: more than one member is set", sc.shape.ID))
}

// typeError says which kind of JSON value a member needs.
func typeError(want string) error { return badValue("expected " + want) }

// readNumber reads a JSON number, saying why when it is not one.
func readNumber(s *scanner) ([]byte, error) {
	lit, err := s.number()
	if err == nil {
		return lit, nil
	}
	if c := s.peek(); c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') {
		return nil, badValue(err.(*syntaxError).msg)
	}
	return nil, typeError("a number")
}

// readChecked reads a JSON number and checks it against the numeric type
// of sc (checkNumber): what every encoder sends for a number.
func readChecked(s *scanner, sc *shapeCodec) ([]byte, error) {
	lit, err := readNumber(s)
	if err != nil {
		return nil, err
	}
	return checkNumber(lit, sc)
}

// appendNumber reads a number of the numeric type of sc from JSON (the
// document form of an input, the wire JSON of an output), checks it
// (checkNumber; a float may also be "NaN", "Infinity" or "-Infinity") and
// appends what to write.
func appendNumber(dst []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	if sc.kind == kFloat && s.peek() == '"' {
		v, err := specialFloat(s)
		return appendString(dst, v), err
	}
	lit, err := readChecked(s, sc)
	return append(dst, lit...), err
}

// appendNumberText checks the text of a number received outside JSON (an
// XML element, a header) against the numeric type of sc and appends its
// document form. The text is a JSON number; a float may also be "NaN",
// "Infinity" or "-Infinity", and, when lenient (XML), a finite number
// strconv reads (".5", "+1", "1.").
func appendNumberText(dst []byte, t string, sc *shapeCodec, lenient bool) ([]byte, error) {
	if sc.kind == kFloat && (t == "NaN" || t == "Infinity" || t == "-Infinity") {
		return appendString(dst, t), nil
	}
	s := scanner{data: []byte(t)}
	lit, err := s.number()
	if err != nil || !s.atEnd() {
		f, perr := strconv.ParseFloat(t, 64)
		if !lenient || sc.kind != kFloat || perr != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return dst, badValue(strconv.Quote(t) + " is not a number (" + kindName(sc) + ")")
		}
		lit = strconv.AppendFloat(nil, f, 'g', -1, 64)
	}
	if lit, err = checkNumber(lit, sc); err != nil {
		return dst, err
	}
	return append(dst, lit...), nil
}

// readBase64 reads a JSON string holding standard base64 (checkBase64) and
// returns it as written, quotes included.
func readBase64(s *scanner) ([]byte, error) {
	raw, esc, err := s.rawString()
	if err != nil {
		return nil, typeError("a base64 string")
	}
	b64 := raw[1 : len(raw)-1]
	if esc {
		v, err := unescape(b64)
		if err != nil {
			return nil, err
		}
		b64 = []byte(v)
	}
	return raw, checkBase64(b64)
}

// specialFloat reads the string form of a float ("NaN", "Infinity" or
// "-Infinity", the only strings a float member takes).
func specialFloat(s *scanner) (string, error) {
	v, err := s.str()
	if err != nil || (v != "NaN" && v != "Infinity" && v != "-Infinity") {
		return "", typeError(`a number, "NaN", "Infinity" or "-Infinity"`)
	}
	return v, nil
}

// checkContainer checks that the value at s is the JSON kind sc takes: an
// array for a list, an object for a map, structure or union.
func checkContainer(s *scanner, sc *shapeCodec) error {
	switch c := s.peek(); sc.kind {
	case kList:
		if c != '[' {
			return typeError("an array")
		}
	case kMap, kStruct, kUnit, kUnion:
		if c != '{' {
			return typeError("an object")
		}
	}
	return nil
}

// maxBigDigits bounds the digits of a bigInteger, however it is written
// (1e100000 would otherwise be a 100 kB number).
const maxBigDigits = 10000

// checkNumber checks a JSON number literal against the numeric type of sc
// and returns the literal to send (lit itself, or the plain digits of a
// whole number written with a fraction or an exponent).
func checkNumber(lit []byte, sc *shapeCodec) ([]byte, error) {
	switch sc.kind {
	case kInt, kIntEnum:
		return checkInt(lit, sc)
	case kBigInt:
		if plainInt(lit) {
			// Every byte but a sign is a digit (JSON has no leading zeros).
			n := len(lit)
			if lit[0] == '-' {
				n--
			}
			if n > maxBigDigits {
				return nil, badValue(fmt.Sprintf("%.20s... (%d digits) has more than %d digits (bigInteger)", lit, n, maxBigDigits))
			}
			return lit, nil
		}
		neg, digits, zeros, ok := wholeNumber(lit)
		if !ok {
			return nil, badValue(string(lit) + " is not a whole number (bigInteger)")
		}
		if len(digits)+zeros > maxBigDigits {
			return nil, badValue(string(lit) + " has more than " + strconv.Itoa(maxBigDigits) + " digits (bigInteger)")
		}
		return appendDigits(nil, neg, digits, zeros), nil
	case kFloat:
		if sc.bits == 32 {
			return checkFloat(lit, 32, "float", "±3.4028234663852886e38")
		}
		return checkFloat(lit, 64, "double", "±1.7976931348623157e308")
	}
	return lit, nil
}

// plainInt reports whether lit has neither a fraction nor an exponent.
func plainInt(lit []byte) bool {
	for _, c := range lit {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

func checkInt(lit []byte, sc *shapeCodec) ([]byte, error) {
	bits := sc.bits
	if bits == 0 {
		bits = 32 // intEnum
	}
	typ := "integer"
	if sc.shape != nil {
		typ = string(sc.shape.Type)
	}
	lo, hi := -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
	if bits == 64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	rangeText := func() string {
		return " (" + typ + ": " + strconv.FormatInt(lo, 10) + " to " + strconv.FormatInt(hi, 10) + ")"
	}
	var neg bool
	var digits []byte
	zeros := 0
	plain := plainInt(lit)
	if plain {
		neg = lit[0] == '-'
		digits = lit
		if neg {
			digits = lit[1:]
		}
	} else {
		var ok bool
		if neg, digits, zeros, ok = wholeNumber(lit); !ok {
			return nil, badValue(string(lit) + " is not a whole number" + rangeText())
		}
	}
	if len(digits)+zeros > 19 {
		return nil, badValue(string(lit) + " is out of range" + rangeText())
	}
	var u uint64
	for _, c := range digits {
		u = u*10 + uint64(c-'0')
	}
	for i := 0; i < zeros; i++ {
		u *= 10
	}
	if (!neg && u > uint64(hi)) || (neg && u > uint64(-(lo+1))+1) {
		return nil, badValue(string(lit) + " is out of range" + rangeText())
	}
	if plain {
		return lit, nil
	}
	return appendDigits(nil, neg, digits, zeros), nil
}

func appendDigits(dst []byte, neg bool, digits []byte, zeros int) []byte {
	if len(digits) == 0 {
		return append(dst, '0')
	}
	if neg {
		dst = append(dst, '-')
	}
	dst = append(dst, digits...)
	for i := 0; i < zeros; i++ {
		dst = append(dst, '0')
	}
	return dst
}

// wholeNumber reads a JSON number literal as a whole number: its sign, its
// significant digits without leading zeros (empty for zero) and the count of
// zeros that follow them; ok is false when the value has a fraction.
func wholeNumber(lit []byte) (neg bool, digits []byte, zeros int, ok bool) {
	s := string(lit)
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1<<20 || e < -(1<<20) {
			// An absurd exponent: zero stays zero; otherwise a value
			// beyond any range, or a fraction when it is negative.
			if strings.Trim(mant, "0.") == "" {
				return false, nil, 0, true
			}
			if strings.HasPrefix(s[i+1:], "-") {
				return neg, nil, 0, false
			}
			return neg, []byte(strings.Trim(mant, "0.")), math.MaxInt32, true
		}
		exp = e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	all := []byte(whole + frac)
	point := len(whole) + exp // digits before the decimal point
	for len(all) > 0 && all[0] == '0' {
		all = all[1:]
		point--
	}
	for len(all) > 0 && all[len(all)-1] == '0' {
		all = all[:len(all)-1]
	}
	if len(all) == 0 {
		return false, nil, 0, true
	}
	if point < len(all) {
		return neg, nil, 0, false
	}
	return neg, all, point - len(all), true
}

// checkFloat checks that a number fits a float (bits 32) or a double.
func checkFloat(lit []byte, bits int, typ, max string) ([]byte, error) {
	// Fast path: without an exponent, fewer than 39 digits before the
	// point always fit.
	intDigits := 0
	for _, c := range lit {
		if c == 'e' || c == 'E' {
			intDigits = 99
			break
		}
		if c == '.' {
			break
		}
		if c != '-' {
			intDigits++
		}
	}
	if intDigits <= 38 {
		return lit, nil
	}
	f, err := strconv.ParseFloat(string(lit), bits)
	if err != nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
		return nil, badValue(string(lit) + " is out of range (" + typ + ": " + max + ")")
	}
	return lit, nil
}

// checkBase64 checks standard base64 with padding.
func checkBase64(b []byte) error {
	if b64.Valid(b) {
		return nil
	}
	if len(b)%4 != 0 {
		return badValue("invalid base64: the length is not a multiple of 4 (standard base64 with padding)")
	}
	for i, c := range b {
		if base64Alphabet[c] {
			continue
		}
		if c == '=' && i >= len(b)-2 && (i == len(b)-1 || b[len(b)-1] == '=') {
			continue
		}
		return badValue("invalid base64: illegal character " + strconv.QuoteRune(rune(c)) + " at offset " + strconv.Itoa(i) + " (standard base64 with padding)")
	}
	return nil
}

var base64Alphabet = func() (t [256]bool) {
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = true
	}
	return t
}()
