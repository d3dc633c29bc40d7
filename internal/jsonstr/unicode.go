package jsonstr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// LoneSurrogateAt returns the offset in the JSON text b of the first \u
// escape of a surrogate that is not half of a pair (such an escape stands
// for no Unicode character, so a string holding one is not Unicode text),
// or -1 when there is none. Every backslash of valid JSON starts an
// escape, so b is read escape by escape without following its strings.
func LoneSurrogateAt(b []byte) int {
	i := bytes.IndexByte(b, '\\')
	for i >= 0 && i+1 < len(b) {
		next := i + 2
		if b[i+1] == 'u' {
			n, lone := UEscape(b[i:])
			if lone {
				return i
			}
			next = i + max(n, 2)
		}
		j := bytes.IndexByte(b[next:], '\\')
		if j < 0 {
			break
		}
		i = next + j
	}
	return -1
}

// UEscape reads the \u escape at the start of b: its length (12 for a
// surrogate pair, 6 for any other, 0 when b does not start with four hex
// digits after \u) and whether it escapes a lone surrogate. The codecs'
// scanner refuses a lone surrogate with it, as CheckText does.
func UEscape(b []byte) (n int, lone bool) {
	r, ok := hex4(string(b[2:min(len(b), 6)]), 0)
	if !ok {
		return 0, false
	}
	if !utf16.IsSurrogate(r) {
		return 6, false
	}
	if r >= 0xDC00 || len(b) < 12 || b[6] != '\\' || b[7] != 'u' {
		return 6, true
	}
	if r2, ok := hex4(string(b[8:12]), 0); !ok || r2 < 0xDC00 || r2 > 0xDFFF {
		return 6, true
	}
	return 12, false
}

// PointerAt returns the JSON pointer (RFC 6901) of the innermost value of
// the JSON text doc that holds byte offset off ("" for the whole
// document, and for an offset no value holds), so that an error about a
// byte of an input can name its member.
func PointerAt(doc []byte, off int) string {
	type level struct {
		object bool
		key    string // object: the member whose value comes next or is read
		index  int    // array: the index of the next value
		keyed  bool   // object: key holds the current member's name
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	var stack []level
	pointer := func() string {
		var b strings.Builder
		for _, l := range stack {
			b.WriteByte('/')
			if l.object {
				b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(l.key))
			} else {
				b.WriteString(strconv.Itoa(l.index - 1))
			}
		}
		return b.String()
	}
	prev := 0 // where the last token ended
	for ; ; prev = int(dec.InputOffset()) {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return ""
		}
		end := int(dec.InputOffset())
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			if end > off {
				stack = stack[:top]
				return pointer()
			}
			stack = stack[:top]
			if top > 0 && stack[top-1].object {
				stack[top-1].keyed = false
			}
			continue
		}
		// A key of an object: the value that follows is its member.
		if top >= 0 && stack[top].object && !stack[top].keyed {
			key := tok.(string)
			if strings.ContainsRune(key, utf8.RuneError) {
				// Not UTF-8 or a lone surrogate, which the decoder
				// replaced: the key as written, escapes and all.
				if q := bytes.IndexByte(doc[prev:end], '"'); q >= 0 && prev+q+1 <= end-1 {
					key = string(doc[prev+q+1 : end-1])
				}
			}
			stack[top].key, stack[top].keyed = key, true
			if end > off {
				return pointer() // within the key itself
			}
			continue
		}
		if top >= 0 && !stack[top].object {
			stack[top].index++
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, level{object: d == '{'})
			continue
		}
		if end > off {
			return pointer()
		}
		if top >= 0 && stack[top].object {
			stack[top].keyed = false
		}
	}
}

// CheckText says why the JSON text doc is not Unicode text — invalid
// UTF-8, or a string escaping a lone surrogate — with the JSON pointer and
// byte offset of the first fault; "" when it is. The client and the C API
// refuse such input before encoding it: a surrogate has no UTF-8 form, so
// encoding would replace it (losing what the caller wrote) or send JSON no
// strict reader accepts.
func CheckText(doc []byte) string {
	where := func(off int) string {
		p := PointerAt(doc, off)
		if p == "" {
			p = "/"
		}
		return fmt.Sprintf("(at %s, byte %d)", p, off)
	}
	if !utf8.Valid(doc) { // fast on ASCII; InvalidUTF8At is not
		return "not valid UTF-8 " + where(InvalidUTF8At(doc))
	}
	if off := LoneSurrogateAt(doc); off >= 0 {
		return fmt.Sprintf("not Unicode text: %s is a lone surrogate %s", doc[off:off+6], where(off))
	}
	return ""
}
