package proptest

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// Normalize returns doc (a structure of shape s at the top of a message)
// in a canonical form for comparison: timestamps as instants (to the second
// where the location's format is http-date), numbers by value, blobs
// re-encoded, absent and null members alike, empty query lists absent
// (the query cannot carry them), prefix header names in lower case (HTTP
// header names have no case), untagged unions by their value alone.
func Normalize(m *model.Model, p Locator, s *model.Shape, doc map[string]any, response bool) map[string]any {
	v := view{m}
	out := map[string]any{}
	if s == nil {
		return out
	}
	for _, mem := range s.Members {
		val, ok := doc[mem.Name()]
		if !ok || (val == nil && !mem.Traits.Has(protocol.TraitNullable)) {
			continue
		}
		loc := p.Locate(mem, response)
		httpDate := false
		switch loc {
		case LocHeader, LocPrefixHeaders:
			httpDate = v.tsFormat(mem, fmtHTTPDate) == fmtHTTPDate
		case LocLabel, LocQuery, LocQueryParams:
			httpDate = v.tsFormat(mem, fmtDateTime) == fmtHTTPDate
		default:
			httpDate = v.tsFormat(mem, fmtEpoch) == fmtHTTPDate
		}
		n := v.norm(mem, val, httpDate)
		switch loc {
		case LocQuery:
			if l, ok := n.([]any); ok && len(l) == 0 {
				continue
			}
		case LocQueryParams:
			mm, _ := n.(map[string]any)
			for k, x := range mm {
				if l, ok := x.([]any); ok && len(l) == 0 {
					delete(mm, k)
				}
			}
			if len(mm) == 0 {
				continue
			}
		case LocPrefixHeaders:
			mm, _ := n.(map[string]any)
			low := map[string]any{}
			for k, x := range mm {
				if x != nil {
					low[strings.ToLower(k)] = x
				}
			}
			if len(low) == 0 {
				continue
			}
			n = low
		}
		out[mem.Name()] = n
	}
	return out
}

func (v view) norm(mem *model.Member, val any, httpDate bool) any {
	if val == nil {
		return nil
	}
	s := v.target(mem)
	switch t := typeOf(s); t {
	case model.TimestampType:
		in, err := respond.DocInstant(val)
		if err != nil {
			return val
		}
		if httpDate || v.tsFormat(mem, "") == fmtHTTPDate {
			in = in.Truncate()
		}
		return "ts:" + in.String()
	case model.BlobType:
		b, err := base64.StdEncoding.DecodeString(val.(string))
		if err != nil {
			return val
		}
		return "blob:" + base64.StdEncoding.EncodeToString(b)
	case model.FloatType, model.DoubleType:
		return normFloat(val)
	case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.BigIntegerType, model.BigDecimalType, model.IntEnumType:
		return normNumber(val)
	case model.DocumentType:
		return normDoc(val)
	case model.ListType:
		items, ok := val.([]any)
		if !ok {
			return val
		}
		out := make([]any, 0, len(items))
		for _, it := range items {
			if it == nil && !s.HasTrait(model.TraitSparse) {
				continue
			}
			out = append(out, v.norm(elem(s, "member"), it, httpDate))
		}
		return out
	case model.MapType:
		mm, ok := val.(map[string]any)
		if !ok {
			return val
		}
		out := map[string]any{}
		for k, it := range mm {
			if it == nil && !s.HasTrait(model.TraitSparse) {
				continue
			}
			out[k] = v.norm(elem(s, "value"), it, httpDate)
		}
		return out
	case model.StructureType:
		mm, ok := val.(map[string]any)
		if !ok {
			return val
		}
		out := map[string]any{}
		for _, m := range s.Members {
			it, ok := mm[m.Name()]
			if !ok || (it == nil && !m.Traits.Has(protocol.TraitNullable)) {
				continue
			}
			out[m.Name()] = v.norm(m, it, false)
		}
		return out
	case model.UnionType:
		mm, ok := val.(map[string]any)
		if !ok {
			return val
		}
		out := map[string]any{}
		for k, it := range mm {
			m, ok := s.Member(k)
			if !ok {
				out[k] = normDoc(it) // {"$unknown": [name, value]}: any JSON
				continue
			}
			if it == nil {
				continue
			}
			n := v.norm(m, it, false)
			if s.HasTrait(protocol.TraitUntagged) {
				return map[string]any{"(untagged)": n}
			}
			out[k] = n
		}
		return out
	}
	return val
}

func normFloat(val any) any {
	switch x := val.(type) {
	case string:
		return x
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil && !math.IsInf(f, 0) {
			return val
		}
		if f == 0 {
			f = 0 // -0 is 0
		}
		return "f:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return val
}

func normNumber(val any) any {
	n, ok := val.(json.Number)
	if !ok {
		return val
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return val
	}
	return "n:" + r.RatString()
}

func normDoc(val any) any {
	switch x := val.(type) {
	case json.Number:
		return normNumber(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normDoc(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normDoc(e)
		}
		return out
	}
	return val
}

// FillDefaults adds the defaults of absent members to doc (a structure of
// shape s), as the codecs do: in requests (response false) those of nested
// structures, not of the top level, and not of @clientOptional members; in
// decoded responses those of every structure.
func FillDefaults(m *model.Model, s *model.Shape, doc map[string]any, response bool) {
	v := view{m}
	v.fill(s, doc, response, !response)
}

func (v view) fill(s *model.Shape, doc map[string]any, response, top bool) {
	if s == nil {
		return
	}
	for _, mem := range s.Members {
		val, ok := doc[mem.Name()]
		if ok && val != nil {
			v.fillValue(mem, val, response)
			continue
		}
		if top || s.Type != model.StructureType {
			continue
		}
		d, ok := mem.Traits.Get(model.TraitDefault)
		if !ok || d.IsNull() || (!response && mem.Traits.Has(model.TraitClientOptional)) {
			continue
		}
		if response {
			if _, ok := v.trait(mem, model.TraitStreaming); ok {
				continue
			}
		}
		x, err := Decode([]byte(d.JSON()))
		if err == nil {
			doc[mem.Name()] = x
		}
	}
}

func (v view) fillValue(mem *model.Member, val any, response bool) {
	s := v.target(mem)
	switch typeOf(s) {
	case model.StructureType, model.UnionType:
		if mm, ok := val.(map[string]any); ok {
			v.fill(s, mm, response, false)
		}
	case model.ListType:
		items, _ := val.([]any)
		for _, it := range items {
			if it != nil {
				v.fillValue(elem(s, "member"), it, response)
			}
		}
	case model.MapType:
		mm, _ := val.(map[string]any)
		for _, it := range mm {
			if it != nil {
				v.fillValue(elem(s, "value"), it, response)
			}
		}
	}
}
