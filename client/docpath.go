package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// The helpers below read and edit documents in the document form as bytes:
// a value is found by its member path and replaced in place, so the rest of
// the document (member order, number digits) stays as it was.

// locate returns where the value at path (member names, outermost first)
// starts and ends in doc, a JSON object. found is false when a member on
// the path is absent, or a value on the way is not an object.
func locate(doc []byte, path []string) (start, end int, found bool, err error) {
	base := 0
	for i, name := range path {
		dec := json.NewDecoder(bytes.NewReader(doc))
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, false, err
		}
		if d, ok := tok.(json.Delim); !ok || d != '{' {
			if i == 0 {
				return 0, 0, false, errors.New("not a JSON object")
			}
			return 0, 0, false, nil
		}
		hit := false
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return 0, 0, false, err
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return 0, 0, false, err
			}
			if key, _ := tok.(string); key == name {
				end := int(dec.InputOffset())
				start := end - len(raw)
				doc, base, hit = doc[start:end], base+start, true
				break
			}
		}
		if !hit {
			return 0, 0, false, nil
		}
	}
	return base, base + len(doc), true, nil
}

// lookup returns the value at path in doc, nil when it is absent or null.
func lookup(doc []byte, path []string) ([]byte, error) {
	start, end, found, err := locate(doc, path)
	if err != nil || !found {
		return nil, err
	}
	v := doc[start:end]
	if string(v) == "null" {
		return nil, nil
	}
	return v, nil
}

// setMember returns a copy of obj, a JSON object, with its member name set
// to value (replaced where it is, or added first).
func setMember(obj []byte, name string, value []byte) ([]byte, error) {
	start, end, found, err := locate(obj, []string{name})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(obj)+len(name)+len(value)+4)
	if found {
		out = append(out, obj[:start]...)
		out = append(out, value...)
		return append(out, obj[end:]...), nil
	}
	open := bytes.IndexByte(obj, '{') // locate saw an object: '{' comes first
	rest := bytes.TrimLeft(obj[open+1:], " \t\r\n")
	out = append(out, obj[:open+1]...)
	out = jsonstr.Append(out, name)
	out = append(out, ':')
	out = append(out, value...)
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, obj[open+1:]...), nil
}

// replaceAt returns a copy of doc with the bytes from start to end replaced
// by value.
func replaceAt(doc []byte, start, end int, value []byte) []byte {
	out := make([]byte, 0, len(doc)-(end-start)+len(value))
	out = append(out, doc[:start]...)
	out = append(out, value...)
	return append(out, doc[end:]...)
}

// element is one item of a paginated list (key is "" and isKey false) or
// map (the entry's key and value).
type element struct {
	key   string
	isKey bool
	value json.RawMessage
}

// JSON is the element as the items iterators give it: a list's item as it
// is, a map's entry as a one-member object {"key": value}.
func (e element) JSON() []byte {
	if !e.isKey {
		return e.value
	}
	out := make([]byte, 0, len(e.key)+len(e.value)+5)
	out = append(out, '{')
	out = jsonstr.Append(out, e.key)
	out = append(out, ':')
	out = append(out, e.value...)
	return append(out, '}')
}

// elements splits a list or map value into its elements, in order.
func elements(v []byte) ([]element, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, _ := tok.(json.Delim)
	if d != '[' && d != '{' {
		return nil, fmt.Errorf("a %s, not a list or map", jsonKind(v))
	}
	var out []element
	for dec.More() {
		var e element
		if d == '{' {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			e.key, e.isKey = tok.(string)
		}
		if err := dec.Decode(&e.value); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, err
	}
	return out, nil
}

// joinElements writes elems back as a list or, when they are map entries,
// a map.
func joinElements(elems []element, isMap bool) []byte {
	open, close := byte('['), byte(']')
	if isMap {
		open, close = '{', '}'
	}
	out := []byte{open}
	for i, e := range elems {
		if i > 0 {
			out = append(out, ',')
		}
		if isMap {
			out = jsonstr.Append(out, e.key)
			out = append(out, ':')
		}
		out = append(out, e.value...)
	}
	return append(out, close)
}

// jsonKind names the kind of a JSON value for error messages.
func jsonKind(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
