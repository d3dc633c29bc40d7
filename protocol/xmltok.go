package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// xmlTokenizer reads XML 1.0 in place, one token at a time, for the
// shape-driven decoder (xmldecode.go). It is what the decoders need and
// no more: elements, attributes, character data (with CDATA sections),
// comments and processing instructions skipped. It is strict where safety
// needs it: DTDs (<!DOCTYPE) and every other declaration are refused, the
// only entities are the five predefined ones and character references, an
// encoding other than UTF-8 is refused, text must be UTF-8 without control
// characters, end tags must match their start tags, nesting is bounded by
// maxXMLDepth and the document must not end inside an element.
type xmlTokenizer struct {
	data []byte
	pos  int

	kind  xmlTokKind
	name  []byte    // start and end: the qualified name as written
	attrs []xmlAttr // start: attributes (reused between tokens)
	text  []byte    // text: the decoded character data (never overwritten)

	stack     [][]byte // names of the open elements
	selfClose bool     // the start just read was <a/>: its end comes next
}

type xmlTokKind uint8

const (
	xmlEOF xmlTokKind = iota
	xmlStart
	xmlEnd
	xmlText
)

type xmlAttr struct {
	name, value []byte
}

func (t *xmlTokenizer) errorf(format string, args ...any) error {
	return fmt.Errorf("invalid XML at offset %d: %s", t.pos, fmt.Sprintf(format, args...))
}

// local is the part of a qualified name after its prefix.
func local(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// next reads the next token into t.kind, t.name, t.attrs and t.text.
func (t *xmlTokenizer) next() error {
	if t.selfClose {
		t.selfClose = false
		t.kind = xmlEnd
		t.name = t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		return nil
	}
	for {
		if t.pos >= len(t.data) {
			if len(t.stack) > 0 {
				return errors.New("invalid XML: unexpected end of the document")
			}
			t.kind = xmlEOF
			return nil
		}
		if t.data[t.pos] != '<' {
			return t.readText()
		}
		rest := t.data[t.pos:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			end := bytes.Index(rest[4:], commentEnd)
			if end < 0 {
				return t.errorf("unterminated comment")
			}
			t.pos += 4 + end + 3
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			return t.readText()
		case bytes.HasPrefix(rest, []byte("<!")):
			return t.errorf("DTDs and other directives are not accepted")
		case bytes.HasPrefix(rest, []byte("<?")):
			end := bytes.Index(rest[2:], piEnd)
			if end < 0 {
				return t.errorf("unterminated processing instruction")
			}
			if err := t.checkDecl(rest[2 : 2+end]); err != nil {
				return err
			}
			t.pos += 2 + end + 2
		case bytes.HasPrefix(rest, []byte("</")):
			return t.readEnd()
		default:
			return t.readStart()
		}
	}
}

// The separators the tokenizer searches for, as package data: bytes.Index
// loads a short separator with wider reads than its length, which valgrind
// reports (through every value computed from the index) when the separator
// is a []byte conversion on a goroutine's fresh stack; the static data
// around these is initialised.
var (
	commentEnd   = []byte("-->")
	piEnd        = []byte("?>")
	cdataEnd     = []byte("]]>")
	encodingName = []byte("encoding")
)

// checkDecl refuses an XML declaration naming an encoding other than UTF-8.
func (t *xmlTokenizer) checkDecl(pi []byte) error {
	if !bytes.HasPrefix(pi, []byte("xml")) || (len(pi) > 3 && !isXMLSpace(pi[3])) {
		return nil
	}
	i := bytes.Index(pi, encodingName)
	if i < 0 {
		return nil
	}
	v := bytes.TrimLeft(pi[i+len("encoding"):], " \t\r\n=")
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		if j := bytes.IndexByte(v[1:], v[0]); j >= 0 {
			enc := string(bytes.ToLower(v[1 : 1+j]))
			if enc != "utf-8" && enc != "utf8" && enc != "us-ascii" {
				return t.errorf("encoding %q is not supported (UTF-8 only)", v[1:1+j])
			}
		}
	}
	return nil
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameByte(c byte) bool {
	return !isXMLSpace(c) && c != '/' && c != '>' && c != '=' && c != '<' && c != '"' && c != '\'' && c != '&'
}

func (t *xmlTokenizer) skipSpace() {
	for t.pos < len(t.data) && isXMLSpace(t.data[t.pos]) {
		t.pos++
	}
}

func (t *xmlTokenizer) readName() ([]byte, error) {
	start := t.pos
	for t.pos < len(t.data) && isNameByte(t.data[t.pos]) {
		t.pos++
	}
	if t.pos == start {
		if t.pos >= len(t.data) {
			return nil, errors.New("invalid XML: unexpected end of the document")
		}
		return nil, t.errorf("expected a name, found %q", t.data[t.pos])
	}
	return t.data[start:t.pos], nil
}

func (t *xmlTokenizer) readStart() error {
	t.pos++ // <
	name, err := t.readName()
	if err != nil {
		return err
	}
	t.attrs = t.attrs[:0]
	for {
		t.skipSpace()
		if t.pos >= len(t.data) {
			return errors.New("invalid XML: unexpected end of the document")
		}
		switch t.data[t.pos] {
		case '>':
			t.pos++
			return t.open(name, false)
		case '/':
			if t.pos+1 >= len(t.data) || t.data[t.pos+1] != '>' {
				return t.errorf("expected '>' after '/'")
			}
			t.pos += 2
			return t.open(name, true)
		}
		an, err := t.readName()
		if err != nil {
			return err
		}
		t.skipSpace()
		if t.pos >= len(t.data) || t.data[t.pos] != '=' {
			return t.errorf("attribute %s has no value", an)
		}
		t.pos++
		t.skipSpace()
		if t.pos >= len(t.data) || (t.data[t.pos] != '"' && t.data[t.pos] != '\'') {
			return t.errorf("attribute %s: expected a quoted value", an)
		}
		q := t.data[t.pos]
		end := bytes.IndexByte(t.data[t.pos+1:], q)
		if end < 0 {
			return errors.New("invalid XML: unexpected end of the document")
		}
		raw := t.data[t.pos+1 : t.pos+1+end]
		if bytes.IndexByte(raw, '<') >= 0 {
			return t.errorf("'<' in the value of attribute %s", an)
		}
		v, err := t.decode(raw, nil)
		if err != nil {
			return err
		}
		t.pos += end + 2
		t.attrs = append(t.attrs, xmlAttr{name: an, value: v})
	}
}

func (t *xmlTokenizer) open(name []byte, self bool) error {
	if len(t.stack) >= maxXMLDepth {
		return fmt.Errorf("invalid XML: nesting deeper than %d elements", maxXMLDepth)
	}
	t.stack = append(t.stack, name)
	t.kind, t.name, t.selfClose = xmlStart, name, self
	return nil
}

func (t *xmlTokenizer) readEnd() error {
	t.pos += 2 // </
	name, err := t.readName()
	if err != nil {
		return err
	}
	t.skipSpace()
	if t.pos >= len(t.data) || t.data[t.pos] != '>' {
		return t.errorf("expected '>' to end </%s", name)
	}
	t.pos++
	if len(t.stack) == 0 || !bytes.Equal(t.stack[len(t.stack)-1], name) {
		return t.errorf("unexpected end tag </%s>", name)
	}
	t.stack = t.stack[:len(t.stack)-1]
	t.kind, t.name = xmlEnd, name
	return nil
}

// readText reads character data and CDATA sections up to the next markup.
func (t *xmlTokenizer) readText() error {
	var out []byte
	copied := false
	for t.pos < len(t.data) {
		if bytes.HasPrefix(t.data[t.pos:], []byte("<![CDATA[")) {
			end := bytes.Index(t.data[t.pos+9:], cdataEnd)
			if end < 0 {
				return errors.New("invalid XML: unexpected end of the document")
			}
			raw := t.data[t.pos+9 : t.pos+9+end]
			if err := checkChars(raw); err != nil {
				return t.errorf("%v", err)
			}
			if !copied {
				out = append([]byte(nil), out...)
				copied = true
			}
			out = append(out, raw...)
			t.pos += 9 + end + 3
			continue
		}
		if t.data[t.pos] == '<' {
			break
		}
		end := bytes.IndexByte(t.data[t.pos:], '<')
		if end < 0 {
			end = len(t.data) - t.pos
		}
		raw := t.data[t.pos : t.pos+end]
		if len(t.stack) == 0 {
			if len(bytes.TrimLeft(raw, " \t\r\n")) > 0 {
				return t.errorf("text outside the root element")
			}
			t.pos += end
			continue
		}
		if !copied && out == nil && bytes.IndexByte(raw, '&') < 0 {
			if err := checkChars(raw); err != nil {
				return t.errorf("%v", err)
			}
			out = raw
		} else {
			if !copied {
				out = append([]byte(nil), out...)
				copied = true
			}
			var err error
			if out, err = t.decode(raw, out); err != nil {
				return err
			}
		}
		t.pos += end
	}
	if len(t.stack) == 0 {
		return t.next()
	}
	t.kind, t.text = xmlText, out
	return nil
}

// decode appends raw with its references replaced to dst; raw is returned
// as it is when it has none.
func (t *xmlTokenizer) decode(raw, dst []byte) ([]byte, error) {
	if err := checkChars(raw); err != nil {
		return nil, t.errorf("%v", err)
	}
	if dst == nil && bytes.IndexByte(raw, '&') < 0 {
		return raw, nil
	}
	for {
		i := bytes.IndexByte(raw, '&')
		if i < 0 {
			return append(dst, raw...), nil
		}
		dst = append(dst, raw[:i]...)
		raw = raw[i:]
		j := bytes.IndexByte(raw, ';')
		if j < 0 || j > 12 {
			return nil, t.errorf("invalid entity reference")
		}
		ref := raw[1:j]
		raw = raw[j+1:]
		switch string(ref) {
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "amp":
			dst = append(dst, '&')
		case "quot":
			dst = append(dst, '"')
		case "apos":
			dst = append(dst, '\'')
		default:
			if len(ref) < 2 || ref[0] != '#' {
				return nil, t.errorf("entity &%s; is not defined (only the predefined entities are)", ref)
			}
			var n uint64
			var err error
			if ref[1] == 'x' {
				n, err = strconv.ParseUint(string(ref[2:]), 16, 32)
			} else {
				n, err = strconv.ParseUint(string(ref[1:]), 10, 32)
			}
			r := rune(n)
			if err != nil || !isXMLChar(r) {
				return nil, t.errorf("invalid character reference &%s;", ref)
			}
			dst = utf8.AppendRune(dst, r)
		}
	}
}

// checkChars refuses invalid UTF-8 and the control characters XML 1.0
// does not allow.
func checkChars(b []byte) error {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return fmt.Errorf("control character %#x", c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return errors.New("invalid UTF-8")
		}
		if !isXMLChar(r) {
			return fmt.Errorf("character %U is not allowed", r)
		}
		i += size
	}
	return nil
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
