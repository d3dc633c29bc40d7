package protocol

import "fmt"

// Scalars as text, for labels, query values and headers.

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// scalarText renders a document-form scalar as text for a label, query
// value or header; defFormat is the timestamp format of the location. Errors
// name the member (memberText) or leave the path to the caller.
func scalarText(raw []byte, mc *memberCodec, defFormat string) (string, error) {
	s := scanner{data: raw}
	switch mc.target.kind {
	case kString, kEnum:
		v, err := s.str()
		if err != nil {
			return "", typeError("a string")
		}
		return v, nil
	case kTimestamp:
		t, err := readDocTimestamp(&s)
		if err != nil {
			return "", err
		}
		return string(appendTimestampText(nil, orDefault(mc.tsFormat, defFormat), t)), nil
	case kBool:
		if s.literal("true") {
			return "true", nil
		}
		if s.literal("false") {
			return "false", nil
		}
		return "", typeError("a boolean")
	case kBlob, kFloat, kInt, kBigInt, kBigDec, kIntEnum:
		// Checked and written as in a JSON body, without the quotes.
		var o jsonOptions
		out, err := o.encodeValue(nil, &s, mc)
		if err != nil {
			return "", err
		}
		if len(out) > 0 && out[0] == '"' {
			v := scanner{data: out}
			return v.str()
		}
		return string(out), nil
	}
	return "", badValue(fmt.Sprintf("a %s cannot be sent in a label, query or header", kindName(mc.target)))
}

// readText reads the next value of s, a scalar of mc, as scalarText
// renders it.
func readText(s *scanner, mc *memberCodec, defFormat string) (string, error) {
	raw, err := s.skip()
	if err != nil {
		return "", err
	}
	return scalarText(raw, mc, defFormat)
}

// memberText is scalarText for a member of the input structure.
func memberText(raw []byte, mc *memberCodec, defFormat string) (string, error) {
	text, err := scalarText(raw, mc, defFormat)
	return text, inMember(err, mc.name)
}

func kindName(sc *shapeCodec) string {
	if sc.shape != nil {
		return string(sc.shape.Type)
	}
	return "value"
}

// listTexts renders the list of scalars of member mc.
func listTexts(raw []byte, mc *memberCodec, defFormat string) ([]string, error) {
	var out []string
	s := scanner{data: raw}
	if s.peek() != '[' {
		return nil, inMember(typeError("a list"), mc.name)
	}
	err := s.array(func(i int) error {
		if null, err := nullItem(&s, mc.target); null || err != nil {
			return inIndex(err, i)
		}
		v, err := s.skip()
		if err != nil {
			return err
		}
		t, err := scalarText(v, mc.target.elem, defFormat)
		out = append(out, t)
		return inIndex(err, i)
	})
	if out == nil {
		out = []string{}
	}
	return out, inMember(err, mc.name)
}
