package gogen

import (
	"html"
	"regexp"
	"strings"
)

var (
	paraRE       = regexp.MustCompile(`(?i)</?(p|ul|ol|br|note|important)\s*/?>`)
	itemRE       = regexp.MustCompile(`(?i)<li>(\s*<p>)?`)
	tagRE        = regexp.MustCompile(`<[^>]*>`)
	spacePunctRE = regexp.MustCompile(` +([.,;:)])`)
)

// paragraphs turns @documentation (often HTML in AWS models) into plain
// text paragraphs for a Go comment: block tags separate paragraphs, list
// items start with "- ", other tags are removed, entities decoded, spaces
// collapsed (and none left before punctuation where a tag was).
func paragraphs(s string) []string {
	s = itemRE.ReplaceAllString(s, "\n\n- ")
	s = paraRE.ReplaceAllString(s, "\n\n")
	s = tagRE.ReplaceAllString(s, " ")
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		p = html.UnescapeString(p)
		p = spacePunctRE.ReplaceAllString(strings.Join(strings.Fields(p), " "), "$1")
		if p != "" && p != "-" {
			out = append(out, p)
		}
	}
	return out
}

// plainText is the documentation as one paragraph.
func plainText(s string) string { return strings.Join(paragraphs(s), " ") }

// wrap splits text into lines of at most width bytes (longer words stay whole).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
