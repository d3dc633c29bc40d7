package gogen

import (
	"html"
	"regexp"
	"strings"
)

var (
	tagRE        = regexp.MustCompile(`<[^>]*>`)
	spacePunctRE = regexp.MustCompile(` +([.,;:)])`)
)

// plainText turns @documentation (often HTML in AWS models) into plain
// text for a Go comment: tags removed, entities decoded, spaces collapsed
// (and none left before punctuation where a tag was).
func plainText(s string) string {
	s = tagRE.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	return spacePunctRE.ReplaceAllString(strings.Join(strings.Fields(s), " "), "$1")
}

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
