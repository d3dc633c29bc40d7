package protocol

import (
	"strings"
	"testing"
)

// tokens renders the tokens of doc: <name a=v>, </name>, "text".
func tokens(doc string) (string, error) {
	t := xmlTokenizer{data: []byte(doc)}
	var b strings.Builder
	for {
		if err := t.next(); err != nil {
			return b.String(), err
		}
		switch t.kind {
		case xmlEOF:
			return b.String(), nil
		case xmlStart:
			b.WriteString("<" + string(t.name))
			for _, a := range t.attrs {
				b.WriteString(" " + string(a.name) + "=" + string(a.value))
			}
			b.WriteString(">")
		case xmlEnd:
			b.WriteString("</" + string(t.name) + ">")
		case xmlText:
			b.WriteString(`"` + string(t.text) + `"`)
		}
	}
}

func TestXMLTokenizer(t *testing.T) {
	for doc, want := range map[string]string{
		`<?xml version="1.0" encoding="UTF-8"?><a x='1' y="&lt;&#65;&#x42;"><b/>t&amp;u<![CDATA[<c>]]>v</a>`: `<a x=1 y=<AB><b></b>"t&u<c>v"</a>`,
		"<a>x<!-- c -->y<?pi z?></a>\n":         `<a>"x""y"</a>`,
		"<p:a xmlns:p=\"u\"><p:b>é</p:b></p:a>": `<p:a xmlns:p=u><p:b>"é"</p:b></p:a>`,
	} {
		got, err := tokens(doc)
		if err != nil || got != want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", doc, got, err, want)
		}
	}
	for doc, want := range map[string]string{
		`<!DOCTYPE a><a/>`: "DTDs",
		`<a>&ent;</a>`:     "not defined",
		`<a>&#1;</a>`:      "invalid character reference",
		"<a>\x01</a>":      "control character",
		"<a>\xff</a>":      "invalid UTF-8",
		`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`: "UTF-8 only",
		`<a></b>`:                            "unexpected end tag",
		`<a><b>`:                             "unexpected end",
		`<a x=1/>`:                           "quoted value",
		`text<a/>`:                           "outside the root",
		strings.Repeat("<a>", maxXMLDepth+1): "nesting deeper",
		`<a x="<"/>`:                         "'<'",
		`<a>` + strings.Repeat("x", 10) + `&` + `</a>`: "invalid entity",
		`<a><![CDATA[x</a>`:                            "unexpected end",
		`<a><!-- x </a>`:                               "unterminated comment",
		`<a x="1"`:                                     "unexpected end",
		`<a ="1"/>`:                                    "expected a name",
		`<a>&#xD800;</a>`:                              "invalid character reference",
	} {
		if _, err := tokens(doc); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", doc, err, want)
		}
	}
}
