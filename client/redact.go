package client

import (
	"bytes"
	"encoding/json"

	"github.com/smithycurl/smithycurl/model"
)

// Redacted replaces the value of a @sensitive member in traces and logs.
const Redacted = "*** sensitive ***"

// RedactSensitive returns a copy of doc, a value of shape in the document
// form, with every @sensitive member's value (or value of a @sensitive
// shape) replaced by Redacted, for logs and traces. Invalid JSON gives "".
func RedactSensitive(m *model.Model, shape *model.Shape, doc []byte) []byte {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // keep every digit
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	out, err := json.Marshal(redact(m, shape, v, 0))
	if err != nil {
		return nil
	}
	return out
}

const sensitiveTrait model.ShapeID = "smithy.api#sensitive"

func redact(m *model.Model, s *model.Shape, v any, depth int) any {
	if s == nil || depth > 64 {
		return v
	}
	if s.HasTrait(sensitiveTrait) {
		return Redacted
	}
	switch s.Type {
	case model.StructureType, model.UnionType:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for name, val := range obj {
			mem, ok := s.Member(name)
			if !ok {
				continue
			}
			if mem.Traits.Has(sensitiveTrait) {
				obj[name] = Redacted
				continue
			}
			target, _ := m.Target(mem)
			obj[name] = redact(m, target, val, depth+1)
		}
	case model.ListType, model.SetType:
		arr, ok := v.([]any)
		mem, found := s.Member("member")
		if !ok || !found {
			return v
		}
		target, _ := m.Target(mem)
		for i := range arr {
			arr[i] = redact(m, target, arr[i], depth+1)
		}
	case model.MapType:
		obj, ok := v.(map[string]any)
		mem, found := s.Member("value")
		if !ok || !found {
			return v
		}
		target, _ := m.Target(mem)
		for k := range obj {
			obj[k] = redact(m, target, obj[k], depth+1)
		}
	}
	return v
}
