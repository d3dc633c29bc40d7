package describe

import (
	"encoding/base64"
	"math/big"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/model"
)

// Example is an input of op to fill in, in the document form: every member
// in model order, with the model's default where it has one, else a value
// of the member's type that meets its constraints (@length, @range, enum
// values, and @pattern where a value can be derived from it; lists and maps
// get their @length min of entries, up to maxItems, different from each
// other where the type leaves room: @uniqueItems, map keys, structures),
// so that it passes the client's validation as it is. Strings are not
// empty where the constraints allow another (an @httpLabel must not be);
// an optional member is left out when its value would lead back into a
// structure being written or cannot meet a @pattern (some patterns no
// value meets).
func Example(m *model.Model, op *model.Operation) model.Node {
	return exampler{m: m, seen: map[model.ShapeID]bool{}, distinct: map[*model.Member][]string{}}.shape(op.Input, nil)
}

type exampler struct {
	m        *model.Model
	seen     map[model.ShapeID]bool
	distinct map[*model.Member][]string // distinctString's strings by member
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
		if e.seen[s.ID] && s.Type == model.StructureType {
			return obj.Build()
		}
		// A union met again is written once more, with a member that
		// does not lead back (the recursive ones are left out below).
		if !e.seen[s.ID] {
			e.seen[s.ID] = true
			defer delete(e.seen, s.ID)
		}
		for _, mm := range s.Members {
			t, _ := e.m.Target(mm)
			v, hasDefault := mm.Traits.Get(model.TraitDefault)
			switch {
			case hasDefault && !v.IsNull() && !e.constrained(mm):
				obj.Set(mm.Name(), defaultNode(e.m, mm, v))
			case (s.Type == model.UnionType || !mm.Traits.Has(model.TraitRequired)) && (e.recurses(t, 0) || !e.satisfiable(t, mm)):
				// An optional member (or a union's) that would nest
				// forever or cannot meet its @pattern is left out.
				continue
			default:
				obj.Set(mm.Name(), e.shape(t, mm))
			}
			if s.Type == model.UnionType {
				break // a union value has one member
			}
		}
		return obj.Build()
	case model.ListType, model.SetType:
		elem, _ := s.Member("member")
		n := count(trait(model.TraitLength))
		if lo, _ := bounds(trait(model.TraitLength)); (lo == nil || lo.Sign() == 0) && elem != nil {
			if t, _ := e.m.Target(elem); e.recurses(t, 0) {
				n = 0 // its elements would nest forever
			}
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
		for i, n := 0, count(trait(model.TraitLength)); i < n; i++ {
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

// recurses reports whether a value of t leads back into a structure or
// union being written: t is one, or the elements or values of t (a list or
// map, depth bounded) are.
func (e exampler) recurses(t *model.Shape, depth int) bool {
	if t == nil || depth > 8 {
		return false
	}
	var inner string
	switch t.Type {
	case model.StructureType, model.UnionType:
		return e.seen[t.ID]
	case model.ListType, model.SetType:
		inner = "member"
	case model.MapType:
		inner = "value"
	default:
		return false
	}
	mem, ok := t.Member(inner)
	if !ok {
		return false
	}
	next, _ := e.m.Target(mem)
	return e.recurses(next, depth+1)
}

// satisfiable reports whether the example string of a string member meets
// its @pattern (some patterns no value meets, as a JavaScript regex literal
// kept with its slashes, or the example cannot derive a value: \b, (?m)).
func (e exampler) satisfiable(t *model.Shape, mem *model.Member) bool {
	return e.satisfiableAt(t, mem, 0)
}

// satisfiableAt is satisfiable, through the required members of
// structures (depth bounded).
func (e exampler) satisfiableAt(t *model.Shape, mem *model.Member, depth int) bool {
	if t != nil && t.Type == model.StructureType && depth < 8 && !e.seen[t.ID] {
		for _, mm := range t.Members {
			if !mm.Traits.Has(model.TraitRequired) || mm.Traits.Has(model.TraitDefault) {
				continue
			}
			if mt, _ := e.m.Target(mm); !e.satisfiableAt(mt, mm, depth+1) {
				return false
			}
		}
		return true
	}
	if t == nil || t.Type != model.StringType || t.IsEnum() {
		return true
	}
	trait := func(id model.ShapeID) (model.Node, bool) { return e.m.MemberTrait(mem, id) }
	if _, ok := trait(model.TraitEnum); ok {
		return true
	}
	p, ok := trait(model.TraitPattern)
	if !ok {
		return true
	}
	re, err := regexp.Compile(p.Str())
	return err != nil || re.MatchString(exampleString(trait))
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

// maxItems bounds the entries an example list or map gets for its
// @length min (beyond it the example does not meet the constraint).
const maxItems = 1024

// count is how many entries a list or map gets: its @length min (at least
// one).
func count(v model.Node, ok bool) int {
	lo, _ := bounds(v, ok)
	if lo != nil && lo.IsInt64() && lo.Int64() > 1 {
		return int(min(lo.Int64(), maxItems))
	}
	return 1
}

// member is an example value of a list element or map key or value; i
// tells the entries apart: entry i differs from the entries before it
// wherever the element's type and constraints leave room (@uniqueItems,
// map keys), and still meets them.
func (e exampler) member(mem *model.Member, i int) model.Node {
	if mem == nil {
		return model.Null()
	}
	t, _ := e.m.Target(mem)
	v := e.shape(t, mem)
	if i == 0 || t == nil {
		return v
	}
	trait := func(id model.ShapeID) (model.Node, bool) { return e.m.MemberTrait(mem, id) }
	switch {
	case t.IsEnum():
		if vals := t.EnumValues(); len(vals) > 0 {
			return vals[i%len(vals)].Value
		}
	case t.Type == model.StringType:
		if s, ok := e.distinctString(mem, trait, v.Str(), i); ok {
			return model.String(s)
		}
	case t.Type == model.ByteType, t.Type == model.ShortType, t.Type == model.IntegerType,
		t.Type == model.LongType, t.Type == model.BigIntegerType,
		t.Type == model.FloatType, t.Type == model.DoubleType, t.Type == model.BigDecimalType:
		if n, ok := offset(t.Type, trait, v.Literal(), i); ok {
			return model.Number(n)
		}
	case t.Type == model.StructureType:
		// Entry i differs in the first scalar member that can differ.
		for _, mm := range t.Members {
			mt, _ := e.m.Target(mm)
			cur, ok := v.Get(mm.Name())
			if !ok || mt == nil || mt.Type == model.StructureType || mt.Type == model.UnionType ||
				mt.Type == model.ListType || mt.Type == model.SetType || mt.Type == model.MapType || mt.Type == model.DocumentType {
				continue
			}
			if w := e.member(mm, i); w.JSON() != cur.JSON() {
				var obj model.ObjectBuilder
				for _, k := range v.Keys() {
					x, _ := v.Get(k)
					if k == mm.Name() {
						x = w
					}
					obj.Set(k, x)
				}
				return obj.Build()
			}
		}
	case t.Type == model.TimestampType:
		return model.Number(strconv.Itoa(i))
	case t.Type == model.BooleanType:
		return model.Bool(i%2 == 1)
	case t.Type == model.BlobType:
		lo, hi := bounds(trait(model.TraitLength))
		length := func(id model.ShapeID) (model.Node, bool) {
			if id == model.TraitLength {
				return trait(id)
			}
			return model.Node{}, false
		}
		if s, ok := e.distinctString(mem, length, fit("example", lo, hi), i); ok {
			return model.String(base64.StdEncoding.EncodeToString([]byte(s)))
		}
	}
	return v
}

// distinctString is the i-th string (i > 0) meeting the @length and
// @pattern found with trait other than base, distinct for each i (see
// distinctStrings); the strings of a member are made once, for every i.
func (e exampler) distinctString(mem *model.Member, trait func(model.ShapeID) (model.Node, bool), base string, i int) (string, bool) {
	got := e.distinct[mem]
	if i >= len(got) {
		got = distinctStrings(trait, base, max(i+1, 2*len(got), 32))
		e.distinct[mem] = got
	}
	if i < len(got) {
		return got[i], true
	}
	return "", false
}

// distinctStrings lists up to n strings meeting the @length and @pattern
// found with trait, base first: base with other letters at its end (in base
// 26, over more letters as needed), then the pattern's strings with other
// choices (its character classes' other characters, its other branches,
// longer repetitions).
func distinctStrings(trait func(model.ShapeID) (model.Node, bool), base string, n int) []string {
	lo, hi := bounds(trait(model.TraitLength))
	var re *regexp.Regexp
	var parsed *syntax.Regexp
	if p, ok := trait(model.TraitPattern); ok {
		var err error
		if re, err = regexp.Compile(p.Str()); err != nil {
			return []string{base}
		}
		if parsed, err = syntax.Parse(p.Str(), syntax.Perl); err != nil {
			return []string{base}
		}
	}
	out := []string{base}
	seen := map[string]bool{base: true}
	// take adds s when it is new and meets the constraints; true once n are found.
	take := func(s string) bool {
		size := int64(utf8.RuneCountInString(s))
		if !seen[s] && (lo == nil || !lo.IsInt64() || size >= lo.Int64()) && (hi == nil || !hi.IsInt64() || size <= hi.Int64()) &&
			(re == nil || re.MatchString(s)) {
			seen[s] = true
			out = append(out, s)
		}
		return len(out) >= n
	}
	for j, width, next := 0, 1, 26; j < 4*n+26; j++ {
		if j == next {
			width, next = width+1, next*26
		}
		tail := make([]byte, width)
		for k, x := width-1, j; k >= 0; k, x = k-1, x/26 {
			tail[k] = byte('a' + x%26)
		}
		s := string(tail)
		if len(base) >= width {
			s = base[:len(base)-width] + s
		}
		if take(s) {
			return out
		}
	}
	if parsed != nil {
		for variant := 1; variant < 8*n+64; variant++ {
			for extra := 0; extra <= 16; extra++ {
				s := generateVariant(parsed, extra, variant)
				if re.MatchString(s) {
					if take(s) {
						return out
					}
					break
				}
			}
		}
	}
	return out
}

// offset is the number i steps from base within the @range found with
// trait and the limits of its type t: up from base, or down when the
// maximum is in the way.
func offset(t model.ShapeType, trait func(model.ShapeID) (model.Node, bool), base string, i int) (string, bool) {
	b, ok := new(big.Float).SetPrec(200).SetString(base)
	if !ok {
		return "", false
	}
	step := big.NewFloat(float64(i))
	if strings.ContainsAny(base, ".eE") {
		step.Mul(step, big.NewFloat(0.001)) // floats: steps small enough for narrow ranges
	}
	limits := typeLimits[t]
	lo, hi := limits[0], limits[1]
	if v, ok := trait(model.TraitRange); ok {
		if n, ok := v.Get("max"); ok {
			if f, ok := new(big.Float).SetPrec(200).SetString(n.Literal()); ok && (hi == nil || f.Cmp(hi) < 0) {
				hi = f
			}
		}
		if n, ok := v.Get("min"); ok {
			if f, ok := new(big.Float).SetPrec(200).SetString(n.Literal()); ok && (lo == nil || f.Cmp(lo) > 0) {
				lo = f
			}
		}
	}
	up := new(big.Float).Add(b, step)
	if hi != nil && up.Cmp(hi) > 0 {
		if up = new(big.Float).Sub(b, step); lo != nil && up.Cmp(lo) < 0 {
			return "", false
		}
	}
	text := up.Text('f', -1)
	if strings.Contains(base, ".") && !strings.Contains(text, ".") {
		text += ".0"
	}
	return text, true
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
	// Repetitions grow until the length fits. An empty string is the
	// last choice: an @httpLabel must not be empty, and patterns such as
	// "^(?s)" or "^[a-z]*$" are met by "" first.
	empty := false
	for extra := 0; extra <= 256; extra++ {
		s := generate(parsed, extra)
		n := int64(utf8.RuneCountInString(s))
		if lo != nil && lo.IsInt64() && n < lo.Int64() {
			continue
		}
		if hi != nil && hi.IsInt64() && n > hi.Int64() {
			break
		}
		if !re.MatchString(s) {
			break
		}
		if s != "" {
			return s
		}
		empty = true
		if f := fit("string", lo, hi); f != "" && re.MatchString(f) {
			return f
		}
	}
	if empty {
		return ""
	}
	return fit("string", lo, hi)
}

// generate writes a short string matching re: each repetition its
// minimum number of times, the first ones repeated more while the budget
// of extra repetitions lasts.
func generate(re *syntax.Regexp, budget int) string { return generateVariant(re, budget, 0) }

// generateVariant is generate with other choices for variant > 0: the
// variant, written in a mixed radix over the character classes and
// alternations met in order, picks their other characters and branches.
func generateVariant(re *syntax.Regexp, budget, variant int) string {
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
			n := classSize(re.Rune)
			if variant > 0 && n > 1 {
				k := variant % n
				variant /= n
				if k > 0 {
					b.WriteRune(nthRune(re.Rune, k))
					break
				}
			}
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
			k := 0
			if variant > 0 {
				k = variant % len(re.Sub)
				variant /= len(re.Sub)
			}
			walk(re.Sub[k])
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

// classSize is how many readable runes (printable ASCII) a character
// class holds, at most 64.
func classSize(ranges []rune) int {
	n := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := max(ranges[i], '!'), min(ranges[i+1], '~')
		if lo <= hi {
			n += int(hi - lo + 1)
		}
	}
	return min(n, 64)
}

// nthRune is the k-th readable rune of a character class (k < classSize).
func nthRune(ranges []rune, k int) rune {
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := max(ranges[i], '!'), min(ranges[i+1], '~')
		if lo <= hi {
			if k <= int(hi-lo) {
				return lo + rune(k)
			}
			k -= int(hi - lo + 1)
		}
	}
	return pickRune(ranges)
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

// typeLimits are the integer types' limits [min, max].
var typeLimits = map[model.ShapeType][2]*big.Float{
	model.ByteType:    {big.NewFloat(-1 << 7), big.NewFloat(1<<7 - 1)},
	model.ShortType:   {big.NewFloat(-1 << 15), big.NewFloat(1<<15 - 1)},
	model.IntegerType: {big.NewFloat(-1 << 31), big.NewFloat(1<<31 - 1)},
	model.LongType:    {big.NewFloat(-1 << 63), new(big.Float).SetInt64(1<<63 - 1)},
}

func zero(integer bool) string {
	if integer {
		return "0"
	}
	return "0.0"
}
