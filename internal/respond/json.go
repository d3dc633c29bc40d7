package respond

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// jsonRules are the JSON body rules of a protocol.
type jsonRules struct {
	jsonName    bool // members are keyed by jsonName
	epochOnly   bool // timestamps are epoch seconds whatever their format (rpcv2)
	bigAsString bool // bigInteger and bigDecimal are JSON strings (rpcv2Json)
	defaults    bool // absent members with a @default are sent with it (restJson1)
}

// defaultValue is the @default of member mem as a plain value; ok is false
// when it has none (or null).
func defaultValue(mem *model.Member) (any, bool) {
	n, ok := mem.Traits.Get(model.TraitDefault)
	if !ok || n.IsNull() {
		return nil, false
	}
	d := json.NewDecoder(strings.NewReader(n.JSON()))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// toWire renders a document-form value of mem's target as the wire JSON.
func (r jsonRules) toWire(v View, mem *model.Member, val any) (any, error) {
	if val == nil {
		return nil, nil
	}
	s := v.Target(mem)
	switch TypeOf(s) {
	case model.TimestampType:
		t, err := DocInstant(val)
		if err != nil {
			return nil, err
		}
		f := v.TSFormat(mem, FmtEpoch)
		if r.epochOnly {
			f = FmtEpoch
		}
		if f == FmtEpoch {
			return json.Number(FormatInstant(f, t)), nil
		}
		return FormatInstant(f, t), nil
	case model.ListType:
		items, _ := val.([]any)
		out := make([]any, len(items))
		for i, it := range items {
			w, err := r.toWire(v, Elem(s, "member"), it)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		return out, nil
	case model.MapType:
		m, _ := val.(map[string]any)
		out := make(map[string]any, len(m))
		for k, it := range m {
			w, err := r.toWire(v, Elem(s, "value"), it)
			if err != nil {
				return nil, err
			}
			out[k] = w
		}
		return out, nil
	case model.StructureType:
		return r.structToWire(v, s, val)
	case model.UnionType:
		m, _ := val.(map[string]any)
		if u, ok := m[UnknownMember].([]any); ok && len(u) == 2 {
			return map[string]any{fmt.Sprint(u[0]): u[1]}, nil
		}
		for name, it := range m {
			mem, ok := s.Member(name)
			if !ok {
				return nil, fmt.Errorf("union %s has no member %q", s.ID, name)
			}
			if mem.Traits.Has(protocol.TraitJSONUnknown) {
				return it, nil // alloy's open union: the value is the union's JSON as received
			}
			w, err := r.toWire(v, mem, it)
			if err != nil {
				return nil, err
			}
			switch {
			case s.HasTrait(protocol.TraitUntagged):
				return w, nil
			case s.HasTrait(protocol.TraitDiscriminated):
				d, _ := s.Trait(protocol.TraitDiscriminated)
				obj, _ := w.(map[string]any)
				if obj == nil {
					obj = map[string]any{}
				}
				obj[d.Str()] = WireName(mem, r.jsonName)
				return obj, nil
			}
			return map[string]any{WireName(mem, r.jsonName): w}, nil
		}
		return nil, fmt.Errorf("union %s: no member set", s.ID)
	}
	if t := TypeOf(s); r.bigAsString && (t == model.BigIntegerType || t == model.BigDecimalType) {
		if n, ok := val.(json.Number); ok {
			return string(n), nil
		}
	}
	return val, nil
}

func (r jsonRules) structToWire(v View, s *model.Shape, val any) (map[string]any, error) {
	m, _ := val.(map[string]any)
	out := map[string]any{}
	for _, mem := range s.Members {
		it, ok := m[mem.Name()]
		if !ok && r.defaults {
			it, ok = defaultValue(mem)
		}
		if !ok {
			continue
		}
		if it == nil && !mem.Traits.Has(protocol.TraitNullable) {
			continue
		}
		w, err := r.toWire(v, mem, it)
		if err != nil {
			return nil, err
		}
		out[WireName(mem, r.jsonName)] = w
	}
	return out, nil
}

// AWSJSON renders awsJson1_0 and awsJson1_1 responses: the whole output
// as a JSON object keyed by member names, absent members with a @default
// sent with it, no body for a Unit output; errors with __type.
type AWSJSON struct {
	Protocol    model.ShapeID
	ContentType string
	// ShortType names errors in __type by their shape name (awsJson1_1's
	// tests), not their shape id (awsJson1_0's).
	ShortType bool
}

// unitOutput reports whether op has no output (smithy.api#Unit): its
// response has no body.
func unitOutput(op *model.Operation) bool { return op.Output == nil || op.Output.ID == model.UnitID }

func (p AWSJSON) RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error) {
	resp, err := p.render(View{m}, op.Output, out, 200, nil)
	if err == nil && unitOutput(op) {
		resp.Body = nil
	}
	return resp, err
}

func (p AWSJSON) RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error) {
	typ := string(e.ID)
	if p.ShortType {
		typ = e.ID.Name()
	}
	return p.render(View{m}, e, members, ErrorStatus(e), map[string]any{"__type": typ})
}

func (p AWSJSON) render(v View, s *model.Shape, out map[string]any, status int, extra map[string]any) (*wire.Response, error) {
	return p.renderWith(jsonRules{defaults: true}, v, s, out, status, extra)
}

// renderWith renders a JSON body by rules, with the members of extra.
func (p AWSJSON) renderWith(rules jsonRules, v View, s *model.Shape, out map[string]any, status int, extra map[string]any) (*wire.Response, error) {
	w, err := rules.structToWire(v, s, out)
	if err != nil {
		return nil, err
	}
	for k, x := range extra {
		w[k] = x
	}
	h := wire.Header{}
	h.Set("Content-Type", p.ContentType)
	return &wire.Response{Status: status, Header: h, Body: Encode(w)}, nil
}

// RPCv2JSON renders smithy.protocols#rpcv2Json responses: the output as a
// JSON object keyed by member names, absent members with a @default sent
// with it, timestamps as epoch seconds whatever their timestampFormat,
// bigInteger and bigDecimal as JSON strings, errors named by __type (the
// shape id), with Smithy-Protocol: rpc-v2-json; a Unit output has neither
// body nor Content-Type.
type RPCv2JSON struct{}

func (RPCv2JSON) rules() jsonRules {
	return jsonRules{epochOnly: true, bigAsString: true, defaults: true}
}

func (p RPCv2JSON) RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error) {
	resp, err := p.render(View{m}, op.Output, out, 200, nil)
	if err == nil && unitOutput(op) {
		resp.Body = nil
		resp.Header.Del("Content-Type")
	}
	return resp, err
}

func (p RPCv2JSON) RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error) {
	return p.render(View{m}, e, members, ErrorStatus(e), map[string]any{"__type": string(e.ID)})
}

func (p RPCv2JSON) render(v View, s *model.Shape, out map[string]any, status int, extra map[string]any) (*wire.Response, error) {
	resp, err := (AWSJSON{ContentType: "application/json"}).renderWith(p.rules(), v, s, out, status, extra)
	if err == nil {
		resp.Header.Set("Smithy-Protocol", "rpc-v2-json")
	}
	return resp, err
}
