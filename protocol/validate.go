package protocol

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// validator checks a document-form value against @required, always, and,
// when constraints is set, against the constraint traits of the model
// (length, range, pattern, enum, intEnum, uniqueItems; the Smithy
// specification says clients should not enforce them by default), and
// collects every violation with its member path.
type validator struct {
	path        []pathElem
	out         []Violation
	constraints bool
	// unreadable is set when a value is not JSON the scanner can read
	// past (invalid UTF-8, say): what follows cannot be checked, and the
	// encoder reports the value with its path.
	unreadable bool
	// smithy writes violations as a Smithy server does (paths as JSON
	// pointers, "Value at '/a/0' failed to satisfy constraint: Member
	// must ..."), for a server's ValidationException.
	smithy bool
}

// walks reports whether a value of mc needs to be read.
func (v *validator) walks(mc *memberCodec) bool {
	if v.constraints {
		return mc.target.check || mc.constrained()
	}
	return mc.target.checkRequired
}

type pathElem struct {
	name  string // member name, or map key when isKey
	index int    // list index when name is "" and !isKey
	isKey bool
}

func (v *validator) pathString() string {
	if v.smithy {
		return v.pointer()
	}
	var b strings.Builder
	for i, e := range v.path {
		switch {
		case e.isKey:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(e.name))
			b.WriteByte(']')
		case e.name == "":
			fmt.Fprintf(&b, "[%d]", e.index)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.name)
		}
	}
	return b.String()
}

// pointer is the path as a JSON pointer (RFC 6901): "/items/3/name".
func (v *validator) pointer() string {
	var b strings.Builder
	for _, e := range v.path {
		b.WriteByte('/')
		if e.name == "" && !e.isKey {
			b.WriteString(strconv.Itoa(e.index))
			continue
		}
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(e.name))
	}
	return b.String()
}

func (v *validator) add(format string, args ...any) {
	v.out = append(v.out, Violation{Path: v.pathString(), Message: fmt.Sprintf(format, args...)})
}

// report adds a violation: text in the client's words, or rule (what the
// member must do) in a Smithy server's; length, when not negative, is the
// length of the value the server's message names.
func (v *validator) report(rule string, length int64, format string, args ...any) {
	if !v.smithy {
		v.add(format, args...)
		return
	}
	p := v.pointer()
	what := "Value"
	if length >= 0 {
		what = "Value with length " + strconv.FormatInt(length, 10)
	}
	v.out = append(v.out, Violation{Path: p, Message: what + " at '" + p + "' failed to satisfy constraint: Member must " + rule})
}

// validateInput checks the top-level members of an input (raw values
// indexed like sc.members): @required always, the constraint traits when
// constraints is set.
func validateInput(sc *shapeCodec, vals [][]byte, constraints bool) []Violation {
	v := validator{constraints: constraints}
	return v.input(sc, vals)
}

// input checks the top-level members of an input, as validateInput.
func (v *validator) input(sc *shapeCodec, vals [][]byte) []Violation {
	for i, mc := range sc.members {
		v.path = append(v.path[:0], pathElem{name: mc.name})
		if vals[i] == nil {
			// An input event stream is sent as events, not in the input.
			if mc.required && !mc.hasDefault && !(mc.streaming && mc.target.kind == kUnion) {
				v.report("not be null", -1, "is required")
			}
			continue
		}
		if !v.walks(mc) {
			continue
		}
		s := scanner{data: vals[i]}
		v.value(&s, mc)
		if v.unreadable {
			return nil
		}
	}
	return v.out
}

// value checks one value and consumes it from s.
func (v *validator) value(s *scanner, mc *memberCodec) {
	sc := mc.target
	if !v.walks(mc) {
		s.skip()
		return
	}
	if s.peek() == 'n' && s.literal("null") {
		return
	}
	if !v.constraints {
		switch sc.kind {
		case kList, kMap, kStruct, kUnion:
		default:
			s.skip()
			return
		}
	}
	switch sc.kind {
	case kString, kEnum:
		if s.peek() != '"' {
			s.skip()
			return
		}
		str, err := s.str()
		if err != nil {
			v.unreadable = true
			return
		}
		v.length(mc, int64(utf8.RuneCountInString(str)))
		if mc.pattern != nil && !mc.pattern.MatchString(str) {
			v.report("satisfy regular expression pattern: "+mc.patternText, -1, "value %q does not match the pattern %s", str, mc.patternText)
		}
		if sc.kind == kEnum && sc.enumValues != nil && !sc.enumValues[str] {
			if v.smithy {
				shown := make(map[string]bool, len(sc.enumValues))
				for k := range sc.enumValues {
					if !sc.enumInternal[k] {
						shown[k] = true
					}
				}
				v.report("satisfy enum value set: ["+setList(shown, false)+"]", -1, "")
			} else {
				v.add("value %q is not one of %s", str, setList(sc.enumValues, true))
			}
		}
	case kBlob:
		if s.peek() != '"' {
			s.skip()
			return
		}
		str, err := s.str()
		if err != nil {
			v.unreadable = true
			return
		}
		if mc.minLen != nil || mc.maxLen != nil {
			n := base64.StdEncoding.DecodedLen(len(str)) - strings.Count(str, "=")
			v.length(mc, int64(n))
		}
	case kInt, kBigInt, kBigDec, kFloat, kIntEnum:
		if s.peek() == '"' {
			s.skip() // NaN and infinities: no range applies
			return
		}
		lit, err := s.number()
		if err != nil {
			s.skip()
			return
		}
		if mc.minVal != nil || mc.maxVal != nil {
			if f := bigOf(string(lit)); f != nil {
				if mc.minVal != nil && f.Cmp(mc.minVal) < 0 {
					v.report(rangeRule(mc), -1, "value %s is below the minimum %s", lit, mc.minLit)
				}
				if mc.maxVal != nil && f.Cmp(mc.maxVal) > 0 {
					v.report(rangeRule(mc), -1, "value %s is above the maximum %s", lit, mc.maxLit)
				}
			}
		}
		if sc.kind == kIntEnum {
			key := string(lit)
			if f := bigOf(key); f != nil && f.IsInt() {
				i, _ := f.Int(nil)
				key = i.String()
			}
			if sc.intValues != nil && !sc.intValues[key] {
				v.report("satisfy enum value set: ["+setList(sc.intValues, false)+"]", -1, "value %s is not one of %s", lit, setList(sc.intValues, false))
			}
		}
	case kList:
		if s.peek() != '[' {
			s.skip()
			return
		}
		var items []string
		n := 0
		depth := len(v.path)
		err := s.array(func(i int) error {
			n++
			start := s.pos
			v.path = append(v.path[:depth], pathElem{index: i})
			// A null item in a list that is not @sparse is a type
			// error of the encoders (nullItem), whatever the options.
			if !(s.peek() == 'n' && s.literal("null")) {
				v.value(s, sc.elem)
			}
			if mc.unique || sc.elem.unique {
				items = append(items, strings.TrimSpace(string(s.data[start:s.pos])))
			}
			return nil
		})
		if err != nil {
			v.unreadable = true
		}
		v.path = v.path[:depth]
		v.length(mc, int64(n))
		if len(items) > 1 && v.constraints {
			seen := make(map[string]int, len(items))
			for i, it := range items {
				if j, ok := seen[it]; ok {
					v.report("have unique values", -1, "items %d and %d are equal; the list must have unique items", j, i)
					break
				}
				seen[it] = i
			}
		}
	case kMap:
		if s.peek() != '{' {
			s.skip()
			return
		}
		n := 0
		depth := len(v.path)
		err := s.object(func(key []byte) error {
			n++
			v.path = append(v.path[:depth], pathElem{name: string(key), isKey: true})
			if sc.key != nil && v.constraints {
				if v.smithy {
					v.path = v.path[:depth] // a Smithy server names the map
				}
				ks := scanner{data: appendString(nil, string(key))}
				v.value(&ks, sc.key)
				v.path = append(v.path[:depth], pathElem{name: string(key), isKey: true})
			}
			if s.peek() == 'n' && s.literal("null") {
				return nil // a type error when not @sparse (nullItem)
			}
			v.value(s, sc.elem)
			return nil
		})
		if err != nil {
			v.unreadable = true
		}
		v.path = v.path[:depth]
		v.length(mc, int64(n))
	case kStruct, kUnion:
		if s.peek() != '{' {
			s.skip()
			return
		}
		var seen memberSet
		depth := len(v.path)
		set := 0
		err := s.object(func(key []byte) error {
			m, ok := sc.byName[string(key)]
			if !ok {
				if sc.kind == kUnion && string(key) == unknownMemberKey {
					set++ // refused by the type check, naming the member
				}
				s.skip()
				return nil
			}
			if s.peek() == 'n' && s.literal("null") {
				return nil
			}
			set++
			seen.add(memberIndex(sc, m))
			v.path = append(v.path[:depth], pathElem{name: m.name})
			v.value(s, m)
			return nil
		})
		if err != nil {
			v.unreadable = true
		}
		v.path = v.path[:depth]
		if sc.kind == kUnion {
			if set != 1 && v.constraints {
				v.add("a union must have exactly one member set, found %d", set)
			}
			return
		}
		for i, m := range sc.members {
			if m.required && !m.hasDefault && !seen.has(i) {
				v.path = append(v.path[:depth], pathElem{name: m.name})
				v.report("not be null", -1, "is required")
			}
		}
		v.path = v.path[:depth]
	default:
		s.skip()
	}
}

func (v *validator) length(mc *memberCodec, n int64) {
	if !v.constraints {
		return
	}
	if mc.minLen == nil && mc.maxLen == nil {
		return
	}
	var rule string
	switch {
	case mc.minLen != nil && mc.maxLen != nil:
		rule = fmt.Sprintf("have length between %d and %d, inclusive", *mc.minLen, *mc.maxLen)
	case mc.minLen != nil:
		rule = fmt.Sprintf("have length greater than or equal to %d", *mc.minLen)
	default:
		rule = fmt.Sprintf("have length less than or equal to %d", *mc.maxLen)
	}
	if mc.minLen != nil && n < *mc.minLen {
		v.report(rule, n, "length %d is below the minimum %d", n, *mc.minLen)
	}
	if mc.maxLen != nil && n > *mc.maxLen {
		v.report(rule, n, "length %d is above the maximum %d", n, *mc.maxLen)
	}
}

// rangeRule is a Smithy server's words for mc's @range.
func rangeRule(mc *memberCodec) string {
	switch {
	case mc.minVal != nil && mc.maxVal != nil:
		return "be between " + mc.minLit + " and " + mc.maxLit + ", inclusive"
	case mc.minVal != nil:
		return "be greater than or equal to " + mc.minLit
	}
	return "be less than or equal to " + mc.maxLit
}

func setList(set map[string]bool, quote bool) string {
	vals := make([]string, 0, len(set))
	for k := range set {
		vals = append(vals, k)
	}
	if quote {
		sort.Strings(vals)
		for i, x := range vals {
			vals[i] = strconv.Quote(x)
		}
	} else {
		sort.Slice(vals, func(i, j int) bool {
			a, b := bigOf(vals[i]), bigOf(vals[j])
			if a == nil || b == nil {
				return vals[i] < vals[j]
			}
			return a.Cmp(b) < 0
		})
	}
	return strings.Join(vals, ", ")
}
