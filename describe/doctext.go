package describe

import (
	"html"
	"regexp"
	"strings"
)

var (
	docParaRE       = regexp.MustCompile(`(?i)</?(p|ul|ol|br|note|important)\s*/?>`)
	docItemRE       = regexp.MustCompile(`(?i)<li>(\s*<p>)?`)
	docTagRE        = regexp.MustCompile(`<[^>]*>`)
	docSpacePunctRE = regexp.MustCompile(` +([.,;:)])`)
)

// DocParagraphs turns @documentation (often HTML in AWS models) into plain
// text paragraphs: block tags separate paragraphs, list items start with
// "- ", other tags are removed, entities decoded, spaces collapsed (and none
// left before punctuation where a tag was). The one conversion of the
// generators: Go and C comments, Python docstrings (through DocsPlain).
func DocParagraphs(s string) []string {
	s = docItemRE.ReplaceAllString(s, "\n\n- ")
	s = docParaRE.ReplaceAllString(s, "\n\n")
	s = docTagRE.ReplaceAllString(s, " ")
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		p = html.UnescapeString(p)
		p = docSpacePunctRE.ReplaceAllString(strings.Join(strings.Fields(p), " "), "$1")
		if p != "" && p != "-" {
			out = append(out, p)
		}
	}
	return out
}

// DocText is DocParagraphs' paragraphs, a blank line between them.
func DocText(s string) string { return strings.Join(DocParagraphs(s), "\n\n") }
