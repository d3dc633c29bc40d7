package cgen

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smithycurl/smithycurl/describe"
)

var (
	spaceRE = regexp.MustCompile(`[ \t\r\f\v]+`)
	paraRE  = regexp.MustCompile(`\n\s*\n\s*`)
)

// docText turns an @documentation value (plain text, Markdown or the HTML of
// AWS models) into plain text safe inside a C comment; HTML goes through
// describe.DocText, the generators' one conversion.
func docText(s string) string {
	if strings.ContainsAny(s, "<&") {
		s = describe.DocText(s)
	}
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r >= 0x20 && r != 0x7f && r != 0x2028 && r != 0x2029 {
			return r
		}
		return ' '
	}, s)
	// Nothing that would end the comment or, under -std=c99, form a trigraph.
	s = strings.ReplaceAll(s, "*/", "* /")
	s = strings.ReplaceAll(s, "/*", "/ *")
	s = strings.ReplaceAll(s, "??", "? ?")
	s = paraRE.ReplaceAllString(s, "\n\n")
	s = spaceRE.ReplaceAllString(s, " ")
	// Lines within a paragraph are one text (comment re-wraps it); list
	// items keep their line.
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var b strings.Builder
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i > 0 {
			prev := strings.TrimSpace(lines[i-1])
			if l == "" || prev == "" || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// comment writes a /** */ block of text wrapped at about 96 columns, or
// nothing when text is empty.
func comment(b *strings.Builder, indent, text string) {
	text = docText(text)
	if text == "" {
		return
	}
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		para = strings.TrimSpace(para)
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+len(w)+1 > 92-len(indent) {
				lines = append(lines, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		lines = append(lines, line)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 1 && len(lines[0]) < 80-len(indent) {
		fmt.Fprintf(b, "%s/** %s */\n", indent, lines[0])
		return
	}
	fmt.Fprintf(b, "%s/**\n", indent)
	for _, l := range lines {
		if l == "" {
			fmt.Fprintf(b, "%s *\n", indent)
		} else {
			fmt.Fprintf(b, "%s * %s\n", indent, l)
		}
	}
	fmt.Fprintf(b, "%s */\n", indent)
}

// cString quotes s as a C string literal: printable ASCII as is (with \" \\
// and \? against trigraphs), everything else as octal escapes.
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
