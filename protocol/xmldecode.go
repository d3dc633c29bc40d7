package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// maxXMLDepth bounds the nesting of XML documents read.
const maxXMLDepth = 256

// xmlReader reads an XML document with the tokenizer of xmltok.go, driven
// by the compiled shapes (one pass, no tree). See xmlTokenizer for what is
// refused: DTDs, entities other than the predefined ones, non-UTF-8 text,
// nesting deeper than maxXMLDepth.
type xmlReader struct {
	t    xmlTokenizer
	json *jsonOptions
	// rest skips elements of members bound elsewhere (headers, payload,
	// status code) in a restXml body.
	rest bool
}

// xmlStartTag is an element just started: its qualified name and
// attributes (valid until the next token is read).
type xmlStartTag struct {
	name  []byte
	attrs []xmlAttr
}

func newXMLReader(body []byte, o *jsonOptions) *xmlReader {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	return &xmlReader{t: xmlTokenizer{data: body}, json: o}
}

var errXMLEnd = errors.New("invalid XML: unexpected end of the document")

// root reads up to the document's root element.
func (r *xmlReader) root() (xmlStartTag, error) {
	for {
		if err := r.t.next(); err != nil {
			return xmlStartTag{}, err
		}
		switch r.t.kind {
		case xmlEOF:
			return xmlStartTag{}, errors.New("invalid XML: no root element")
		case xmlStart:
			return xmlStartTag{name: r.t.name, attrs: r.t.attrs}, nil
		}
	}
}

// children calls f for each child element of the element just started;
// f must consume the child whole. Text between children is ignored.
func (r *xmlReader) children(f func(se xmlStartTag) error) error {
	for {
		if err := r.t.next(); err != nil {
			return err
		}
		switch r.t.kind {
		case xmlStart:
			if err := f(xmlStartTag{name: r.t.name, attrs: r.t.attrs}); err != nil {
				return err
			}
		case xmlEnd:
			return nil
		case xmlEOF:
			return errXMLEnd
		}
	}
}

// skip consumes the rest of the element just started.
func (r *xmlReader) skip() error {
	_, err := r.content()
	return err
}

// content consumes the rest of the element just started and returns its
// content as written: text and child elements, entities not replaced.
func (r *xmlReader) content() ([]byte, error) {
	start, end := r.t.pos, r.t.pos
	for depth := 1; depth > 0; {
		end = r.t.pos
		if err := r.t.next(); err != nil {
			return nil, err
		}
		switch r.t.kind {
		case xmlStart:
			depth++
		case xmlEnd:
			depth--
		case xmlEOF:
			return nil, errXMLEnd
		}
	}
	return r.t.data[start:end], nil
}

// text reads the text of the element just started up to its end; child
// elements are ignored.
func (r *xmlReader) text() ([]byte, error) {
	var b []byte
	n := 0
	for {
		if err := r.t.next(); err != nil {
			return nil, err
		}
		switch r.t.kind {
		case xmlText:
			if n == 0 {
				b = r.t.text
			} else {
				b = append(b[:len(b):len(b)], r.t.text...)
			}
			n++
		case xmlStart:
			if err := r.skip(); err != nil {
				return nil, err
			}
		case xmlEnd:
			if b == nil {
				b = []byte{}
			}
			return b, nil
		case xmlEOF:
			return nil, errXMLEnd
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

// isXMLName reports whether an element name is name (as written, with a
// prefix, or its local part).
func isXMLName(n []byte, name string) bool {
	return string(n) == name || string(local(n)) == name
}

// memberByXML finds the member an element or attribute name stands for:
// its xmlName as written (with a prefix), or the local part.
func memberByXML(sc *shapeCodec, n []byte) *memberCodec {
	if mc, ok := sc.xml.byName[string(n)]; ok {
		return mc
	}
	return sc.xml.byName[string(local(n))]
}

// decodeFields reads the members of a structure or union from the element
// se just started into w (attributes and child elements); unknown elements
// are skipped, but for a union (unknown not nil) the first one is kept in
// *unknown as the union's unknown member. Flattened lists and maps may be
// spread over the element.
func (r *xmlReader) decodeFields(w *objectWriter, sc *shapeCodec, se xmlStartTag, unknown *[]byte) error {
	for _, a := range se.attrs {
		mc := memberByXML(sc, a.name)
		if mc == nil || !mc.xml.attribute || (r.rest && !inXMLBody(mc)) || w.seen.has(mc.index) {
			continue
		}
		mark, n := len(w.dst), w.n
		w.member(mc)
		var err error
		if w.dst, err = r.scalar(w.dst, a.value, mc); err != nil {
			w.dst, w.n = w.dst[:mark], n
			return inMember(err, mc.name)
		}
		w.seen.add(mc.index)
	}
	// Flattened lists and maps gather their elements until the end;
	// everything else is written as it comes (the first of duplicates wins).
	var flat map[int][]byte
	err := r.children(func(ce xmlStartTag) error {
		mc := memberByXML(sc, ce.name)
		if mc == nil && unknown != nil && *unknown == nil {
			raw, err := r.content()
			*unknown = appendUnknownMember(nil, local(ce.name), appendString(nil, raw))
			return err
		}
		if mc == nil || mc.xml.attribute || (r.rest && !inXMLBody(mc)) {
			return r.skip()
		}
		var err error
		if mc.xml.flattened && (mc.target.kind == kList || mc.target.kind == kMap) {
			if flat == nil {
				flat = map[int][]byte{}
			}
			v, seen := flat[mc.index]
			if seen {
				v = append(v, ',')
			}
			if mc.target.kind == kList {
				v, err = r.value(v, mc.target.elem, ce)
			} else {
				v, err = r.mapEntry(v, mc.target, ce)
			}
			if v == nil {
				v = []byte{}
			}
			flat[mc.index] = v
			return inMember(err, mc.name)
		}
		if w.seen.has(mc.index) {
			return r.skip()
		}
		w.seen.add(mc.index)
		w.member(mc)
		w.dst, err = r.value(w.dst, mc, ce)
		return inMember(err, mc.name)
	})
	if err != nil {
		return err
	}
	for i, mc := range sc.members {
		v, ok := flat[i]
		if !ok || w.seen.has(i) {
			continue
		}
		w.seen.add(i)
		w.member(mc)
		open, close := byte('['), byte(']')
		if mc.target.kind == kMap {
			open, close = '{', '}'
		}
		w.dst = append(w.dst, open)
		w.dst = append(w.dst, v...)
		w.dst = append(w.dst, close)
	}
	return nil
}

// structure reads a structure from the element se just started, defaults
// added.
func (r *xmlReader) structure(dst []byte, sc *shapeCodec, se xmlStartTag) ([]byte, error) {
	w := objectWriter{dst: append(dst, '{')}
	if err := r.decodeFields(&w, sc, se, nil); err != nil {
		return w.dst, err
	}
	r.json.addDefaults(&w, sc)
	return append(w.dst, '}'), nil
}

// value reads the value of member mc from the element se just started.
func (r *xmlReader) value(dst []byte, mc *memberCodec, se xmlStartTag) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kStruct, kUnit:
		return r.structure(dst, sc, se)
	case kUnion:
		w := objectWriter{dst: append(dst, '{')}
		var unknown []byte
		if err := r.decodeFields(&w, sc, se, &unknown); err != nil {
			return w.dst, err
		}
		if w.n > 1 {
			return w.dst, manyUnionMembers(sc)
		}
		if w.n == 0 {
			w.dst = append(w.dst, unknown...)
		}
		return append(w.dst, '}'), nil
	case kList:
		dst = append(dst, '[')
		n := 0
		err := r.children(func(ce xmlStartTag) error {
			if !isXMLName(ce.name, sc.elem.xml.name) {
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
		err := r.children(func(ce xmlStartTag) error {
			if string(local(ce.name)) != "entry" {
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
func (r *xmlReader) mapEntry(dst []byte, sc *shapeCodec, se xmlStartTag) ([]byte, error) {
	var key string
	var val []byte
	haveKey := false
	err := r.children(func(ce xmlStartTag) error {
		switch string(local(ce.name)) {
		case sc.key.xml.name:
			k, err := r.text()
			key, haveKey = string(k), true
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
func (r *xmlReader) scalar(dst []byte, text []byte, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kString, kEnum:
		return appendString(dst, text), nil
	case kBlob:
		b := bytes.TrimSpace(text)
		if err := checkBase64(b); err != nil {
			return dst, err
		}
		return appendString(dst, b), nil
	}
	t := string(bytes.TrimSpace(text))
	switch sc.kind {
	case kBool:
		if t == "true" || t == "false" {
			return append(dst, t...), nil
		}
		return dst, badValue(fmt.Sprintf("%q is not a boolean", t))
	case kInt, kIntEnum, kBigInt, kFloat, kBigDec:
		return appendNumberText(dst, t, sc, true)
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
	if path[0] != "" && string(local(root.name)) != path[0] {
		return 0, 0, false, nil
	}
	path = path[1:]
	if len(path) == 0 {
		return 0, len(body), true, nil
	}
	for {
		before := r.t.pos
		if err := r.t.next(); err != nil {
			return 0, 0, false, err
		}
		switch r.t.kind {
		case xmlStart:
			if string(local(r.t.name)) != path[0] {
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
				return before, r.t.pos, true, nil
			}
		case xmlEnd, xmlEOF:
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
	err := r.children(func(ce xmlStartTag) error {
		if string(local(ce.name)) == name && !found {
			found = true
			var err error
			b, err := r.text()
			out = string(b)
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
