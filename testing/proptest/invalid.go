package proptest

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// Mutation is one way an input was made invalid.
type Mutation struct {
	Kind string   // e.g. "wrong-type", "unknown-member", "missing-required"
	Path []string // member names from the input down to the broken value
	// Name is what the error must mention: the member (or unknown key)
	// nearest to the broken value.
	Name string
}

func (mu Mutation) String() string { return mu.Kind + " at " + strings.Join(mu.Path, ".") }

// site is a value of the input that a mutation can replace.
type site struct {
	mem    *model.Member
	parent any    // map[string]any or []any holding the value
	key    string // in a map
	index  int    // in a list
	path   []string
	name   string // nearest member name
}

func (st site) set(v any) {
	switch p := st.parent.(type) {
	case map[string]any:
		p[st.key] = v
	case []any:
		p[st.index] = v
	}
}

// sites lists the values of v (a value of structure s) that a mutation
// can replace, members of structures and unions, list items and map
// values, outermost first.
func sites(g *Gen, s *model.Shape, v map[string]any) []site {
	var sites []site
	var walk func(s *model.Shape, val any, path []string, name string)
	walk = func(s *model.Shape, val any, path []string, name string) {
		switch typeOf(s) {
		case model.StructureType, model.UnionType:
			mm, _ := val.(map[string]any)
			for _, mem := range s.Members {
				it, ok := mm[mem.Name()]
				if !ok || it == nil {
					continue
				}
				p := append(append([]string(nil), path...), mem.Name())
				sites = append(sites, site{mem: mem, parent: mm, key: mem.Name(), path: p, name: mem.Name()})
				walk(targetOf(g, mem), it, p, mem.Name())
			}
		case model.ListType:
			items, _ := val.([]any)
			for i, it := range items {
				if it == nil {
					continue
				}
				p := append(append([]string(nil), path...), "["+itoa(i)+"]")
				m := elem(s, "member")
				sites = append(sites, site{mem: m, parent: items, index: i, path: p, name: name})
				walk(targetOf(g, m), it, p, name)
			}
		case model.MapType:
			mm, _ := val.(map[string]any)
			for k, it := range mm {
				if it == nil {
					continue
				}
				p := append(append([]string(nil), path...), "["+k+"]")
				m := elem(s, "value")
				sites = append(sites, site{mem: m, parent: mm, key: k, path: p, name: name})
				walk(targetOf(g, m), it, p, name)
			}
		}
	}
	walk(s, v, nil, "")
	return sites
}

// Invalidate breaks a valid input of op in one place and says how. ok is
// false when the input offers no place to break.
func Invalidate(g *Gen, op *model.Operation, in map[string]any) (mu Mutation, ok bool) {
	sites := sites(g, op.Input, in)
	type cand struct {
		kind string
		st   site
		val  any
		name string
	}
	var cands []cand
	add := func(kind string, st site, val any) {
		if (kind == "wrong-type" || kind == "union-none") && (st.mem.Name() == "member" || st.mem.Name() == "value") && st.mem.ID.Member() != "" && st.key != st.mem.Name() {
			kind += "-item" // an item of a list or map
		}
		cands = append(cands, cand{kind, st, val, st.name})
	}
	for _, st := range sites {
		s := targetOf(g, st.mem)
		t := typeOf(s)
		switch t {
		case model.StringType:
			add("wrong-type", st, json.Number("12"))
			add("invalid-utf8", st, Raw("\"a\xffb\""))
		case model.EnumType:
			add("wrong-type", st, true)
			if !s.HasTrait(protocol.TraitOpenEnum) {
				add("enum-unknown", st, "NOT_A_VALUE_OF_THIS_ENUM")
			}
		case model.BlobType:
			add("wrong-type", st, json.Number("7"))
		case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.BigIntegerType, model.BigDecimalType:
			add("wrong-type", st, "12")
		case model.IntEnumType:
			add("wrong-type", st, "1")
		case model.FloatType:
			add("wrong-type", st, "1.5x")
		case model.DoubleType:
			add("wrong-type", st, true)
		}
		for _, o := range outOfType(t) {
			add(o.kind, st, o.val)
		}
		switch t {
		case model.TimestampType:
			add("wrong-type", st, true)
			add("timestamp-range", st, json.Number("1e20"))
			add("wrong-type", st, "not a date")
		case model.ListType:
			add("wrong-type-aggregate", st, map[string]any{})
		case model.MapType:
			add("wrong-type-aggregate", st, []any{})
		case model.StructureType:
			add("wrong-type-aggregate", st, []any{json.Number("1")})
			if unknownMember(s) == nil {
				add("unknown-member", st, nil) // built below
			}
			for _, mem := range s.Members {
				if valuegen.Required(mem) {
					cands = append(cands, cand{"missing-required", st, nil, mem.Name()})
				}
			}
		case model.UnionType:
			add("wrong-type-aggregate", st, "x")
			add("union-none", st, map[string]any{})
		}
	}
	// The top level: unknown members and missing required ones.
	if typeOf(op.Input) != "unit" && unknownMember(op.Input) == nil {
		cands = append(cands, cand{kind: "unknown-member", st: site{}, name: "zzNotAMember"})
	}
	for _, mem := range op.Input.Members {
		if valuegen.Required(mem) && !mem.Traits.Has(model.TraitIdempotencyToken) {
			cands = append(cands, cand{kind: "missing-required", st: site{}, name: mem.Name()})
		}
	}
	if len(cands) == 0 {
		return Mutation{}, false
	}
	c := cands[g.R.Intn(len(cands))]
	mu = Mutation{Kind: c.kind, Path: c.st.path, Name: c.name}
	holder := func() map[string]any {
		if c.st.parent == nil {
			return in
		}
		var cur any
		switch p := c.st.parent.(type) {
		case map[string]any:
			cur = p[c.st.key]
		case []any:
			cur = p[c.st.index]
		}
		mm, _ := cur.(map[string]any)
		return mm
	}
	switch c.kind {
	case "unknown-member":
		h := holder()
		if h == nil {
			return Mutation{}, false
		}
		h["zzNotAMember"] = "x"
		mu.Name = "zzNotAMember"
	case "missing-required":
		h := holder()
		if h == nil {
			return Mutation{}, false
		}
		delete(h, c.name)
		mu.Path = append(append([]string(nil), c.st.path...), c.name)
	default:
		c.st.set(c.val)
	}
	return mu, true
}

// outOfType lists values of the document form that a scalar of type t
// cannot hold (a fraction or an out-of-range number for an integer type, a
// float beyond its range, bad base64, a string for a boolean), by mutation
// kind: an encoder refuses them in an input, a decoder in an output.
func outOfType(t model.ShapeType) []struct {
	kind string
	val  any
} {
	type kv = struct {
		kind string
		val  any
	}
	over := map[model.ShapeType]string{model.ByteType: "128", model.ShortType: "-32769", model.IntegerType: "2147483648",
		model.LongType: "9223372036854775808", model.IntEnumType: "2147483648"}
	switch t {
	case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.IntEnumType:
		return []kv{{"int-fraction", json.Number("1.5")}, {"int-range", json.Number(over[t])}}
	case model.BigIntegerType:
		return []kv{{"int-fraction", json.Number("1.5")}}
	case model.FloatType:
		return []kv{{"float-range", json.Number("1e39")}}
	case model.DoubleType:
		return []kv{{"float-range", json.Number("1e400")}}
	case model.BlobType:
		return []kv{{"bad-base64", "not base64!"}}
	case model.BooleanType:
		return []kv{{"wrong-type", "yes"}}
	}
	return nil
}

// OutOfType breaks a valid output of op in one place with a value its
// type cannot hold (outOfType), as a faulty service might send it; ok is
// false when the output holds no such scalar. Values a location carries
// as something else than their type's text (a status code, a payload, an
// event stream) are left alone.
func OutOfType(g *Gen, op *model.Operation, out map[string]any) (mu Mutation, ok bool) {
	type cand struct {
		st   site
		kind string
		val  any
	}
	var cands []cand
	for _, st := range sites(g, op.Output, out) {
		if len(st.path) > 0 && g.Locate != nil {
			top, _ := op.Output.Member(st.path[0])
			if top != nil && targetOf(g, top).HasTrait(model.TraitStreaming) {
				continue
			}
			if loc := g.Locate(top, true); loc == LocStatus || loc == LocPayload || loc == LocPrefixHeaders {
				continue
			}
		}
		for _, o := range outOfType(typeOf(targetOf(g, st.mem))) {
			cands = append(cands, cand{st, o.kind, o.val})
		}
	}
	if len(cands) == 0 {
		return Mutation{}, false
	}
	c := cands[g.R.Intn(len(cands))]
	c.st.set(c.val)
	return Mutation{Kind: c.kind, Path: c.st.path, Name: c.st.name}, true
}

func itoa(i int) string { return strconv.Itoa(i) }

// targetOf is the shape mem targets in g's model.
func targetOf(g *Gen, mem *model.Member) *model.Shape { return respond.View{M: g.Model()}.Target(mem) }
