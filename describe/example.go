package describe

import (
	"encoding/base64"
	"math/big"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/model"
)

// Example is an input of op to fill in, in the document form: every member
// in model order, with the model's default where it has one, else a value
// of the member's type that meets its constraints (@length, @range, enum
// values, and @pattern where a value can be derived from it), so that it
// passes the client's validation as it is.
func Example(m *model.Model, op *model.Operation) model.Node {
	return exampler{m: m, seen: map[model.ShapeID]bool{}}.shape(op.Input, nil)
}

type exampler struct {
	m    *model.Model
	seen map[model.ShapeID]bool
}

// shape is an example value of s; mem, when not nil, is the member that
// targets it (its constraint traits win over the shape's).
func (e exampler) shape(s *model.Shape, mem *model.Member) model.Node {
	if s == nil {
		return model.Null()
	}
	trait := func(id model.ShapeID) (model.Node, bool) {
		if mem != nil {
			return e.m.MemberTrait(mem, id)
		}
		return s.Trait(id)
	}
	switch s.Type {
	case model.StructureType, model.UnionType:
		var obj model.ObjectBuilder
		if e.seen[s.ID] {
			return obj.Build()
		}
		e.seen[s.ID] = true
		defer delete(e.seen, s.ID)
		for _, mm := range s.Members {
			t, _ := e.m.Target(mm)
			if s.Type == model.UnionType && t != nil && e.seen[t.ID] {
				continue // a member that leads back here would nest forever
			}
			if v, ok := mm.Traits.Get(model.TraitDefault); ok && !v.IsNull() && !e.constrained(mm) {
				obj.Set(mm.Name(), defaultNode(e.m, mm, v))
			} else {
				obj.Set(mm.Name(), e.shape(t, mm))
			}
			if s.Type == model.UnionType {
				break // a union value has one member
			}
		}
		return obj.Build()
	case model.ListType, model.SetType:
		elem, _ := s.Member("member")
		n := 1
		if lo, _ := bounds(trait(model.TraitLength)); lo != nil && lo.IsInt64() && lo.Int64() > 1 && lo.Int64() <= 16 {
			n = int(lo.Int64())
		}
		items := make([]model.Node, n)
		for i := range items {
			items[i] = e.member(elem, i)
		}
		return model.Array(items...)
	case model.MapType:
		key, _ := s.Member("key")
		value, _ := s.Member("value")
		var obj model.ObjectBuilder
		n := 1
		if lo, _ := bounds(trait(model.TraitLength)); lo != nil && lo.IsInt64() && lo.Int64() > 1 && lo.Int64() <= 16 {
			n = int(lo.Int64())
		}
		for i := 0; i < n; i++ {
			obj.Set(e.member(key, i).Str(), e.member(value, i))
		}
		return obj.Build()
	case model.EnumType, model.IntEnumType:
		if len(s.Members) > 0 {
			v, _ := s.Members[0].Traits.Get(model.TraitEnumValue)
			return v
		}
	case model.BooleanType:
		return model.Bool(false)
	case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.BigIntegerType:
		return model.Number(inRange(trait, true))
	case model.FloatType, model.DoubleType, model.BigDecimalType:
		return model.Number(inRange(trait, false))
	case model.TimestampType:
		return model.String("1970-01-01T00:00:00Z")
	case model.BlobType:
		lo, hi := bounds(trait(model.TraitLength))
		return model.String(base64.StdEncoding.EncodeToString([]byte(fit("example", lo, hi))))
	case model.DocumentType:
		return model.Object()
	case model.StringType:
		if v, ok := trait(model.TraitEnum); ok && len(v.Items()) > 0 {
			value, _ := v.Items()[0].Get("value")
			return value
		}
		return model.String(exampleString(trait))
	}
	return model.String("")
}

// constrained reports whether mem or its target has a constraint trait a
// default might break (models have @default(0) with @range(min: 1)).
func (e exampler) constrained(mem *model.Member) bool {
	for _, id := range []model.ShapeID{model.TraitRange, model.TraitLength, model.TraitPattern} {
		if _, ok := e.m.MemberTrait(mem, id); ok {
			return true
		}
	}
	return false
}

// member is an example value of a list element or map key or value; i
// tells the elements of a list apart (@uniqueItems, @length min above 1).
func (e exampler) member(mem *model.Member, i int) model.Node {
	if mem == nil {
		return model.Null()
	}
	t, _ := e.m.Target(mem)
	v := e.shape(t, mem)
	if i > 0 && v.Kind() == model.StringNode && t != nil && t.Type == model.StringType {
		if s := v.Str(); len(s) > 0 {
			// Different elements: another last letter, if the pattern allows.
			other := s[:len(s)-1] + string(rune('a'+i%26))
			p, ok := e.m.MemberTrait(mem, model.TraitPattern)
			if re, err := regexp.Compile(p.Str()); !ok || (err == nil && re.MatchString(other)) {
				return model.String(other)
			}
		}
	}
	return v
}

// exampleString is a string meeting the @length and @pattern found with trait.
func exampleString(trait func(model.ShapeID) (model.Node, bool)) string {
	lo, hi := bounds(trait(model.TraitLength))
	p, ok := trait(model.TraitPattern)
	if !ok {
		return fit("string", lo, hi)
	}
	re, err := regexp.Compile(p.Str())
	if err != nil {
		return fit("string", lo, hi)
	}
	parsed, err := syntax.Parse(p.Str(), syntax.Perl)
	if err != nil {
		return fit("string", lo, hi)
	}
	// Repetitions grow until the length fits.
	for extra := 0; extra <= 256; extra++ {
		s := generate(parsed, extra)
		n := int64(utf8.RuneCountInString(s))
		if lo != nil && lo.IsInt64() && n < lo.Int64() {
			continue
		}
		if hi != nil && hi.IsInt64() && n > hi.Int64() {
			break
		}
		if re.MatchString(s) {
			return s
		}
		break
	}
	return fit("string", lo, hi)
}

// generate writes a short string matching re: each repetition its
// minimum number of times, the first ones repeated more while the budget
// of extra repetitions lasts.
func generate(re *syntax.Regexp, budget int) string {
	var b strings.Builder
	more := func(room int) int { // extra repetitions taken from the budget
		n := budget
		if room >= 0 && n > room {
			n = room
		}
		budget -= n
		return n
	}
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		repeat := func(n int) {
			for i := 0; i < n; i++ {
				walk(re.Sub[0])
			}
		}
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				b.WriteRune(r)
			}
		case syntax.OpCharClass:
			b.WriteRune(pickRune(re.Rune))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteRune('a')
		case syntax.OpCapture:
			walk(re.Sub[0])
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				walk(sub)
			}
		case syntax.OpAlternate:
			walk(re.Sub[0])
		case syntax.OpStar:
			repeat(more(-1))
		case syntax.OpPlus:
			repeat(1 + more(-1))
		case syntax.OpQuest:
			repeat(more(1))
		case syntax.OpRepeat:
			room := -1
			if re.Max >= 0 {
				room = re.Max - re.Min
			}
			repeat(re.Min + more(room))
		}
	}
	walk(re)
	return b.String()
}

// pickRune picks a readable rune of a character class (pairs of ranges):
// a lower-case letter, else an upper-case one, a digit, or the first.
func pickRune(ranges []rune) rune {
	for _, want := range []rune{'a', 'A', '0', '-', '_'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want && want <= ranges[i+1] {
				return want
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < ranges[i]+256; r++ {
			if r > ' ' && r < 0x7f {
				return r
			}
		}
	}
	if len(ranges) > 0 {
		return ranges[0]
	}
	return 'a'
}

// fit pads (with 'x') or cuts s to the length bounds.
func fit(s string, lo, hi *big.Int) string {
	if lo != nil && lo.IsInt64() && int64(len(s)) < lo.Int64() && lo.Int64() <= 1<<16 {
		s += strings.Repeat("x", int(lo.Int64())-len(s))
	}
	if hi != nil && hi.IsInt64() && int64(len(s)) > hi.Int64() && hi.Int64() >= 0 {
		s = s[:hi.Int64()]
	}
	return s
}

// bounds reads the min and max of a @length or @range trait (nil: none).
func bounds(v model.Node, ok bool) (lo, hi *big.Int) {
	if !ok {
		return nil, nil
	}
	read := func(key string) *big.Int {
		n, ok := v.Get(key)
		if !ok {
			return nil
		}
		f, ok := new(big.Float).SetString(n.Literal())
		if !ok {
			return nil
		}
		i, _ := f.Int(nil)
		return i
	}
	return read("min"), read("max")
}

// inRange is a number literal within the @range found with trait: 0 when
// it allows, else the bound nearest to it (rounded inwards for integers).
func inRange(trait func(model.ShapeID) (model.Node, bool), integer bool) string {
	v, ok := trait(model.TraitRange)
	if !ok {
		return zero(integer)
	}
	lit := func(key string) (*big.Float, bool) {
		n, ok := v.Get(key)
		if !ok {
			return nil, false
		}
		f, ok := new(big.Float).SetPrec(200).SetString(n.Literal())
		return f, ok
	}
	lo, hasLo := lit("min")
	hi, hasHi := lit("max")
	zeroF := new(big.Float)
	switch {
	case hasLo && lo.Cmp(zeroF) > 0:
		return bound(lo, integer, true)
	case hasHi && hi.Cmp(zeroF) < 0:
		return bound(hi, integer, false)
	}
	return zero(integer)
}

func bound(f *big.Float, integer, up bool) string {
	if !integer {
		return f.Text('g', -1)
	}
	i, acc := f.Int(nil)
	if up && acc == big.Below {
		i.Add(i, big.NewInt(1))
	} else if !up && acc == big.Above {
		i.Sub(i, big.NewInt(1))
	}
	return i.String()
}

func zero(integer bool) string {
	if integer {
		return "0"
	}
	return "0.0"
}
