package protocol

import (
	"encoding/xml"
	"errors"
	"io"
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

// stdTokens renders doc's tokens as tokens does, read by encoding/xml.
func stdTokens(doc string) (string, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	var b strings.Builder
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			b.WriteString(`"` + text.String() + `"`)
			text.Reset()
		}
	}
	depth := 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			flush()
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			flush()
			depth++
			b.WriteString("<" + qname(t.Name))
			for _, a := range t.Attr {
				b.WriteString(" " + qname(a.Name) + "=" + a.Value)
			}
			b.WriteString(">")
		case xml.EndElement:
			flush()
			depth--
			b.WriteString("</" + qname(t.Name) + ">")
		case xml.CharData:
			if depth > 0 {
				text.Write(t)
			}
		case xml.Directive:
			return "", errors.New("directive")
		case xml.Comment:
			// Our tokenizer joins no text across comments: mark the break.
			flush()
		}
	}
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// FuzzXMLTokenizer checks the tokenizer against encoding/xml: a document
// both accept reads the same.
func FuzzXMLTokenizer(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0"?><a x='1' y="&lt;&#65;"><b/>t&amp;u<![CDATA[<c>]]>v</a>`,
		"<p:a xmlns:p=\"u\"><p:b>é</p:b><!-- c --></p:a>",
		`<a><b>1</b><b>2</b></a>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		ours, err1 := tokens(doc)
		std, err2 := stdTokens(doc)
		if err1 != nil || err2 != nil || !strings.HasPrefix(strings.TrimSpace(doc), "<") {
			return
		}
		if ours != std {
			t.Fatalf("%q:\n ours %s\n std  %s", doc, ours, std)
		}
	})
}
