// Package proptest generates random inputs and outputs for the operations of
// any loaded Smithy model, in the document form (see README "Values: the
// document form"), and reads and renders HTTP messages by each protocol's
// rules independently of the codecs in protocol/, so that tests can check
// the codecs against them: a request encoded by a codec must read back to
// its input, and a response rendered here must decode to its output.
//
// Values are plain Go values as encoding/json decodes them with UseNumber:
// map[string]any, []any, string, json.Number, bool and nil. Raw is a
// pre-encoded JSON fragment (used for invalid inputs such as bad UTF-8).
package proptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Raw is a JSON fragment written as is by Encode (it may be invalid JSON on
// purpose: invalid inputs use it).
type Raw string

// Encode writes v as compact JSON with sorted object keys. Strings are
// written byte for byte (invalid UTF-8 stays invalid).
func Encode(v any) []byte { return appendJSON(nil, v) }

func appendJSON(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, x)
	case json.Number:
		return append(dst, x...)
	case Raw:
		return append(dst, x...)
	case string:
		return appendString(dst, x)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, e)
		}
		return append(dst, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = appendJSON(dst, x[k])
		}
		return append(dst, '}')
	}
	panic(fmt.Sprintf("proptest: cannot encode %T", v))
}

// appendString quotes s as JSON, escaping control characters and keeping
// every other byte (valid or not) as it is.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, fmt.Sprintf(`\u%04x`, c)...)
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// Decode reads JSON into the value form (numbers as json.Number).
func Decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// Clone returns a deep copy of v.
func Clone(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Clone(e)
		}
		return out
	}
	return v
}

// validUTF8 reports whether every string in v is valid UTF-8.
func validUTF8(v any) bool {
	switch x := v.(type) {
	case string:
		return utf8.ValidString(x)
	case []any:
		for _, e := range x {
			if !validUTF8(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) || !validUTF8(e) {
				return false
			}
		}
	}
	return true
}
