package protocol

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxXMLDepth bounds the nesting of XML documents read.
const maxXMLDepth = 256

// xmlReader reads an XML document with encoding/xml's raw tokenizer, driven
// by the compiled shapes (one pass, no tree). Safety: DTDs and other
// directives are refused, entities other than the five predefined ones and
// numeric character references are errors (Strict mode, no Entity map), no
// external reference is ever read, nesting is bounded by maxXMLDepth, and
// text must be UTF-8.
type xmlReader struct {
	d     *xml.Decoder
	depth int
	json  *jsonOptions
	// rest skips elements of members bound elsewhere (headers, payload,
	// status code) in a restXml body.
	rest bool
}

func newXMLReader(body []byte, o *jsonOptions) *xmlReader {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	d.CharsetReader = nil // only UTF-8 (and US-ASCII) documents
	return &xmlReader{d: d, json: o}
}

// next returns the next start element, end element or character data;
// comments and processing instructions are skipped.
func (r *xmlReader) next() (xml.Token, error) {
	for {
		tok, err := r.d.RawToken()
		if err != nil {
			if err == io.EOF {
				if r.depth > 0 {
					return nil, errors.New("invalid XML: unexpected end of the document")
				}
				return nil, io.EOF
			}
			return nil, fmt.Errorf("invalid XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			r.depth++
			if r.depth > maxXMLDepth {
				return nil, fmt.Errorf("invalid XML: nesting deeper than %d elements", maxXMLDepth)
			}
			return t, nil
		case xml.EndElement:
			r.depth--
			return t, nil
		case xml.CharData:
			return t, nil
		case xml.Directive:
			return nil, errors.New("invalid XML: DTDs and other directives are not accepted")
		}
	}
}

// root reads up to the document's root element.
func (r *xmlReader) root() (xml.StartElement, error) {
	for {
		tok, err := r.next()
		if err == io.EOF {
			return xml.StartElement{}, errors.New("invalid XML: no root element")
		}
		if err != nil {
			return xml.StartElement{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return xml.StartElement{}, errors.New("invalid XML: text before the root element")
			}
		}
	}
}

// children calls f for each child element of the element just started;
// f must consume the child whole. Text between children is ignored.
func (r *xmlReader) children(f func(se xml.StartElement) error) error {
	for {
		tok, err := r.next()
		if err != nil {
			if err == io.EOF {
				return errors.New("invalid XML: unexpected end of the document")
			}
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := f(t); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

// skip consumes the rest of the element just started.
func (r *xmlReader) skip() error {
	return r.children(func(xml.StartElement) error { return r.skip() })
}

// text reads the text of the element just started up to its end; child
// elements are ignored.
func (r *xmlReader) text() (string, error) {
	var b []byte
	for {
		tok, err := r.next()
		if err != nil {
			if err == io.EOF {
				return "", errors.New("invalid XML: unexpected end of the document")
			}
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b = append(b, t...)
		case xml.StartElement:
			if err := r.skip(); err != nil {
				return "", err
			}
		case xml.EndElement:
			return string(b), nil
		}
	}
}

// inXMLBody reports whether a response member may be read from the body.
func inXMLBody(mc *memberCodec) bool {
	switch mc.loc {
	case inHeader, inPrefixHeaders, inPayload, inStatus:
		return false
	}
	return true
}

// qname is an XML name as written, with its prefix.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// memberByXML finds the member an element or attribute name stands for:
// its xmlName as written (with a prefix), or the local part.
func memberByXML(sc *shapeCodec, n xml.Name) *memberCodec {
	if n.Space != "" {
		if mc, ok := sc.xml.byName[n.Space+":"+n.Local]; ok {
			return mc
		}
	}
	return sc.xml.byName[n.Local]
}

// decodeStruct reads the members of a structure from the element se just
// started into w (attributes and child elements); unknown elements are
// skipped. Flattened lists and maps may be spread over the element.
func (r *xmlReader) decodeFields(w *objectWriter, sc *shapeCodec, se xml.StartElement) error {
	vals := make([][]byte, len(sc.members))
	for _, a := range se.Attr {
		mc := memberByXML(sc, a.Name)
		if mc == nil || !mc.xml.attribute || (r.rest && !inXMLBody(mc)) {
			continue
		}
		v, err := r.scalar(nil, a.Value, mc)
		if err != nil {
			return inMember(err, mc.name)
		}
		vals[mc.index] = v
	}
	err := r.children(func(ce xml.StartElement) error {
		mc := memberByXML(sc, ce.Name)
		if mc == nil || mc.xml.attribute || (r.rest && !inXMLBody(mc)) {
			return r.skip()
		}
		var err error
		if mc.xml.flattened && (mc.target.kind == kList || mc.target.kind == kMap) {
			v := vals[mc.index]
			if len(v) > 0 {
				v = append(v, ',')
			}
			if mc.target.kind == kList {
				v, err = r.value(v, mc.target.elem, ce)
			} else {
				v, err = r.mapEntry(v, mc.target, ce)
			}
			vals[mc.index] = v
			return inMember(err, mc.name)
		}
		vals[mc.index], err = r.value(vals[mc.index][:0], mc, ce)
		return inMember(err, mc.name)
	})
	if err != nil {
		return err
	}
	for i, mc := range sc.members {
		v := vals[i]
		if v == nil {
			continue
		}
		w.seen.add(i)
		w.member(mc)
		switch {
		case mc.xml.flattened && mc.target.kind == kList:
			w.dst = append(w.dst, '[')
			w.dst = append(w.dst, v...)
			w.dst = append(w.dst, ']')
		case mc.xml.flattened && mc.target.kind == kMap:
			w.dst = append(w.dst, '{')
			w.dst = append(w.dst, v...)
			w.dst = append(w.dst, '}')
		default:
			w.dst = append(w.dst, v...)
		}
	}
	return nil
}

// structure reads a structure from the element se just started, defaults
// added.
func (r *xmlReader) structure(dst []byte, sc *shapeCodec, se xml.StartElement) ([]byte, error) {
	w := objectWriter{dst: append(dst, '{')}
	if err := r.decodeFields(&w, sc, se); err != nil {
		return w.dst, err
	}
	r.json.addDefaults(&w, sc)
	return append(w.dst, '}'), nil
}

// value reads the value of member mc from the element se just started.
func (r *xmlReader) value(dst []byte, mc *memberCodec, se xml.StartElement) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kStruct, kUnit:
		return r.structure(dst, sc, se)
	case kUnion:
		w := objectWriter{dst: append(dst, '{')}
		if err := r.decodeFields(&w, sc, se); err != nil {
			return w.dst, err
		}
		if w.n > 1 {
			return w.dst, fmt.Errorf("union %s: more than one member is set", sc.shape.ID)
		}
		return append(w.dst, '}'), nil
	case kList:
		dst = append(dst, '[')
		n := 0
		err := r.children(func(ce xml.StartElement) error {
			if ce.Name.Local != sc.elem.xml.name && qname(ce.Name) != sc.elem.xml.name {
				return r.skip()
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			var err error
			dst, err = r.value(dst, sc.elem, ce)
			n++
			return inIndex(err, n-1)
		})
		return append(dst, ']'), err
	case kMap:
		dst = append(dst, '{')
		n := 0
		err := r.children(func(ce xml.StartElement) error {
			if ce.Name.Local != "entry" {
				return r.skip()
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			var err error
			dst, err = r.mapEntry(dst, sc, ce)
			return err
		})
		return append(dst, '}'), err
	case kDocument:
		return dst, errors.New("documents cannot be read from XML")
	}
	text, err := r.text()
	if err != nil {
		return dst, err
	}
	return r.scalar(dst, text, mc)
}

// mapEntry reads one map entry (<key>, <value> children, or their
// xmlNames) from the element se just started as "key":value.
func (r *xmlReader) mapEntry(dst []byte, sc *shapeCodec, se xml.StartElement) ([]byte, error) {
	var key string
	var val []byte
	haveKey := false
	err := r.children(func(ce xml.StartElement) error {
		switch ce.Name.Local {
		case sc.key.xml.name:
			k, err := r.text()
			key, haveKey = k, true
			return err
		case sc.elem.xml.name:
			var err error
			val, err = r.value(val[:0], sc.elem, ce)
			return inKey(err, []byte(key))
		}
		return r.skip()
	})
	if err != nil {
		return dst, err
	}
	if !haveKey {
		return dst, errors.New("map entry without a key")
	}
	dst = appendString(dst, key)
	dst = append(dst, ':')
	if val == nil {
		if sc.sparse {
			return append(dst, "null"...), nil
		}
		val = []byte(`""`)
	}
	return append(dst, val...), nil
}

// scalar converts the text of a scalar to the document form.
func (r *xmlReader) scalar(dst []byte, text string, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kString, kEnum:
		return appendString(dst, text), nil
	}
	t := strings.TrimSpace(text)
	switch sc.kind {
	case kBlob:
		if err := checkBase64([]byte(t)); err != nil {
			return dst, err
		}
		return appendString(dst, t), nil
	case kBool:
		if t == "true" || t == "false" {
			return append(dst, t...), nil
		}
		return dst, badValue(fmt.Sprintf("%q is not a boolean", t))
	case kInt, kIntEnum, kBigInt:
		s := scanner{data: []byte(t)}
		lit, err := s.number()
		if err != nil || !s.atEnd() {
			return dst, badValue(fmt.Sprintf("%q is not an integer", t))
		}
		if lit, err = checkNumber(lit, sc); err != nil {
			return dst, err
		}
		return append(dst, lit...), nil
	case kFloat, kBigDec:
		switch t {
		case "NaN", "Infinity", "-Infinity":
			if sc.kind == kFloat {
				return appendString(dst, t), nil
			}
		}
		s := scanner{data: []byte(t)}
		if lit, err := s.number(); err == nil && s.atEnd() {
			return append(dst, lit...), nil
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || sc.kind == kBigDec {
			return dst, badValue(fmt.Sprintf("%q is not a number", t))
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
	case kTimestamp:
		ts, err := parseTimestampText(orDefault(mc.tsFormat, formatDateTime), t)
		if err != nil {
			return dst, badValue(err.Error())
		}
		return r.json.appendDocTimestamp(dst, ts), nil
	}
	return dst, badValue(fmt.Sprintf("a %s cannot be read from XML", kindName(sc)))
}

// findElement walks from the root down the element path (local names; the
// root's name is path[0], "" for any) and returns the byte range of the
// last element, the element's start tag and whether it was found.
func findElement(body []byte, path ...string) (start, end int, ok bool, err error) {
	r := newXMLReader(body, nil)
	root, err := r.root()
	if err != nil {
		return 0, 0, false, err
	}
	if path[0] != "" && root.Name.Local != path[0] {
		return 0, 0, false, nil
	}
	path = path[1:]
	if len(path) == 0 {
		return 0, len(body), true, nil
	}
	for {
		before := int(r.d.InputOffset())
		tok, err := r.next()
		if err != nil {
			if err == io.EOF {
				return 0, 0, false, nil
			}
			return 0, 0, false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != path[0] {
				if err := r.skip(); err != nil {
					return 0, 0, false, err
				}
				continue
			}
			path = path[1:]
			if len(path) == 0 {
				if err := r.skip(); err != nil {
					return 0, 0, false, err
				}
				return before, int(r.d.InputOffset()), true, nil
			}
		case xml.EndElement:
			return 0, 0, false, nil
		}
	}
}

// childText returns the text of the first child element of the root named
// name.
func childText(elem []byte, name string) (string, error) {
	r := newXMLReader(elem, nil)
	if _, err := r.root(); err != nil {
		return "", err
	}
	var out string
	found := false
	err := r.children(func(ce xml.StartElement) error {
		if ce.Name.Local == name && !found {
			found = true
			var err error
			out, err = r.text()
			return err
		}
		return r.skip()
	})
	return out, err
}

// decodeXMLStruct reads the root element of doc as structure sc. An empty
// document is an empty structure.
func decodeXMLStruct(o *jsonOptions, sc *shapeCodec, doc []byte) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 || sc.kind == kUnit {
		w := objectWriter{dst: []byte{'{'}}
		o.addDefaults(&w, sc)
		return append(w.dst, '}'), nil
	}
	r := newXMLReader(doc, o)
	root, err := r.root()
	if err != nil {
		return nil, err
	}
	return r.structure(nil, sc, root)
}

// withMessage gives an error structure's message member (any case: AWS
// models name it "message" while the XML envelope says <Message>) the
// envelope's message when the element name did not match it.
func withMessage(members []byte, sc *shapeCodec, msg string) []byte {
	if msg == "" || len(members) < 2 {
		return members
	}
	for _, mc := range sc.members {
		if !strings.EqualFold(mc.name, "message") || mc.target.kind != kString || mc.xml.name == "Message" {
			continue
		}
		if strings.Contains(string(members), string(mc.docKey)) {
			return members
		}
		out := append([]byte(nil), members[:len(members)-1]...)
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, mc.docKey...)
		out = appendString(out, msg)
		return append(out, '}')
	}
	return members
}
