package proptest

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// jsonRules are the JSON body rules of a protocol.
type jsonRules struct {
	jsonName bool // members are keyed by jsonName
}

// fromWire reads wire JSON of mem's target into the document form. It is
// strict: a key the shape does not have, a value of the wrong JSON type or
// a null in a dense list is an error, since a codec must not send them.
func (r jsonRules) fromWire(v view, mem *model.Member, w any) (any, error) {
	s := v.target(mem)
	if w == nil {
		return nil, nil
	}
	t := typeOf(s)
	bad := func() (any, error) {
		return nil, fmt.Errorf("member %s: %s cannot be %s", mem.ID, t, Encode(w))
	}
	switch t {
	case model.StringType, model.EnumType, model.BlobType:
		if _, ok := w.(string); !ok {
			return bad()
		}
		return w, nil
	case model.BooleanType:
		if _, ok := w.(bool); !ok {
			return bad()
		}
		return w, nil
	case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.BigIntegerType, model.IntEnumType:
		n, ok := w.(json.Number)
		if !ok {
			return bad()
		}
		if r, ok := new(big.Rat).SetString(string(n)); !ok || !r.IsInt() {
			return bad()
		}
		return w, nil
	case model.FloatType, model.DoubleType:
		switch x := w.(type) {
		case json.Number:
			return w, nil
		case string:
			if x == "NaN" || x == "Infinity" || x == "-Infinity" {
				return w, nil
			}
		}
		return bad()
	case model.BigDecimalType:
		if _, ok := w.(json.Number); !ok {
			return bad()
		}
		return w, nil
	case model.TimestampType:
		f := v.tsFormat(mem, fmtEpoch)
		var text string
		switch x := w.(type) {
		case json.Number:
			if f != fmtEpoch {
				return bad()
			}
			text = string(x)
		case string:
			if f == fmtEpoch {
				return bad()
			}
			text = x
		default:
			return bad()
		}
		in, err := respond.ParseInstant(f, text)
		if err != nil {
			return nil, fmt.Errorf("member %s: %v", mem.ID, err)
		}
		return respond.FormatInstant(fmtDateTime, in), nil
	case model.DocumentType:
		return w, nil
	case model.ListType:
		items, ok := w.([]any)
		if !ok {
			return bad()
		}
		out := make([]any, len(items))
		for i, it := range items {
			if it == nil && !s.HasTrait(model.TraitSparse) {
				return nil, fmt.Errorf("member %s: null in a dense list", mem.ID)
			}
			d, err := r.fromWire(v, elem(s, "member"), it)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case model.MapType:
		m, ok := w.(map[string]any)
		if !ok {
			return bad()
		}
		out := make(map[string]any, len(m))
		for k, it := range m {
			if it == nil && !s.HasTrait(model.TraitSparse) {
				return nil, fmt.Errorf("member %s: null in a dense map", mem.ID)
			}
			d, err := r.fromWire(v, elem(s, "value"), it)
			if err != nil {
				return nil, err
			}
			out[k] = d
		}
		return out, nil
	case model.StructureType:
		return r.structFromWire(v, s, w)
	case "unit":
		if _, ok := w.(map[string]any); !ok {
			return bad()
		}
		return map[string]any{}, nil
	case model.UnionType:
		return r.unionFromWire(v, s, w)
	}
	return nil, fmt.Errorf("member %s: unsupported type %s", mem.ID, t)
}

func (r jsonRules) structFromWire(v view, s *model.Shape, w any) (map[string]any, error) {
	m, ok := w.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("structure %s cannot be %s", s.ID, Encode(w))
	}
	byWire := map[string]*model.Member{}
	for _, mem := range s.Members {
		byWire[wireName(mem, r.jsonName)] = mem
	}
	out := map[string]any{}
	for k, it := range m {
		mem, ok := byWire[k]
		if !ok {
			return nil, fmt.Errorf("structure %s has no member with the JSON key %q", s.ID, k)
		}
		if it == nil && !mem.Traits.Has(protocol.TraitNullable) {
			continue
		}
		d, err := r.fromWire(v, mem, it)
		if err != nil {
			return nil, err
		}
		out[mem.Name()] = d
	}
	return out, nil
}

func (r jsonRules) unionFromWire(v view, s *model.Shape, w any) (any, error) {
	if s.HasTrait(protocol.TraitUntagged) {
		for _, mem := range s.Members {
			if d, err := r.fromWire(v, mem, w); err == nil {
				return map[string]any{mem.Name(): d}, nil
			}
		}
		return nil, fmt.Errorf("union %s: %s matches none of its members", s.ID, Encode(w))
	}
	m, ok := w.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("union %s cannot be %s", s.ID, Encode(w))
	}
	if d, ok := s.Trait(protocol.TraitDiscriminated); ok {
		tag, _ := m[d.Str()].(string)
		rest := map[string]any{}
		for k, it := range m {
			if k != d.Str() {
				rest[k] = it
			}
		}
		for _, mem := range s.Members {
			if wireName(mem, r.jsonName) == tag {
				val, err := r.fromWire(v, mem, rest)
				if err != nil {
					return nil, err
				}
				return map[string]any{mem.Name(): val}, nil
			}
		}
		return nil, fmt.Errorf("union %s: unknown tag %q", s.ID, tag)
	}
	if len(m) != 1 {
		return nil, fmt.Errorf("union %s: %d members set on the wire", s.ID, len(m))
	}
	for k, it := range m {
		for _, mem := range s.Members {
			if wireName(mem, r.jsonName) == k {
				val, err := r.fromWire(v, mem, it)
				if err != nil {
					return nil, err
				}
				return map[string]any{mem.Name(): val}, nil
			}
		}
		return nil, fmt.Errorf("union %s has no member with the JSON key %q", s.ID, k)
	}
	return nil, nil
}
