package protocol

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// scanner reads JSON text in place. The codecs drive it from the shape of the
// value they expect, so no intermediate tree is built: a string that needs no
// change is copied from the input as it is.
type scanner struct {
	data  []byte
	pos   int
	depth int // objects and arrays open
	// unchecked: skip finds where strings end without checking their
	// bodies (Members, whose callers pick members out of an input that the
	// codec checks whole).
	unchecked bool
}

// maxNesting bounds the objects and arrays open at once, as the CBOR
// reader bounds its nesting: a recursive shape must not let a deep value
// exhaust the stack.
const maxNesting = cbor.MaxDepth

func (s *scanner) enter() error {
	if s.depth >= maxNesting {
		return s.errorf("nesting deeper than %d", maxNesting)
	}
	s.depth++
	return nil
}

// syntaxError is returned for malformed JSON.
type syntaxError struct {
	pos int
	msg string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.pos, e.msg)
}

func (s *scanner) errorf(format string, args ...any) error {
	return &syntaxError{pos: s.pos, msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte (0 at the end).
func (s *scanner) peek() byte {
	s.ws()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

func (s *scanner) expect(c byte) error {
	if s.peek() != c {
		if s.pos >= len(s.data) {
			return s.errorf("expected %q, found the end", c)
		}
		return s.errorf("expected %q, found %q", c, s.data[s.pos])
	}
	s.pos++
	return nil
}

// atEnd reports whether only spaces remain.
func (s *scanner) atEnd() bool { return s.peek() == 0 && s.pos >= len(s.data) }

// literal consumes null, true or false.
func (s *scanner) literal(word string) bool {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	return false
}

// rawString consumes a string and returns it with its quotes, as written, and
// whether it contains escapes.
func (s *scanner) rawString() ([]byte, bool, error) { return s.scanString(true) }

// scanString is rawString; checkUTF8 false leaves the UTF-8 check to the
// reader of the value (skip only finds where a value ends, so that the
// error of a bad string comes with the full member path).
func (s *scanner) scanString(checkUTF8 bool) ([]byte, bool, error) {
	if s.peek() != '"' {
		return nil, false, s.errorf("expected a string")
	}
	start := s.pos
	if s.unchecked && !checkUTF8 {
		raw, err := s.stringEnd()
		return raw, true, err // true: it may hold escapes
	}
	s.pos++
	escaped := false
	high := uint64(0)
	if checkUTF8 {
		high = nonASCII
	}
	for s.pos < len(s.data) {
		s.pos = plainRun(s.data, s.pos, high)
		if s.pos >= len(s.data) {
			break
		}
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.data[start:s.pos], escaped, nil
		case c == '\\':
			// Only the escapes of RFC 8259 7 are JSON; any other is
			// refused, never copied into a request or an output.
			escaped = true
			n := escapeLen(s.data[s.pos:])
			if n == 0 {
				return nil, false, s.errorf("invalid escape in string")
			}
			if n == 6 {
				// A lone surrogate is no Unicode text (RFC 8259 8.2):
				// encoding it would replace it or send what a strict
				// reader refuses.
				var lone bool
				if n, lone = jsonstr.UEscape(s.data[s.pos:]); lone {
					return nil, false, s.errorf("lone surrogate %s in string", s.data[s.pos:s.pos+6])
				}
			}
			s.pos += n
		case c < 0x20:
			return nil, false, s.errorf("control character in string")
		case c >= utf8.RuneSelf && checkUTF8:
			// JSON text is UTF-8 (RFC 8259 8.1): bytes that are not are
			// refused, never copied into a request or an output.
			r, n := utf8.DecodeRune(s.data[s.pos:])
			if r == utf8.RuneError && n == 1 {
				return nil, false, s.errorf("invalid UTF-8 in string")
			}
			s.pos += n
		default:
			s.pos++
		}
	}
	return nil, false, s.errorf("unterminated string")
}

// stringEnd consumes the string at s.pos, found by its closing quote
// alone (the first one after an even run of backslashes), at the speed of
// bytes.IndexByte.
func (s *scanner) stringEnd() ([]byte, error) {
	start := s.pos
	for i := start + 1; ; {
		j := bytes.IndexByte(s.data[i:], '"')
		if j < 0 {
			s.pos = len(s.data)
			return nil, s.errorf("unterminated string")
		}
		q := i + j
		n := 0
		for q-1-n > start && s.data[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			s.pos = q + 1
			return s.data[start:s.pos], nil
		}
		i = q + 1
	}
}

// plainRun returns the offset of the first byte at or after i in a
// string's body that needs a look (a quote, a backslash, a control
// character and, with high nonASCII, a byte of 0x80 or more), found 8 bytes a
// step (a blob's 1.4 MB of base64 is read 8 bytes a step instead of one),
// or of the last bytes, fewer than 8, which the caller reads one by one.
// A short string ("id") ends in its first step, at its quote.
func plainRun(b []byte, i int, high uint64) int {
	const ones, highs = 0x0101010101010101, nonASCII
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// A byte below 0x20 or equal to '"' or '\\' (the bit tricks of
		// "Bit Twiddling Hacks": hasless, haszero). A borrow only runs
		// from a flagged byte to the ones above it: the lowest flag (the
		// first byte, little-endian) is exact.
		if m := ((x-ones*0x20)&^x|(q-ones)&^q|(bs-ones)&^bs)&highs | x&high; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return i
}

// nonASCII is plainRun's high for a scan that stops at every byte of 0x80
// or more (0: none).
const nonASCII = 0x8080808080808080

// escapeLen is the length of the JSON escape at the start of b (which
// begins with a backslash), or 0 when it is not one.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for _, h := range b[2:6] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// str consumes a string and returns its value.
func (s *scanner) str() (string, error) {
	raw, esc, err := s.rawString()
	if err != nil {
		return "", err
	}
	if !esc {
		return string(raw[1 : len(raw)-1]), nil
	}
	return unescape(raw[1 : len(raw)-1])
}

// strBytes is str without a copy when the string has no escapes; the result
// aliases the input.
func (s *scanner) strBytes() ([]byte, error) {
	raw, esc, err := s.rawString()
	if err != nil {
		return nil, err
	}
	if !esc {
		return raw[1 : len(raw)-1], nil
	}
	v, err := unescape(raw[1 : len(raw)-1])
	return []byte(v), err
}

func unescape(b []byte) (string, error) {
	out, err := jsonstr.Unescape(make([]byte, 0, len(b)), string(b))
	return string(out), err
}

// number consumes a JSON number and returns its literal. The JSON grammar
// is enforced: 01, 1., .5, +1 and 1e are not numbers.
func (s *scanner) number() ([]byte, error) {
	s.ws()
	d, start := s.data, s.pos
	i := start
	digits := func() int {
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	ok := true
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case digits() == 0:
		if i == start && (i >= len(d) || (d[i] != '+' && d[i] != '.')) {
			return nil, s.errorf("expected a number")
		}
		ok = false
	}
	if ok && i < len(d) && d[i] == '.' {
		i++
		ok = digits() > 0
	}
	if ok && i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		ok = digits() > 0
	}
	if !ok || (i < len(d) && isNumberByte(d[i])) {
		for i < len(d) && isNumberByte(d[i]) {
			i++
		}
		return nil, s.errorf("%s is not a JSON number", d[start:i])
	}
	s.pos = i
	return d[start:i], nil
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// skip consumes one value of any kind and returns its text.
func (s *scanner) skip() ([]byte, error) {
	c := s.peek()
	start := s.pos
	switch {
	case c == '"':
		_, _, err := s.scanString(false)
		return s.data[start:s.pos], err
	case c == '{' || c == '[':
		depth := 0
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case '"':
				if _, _, err := s.scanString(false); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					return s.data[start:s.pos], nil
				}
			}
			s.pos++
		}
		return nil, s.errorf("unterminated %c", c)
	case c == 't':
		if s.literal("true") {
			return s.data[start:s.pos], nil
		}
	case c == 'f':
		if s.literal("false") {
			return s.data[start:s.pos], nil
		}
	case c == 'n':
		if s.literal("null") {
			return s.data[start:s.pos], nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	if c == 0 {
		return nil, s.errorf("unexpected end of JSON")
	}
	return nil, s.errorf("unexpected %q", c)
}

// document consumes one JSON value, checking the whole of it (skip only
// matches brackets inside objects and arrays), and returns its text: a
// document member is copied as is, so it must be valid JSON.
func (s *scanner) document() ([]byte, error) {
	s.ws()
	start := s.pos
	var err error
	switch s.peek() {
	case '{':
		err = s.object(func([]byte) error {
			_, err := s.document()
			return err
		})
	case '[':
		err = s.array(func(int) error {
			_, err := s.document()
			return err
		})
	case '"':
		_, _, err = s.rawString()
	default:
		_, err = s.skip()
	}
	if err != nil {
		return nil, err
	}
	return s.data[start:s.pos], nil
}

// objectKeys iterates over the members of an object; f reads the value.
func (s *scanner) object(f func(key []byte) error) error {
	if err := s.enter(); err != nil {
		return err
	}
	err := s.objectBody(f)
	s.depth--
	return err
}

func (s *scanner) objectBody(f func(key []byte) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		key, err := s.strBytes()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := f(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.errorf("expected ',' or '}' in object")
		}
	}
}

// array iterates over the elements of an array; f reads the element.
func (s *scanner) array(f func(i int) error) error {
	if err := s.enter(); err != nil {
		return err
	}
	err := s.arrayBody(f)
	s.depth--
	return err
}

func (s *scanner) arrayBody(f func(i int) error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := f(i); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.errorf("expected ',' or ']' in array")
		}
	}
}

// isNull consumes null when it comes next.
func (s *scanner) isNull() bool {
	if s.peek() == 'n' {
		return s.literal("null")
	}
	return false
}

// appendString appends s (a string or bytes) as a JSON string.
func appendString[T string | []byte](dst []byte, s T) []byte { return jsonstr.Append(dst, s) }

// StringValue is the value of raw, a JSON string as Members gives it,
// read as the codecs read an input's strings (escapes, UTF-8, no lone
// surrogate); ok is false when raw is not such a string. What edits a
// member before the codec reads the input reads it so, never repairing
// bytes the codec would refuse.
func StringValue(raw []byte) (v string, ok bool) {
	s := scanner{data: raw}
	v, err := s.str()
	return v, err == nil && s.atEnd()
}

// ValidValue reports whether raw, one value as Members gives it, is JSON
// text the codecs would read (syntax, UTF-8, no lone surrogate): what
// drops a member before the codec reads the input checks it so.
func ValidValue(raw []byte) bool {
	s := scanner{data: raw}
	_, err := s.document()
	return err == nil && s.atEnd()
}

// Members calls visit with the name and the raw text of each member of doc,
// a JSON object, in order, without reading the values: a front end can
// pick a few top-level members of a large input (the endpoint rules'
// Bucket of an S3 PutObject) without parsing its body. Names are given
// unescaped; values are not checked (a string ends at its closing quote,
// found at memory speed: the codec checks the input it encodes). visit
// returning false stops the scan.
func Members(doc []byte, visit func(name string, raw []byte) bool) error {
	s := scanner{data: doc, unchecked: true}
	errStop := &syntaxError{}
	err := s.object(func(key []byte) error {
		name := string(key) // strBytes has unescaped it
		raw, err := s.skip()
		if err != nil {
			return err
		}
		if !visit(name, raw) {
			return errStop
		}
		return nil
	})
	if err == errStop {
		return nil
	}
	return err
}
