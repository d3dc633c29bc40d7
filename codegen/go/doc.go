package gogen

import (
	"strings"

	"github.com/smithycurl/smithycurl/describe"
)

// paragraphs turns @documentation (often HTML in AWS models) into plain
// text paragraphs for a Go comment (describe.DocParagraphs, the
// generators' one conversion).
func paragraphs(s string) []string { return describe.DocParagraphs(s) }

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
