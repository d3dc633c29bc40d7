package model

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// jsonParser is a JSON reader that keeps object key order and number literals
// (Smithy member order matters, and bigDecimal digits must survive). Strings
// without escapes are substrings of the source, so reading allocates little.
type jsonParser struct {
	src   string
	i     int
	depth int
	// stack holds the elements of the arrays and objects being read, so that
	// each finished one is copied once into a slice of its exact size.
	stack []Node
	// nodes, when set, holds those slices: the JSON AST reader keeps the
	// values it reads (traits, metadata) for as long as the model.
	nodes *slab[Node]
}

// maxJSONDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxJSONDepth = 512

// JSONSyntaxError is a JSON parse error at a byte offset.
type JSONSyntaxError struct {
	Offset int
	Msg    string
}

func (e *JSONSyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// ParseJSONNode parses JSON text into a Node.
func ParseJSONNode(src string) (Node, error) {
	p := jsonParser{src: src}
	p.skipSpace()
	n, err := p.value()
	if err != nil {
		return Node{}, err
	}
	p.skipSpace()
	if p.i != len(p.src) {
		return Node{}, p.fail("unexpected data after the JSON value")
	}
	return n, nil
}

func (p *jsonParser) fail(format string, args ...any) error {
	return &JSONSyntaxError{Offset: p.i, Msg: sprintf(format, args...)}
}

func (p *jsonParser) skipSpace() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (Node, error) {
	if p.i >= len(p.src) {
		return Node{}, p.fail("unexpected end of input")
	}
	pos := int32(p.i + 1)
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(pos)
	case c == '[':
		return p.array(pos)
	case c == '"':
		s, err := p.str()
		return Node{kind: StringNode, s: s, pos: pos}, err
	case c == '-' || (c >= '0' && c <= '9'):
		lit, err := p.number()
		return Node{kind: NumberNode, s: lit, pos: pos}, err
	case p.literal("true"):
		return Node{kind: BoolNode, s: "true", pos: pos}, nil
	case p.literal("false"):
		return Node{kind: BoolNode, pos: pos}, nil
	case p.literal("null"):
		return Node{pos: pos}, nil
	default:
		return Node{}, p.fail("unexpected character %q", rune(c))
	}
}

func (p *jsonParser) literal(word string) bool {
	if len(p.src)-p.i >= len(word) && p.src[p.i:p.i+len(word)] == word {
		p.i += len(word)
		return true
	}
	return false
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return p.fail("nesting deeper than %d", maxJSONDepth)
	}
	return nil
}

func (p *jsonParser) object(pos int32) (Node, error) {
	if err := p.enter(); err != nil {
		return Node{}, err
	}
	p.i++ // {
	base := len(p.stack)
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		p.depth--
		return Node{kind: ObjectNode, list: []Node{}, pos: pos}, nil
	}
	for {
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return Node{}, p.fail("expected a string key")
		}
		kpos := int32(p.i + 1)
		key, err := p.str()
		if err != nil {
			return Node{}, err
		}
		p.skipSpace()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return Node{}, p.fail("expected ':' after object key")
		}
		p.i++
		p.skipSpace()
		v, err := p.value()
		if err != nil {
			return Node{}, err
		}
		p.stack = append(p.stack, Node{kind: StringNode, s: key, pos: kpos}, v)
		p.skipSpace()
		if p.i >= len(p.src) {
			return Node{}, p.fail("unexpected end of input in object")
		}
		if p.src[p.i] == '}' {
			p.i++
			p.depth--
			return Node{kind: ObjectNode, list: p.pop(base), pos: pos}, nil
		}
		if p.src[p.i] != ',' {
			return Node{}, p.fail("expected ',' or '}' in object")
		}
		p.i++
		p.skipSpace()
	}
}

func (p *jsonParser) array(pos int32) (Node, error) {
	if err := p.enter(); err != nil {
		return Node{}, err
	}
	p.i++ // [
	base := len(p.stack)
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		p.depth--
		return Node{kind: ArrayNode, list: []Node{}, pos: pos}, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return Node{}, err
		}
		p.stack = append(p.stack, v)
		p.skipSpace()
		if p.i >= len(p.src) {
			return Node{}, p.fail("unexpected end of input in array")
		}
		if p.src[p.i] == ']' {
			p.i++
			p.depth--
			return Node{kind: ArrayNode, list: p.pop(base), pos: pos}, nil
		}
		if p.src[p.i] != ',' {
			return Node{}, p.fail("expected ',' or ']' in array")
		}
		p.i++
		p.skipSpace()
	}
}

// pop moves the elements above base off the stack into their own slice.
func (p *jsonParser) pop(base int) []Node {
	var list []Node
	if p.nodes != nil {
		list = p.nodes.copy(p.stack[base:])
	} else {
		list = make([]Node, len(p.stack)-base)
		copy(list, p.stack[base:])
	}
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return list
}

// str reads a string starting at the opening quote.
func (p *jsonParser) str() (string, error) {
	p.i++
	start := p.i
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '"' {
			s := p.src[start:p.i]
			p.i++
			if !utf8.ValidString(s) {
				return "", p.fail("invalid UTF-8 in string")
			}
			return s, nil
		}
		if c == '\\' {
			return p.strSlow(start)
		}
		if c < 0x20 {
			return "", p.fail("control character in string")
		}
		p.i++
	}
	return "", p.fail("unterminated string")
}

// strSlow reads the rest of a string that has escapes; p.i is at the first
// backslash.
func (p *jsonParser) strSlow(start int) (string, error) {
	end := p.i
	for end < len(p.src) && p.src[end] != '"' {
		switch c := p.src[end]; {
		case c == '\\':
			end++
		case c < 0x20:
			p.i = end
			return "", p.fail("control character in string")
		}
		end++
	}
	if end >= len(p.src) {
		p.i = len(p.src)
		return "", p.fail("unterminated string")
	}
	buf, err := jsonstr.Unescape(make([]byte, 0, end-start), p.src[start:end])
	if err != nil {
		p.i = start + err.(*jsonstr.Error).Offset
		return "", p.fail("%v", err)
	}
	p.i = end + 1
	if !utf8.Valid(buf) {
		return "", p.fail("invalid UTF-8 in string")
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil // buf is never written again
}

// number reads a JSON number and returns its literal.
func (p *jsonParser) number() (string, error) {
	start := p.i
	if p.src[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if n := digits(); n == 0 || (n > 1 && p.src[intStart] == '0') {
		return "", p.fail("invalid number")
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return "", p.fail("invalid number")
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return "", p.fail("invalid number")
		}
	}
	return p.src[start:p.i], nil
}

// lineIndex converts byte offsets of one file to line and column.
type lineIndex []int // offsets where lines start

func newLineIndex(src string) lineIndex {
	idx := make(lineIndex, 1, strings.Count(src, "\n")+1)
	for off := 0; ; {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return idx
		}
		off += i + 1
		idx = append(idx, off)
	}
}

func (idx lineIndex) loc(file string, offset int) SourceLocation {
	line := sort.Search(len(idx), func(i int) bool { return idx[i] > offset }) - 1
	if line < 0 {
		line = 0
	}
	return SourceLocation{File: file, Line: int32(line + 1), Column: int32(offset - idx[line] + 1)}
}
