// Package valuegen generates random values of a model's shapes in the
// document form: the property tests' inputs and outputs (testing/proptest,
// edge cases included) and the mock server's answers (serve, with Plain:
// values a person reads). Values are as respond.Decode reads JSON.
package valuegen

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// Loc is where a member travels in an HTTP message; it restricts the values
// that can travel there (a header cannot hold a line break).
type Loc = respond.Loc

// Gen generates random values of the shapes of one model. It is not safe
// for concurrent use.
type Gen struct {
	v respond.View
	R *rand.Rand
	// Constrained makes values respect @length, @range, @pattern, enum
	// membership and @uniqueItems; otherwise they may break them (which
	// the codecs only check when validation is on). Enum values the model
	// does not list are generated only when unconstrained or for
	// alloy#openEnum.
	Constrained bool
	// MaxDepth bounds the nesting of recursive shapes: deeper down only
	// required members are set and lists and maps are empty.
	MaxDepth int
	// Locate gives the location of a top-level member (nil: every member
	// in the body, as the RPC protocols send them).
	Locate func(mem *model.Member, response bool) Loc
	// StatusRange bounds the values of an httpResponseCode member.
	StatusMin, StatusMax int
	// Unsat is set when a value could not meet a @pattern; a test then
	// reads a validation error of that pattern as expected.
	Unsat bool
	// UnknownUnions makes some union values of outputs and errors a member
	// the model does not know (a newer service's), in the document form
	// {"$unknown": [name, value]}, which the decoders must keep: the value
	// is any JSON value, or with UnknownUnionText plain text (the XML
	// decoders keep an element's content as written).
	UnknownUnions, UnknownUnionText bool
	// Patterns caches the compiled @pattern regexps across generators
	// (nil: each value compiles its own).
	Patterns *Patterns
	// Plain makes values a person reads, as a mock server answers: short
	// words, small numbers, recent dates; no edge cases (huge or control
	// characters, NaN, extreme numbers).
	Plain bool

	response bool // generating an output or error (Output, Error)
}

// New returns a generator for m seeded with seed.
func New(m *model.Model, seed int64) *Gen { return withSource(m, rand.NewSource(seed)) }

// withSource returns a generator for m drawing from src.
func withSource(m *model.Model, src rand.Source) *Gen {
	return &Gen{v: respond.View{M: m}, R: rand.New(src), MaxDepth: 4, StatusMin: 200, StatusMax: 299}
}

// ctx is what restricts one value: its location and whether it is a host
// label.
type ctx struct {
	loc       Loc
	hostLabel bool
	depth     int
	listItem  bool // an item of a list bound to a header or query
}

func (g *Gen) chance(p float64) bool { return g.R.Float64() < p }

func (g *Gen) pick(list ...string) string { return list[g.R.Intn(len(list))] }

// Input generates a valid input of op.
func (g *Gen) Input(op *model.Operation) map[string]any {
	return g.top(op.Input, false)
}

// Output generates a valid output of op.
func (g *Gen) Output(op *model.Operation) map[string]any {
	return g.top(op.Output, true)
}

// Value generates a value of member mem, as a member of a body.
func (g *Gen) Value(mem *model.Member) any { return g.member(mem, ctx{loc: respond.LocBody}) }

// Error generates the members of error shape s.
func (g *Gen) Error(s *model.Shape) map[string]any { return g.top(s, true) }

func (g *Gen) top(s *model.Shape, response bool) map[string]any {
	g.response = response
	out := map[string]any{}
	if s == nil || respond.TypeOf(s) == "unit" {
		return out
	}
	for _, mem := range s.Members {
		loc := respond.LocBody
		if g.Locate != nil {
			loc = g.Locate(mem, response)
		}
		c := ctx{loc: loc, hostLabel: mem.Traits.Has(model.TraitHostLabel) && !response}
		if mem.Traits.Has(protocol.TraitJSONUnknown) {
			continue
		}
		if !Required(mem) && (loc != respond.LocLabel && loc != respond.LocGreedyLabel) && !c.hostLabel && !g.chance(0.6) {
			if g.chance(0.05) && !mem.Traits.Has(protocol.TraitNullable) {
				out[mem.Name()] = nil // an explicit null is an absent member
			}
			continue
		}
		if loc == respond.LocStatus && response {
			out[mem.Name()] = json.Number(strconv.Itoa(g.StatusMin + g.R.Intn(g.StatusMax-g.StatusMin+1)))
			continue
		}
		out[mem.Name()] = g.member(mem, c)
	}
	return out
}

// Model is the model g generates values of.
func (g *Gen) Model() *model.Model { return g.v.M }

// Required reports whether a value of mem must be given: @required
// without a @default.
func Required(mem *model.Member) bool {
	return mem.Traits.Has(model.TraitRequired) && !mem.Traits.Has(model.TraitDefault)
}

// member generates a value for mem.
func (g *Gen) member(mem *model.Member, c ctx) any {
	s := g.v.Target(mem)
	switch respond.TypeOf(s) {
	case model.StringType:
		return g.constrainedString(mem, c)
	case model.EnumType:
		return g.enum(mem, s, false)
	case model.IntEnumType:
		v := g.enum(mem, s, true)
		return json.Number(v.(string))
	case model.BlobType:
		return g.blob(mem, c)
	case model.BooleanType:
		return g.chance(0.5)
	case model.ByteType:
		return g.integer(mem, 8)
	case model.ShortType:
		return g.integer(mem, 16)
	case model.IntegerType:
		return g.integer(mem, 32)
	case model.LongType:
		return g.integer(mem, 64)
	case model.FloatType:
		return g.float(mem, c, true)
	case model.DoubleType:
		return g.float(mem, c, false)
	case model.BigIntegerType:
		if lo, hi, ok := g.rangeOf(mem); ok {
			return json.Number(pickInRange(g.R, lo, hi, true))
		}
		if g.Plain {
			return json.Number(strconv.Itoa(g.R.Intn(1000)))
		}
		return json.Number(g.pick("0", "-1", "7", "123456789012345678901234567890", "-9223372036854775809", "18446744073709551616"))
	case model.BigDecimalType:
		if lo, hi, ok := g.rangeOf(mem); ok {
			return json.Number(pickInRange(g.R, lo, hi, false))
		}
		if g.Plain {
			return json.Number(plainDecimal(g.R))
		}
		return json.Number(g.pick("0", "1.5", "-0.000000000000000000001", "12.3456789012345678901", "1e40", "-7.25e-30", "123456789012345678901234567890.5"))
	case model.TimestampType:
		return g.timestamp(c)
	case model.DocumentType:
		if d := g.document(c.depth); d != nil {
			return d
		}
		return map[string]any{} // a null document is an absent member

	case model.ListType:
		return g.list(mem, s, c)
	case model.MapType:
		return g.mapValue(mem, s, c)
	case model.StructureType:
		return g.structure(s, c)
	case model.UnionType:
		return g.union(s, c)
	case "unit":
		return map[string]any{}
	}
	return nil
}

func (g *Gen) structure(s *model.Shape, c ctx) map[string]any {
	out := map[string]any{}
	deep := c.depth >= g.MaxDepth
	for _, mem := range s.Members {
		if mem.Traits.Has(protocol.TraitJSONUnknown) {
			continue
		}
		if !Required(mem) && (deep || !g.chance(0.5)) {
			if !deep && g.chance(0.05) && !mem.Traits.Has(protocol.TraitNullable) {
				out[mem.Name()] = nil
			}
			continue
		}
		if mem.Traits.Has(protocol.TraitNullable) && g.chance(0.2) {
			out[mem.Name()] = nil // alloy#nullable: null is a value
			continue
		}
		out[mem.Name()] = g.member(mem, ctx{loc: respond.LocBody, depth: c.depth + 1})
	}
	return out
}

func (g *Gen) union(s *model.Shape, c ctx) map[string]any {
	var members []*model.Member
	for _, mem := range s.Members {
		if !mem.Traits.Has(protocol.TraitJSONUnknown) {
			members = append(members, mem)
		}
	}
	if len(members) == 0 {
		return map[string]any{}
	}
	// (alloy#jsonUnknown keeps unknown members its own way.)
	if g.UnknownUnions && g.response && (c.loc == respond.LocBody || c.loc == respond.LocPayload) && len(members) == len(s.Members) && g.chance(0.25) &&
		!s.HasTrait(protocol.TraitUntagged) && !s.HasTrait(protocol.TraitDiscriminated) && !s.HasTrait(model.TraitStreaming) {
		return map[string]any{unknownMemberKey: []any{g.unknownName(s), g.unknownValue(c.depth)}}
	}
	// Deep down, prefer members that do not nest.
	mem := members[g.R.Intn(len(members))]
	if c.depth >= g.MaxDepth {
		for _, m := range members {
			if t := respond.TypeOf(g.v.Target(m)); t != model.StructureType && t != model.UnionType && t != model.ListType && t != model.MapType {
				mem = m
				break
			}
		}
	}
	return map[string]any{mem.Name(): g.member(mem, ctx{loc: respond.LocBody, depth: c.depth + 1})}
}

// unknownMemberKey is the document form's key of a union member the model
// does not know: {"$unknown": [name, value]}.
const unknownMemberKey = respond.UnknownMember

// unknownName is a member name union s does not have, by name or jsonName.
func (g *Gen) unknownName(s *model.Shape) string {
	for {
		name := fmt.Sprintf("Newer%d", g.R.Intn(1000))
		taken := false
		for _, m := range s.Members {
			j, _ := m.Traits.Get(model.TraitJSONName)
			taken = taken || m.Name() == name || j.Str() == name
		}
		if !taken {
			return name
		}
	}
}

// unknownValue is the value of an unknown union member: any JSON value but
// null (a null member is no member), or plain text with UnknownUnionText.
func (g *Gen) unknownValue(depth int) any {
	if g.UnknownUnionText {
		return g.pick("", "v", "new value", "x1")
	}
	if d := g.document(depth + 1); d != nil {
		return d
	}
	return "v"
}

func (g *Gen) list(mem *model.Member, s *model.Shape, c ctx) []any {
	item := respond.Elem(s, "member")
	n := g.length(mem, c.depth)
	sparse := s.HasTrait(model.TraitSparse) && c.loc == respond.LocBody
	unique := (s.Type == model.SetType || g.has(mem, model.TraitUniqueItems)) && g.Constrained
	out := make([]any, 0, n)
	seen := map[string]bool{}
	ic := ctx{loc: c.loc, depth: c.depth + 1, listItem: true}
	for tries := 0; len(out) < n && tries < 4*n+8; tries++ {
		if sparse && g.chance(0.2) {
			if unique && seen["null"] {
				continue
			}
			seen["null"] = true
			out = append(out, nil)
			continue
		}
		v := g.member(item, ic)
		if unique {
			k := string(respond.Encode(v))
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, v)
	}
	return out
}

func (g *Gen) mapValue(mem *model.Member, s *model.Shape, c ctx) map[string]any {
	keyMem, valMem := respond.Elem(s, "key"), respond.Elem(s, "value")
	n := g.length(mem, c.depth)
	sparse := s.HasTrait(model.TraitSparse) && c.loc == respond.LocBody
	out := map[string]any{}
	for tries := 0; len(out) < n && tries < 4*n+8; tries++ {
		var k string
		switch c.loc {
		case respond.LocPrefixHeaders:
			k = "Pt" + g.letters(1+g.R.Intn(6))
		case respond.LocQueryParams:
			k = "qp" + g.letters(1+g.R.Intn(6))
		default:
			kv := g.member(keyMem, ctx{loc: respond.LocBody, depth: c.depth + 1})
			k, _ = kv.(string)
		}
		if _, dup := out[k]; dup {
			continue
		}
		if sparse && g.chance(0.2) {
			out[k] = nil
			continue
		}
		vc := ctx{loc: respond.LocBody, depth: c.depth + 1}
		if c.loc == respond.LocPrefixHeaders {
			vc.loc = respond.LocHeader
		}
		if c.loc == respond.LocQueryParams {
			vc.loc = respond.LocQuery
		}
		out[k] = g.member(valMem, vc)
	}
	return out
}

func (g *Gen) letters(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + g.R.Intn(26))
	}
	return string(b)
}

func (g *Gen) has(mem *model.Member, id model.ShapeID) bool {
	_, ok := g.v.M.MemberTrait(mem, id)
	return ok
}

// length picks a size for a list, map, string or blob within @length when
// constrained, and small deep down.
func (g *Gen) length(mem *model.Member, depth int) int {
	lo, hi := int64(0), int64(4)
	if g.Plain {
		hi = 3
	} else if g.chance(0.05) && depth < 2 {
		hi = 40
	}
	if depth >= g.MaxDepth {
		hi = 0
	}
	if g.Constrained {
		if n, ok := g.v.M.MemberTrait(mem, model.TraitLength); ok {
			if v, ok := n.Get("min"); ok {
				if x, ok := v.Int64(); ok {
					lo = x
					if hi < lo {
						hi = lo
					}
				}
			}
			if v, ok := n.Get("max"); ok {
				if x, ok := v.Int64(); ok && x < hi {
					hi = x
				}
			}
		}
	}
	if hi < lo {
		hi = lo
	}
	if lo > 1000 {
		return int(lo)
	}
	return int(lo) + g.R.Intn(int(hi-lo)+1)
}

// plainWords are the strings of Plain values.
var plainWords = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"}

// plainDecimal is a small decimal with two digits after the point.
func plainDecimal(r *rand.Rand) string {
	return strconv.Itoa(r.Intn(1000)) + "." + strconv.Itoa(10+r.Intn(90))
}

var stringSamples = []string{
	"", "a", "hello world", "é", "日本語", "😀", "𝄞 music", "tab\there", "line\nbreak", `quote " and \ backslash`,
	"/slash/", "a&b=c?d#e", "%41%", "+plus+", " spaced ", "\u2028\u2029", "nul\x00byte", "\x7f", "ünïcödé ✓",
	"<xml>&amp;</xml>", "{\"json\": 1}", "2024-05-01T12:00:00Z", "NaN", "null", "true", "0", ",", `"`, "a,b", `"quoted, comma"`,
}

// str generates a string fit for its location.
func (g *Gen) str(c ctx) string {
	if c.hostLabel {
		return g.letters(1 + g.R.Intn(10))
	}
	if g.Plain {
		s := g.pick(plainWords...)
		if g.chance(0.3) {
			s += " " + g.pick(plainWords...)
		}
		return s
	}
	var s string
	switch r := g.R.Intn(10); {
	case r < 6:
		s = stringSamples[g.R.Intn(len(stringSamples))]
	case r < 9:
		s = g.randomText(g.R.Intn(12))
	default:
		if g.chance(0.3) && c.depth < 2 {
			s = strings.Repeat("x😀é", 3000) // a huge string
		} else {
			s = g.randomText(g.R.Intn(200))
		}
	}
	return fitLocation(s, c)
}

// fitLocation adjusts s to what its location can carry: a header neither
// holds control characters nor starts or ends with white space; a label is
// never empty; a header list item is never empty.
func fitLocation(s string, c ctx) string {
	switch c.loc {
	case respond.LocHeader, respond.LocPrefixHeaders:
		s = strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return '_'
			}
			return r
		}, s)
		s = strings.Trim(s, " \t")
		if c.listItem && s == "" {
			s = "x"
		}
	case respond.LocLabel, respond.LocGreedyLabel:
		if s == "" {
			s = "x"
		}
	}
	return s
}

func (g *Gen) randomText(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch r := g.R.Intn(20); {
		case r < 12:
			b.WriteByte(byte(0x20 + g.R.Intn(0x5f)))
		case r < 14:
			b.WriteRune(rune(0xa0 + g.R.Intn(0x700)))
		case r < 16:
			b.WriteRune(rune(0x3000 + g.R.Intn(0x5000)))
		case r < 18:
			b.WriteRune(rune(0x1F300 + g.R.Intn(0x300))) // astral
		case r < 19:
			b.WriteByte(byte(g.R.Intn(0x20)))
		default:
			b.WriteRune(rune(0xE000 + g.R.Intn(0x1000)))
		}
	}
	return b.String()
}

func (g *Gen) constrainedString(mem *model.Member, c ctx) string {
	s := g.str(c)
	if !g.Constrained {
		return s
	}
	n, hasLen := g.v.M.MemberTrait(mem, model.TraitLength)
	pat, hasPat := g.v.M.MemberTrait(mem, model.TraitPattern)
	if !hasLen && !hasPat {
		return s
	}
	var re *regexp.Regexp
	if hasPat {
		re = g.Patterns.compile(pat.Str())
	}
	lo, hi := int64(0), int64(-1)
	if hasLen {
		if v, ok := n.Get("min"); ok {
			lo, _ = v.Int64()
		}
		if v, ok := n.Get("max"); ok {
			hi, _ = v.Int64()
		}
	}
	ok := func(s string) bool {
		l := int64(utf8.RuneCountInString(s))
		if l < lo || (hi >= 0 && l > hi) {
			return false
		}
		return re == nil || re.MatchString(s)
	}
	fit := func(s string) string {
		l := int64(utf8.RuneCountInString(s))
		if hi >= 0 && l > hi {
			s = string([]rune(s)[:hi])
		}
		for int64(utf8.RuneCountInString(s)) < lo {
			s += "a"
		}
		return s
	}
	cands := []string{fit(s), s}
	if re != nil {
		cands = append(cands, patternCandidates(re, g)...)
	}
	try := func(cands []string) (string, bool) {
		for _, cand := range cands {
			cand = fitLocation(cand, c)
			if ok(cand) {
				return cand, true
			}
			if f := fitLocation(fit(cand), c); ok(f) {
				return f, true
			}
		}
		return "", false
	}
	if v, found := try(cands); found {
		return v
	}
	if re != nil { // strings written from the pattern itself
		var more []string
		for i := 0; i < 8; i++ {
			if m, ok := g.fromPattern(re.String()); ok {
				more = append(more, m)
			}
		}
		if v, found := try(more); found {
			return v
		}
	}
	g.Unsat = true
	return fitLocation(fit(s), c)
}

// patternCandidates are strings tried against a @pattern that the random
// ones did not meet.
func patternCandidates(re *regexp.Regexp, g *Gen) []string {
	base := []string{"a", "abc", "A", "1", "0", "abc123", "a-b_c", "arn:aws:iam::123456789012:role/x",
		"arn:aws:s3:::bucket", "x@example.com", "2024-05-01", "us-east-1", "AKIAIOSFODNN7EXAMPLE", "123456789012",
		"abcdefghij", "a.b", "/", "a/b", "https://example.com", "sg-12345678", "ABC", "aaaaaaaaaaaaaaaaaaaa", "1.0", "12:00"}
	// Literal prefixes and character classes: try the pattern's own
	// literal text with its metacharacters removed.
	lit := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`^$\.*+?()[]{}|`, r) {
			return -1
		}
		return r
	}, re.String())
	base = append(base, lit)
	return base
}

func (g *Gen) enum(mem *model.Member, s *model.Shape, intEnum bool) any {
	vals := EnumValues(s)
	unknownOK := !g.Constrained || s.HasTrait(protocol.TraitOpenEnum)
	if len(vals) == 0 || (unknownOK && g.chance(0.1)) {
		if intEnum {
			return strconv.Itoa(4242 + g.R.Intn(100))
		}
		return "UNKNOWN_" + strings.ToUpper(g.letters(4))
	}
	return vals[g.R.Intn(len(vals))]
}

func (g *Gen) blob(mem *model.Member, c ctx) string {
	n := g.length(mem, c.depth)
	if g.Plain {
		var b []byte
		for len(b) < n {
			b = append(b, g.pick(plainWords...)...)
		}
		return base64.StdEncoding.EncodeToString(b[:n])
	}
	if g.chance(0.3) && !g.Constrained {
		n = g.R.Intn(4)
	}
	if g.chance(0.02) && c.depth < 2 && !g.Constrained {
		n = 20000
	}
	b := make([]byte, n)
	g.R.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

var intBounds = map[int][2]string{
	8:  {"-128", "127"},
	16: {"-32768", "32767"},
	32: {"-2147483648", "2147483647"},
	64: {"-9223372036854775808", "9223372036854775807"},
}

func (g *Gen) integer(mem *model.Member, bits int) json.Number {
	b := intBounds[bits]
	lo, hi := b[0], b[1]
	if rlo, rhi, ok := g.rangeOf(mem); ok {
		lo, hi = maxRat(lo, rlo), minRat(hi, rhi)
		return json.Number(pickInRange(g.R, lo, hi, true))
	}
	if g.Plain {
		return json.Number(strconv.Itoa(g.R.Intn(100)))
	}
	return json.Number(g.pick(lo, hi, "0", "1", "-1", "42", pickInRange(g.R, lo, hi, true)))
}

// rangeOf is the @range of mem as decimal literals ("" for an open end),
// when constrained.
func (g *Gen) rangeOf(mem *model.Member) (lo, hi string, ok bool) {
	if !g.Constrained {
		return "", "", false
	}
	n, ok := g.v.M.MemberTrait(mem, model.TraitRange)
	if !ok {
		return "", "", false
	}
	if v, ok := n.Get("min"); ok {
		lo = v.Literal()
	}
	if v, ok := n.Get("max"); ok {
		hi = v.Literal()
	}
	return lo, hi, true
}

func (g *Gen) float(mem *model.Member, c ctx, single bool) any {
	if lo, hi, ok := g.rangeOf(mem); ok {
		if single {
			if lo == "" {
				lo = "-3.4e38"
			}
			if hi == "" {
				hi = "3.4e38"
			}
		}
		return json.Number(pickInRange(g.R, lo, hi, false))
	}
	if g.Plain {
		return json.Number(plainDecimal(g.R))
	}
	if g.chance(0.15) {
		return g.pick("NaN", "Infinity", "-Infinity")
	}
	if single {
		return json.Number(g.pick("0", "1.5", "-2.25", "3.4028234663852886e+38", "-3.4028234663852886e+38", "1.401298464324817e-45", "1.1754943508222875e-38", "0.10000000149011612", "16777216", "-0"))
	}
	return json.Number(g.pick("0", "1.5", "-2.25", "1.7976931348623157e+308", "-1.7976931348623157e+308", "5e-324", "2.2250738585072014e-308", "0.1", "9007199254740993", "-0", "1e+22", strconv.FormatFloat(g.R.NormFloat64()*1e6, 'g', -1, 64)))
}

var epochSamples = []string{"0", "1", "-1", "1.5", "-1.5", "1714564800", "1714564800.123", "-62135596800",
	"253402300799", "253402300799.999", "951782400", "-0.001", "1e9", "1.7145648e9"}

var dateSamples = []string{"1970-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z",
	"2024-02-29T12:34:56.789+05:30", "2000-01-01T00:00:00.123456789Z", "1969-12-31T23:59:59.5Z",
	"2024-05-01t12:00:00z", "2016-12-31T23:59:59-08:00", "1985-04-12T23:20:50.52Z"}

func (g *Gen) timestamp(c ctx) any {
	if g.Plain { // a second of 2024
		return timeText(1704067200+g.R.Int63n(366*86400), 0)
	}
	if g.chance(0.5) {
		return json.Number(g.pick(epochSamples...))
	}
	if g.chance(0.5) {
		return g.pick(dateSamples...)
	}
	sec := g.R.Int63n(253402300799+62135596800) - 62135596800
	if g.chance(0.5) {
		return json.Number(strconv.FormatInt(sec, 10) + "." + strconv.Itoa(g.R.Intn(1000)))
	}
	return timeText(sec, g.R.Intn(1000))
}

func (g *Gen) document(depth int) any {
	if g.Plain {
		return map[string]any{g.pick(plainWords...): g.pick(plainWords...)}
	}
	r := g.R.Intn(10)
	if depth >= 3 && r >= 7 {
		r = g.R.Intn(7)
	}
	switch r {
	case 0:
		return nil
	case 1:
		return g.chance(0.5)
	case 2:
		return json.Number(g.pick("0", "-1", "1.5", "1e400", "123456789012345678901234567890", "-0.0", "2.5E-3"))
	case 3, 4, 5, 6:
		return g.str(ctx{loc: respond.LocBody, depth: depth})
	case 7, 8:
		n := g.R.Intn(4)
		out := make([]any, n)
		for i := range out {
			out[i] = g.document(depth + 1)
		}
		return out
	default:
		n := g.R.Intn(4)
		out := map[string]any{}
		for i := 0; i < n; i++ {
			out[g.str(ctx{loc: respond.LocBody, depth: depth})] = g.document(depth + 1)
		}
		return out
	}
}

func timeText(sec int64, ms int) string {
	return time.Unix(sec, int64(ms)*1e6).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// EnumValues lists the values of an enum, or of an intEnum as literals.
func EnumValues(s *model.Shape) []string {
	var out []string
	if v, ok := s.Trait(model.TraitEnum); ok {
		for _, e := range v.Items() {
			x, _ := e.Get("value")
			out = append(out, x.Str())
		}
		return out
	}
	for _, mem := range s.Members {
		ev, ok := mem.Traits.Get(model.TraitEnumValue)
		switch {
		case !ok:
			out = append(out, mem.Name())
		case ev.Kind() == model.NumberNode:
			out = append(out, ev.Literal())
		default:
			out = append(out, ev.Str())
		}
	}
	return out
}
