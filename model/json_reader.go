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
	// line counts the newlines before i (all of them are spaces between
	// values: a string holds none), and lineStart is where the last ended.
	line, lineStart int
	// stack holds the elements of the arrays and objects being read, so that
	// each finished one is copied once into a slice of its exact size.
	stack []Node
	// nodes, when set, holds those slices: the JSON AST reader keeps the
	// values it reads (traits, metadata) for as long as the model.
	nodes *slab[Node]
	// bytes, when set, holds the strings unescaped, for the same reason.
	bytes *byteSlab
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
	if p.i < len(p.src) && p.src[p.i] > ' ' {
		return
	}
	p.skipSpaces()
}

// skipSpaces is skipSpace past its first byte.
func (p *jsonParser) skipSpaces() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\r':
			p.i++
		case '\n':
			p.i++
			p.line, p.lineStart = p.line+1, p.i
			p.skipIndent()
		default:
			return
		}
	}
}

// skipIndent skips the spaces that indent a line, eight at a time.
func (p *jsonParser) skipIndent() {
	for p.i+8 <= len(p.src) && swarLoad(p.src, p.i) == swarOnes*' ' {
		p.i += 8
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
	start, src := p.i, p.src
	// Runs of ASCII without quotes, backslashes and control characters are
	// skipped eight bytes at a time; past the first non-ASCII byte, runs may
	// hold any byte of 0x80 and above, and the string's UTF-8 is checked at
	// its end.
	ascii, high := true, uint64(swarHigh)
	for i := p.i; i < len(src); i++ {
		for i+8 <= len(src) && swarPlain(swarLoad(src, i), high) {
			i += 8
		}
		if i >= len(src) {
			break
		}
		switch c := src[i]; {
		case c == '"':
			s := src[start:i]
			p.i = i + 1
			if !ascii && !utf8.ValidString(s) {
				return "", p.fail("invalid UTF-8 in string")
			}
			return s, nil
		case c == '\\':
			p.i = i
			return p.strSlow(start)
		case c < 0x20:
			p.i = i
			return "", p.fail("control character in string")
		case c >= 0x80:
			ascii, high = false, 0
		}
	}
	p.i = len(src)
	return "", p.fail("unterminated string")
}

// strSlow reads the rest of a string that has escapes; p.i is at the first
// backslash.
func (p *jsonParser) strSlow(start int) (string, error) {
	src, first, end := p.src, p.i, p.i
	for end < len(src) {
		for end+8 <= len(src) && swarPlain(swarLoad(src, end), 0) {
			end += 8
		}
		if end >= len(src) || src[end] == '"' {
			break
		}
		switch c := src[end]; {
		case c == '\\':
			end++ // the escaped byte is not the end
		case c < 0x20:
			p.i = end
			return "", p.fail("control character in string")
		}
		end++
	}
	if end >= len(src) {
		p.i = len(src)
		return "", p.fail("unterminated string")
	}
	var room []byte // unescaping never lengthens a string
	if p.bytes != nil {
		room = p.bytes.spare(end - start)
	} else {
		room = make([]byte, 0, end-start)
	}
	// The text before the first backslash is copied as it is.
	buf, err := jsonstr.Unescape(append(room, src[start:first]...), src[first:end])
	if err != nil {
		p.i = first + err.(*jsonstr.Error).Offset
		return "", p.fail("%v", err)
	}
	p.i = end + 1
	if !utf8.Valid(buf) {
		return "", p.fail("invalid UTF-8 in string")
	}
	if p.bytes != nil {
		return p.bytes.keep(buf), nil
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil // buf is never written again
}

const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// swarLoad returns the eight bytes of s at i as a little-endian word (the
// compiler makes it one load).
func swarLoad(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// swarPlain reports whether the eight bytes of w hold no quote, backslash or
// control character, and no byte with a bit of high set.
func swarPlain(w uint64, high uint64) bool {
	zero := func(x uint64) uint64 { return (x - swarOnes) & ^x & swarHigh } // a zero byte
	quote := zero(w ^ (swarOnes * '"'))
	backslash := zero(w ^ (swarOnes * '\\'))
	control := (w - swarOnes*0x20) & ^w & swarHigh // a byte below 0x20
	return quote|backslash|control|(w&high) == 0
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
