package awscustom

import (
	"fmt"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/protocol"
)

// object is an input document's top-level members as sent, in order,
// edited without decoding the others.
type object struct {
	names []string
	raws  [][]byte
}

// parseObject reads doc's members; an empty doc is an empty object. A doc
// that is not an object is for the codec to refuse: ok is false.
func parseObject(doc []byte) (o *object, ok bool) {
	o = &object{}
	if len(doc) == 0 {
		return o, true
	}
	err := protocol.Members(doc, func(name string, raw []byte) bool {
		o.names = append(o.names, name)
		o.raws = append(o.raws, raw)
		return true
	})
	return o, err == nil
}

// str returns member name when it is a string (read strictly: a string
// that is not Unicode text is not one, and is left for the codec to
// refuse).
func (o *object) str(name string) (string, bool) {
	for i, n := range o.names {
		if n == name {
			return protocol.StringValue(o.raws[i])
		}
	}
	return "", false
}

// readable reports whether member name, when present, is JSON text the
// codec would read: a member dropped unread must be.
func (o *object) readable(name string) bool {
	for i, n := range o.names {
		if n == name {
			return protocol.ValidValue(o.raws[i])
		}
	}
	return true
}

// has reports whether the document gives member name (null is absent).
func (o *object) has(name string) bool {
	for i, n := range o.names {
		if n == name {
			return string(o.raws[i]) != "null"
		}
	}
	return false
}

// setStr sets member name to the string v, in place or last.
func (o *object) setStr(name, v string) {
	raw := jsonstr.Append(nil, v)
	for i, n := range o.names {
		if n == name {
			o.raws[i] = raw
			return
		}
	}
	o.names = append(o.names, name)
	o.raws = append(o.raws, raw)
}

// remove leaves member name out.
func (o *object) remove(name string) {
	for i, n := range o.names {
		if n == name {
			o.names = append(o.names[:i], o.names[i+1:]...)
			o.raws = append(o.raws[:i], o.raws[i+1:]...)
			return
		}
	}
}

// bytes is the document again.
func (o *object) bytes() []byte {
	out := []byte{'{'}
	for i, n := range o.names {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonstr.Append(out, n)
		out = append(out, ':')
		out = append(out, o.raws[i]...)
	}
	return append(out, '}')
}

// editStrings returns an Input hook that replaces the string members
// names of the input with edit's result.
func editStrings(names []string, edit func(name, v string) (string, error)) func([]byte) ([]byte, error) {
	return func(in []byte) ([]byte, error) {
		o, ok := parseObject(in)
		if !ok {
			return in, nil
		}
		changed := false
		for _, name := range names {
			v, ok := o.str(name)
			if !ok {
				continue
			}
			nv, err := edit(name, v)
			if err != nil {
				return nil, fmt.Errorf("member %s: %w", name, err)
			}
			if nv != v {
				o.setStr(name, nv)
				changed = true
			}
		}
		if !changed {
			return in, nil
		}
		return o.bytes(), nil
	}
}
