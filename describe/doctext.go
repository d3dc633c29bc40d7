package describe

import (
	"html"
	"regexp"
	"strings"
	"sync"
)

// docREs are DocParagraphs' expressions, compiled at its first use rather
// than when a process loads the package.
var docREs = sync.OnceValue(func() (r struct{ para, item, tag, spacePunct *regexp.Regexp }) {
	r.para = regexp.MustCompile(`(?i)</?(p|ul|ol|br|note|important)\s*/?>`)
	r.item = regexp.MustCompile(`(?i)<li>(\s*<p>)?`)
	r.tag = regexp.MustCompile(`<[^>]*>`)
	r.spacePunct = regexp.MustCompile(` +([.,;:)])`)
	return r
})

// DocParagraphs turns @documentation (often HTML in AWS models) into plain
// text paragraphs: block tags separate paragraphs, list items start with
// "- ", other tags are removed, entities decoded, spaces collapsed (and none
// left before punctuation where a tag was). The one conversion of the
// generators: Go and C comments, Python docstrings (through DocsPlain).
func DocParagraphs(s string) []string {
	re := docREs()
	s = re.item.ReplaceAllString(s, "\n\n- ")
	s = re.para.ReplaceAllString(s, "\n\n")
	s = re.tag.ReplaceAllString(s, " ")
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		p = html.UnescapeString(p)
		p = re.spacePunct.ReplaceAllString(strings.Join(strings.Fields(p), " "), "$1")
		if p != "" && p != "-" {
			out = append(out, p)
		}
	}
	return out
}

// DocText is DocParagraphs' paragraphs, a blank line between them.
func DocText(s string) string { return strings.Join(DocParagraphs(s), "\n\n") }
