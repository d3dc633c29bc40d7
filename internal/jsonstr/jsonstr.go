// Package jsonstr decodes the escapes of JSON string literals. The model's
// JSON AST reader and the protocol codecs share it.
package jsonstr

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Error is an invalid escape at byte Offset of the string's body.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Unescape appends the value of a JSON string body (the text between the
// quotes, escapes as written) to dst. A lone surrogate becomes U+FFFD.
func Unescape(dst []byte, body string) ([]byte, error) {
	for i := 0; i < len(body); {
		// Copy the run up to the next backslash at once.
		j := i
		for j < len(body) && body[j] != '\\' {
			j++
		}
		dst = append(dst, body[i:j]...)
		if j == len(body) {
			break
		}
		if j+1 >= len(body) {
			return dst, &Error{j, "unterminated escape"}
		}
		i = j + 2
		switch e := body[j+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(body, i)
			if !ok {
				return dst, &Error{j, "invalid \\u escape"}
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
					r2, ok = hex4(body, i+2)
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			return dst, &Error{j, fmt.Sprintf("invalid escape \\%c", e)}
		}
	}
	return dst, nil
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// InvalidUTF8At returns the offset of the first byte of b that is not valid
// UTF-8, or len(b) when all of it is. The client and the C API name it in
// their input errors.
func InvalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// Append appends s as a JSON string, escaping quotes, backslashes and
// control characters (s must be UTF-8).
func Append[T string | []byte](dst []byte, s T) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
