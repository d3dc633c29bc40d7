package protocol

import "fmt"

// xmlEncoder writes document-form values as XML elements with the XML
// binding traits: @xmlName, @xmlAttribute, @xmlFlattened, @xmlNamespace;
// lists are wrapped in the member's element (items named by the list
// member, "member" by default) unless flattened, maps are <entry> elements
// of <key> and <value> unless flattened.
type xmlEncoder struct{}

// appendXMLEscaped appends s escaped for text (attr false) or a
// double-quoted attribute value.
func appendXMLEscaped(dst []byte, s string, attr bool) []byte {
	return appendXMLEscapedBytes(dst, []byte(s), attr)
}

func appendXMLEscapedBytes(dst, s []byte, attr bool) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			if attr {
				esc = "&quot;"
			}
		case '\r':
			esc = "&#xD;"
		case '\n':
			if attr {
				esc = "&#xA;"
			}
		case '\t':
			if attr {
				esc = "&#x9;"
			}
		}
		if esc == "" {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, esc...)
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// appendXMLScalar appends the text of a document-form scalar, escaped,
// checked against its type as scalarText does, without building strings
// for the common kinds.
func appendXMLScalar(dst []byte, s *scanner, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kString, kEnum, kBlob:
		raw, esc, err := s.rawString()
		if err != nil {
			if sc.kind == kBlob {
				return dst, typeError("a base64 string")
			}
			return dst, typeError("a string")
		}
		b := raw[1 : len(raw)-1]
		if esc {
			v, err := unescape(b)
			if err != nil {
				return dst, err
			}
			b = []byte(v)
		}
		if sc.kind == kBlob {
			if err := checkBase64(b); err != nil {
				return dst, err
			}
		}
		return appendXMLEscapedBytes(dst, b, false), nil
	case kInt, kBigInt, kBigDec, kIntEnum:
		lit, err := readChecked(s, sc)
		return append(dst, lit...), err
	case kTimestamp:
		t, err := readDocTimestamp(s)
		if err != nil {
			return dst, err
		}
		return appendTimestampText(dst, orDefault(mc.tsFormat, formatDateTime), t), nil
	}
	raw, err := s.skip()
	if err != nil {
		return dst, err
	}
	text, err := scalarText(raw, mc, formatDateTime)
	if err != nil {
		return dst, err
	}
	return appendXMLEscaped(dst, text, false), nil
}

// openTag appends "<name" and the namespace declaration, without '>'.
func openTag(dst []byte, name string, ns *xmlNS) []byte {
	dst = append(dst, '<')
	dst = append(dst, name...)
	if ns != nil {
		dst = append(dst, " xmlns"...)
		if ns.prefix != "" {
			dst = append(dst, ':')
			dst = append(dst, ns.prefix...)
		}
		dst = append(dst, `="`...)
		dst = appendXMLEscaped(dst, ns.uri, true)
		dst = append(dst, '"')
	}
	return dst
}

func closeTag(dst []byte, name string) []byte {
	dst = append(dst, "</"...)
	dst = append(dst, name...)
	return append(dst, '>')
}

// structVals splits a document-form object into the raw values of the
// members of sc (nil when absent or null).
func structVals(s *scanner, sc *shapeCodec) ([][]byte, error) {
	if s.peek() != '{' {
		return nil, typeError("an object")
	}
	vals := make([][]byte, len(sc.members))
	count := 0
	err := s.object(func(k []byte) error {
		mc, err := inputMember(sc, k)
		if err != nil {
			return err
		}
		raw, err := s.skip()
		if err != nil {
			return err
		}
		if string(raw) != "null" {
			vals[mc.index] = raw
			count++
		}
		return nil
	})
	if err == nil && sc.kind == kUnion && count != 1 {
		err = fmt.Errorf("union %s: exactly one member must be set", sc.shape.ID)
	}
	return vals, err
}

// structure writes <name> with the members of sc given by vals.
func (e xmlEncoder) structure(dst []byte, name string, ns *xmlNS, sc *shapeCodec, vals [][]byte) ([]byte, error) {
	dst = openTag(dst, name, ns)
	for i, mc := range sc.members {
		if vals[i] == nil || !mc.xml.attribute {
			continue
		}
		text, err := scalarText(vals[i], mc, formatDateTime)
		if err != nil {
			return dst, inMember(err, mc.name)
		}
		dst = append(dst, ' ')
		dst = append(dst, mc.xml.name...)
		dst = append(dst, `="`...)
		dst = appendXMLEscaped(dst, text, true)
		dst = append(dst, '"')
	}
	dst = append(dst, '>')
	for i, mc := range sc.members {
		if vals[i] == nil || mc.xml.attribute {
			continue
		}
		var err error
		if dst, err = e.member(dst, vals[i], mc); err != nil {
			return dst, inMember(err, mc.name)
		}
	}
	return closeTag(dst, name), nil
}

// member writes one structure member: flattened lists and maps as repeated
// elements, anything else as one element.
func (e xmlEncoder) member(dst, raw []byte, mc *memberCodec) ([]byte, error) {
	s := scanner{data: raw}
	sc := mc.target
	if mc.xml.flattened && sc.kind == kList {
		if s.peek() != '[' {
			return dst, typeError("an array")
		}
		err := s.array(func(i int) error {
			if null, err := nullItem(&s, sc); null || err != nil {
				return inIndex(err, i)
			}
			var err error
			dst, err = e.value(dst, mc.xml.name, mc.xml.ns, &s, sc.elem)
			return inIndex(err, i)
		})
		return dst, err
	}
	if mc.xml.flattened && sc.kind == kMap {
		if s.peek() != '{' {
			return dst, typeError("an object")
		}
		err := s.object(func(k []byte) error {
			if null, err := nullItem(&s, sc); null || err != nil {
				return inKey(err, k)
			}
			dst = append(openTag(dst, mc.xml.name, mc.xml.ns), '>')
			var err error
			dst, err = e.entry(dst, k, &s, sc)
			dst = closeTag(dst, mc.xml.name)
			return inKey(err, k)
		})
		return dst, err
	}
	return e.value(dst, mc.xml.name, mc.xml.ns, &s, mc)
}

// entry writes the key and value elements of a map entry.
func (e xmlEncoder) entry(dst, key []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	dst = append(openTag(dst, sc.key.xml.name, sc.key.xml.ns), '>')
	dst = appendXMLEscapedBytes(dst, key, false)
	dst = closeTag(dst, sc.key.xml.name)
	return e.value(dst, sc.elem.xml.name, sc.elem.xml.ns, s, sc.elem)
}

// value writes the value of mc as the element <name>.
func (e xmlEncoder) value(dst []byte, name string, ns *xmlNS, s *scanner, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kStruct, kUnion, kUnit:
		vals, err := structVals(s, sc)
		if err != nil {
			return dst, err
		}
		return e.structure(dst, name, ns, sc, vals)
	case kList:
		if s.peek() != '[' {
			return dst, typeError("an array")
		}
		dst = append(openTag(dst, name, ns), '>')
		err := s.array(func(i int) error {
			if null, err := nullItem(s, sc); null || err != nil {
				return inIndex(err, i)
			}
			var err error
			dst, err = e.value(dst, sc.elem.xml.name, sc.elem.xml.ns, s, sc.elem)
			return inIndex(err, i)
		})
		return closeTag(dst, name), err
	case kMap:
		if s.peek() != '{' {
			return dst, typeError("an object")
		}
		dst = append(openTag(dst, name, ns), '>')
		err := s.object(func(k []byte) error {
			if null, err := nullItem(s, sc); null || err != nil {
				return inKey(err, k)
			}
			dst = append(dst, "<entry>"...)
			var err error
			dst, err = e.entry(dst, k, s, sc)
			dst = append(dst, "</entry>"...)
			return inKey(err, k)
		})
		return closeTag(dst, name), err
	case kDocument:
		return dst, badValue("documents cannot be sent in XML")
	}
	dst = append(openTag(dst, name, ns), '>')
	dst, err := appendXMLScalar(dst, s, mc)
	if err != nil {
		return dst, err
	}
	return closeTag(dst, name), nil
}
