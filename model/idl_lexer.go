package model

import (
	"strings"
	"unicode/utf8"
)

// tokKind is a token of the Smithy IDL. Names and example lexemes match the
// reference tokenizer so that syntax error messages read the same.
type tokKind uint8

const (
	tSpace tokKind = iota
	tNewline
	tComma
	tComment
	tDocComment
	tAt
	tString
	tTextBlock
	tColon
	tWalrus
	tIdent
	tDot
	tPound
	tDollar
	tNumber
	tLBrace
	tRBrace
	tLBracket
	tRBracket
	tLParen
	tRParen
	tEqual
	tEOF
	tError
)

var tokNames = [...]string{"SPACE", "NEWLINE", "COMMA", "COMMENT", "DOC_COMMENT", "AT", "STRING", "TEXT_BLOCK",
	"COLON", "WALRUS", "IDENTIFIER", "DOT", "POUND", "DOLLAR", "NUMBER", "LBRACE", "RBRACE", "LBRACKET",
	"RBRACKET", "LPAREN", "RPAREN", "EQUAL", "EOF", "ERROR"}

var tokExamples = [...]string{" ", "\\n", ",", "//", "///", "@", `"`, `"""`, ":", ":=", "", ".", "#", "$", "",
	"{", "}", "[", "]", "(", ")", "=", "", ""}

// isWS reports whether the token is insignificant whitespace (documentation
// comments are not: they attach to shapes).
func (k tokKind) isWS() bool { return k <= tComment }

// debug formats a token kind with a lexeme like the reference tool: NAME('lexeme').
func (k tokKind) debug(lexeme string) string {
	if lexeme == "" {
		return tokNames[k]
	}
	return tokNames[k] + "('" + lexeme + "')"
}

type token struct {
	kind       tokKind
	start, end int
	line, col  int32
	// str is the decoded value of a STRING or TEXT_BLOCK, or the message of an ERROR.
	str string
}

// lexer produces IDL tokens one at a time straight from the source text.
type lexer struct {
	src       string
	pos       int
	line      int32
	lineStart int
	// nonASCII is set when the current line has a multi-byte character before
	// pos, so that columns must be counted in UTF-16 units like the reference tool.
	nonASCII bool
	tok      token
	// docs holds the documentation comment lines read and not yet attached.
	docs []string
}

func (l *lexer) init(src string) {
	l.src = src
	l.line = 1
	l.next()
}

func (l *lexer) lexeme() string { return l.src[l.tok.start:l.tok.end] }

// column returns the 1-based column of offset pos, which must be on the current line.
func (l *lexer) column(pos int) int32 {
	if !l.nonASCII {
		return int32(pos - l.lineStart + 1)
	}
	col := int32(1)
	for i := l.lineStart; i < pos; i++ {
		c := l.src[i]
		if c&0xC0 != 0x80 {
			col++
		}
		if c >= 0xF0 { // a surrogate pair in UTF-16
			col++
		}
	}
	return col
}

func (l *lexer) newline(next int) {
	l.line++
	l.lineStart = next
	l.nonASCII = false
}

// skip advances over one character, counting \r\n, \r and \n as line breaks.
func (l *lexer) skip() {
	if l.pos >= len(l.src) {
		return
	}
	switch c := l.src[l.pos]; {
	case c == '\r':
		if l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
			l.pos++
		}
		l.newline(l.pos + 1)
	case c == '\n':
		l.newline(l.pos + 1)
	case c >= 0x80:
		l.nonASCII = true
	}
	l.pos++
}

// peekForMessage describes the character at pos as the reference tool does.
func (l *lexer) peekForMessage() string {
	if l.pos >= len(l.src) {
		return "[EOF]"
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
	return string(r)
}

// errorAt formats a message located at the current position, nested inside
// token errors like the reference tool does.
func (l *lexer) errorAt(msg string) string {
	return sprintf("Syntax error at line %d, column %d: %s", l.line, l.column(l.pos), msg)
}

func (l *lexer) next() tokKind {
	t := &l.tok
	t.start, t.line, t.col, t.str = l.pos, l.line, l.column(l.pos), ""
	if l.pos >= len(l.src) {
		t.kind, t.end = tEOF, l.pos
		return tEOF
	}
	c := l.src[l.pos]
	kind := tError
	switch {
	case c == ' ' || c == '\t':
		l.pos++
		for l.pos < len(l.src) && (l.src[l.pos] == ' ' || l.src[l.pos] == '\t') {
			l.pos++
		}
		kind = tSpace
	case c == '\n' || c == '\r':
		l.skip()
		kind = tNewline
	case isIdentStart(c):
		kind = l.lexIdent()
	case c == '-' || (c >= '0' && c <= '9'):
		kind = l.lexNumber()
	case c == '"':
		kind = l.lexString()
	case c == '/':
		kind = l.lexComment()
	case c == ':':
		l.pos++
		kind = tColon
		if l.pos < len(l.src) && l.src[l.pos] == '=' {
			l.pos++
			kind = tWalrus
		}
	default:
		if k := singleCharTokens[c]; k != 0 {
			l.pos++
			kind = k - 1
		} else {
			r, size := utf8.DecodeRuneInString(l.src[l.pos:])
			if c >= 0x80 {
				l.nonASCII = true
			}
			l.pos += size
			t.str = "Unexpected character: '" + string(r) + "'"
		}
	}
	t.kind, t.end = kind, l.pos
	if kind == tDocComment {
		l.bufferDocComment()
	}
	return kind
}

// singleCharTokens maps a byte to its token kind plus one (zero: not a single-character token).
var singleCharTokens = [256]tokKind{',': tComma + 1, '@': tAt + 1, '$': tDollar + 1, '.': tDot + 1,
	'{': tLBrace + 1, '}': tRBrace + 1, '[': tLBracket + 1, ']': tRBracket + 1, '(': tLParen + 1,
	')': tRParen + 1, '#': tPound + 1, '=': tEqual + 1}

func (l *lexer) lexIdent() tokKind {
	src := l.src
	if src[l.pos] == '_' {
		for l.pos < len(src) && src[l.pos] == '_' {
			l.pos++
		}
		if l.pos >= len(src) || !isIdentChar(src[l.pos]) {
			l.tok.str = l.errorAt("Expected a valid identifier character, but found '" + l.peekForMessage() + "'")
			return tError
		}
	}
	l.pos++
	for l.pos < len(src) && isIdentChar(src[l.pos]) {
		l.pos++
	}
	return tIdent
}

func (l *lexer) digits() int {
	start := l.pos
	for l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
		l.pos++
	}
	return l.pos - start
}

func (l *lexer) lexNumber() tokKind {
	start := l.pos
	invalid := func(why string) tokKind {
		l.tok.str = "Invalid number '" + l.src[start:l.pos] + "': " + why
		return tError
	}
	if l.src[l.pos] == '-' {
		l.pos++
		if l.digits() == 0 {
			return invalid("'-' must be followed by a digit")
		}
	} else {
		l.digits()
	}
	if l.pos < len(l.src) && l.src[l.pos] == '.' {
		l.pos++
		if l.digits() == 0 {
			return invalid("'.' must be followed by a digit")
		}
	}
	if l.pos < len(l.src) && (l.src[l.pos] == 'e' || l.src[l.pos] == 'E') {
		l.pos++
		if l.pos < len(l.src) && (l.src[l.pos] == '+' || l.src[l.pos] == '-') {
			l.pos++
		}
		if l.digits() == 0 {
			return invalid("'e', '+', and '-' must be followed by a digit")
		}
	}
	return tNumber
}

// numberLiteral returns a number token's text as a JSON number: the IDL accepts
// leading zeros ("007") which JSON does not.
func numberLiteral(s string) string {
	i := 0
	if s[0] == '-' {
		i = 1
	}
	j := i
	for j+1 < len(s) && s[j] == '0' && s[j+1] >= '0' && s[j+1] <= '9' {
		j++
	}
	if j == i {
		return s
	}
	return s[:i] + s[j:]
}

func (l *lexer) lexComment() tokKind {
	src := l.src
	l.pos++
	if l.pos >= len(src) || src[l.pos] != '/' {
		l.skip()
		l.tok.str = "Expected a '/' to follow '/' to form a comment."
		return tError
	}
	l.pos++
	kind := tComment
	if l.pos < len(src) && src[l.pos] == '/' {
		l.pos++
		kind = tDocComment
	}
	rest := src[l.pos:]
	end := strings.IndexByte(rest, '\n')
	if end < 0 {
		end = len(rest)
		// The comment ends the file: the EOF token's column counts its characters.
		l.nonASCII = l.nonASCII || strings.ContainsFunc(rest, func(r rune) bool { return r >= utf8.RuneSelf })
	}
	if cr := strings.IndexByte(rest[:end], '\r'); cr >= 0 {
		end = cr
	}
	l.pos += end
	l.skip() // the line break belongs to the comment
	return kind
}

// bufferDocComment records the text of the current documentation comment
// without "///", one optional leading space and the line break.
func (l *lexer) bufferDocComment() {
	start, end := l.tok.start, l.tok.end
	docStart := start
	if end-start > 3 {
		docStart = start + 3
		if l.src[docStart] == ' ' {
			docStart++
		}
	}
	if end > docStart && l.src[end-1] == '\n' {
		end--
	}
	if end > docStart && l.src[end-1] == '\r' {
		end--
	}
	l.docs = append(l.docs, l.src[docStart:end])
}

// takeDocs removes and returns the pending documentation comment lines joined by "\n".
func (l *lexer) takeDocs() (string, bool) {
	if len(l.docs) == 0 {
		return "", false
	}
	s := l.docs[0]
	if len(l.docs) > 1 {
		s = strings.Join(l.docs, "\n")
	}
	l.docs = l.docs[:0]
	return s, true
}

func (l *lexer) lexString() tokKind {
	src := l.src
	l.pos++
	triple := false
	if l.pos < len(src) && src[l.pos] == '"' {
		l.pos++
		if l.pos >= len(src) || src[l.pos] != '"' {
			return tString // ""
		}
		l.pos++
		triple = true
	}
	start := l.pos
	for l.pos < len(src) {
		c := src[l.pos]
		if c == '"' && (!triple || (l.pos+2 < len(src) && src[l.pos+1] == '"' && src[l.pos+2] == '"')) {
			break
		}
		l.skip()
		if c == '\\' {
			l.skip()
		}
	}
	what, kind := "Error parsing quoted string: ", tString
	if triple {
		what, kind = "Error parsing text block: ", tTextBlock
	}
	if l.pos >= len(src) {
		l.tok.str = what + l.errorAt(`Expected: '"', but found '[EOF]'`)
		return tError
	}
	raw := src[start:l.pos]
	if triple {
		l.pos += 3
	} else {
		l.pos++
	}
	s, err := stringContents(raw, triple)
	if err != "" {
		l.tok.str = what + err
		return tError
	}
	l.tok.str = s
	return kind
}

// stringContents decodes the text between the quotes of a string or text block:
// line breaks become \n, text blocks lose their incidental whitespace, then
// escapes are replaced. It returns an error message instead when invalid.
func stringContents(raw string, textBlock bool) (string, string) {
	if strings.IndexByte(raw, '\r') >= 0 {
		raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n")
	}
	if textBlock {
		if raw == "" {
			return "", "Text block is empty"
		}
		if raw[0] != '\n' {
			return "", "Text block must start with a new line"
		}
		raw = formatTextBlock(raw)
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c == '\\' || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			return unescape(raw, i)
		}
	}
	return raw, ""
}

// formatTextBlock removes the first line break, the indentation common to the
// lines (whitespace-only lines other than the last do not count) and trailing spaces.
func formatTextBlock(s string) string {
	lines := strings.Split(s[1:], "\n")
	pad := -1
	for i, line := range lines {
		n := 0
		for n < len(line) && line[n] == ' ' {
			n++
		}
		if n == len(line) && i < len(lines)-1 {
			continue
		}
		if pad < 0 || n < pad {
			pad = n
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, line := range lines {
		if line != "" {
			start := min(pad, len(line))
			end := len(line) - 1
			for end > 0 && line[end] == ' ' {
				end--
			}
			if end >= start {
				b.WriteString(line[start : end+1])
			}
		}
		if i < len(lines)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// unescape decodes s whose first escape or invalid character is at i.
func unescape(s string, i int) (string, string) {
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	var high rune // a pending high surrogate from a \u escape
	flush := func() {
		if high != 0 {
			b = utf8.AppendRune(b, utf8.RuneError)
			high = 0
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return "", "Invalid string character: `" + string(rune(c)) + "`"
			}
			flush()
			b = append(b, c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		c = s[i]
		if c == 'u' {
			var r rune
			for k := 0; k < 4; k++ {
				i++
				if i >= len(s) {
					return "", "Invalid unclosed unicode escape found in string"
				}
				h := s[i]
				switch {
				case h >= '0' && h <= '9':
					r = r<<4 | rune(h-'0')
				case h >= 'a' && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case h >= 'A' && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				default:
					r, _ := utf8.DecodeRuneInString(s[i:])
					return "", "Invalid unicode escape character: `" + string(r) + "`"
				}
			}
			switch {
			case r >= 0xD800 && r < 0xDC00:
				flush()
				high = r
			case r >= 0xDC00 && r < 0xE000 && high != 0:
				b = utf8.AppendRune(b, 0x10000+(high-0xD800)<<10+(r-0xDC00))
				high = 0
			default:
				flush()
				b = utf8.AppendRune(b, r)
			}
			continue
		}
		flush()
		switch c {
		case '"', '\\', '/':
			b = append(b, c)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case '\n': // an escaped line break is removed
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return "", "Invalid escape found in string: `\\" + string(r) + "`"
		}
	}
	flush()
	return string(b), ""
}
