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
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/internal/respond"
)

// Raw is a JSON fragment written as is by Encode (it may be invalid JSON on
// purpose: invalid inputs use it).
type Raw = respond.Raw

// Encode writes v as compact JSON with sorted object keys, strings byte
// for byte (respond.Encode).
func Encode(v any) []byte { return respond.Encode(v) }

// Decode reads JSON into the value form (numbers as json.Number).
func Decode(b []byte) (any, error) { return respond.Decode(b) }

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
