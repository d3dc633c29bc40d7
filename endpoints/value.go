// Package endpoints evaluates a service's Smithy endpoint rule set
// (smithy.rules#endpointRuleSet) at run time: a rule set is compiled once
// into a tree of closures over numbered parameter and variable slots, then
// resolved per call from parameter values (built-ins, client and operation
// context parameters) into an endpoint: URL, headers and properties such as
// authSchemes.
//
//	rs, err := endpoints.Compile(ruleSetNode)
//	p := rs.NewParams()
//	p.Set("Region", endpoints.String("us-east-1"))
//	ep, err := rs.Resolve(p)   // ep.URL "https://dynamodb.us-east-1.amazonaws.com"
package endpoints

import (
	"encoding/binary"
	"sort"
	"strconv"
	"strings"
)

// Kind is the kind of a Value.
type Kind uint8

const (
	NullKind Kind = iota
	BoolKind
	StringKind
	IntKind
	ArrayKind
	ObjectKind
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "string", "integer", "array", "object"}[k]
}

// Value is a rules-engine value: null (unset), a boolean, a string, an
// integer, an array or a record (parseURL's URL, aws.partition's partition,
// aws.parseArn's ARN). The zero Value is null.
type Value struct {
	s    string
	c    *composite // array items or record fields
	n    int32
	kind Kind
	b    bool
}

// composite holds what only arrays and records need, keeping Value small
// (it is copied at every step of a resolution).
type composite struct {
	a []Value
	o map[string]Value
}

func (v Value) arr() []Value {
	if v.c == nil {
		return nil
	}
	return v.c.a
}

func (v Value) obj() map[string]Value {
	if v.c == nil {
		return nil
	}
	return v.c.o
}

// Null is the unset value.
var Null = Value{}

// String returns a string value.
func String(s string) Value { return Value{kind: StringKind, s: s} }

// Bool returns a boolean value.
func Bool(b bool) Value { return Value{kind: BoolKind, b: b} }

// Int returns an integer value.
func Int(n int) Value { return Value{kind: IntKind, n: int32(n)} }

// StringArray returns an array of strings.
func StringArray(items []string) Value {
	a := make([]Value, len(items))
	for i, s := range items {
		a[i] = String(s)
	}
	return Value{kind: ArrayKind, c: &composite{a: a}}
}

// Array returns an array value.
func Array(items []Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{kind: ArrayKind, c: &composite{a: items}}
}

// Record returns an object value.
func Record(fields map[string]Value) Value { return Value{kind: ObjectKind, c: &composite{o: fields}} }

func (v Value) Kind() Kind     { return v.kind }
func (v Value) IsSet() bool    { return v.kind != NullKind }
func (v Value) Str() string    { return v.s }
func (v Value) AsBool() bool   { return v.b }
func (v Value) Items() []Value { return v.arr() }

// Field returns a record's field (null when absent).
func (v Value) Field(name string) Value { return v.obj()[name] }

// truthy is a condition's verdict: unset and false fail, anything else holds.
func (v Value) truthy() bool {
	return v.kind != NullKind && (v.kind != BoolKind || v.b)
}

// text is the value as written into a template.
func (v Value) text() string {
	switch v.kind {
	case StringKind:
		return v.s
	case BoolKind:
		return strconv.FormatBool(v.b)
	case IntKind:
		return strconv.Itoa(int(v.n))
	case NullKind:
		return ""
	}
	return v.JSON()
}

// JSON returns the value as JSON text.
func (v Value) JSON() string {
	var b strings.Builder
	v.appendJSON(&b)
	return b.String()
}

func (v Value) appendJSON(b *strings.Builder) {
	switch v.kind {
	case NullKind:
		b.WriteString("null")
	case BoolKind:
		b.WriteString(strconv.FormatBool(v.b))
	case IntKind:
		b.WriteString(strconv.Itoa(int(v.n)))
	case StringKind:
		b.WriteString(strconv.Quote(v.s))
	case ArrayKind:
		b.WriteByte('[')
		for i, e := range v.arr() {
			if i > 0 {
				b.WriteByte(',')
			}
			e.appendJSON(b)
		}
		b.WriteByte(']')
	case ObjectKind:
		b.WriteByte('{')
		for i, k := range sortedFields(v.obj()) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			v.obj()[k].appendJSON(b)
		}
		b.WriteByte('}')
	}
}

// sortedFields returns a record's field names in order, so that output is
// the same from run to run.
func sortedFields(o map[string]Value) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// appendKey appends v's kind and its length-prefixed contents (Params.AppendKey).
func (v Value) appendKey(b []byte) []byte {
	b = append(b, byte(v.kind))
	switch v.kind {
	case BoolKind:
		if v.b {
			return append(b, 1)
		}
		return append(b, 0)
	case StringKind:
		b = binary.AppendUvarint(b, uint64(len(v.s)))
		return append(b, v.s...)
	case IntKind:
		return binary.AppendVarint(b, int64(v.n))
	case ArrayKind:
		items := v.arr()
		b = binary.AppendUvarint(b, uint64(len(items)))
		for _, it := range items {
			b = it.appendKey(b)
		}
		return b
	case ObjectKind:
		fields := sortedFields(v.obj())
		b = binary.AppendUvarint(b, uint64(len(fields)))
		for _, k := range fields {
			b = binary.AppendUvarint(b, uint64(len(k)))
			b = append(b, k...)
			b = v.obj()[k].appendKey(b)
		}
		return b
	}
	return b
}
