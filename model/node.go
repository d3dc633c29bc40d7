package model

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// NodeKind is the kind of a Node value.
type NodeKind uint8

const (
	NullNode NodeKind = iota
	BoolNode
	NumberNode
	StringNode
	ArrayNode
	ObjectNode
)

func (k NodeKind) String() string {
	switch k {
	case NullNode:
		return "null"
	case BoolNode:
		return "boolean"
	case NumberNode:
		return "number"
	case StringNode:
		return "string"
	case ArrayNode:
		return "array"
	case ObjectNode:
		return "object"
	}
	return "unknown"
}

// Node is a Smithy node value (trait values, metadata, defaults). Numbers keep
// their literal text so that no digit is lost. Objects keep their key order.
// The zero Node is null.
type Node struct {
	kind NodeKind
	// syntactic marks a string that was written as an unquoted shape id in IDL
	// and still has to be resolved by the assembler.
	syntactic bool
	// pos is the byte offset+1 of the value in its source file (0 when unknown).
	pos int32
	s   string // string value, number literal, "true" for booleans
	// list holds array elements, or object keys and values alternately.
	list []Node
}

// Null returns the null node.
func Null() Node { return Node{} }

// String returns a string node.
func String(s string) Node { return Node{kind: StringNode, s: s} }

// Bool returns a boolean node.
func Bool(b bool) Node {
	if b {
		return Node{kind: BoolNode, s: "true"}
	}
	return Node{kind: BoolNode}
}

// Number returns a number node from its decimal literal, which the caller has checked.
func Number(literal string) Node { return Node{kind: NumberNode, s: literal} }

// Int returns a number node for an integer.
func Int(n int64) Node { return Node{kind: NumberNode, s: strconv.FormatInt(n, 10)} }

// Array returns an array node.
func Array(items ...Node) Node {
	if items == nil {
		items = []Node{}
	}
	return Node{kind: ArrayNode, list: items}
}

// ObjectBuilder builds an object node keeping key order; a repeated key replaces the value.
type ObjectBuilder struct{ list []Node }

// NewObjectBuilder returns a builder with room for n entries.
func NewObjectBuilder(n int) ObjectBuilder { return ObjectBuilder{list: make([]Node, 0, 2*n)} }

// Set sets key to value.
func (b *ObjectBuilder) Set(key string, value Node) {
	for i := 0; i < len(b.list); i += 2 {
		if b.list[i].s == key {
			b.list[i+1] = value
			return
		}
	}
	b.list = append(b.list, String(key), value)
}

// Has reports whether key was set.
func (b *ObjectBuilder) Has(key string) bool {
	for i := 0; i < len(b.list); i += 2 {
		if b.list[i].s == key {
			return true
		}
	}
	return false
}

// Build returns the object.
func (b *ObjectBuilder) Build() Node {
	l := b.list
	if l == nil {
		l = []Node{}
	}
	return Node{kind: ObjectNode, list: l}
}

// Object returns an object node from alternating keys and values.
func Object(kv ...any) Node {
	var b ObjectBuilder
	for i := 0; i+1 < len(kv); i += 2 {
		b.Set(kv[i].(string), kv[i+1].(Node))
	}
	return b.Build()
}

func (n Node) Kind() NodeKind { return n.kind }
func (n Node) IsNull() bool   { return n.kind == NullNode }

// Str returns the string value ("" for other kinds).
func (n Node) Str() string {
	if n.kind == StringNode {
		return n.s
	}
	return ""
}

// AsBool returns the boolean value (false for other kinds).
func (n Node) AsBool() bool { return n.kind == BoolNode && n.s == "true" }

// Literal returns the number literal as written.
func (n Node) Literal() string {
	if n.kind == NumberNode {
		return n.s
	}
	return ""
}

// IsInteger reports whether the number has no fraction or exponent.
func (n Node) IsInteger() bool {
	return n.kind == NumberNode && !strings.ContainsAny(n.s, ".eE")
}

// Int64 returns the number as int64; ok is false when it is not an exact int64.
func (n Node) Int64() (int64, bool) {
	if n.kind != NumberNode {
		return 0, false
	}
	if v, err := strconv.ParseInt(n.s, 10, 64); err == nil {
		return v, true
	}
	f, ok := n.bigFloat()
	if !ok || !f.IsInt() {
		return 0, false
	}
	v, acc := f.Int64()
	return v, acc == big.Exact
}

// Float64 returns the number as float64.
func (n Node) Float64() float64 {
	if n.kind != NumberNode {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(n.s, 64)
	return f
}

func (n Node) bigFloat() (*big.Float, bool) {
	f, _, err := big.ParseFloat(n.s, 10, 256, big.ToNearestEven)
	return f, err == nil
}

// Len returns the number of array elements or object entries.
func (n Node) Len() int {
	switch n.kind {
	case ArrayNode:
		return len(n.list)
	case ObjectNode:
		return len(n.list) / 2
	}
	return 0
}

// Items returns the array elements (nil for other kinds).
func (n Node) Items() []Node {
	if n.kind == ArrayNode {
		return n.list
	}
	return nil
}

// Entry returns the i-th key and value of an object.
func (n Node) Entry(i int) (string, Node) { return n.list[2*i].s, n.list[2*i+1] }

// Get returns the value of key in an object.
func (n Node) Get(key string) (Node, bool) {
	if n.kind != ObjectNode {
		return Node{}, false
	}
	for i := 0; i < len(n.list); i += 2 {
		if n.list[i].s == key {
			return n.list[i+1], true
		}
	}
	return Node{}, false
}

// Keys returns the keys of an object in order.
func (n Node) Keys() []string {
	keys := make([]string, 0, n.Len())
	for i := 0; i < len(n.list) && n.kind == ObjectNode; i += 2 {
		keys = append(keys, n.list[i].s)
	}
	return keys
}

// Equal compares two nodes as values: object key order does not matter and
// numbers compare by value (10e0 equals 10.0 and 10).
func (n Node) Equal(o Node) bool {
	if n.kind != o.kind {
		return false
	}
	switch n.kind {
	case NullNode:
		return true
	case BoolNode, StringNode:
		return n.s == o.s
	case NumberNode:
		if n.s == o.s {
			return true
		}
		a, ok1 := n.bigFloat()
		b, ok2 := o.bigFloat()
		return ok1 && ok2 && a.Cmp(b) == 0
	case ArrayNode:
		if len(n.list) != len(o.list) {
			return false
		}
		for i := range n.list {
			if !n.list[i].Equal(o.list[i]) {
				return false
			}
		}
		return true
	case ObjectNode:
		if len(n.list) != len(o.list) {
			return false
		}
		for i := 0; i < len(n.list); i += 2 {
			v, ok := o.Get(n.list[i].s)
			if !ok || !n.list[i+1].Equal(v) {
				return false
			}
		}
		return true
	}
	return false
}

// JSON returns the node as compact JSON text.
func (n Node) JSON() string {
	var b strings.Builder
	n.appendJSON(&b, "", "")
	return b.String()
}

// JSONIndent returns the node as JSON text, one member per line.
func (n Node) JSONIndent(indent string) string {
	var b strings.Builder
	n.appendJSON(&b, "", indent)
	return b.String()
}

// appendJSON writes n as JSON; indent "" means compact.
func (n Node) appendJSON(b *strings.Builder, prefix, indent string) {
	switch n.kind {
	case NullNode:
		b.WriteString("null")
	case BoolNode:
		if n.s == "true" {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case NumberNode:
		b.WriteString(n.s)
	case StringNode:
		writeJSONString(b, n.s)
	case ArrayNode, ObjectNode:
		open, close := byte('['), byte(']')
		if n.kind == ObjectNode {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		if len(n.list) == 0 {
			b.WriteByte(close)
			return
		}
		inner := prefix + indent
		step := 1
		if n.kind == ObjectNode {
			step = 2
		}
		for i := 0; i < len(n.list); i += step {
			if i > 0 {
				b.WriteByte(',')
			}
			if indent != "" {
				b.WriteByte('\n')
				b.WriteString(inner)
			}
			if n.kind == ObjectNode {
				writeJSONString(b, n.list[i].s)
				b.WriteByte(':')
				if indent != "" {
					b.WriteByte(' ')
				}
				n.list[i+1].appendJSON(b, inner, indent)
			} else {
				n.list[i].appendJSON(b, inner, indent)
			}
		}
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(prefix)
		}
		b.WriteByte(close)
	}
}

const hexDigits = "0123456789abcdef"

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
