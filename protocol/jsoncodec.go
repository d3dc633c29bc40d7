package protocol

import (
	"bytes"
	"fmt"
)

// jsonOptions are the JSON body rules of one protocol and client.
type jsonOptions struct {
	// fillDefaults writes the default of every absent member of nested
	// structures (restJson1 clients do; top-level input members never).
	fillDefaults bool
	// epochOutput writes timestamps of decoded values as epoch seconds.
	epochOutput bool
	// bigAsString sends bigInteger and bigDecimal as JSON strings and reads
	// them from strings (rpcv2Json).
	bigAsString bool
	// strict reads values as a server reads a request: timestamps in
	// their format alone (parseStrictTimestamp), booleans in headers,
	// labels and query strings as true or false only; an RPC body without
	// the client's error correction, nothing after its value.
	strict bool
}

// copyScalar copies the values that read the same in the document form and
// on the wire and need no check but their JSON type (strings, enums,
// booleans); done is false for the other kinds.
func copyScalar(dst []byte, s *scanner, mc *memberCodec) (out []byte, done bool, err error) {
	switch mc.target.kind {
	case kString, kEnum:
		quoted := s.peek() == '"'
		raw, _, err := s.rawString()
		if err != nil {
			if quoted {
				return dst, true, badValue(err.Error())
			}
			return dst, true, typeError("a string")
		}
		return append(dst, raw...), true, nil
	case kBool:
		switch {
		case s.peek() == 't' && s.literal("true"):
			return append(dst, "true"...), true, nil
		case s.peek() == 'f' && s.literal("false"):
			return append(dst, "false"...), true, nil
		}
		return dst, true, typeError("a boolean")
	}
	return dst, false, nil
}

// encodeValue transcodes one value from the document form (s) to the wire
// JSON of the protocol, appending to dst. Values are checked against their
// type (typecheck.go); errors carry the member path.
func (o *jsonOptions) encodeValue(dst []byte, s *scanner, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kBigInt, kBigDec:
		if o.bigAsString {
			lit, err := readChecked(s, sc)
			if err != nil {
				return dst, err
			}
			dst = append(dst, '"')
			dst = append(dst, lit...)
			return append(dst, '"'), nil
		}
		return appendNumber(dst, s, sc)
	case kInt, kIntEnum, kFloat:
		return appendNumber(dst, s, sc)
	case kBlob:
		raw, err := readBase64(s)
		if err != nil {
			return dst, err
		}
		return append(dst, raw...), nil
	case kTimestamp:
		t, err := readDocTimestamp(s)
		if err != nil {
			return dst, err
		}
		return appendBodyTimestamp(dst, mc.tsFormat, t), nil
	}
	if out, done, err := copyScalar(dst, s, mc); done {
		return out, err
	}
	if err := checkContainer(s, sc); err != nil {
		return dst, err
	}
	switch sc.kind {
	case kDocument:
		raw, err := s.document()
		return appendCompact(dst, raw), err
	case kList:
		dst = append(dst, '[')
		n := 0
		err := s.array(func(i int) error {
			null, err := nullItem(s, sc)
			if err != nil {
				return inIndex(err, i)
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			if null {
				dst = append(dst, "null"...)
				return nil
			}
			dst, err = o.encodeValue(dst, s, sc.elem)
			return inIndex(err, i)
		})
		return append(dst, ']'), err
	case kMap:
		dst = append(dst, '{')
		n := 0
		err := s.object(func(key []byte) error {
			null, err := nullItem(s, sc)
			if err != nil {
				return inKey(err, key)
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendString(dst, string(key))
			dst = append(dst, ':')
			if null {
				dst = append(dst, "null"...)
				return nil
			}
			dst, err = o.encodeValue(dst, s, sc.elem)
			return inKey(err, key)
		})
		return append(dst, '}'), err
	case kStruct, kUnit:
		return o.encodeStruct(dst, s, sc, true)
	case kUnion:
		return o.encodeUnion(dst, s, sc)
	}
	return dst, badValue("unsupported shape")
}

func appendBodyTimestamp(dst []byte, format string, t timestamp) []byte {
	if format == "" || format == formatEpochSeconds {
		return appendEpoch(dst, t)
	}
	dst = append(dst, '"')
	dst = appendTimestampText(dst, format, t)
	return append(dst, '"')
}

// encodeStruct writes a structure; nested structures get their defaults.
func (o *jsonOptions) encodeStruct(dst []byte, s *scanner, sc *shapeCodec, nested bool) ([]byte, error) {
	dst = append(dst, '{')
	n := 0
	var seen uint64
	var seenMore map[string]bool
	err := s.object(func(key []byte) error {
		mc, err := inputMember(sc, key)
		if err != nil {
			return err
		}
		if s.isNull() {
			if mc.nullable {
				// alloy#nullable: an explicit null is a value.
				if n > 0 {
					dst = append(dst, ',')
				}
				n++
				dst = append(dst, mc.wireKey...)
				dst = append(dst, "null"...)
			}
			return nil
		}
		if i := memberIndex(sc, mc); i < 64 {
			seen |= 1 << i
		} else {
			if seenMore == nil {
				seenMore = map[string]bool{}
			}
			seenMore[mc.name] = true
		}
		if mc == sc.unknown {
			// Unknown fields kept by alloy#jsonUnknown go back at the top level.
			raw, err := s.skip()
			if err != nil {
				return err
			}
			inner := bytes.TrimSpace(raw)
			if len(inner) > 2 {
				if n > 0 {
					dst = append(dst, ',')
				}
				n++
				dst = append(dst, inner[1:len(inner)-1]...)
			}
			return nil
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, mc.wireKey...)
		dst, err = o.encodeValue(dst, s, mc)
		return inMember(err, mc.name)
	})
	if err != nil {
		return dst, err
	}
	if nested && o.fillDefaults {
		for i, mc := range sc.members {
			if !mc.hasDefault || mc.clientOpt {
				continue
			}
			if (i < 64 && seen&(1<<i) != 0) || (i >= 64 && seenMore[mc.name]) {
				continue
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = append(dst, mc.wireKey...)
			ds := scanner{data: mc.defaultDoc}
			if dst, err = o.encodeValue(dst, &ds, mc); err != nil {
				return dst, inMember(err, mc.name)
			}
		}
	}
	return append(dst, '}'), nil
}

func memberIndex(_ *shapeCodec, mc *memberCodec) int { return mc.index }

// decodeList writes the JSON array of a list whose items each reads
// (the JSON scanner's or the CBOR reader's), item decoding one; a null item
// is kept in a sparse list and left out of a dense one.
func decodeList(dst []byte, sc *shapeCodec, each func(func(i int) error) error, isNull func() bool, item func([]byte) ([]byte, error)) ([]byte, error) {
	dst = append(dst, '[')
	n := 0
	err := each(func(i int) error {
		null := isNull()
		if null && !sc.sparse {
			return nil
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		if null {
			dst = append(dst, "null"...)
			return nil
		}
		var err error
		dst, err = item(dst)
		return inIndex(err, i)
	})
	return append(dst, ']'), err
}

// encodeUnion writes a union: tagged (one-member object), discriminated
// (alloy#discriminated: the tag as a property of the member structure) or
// untagged (alloy#untagged: the member value alone).
func (o *jsonOptions) encodeUnion(dst []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	_, err := setMembers(s, sc, func(mc *memberCodec) error {
		if mc == sc.unknown {
			raw, err := s.document()
			dst = append(dst, raw...)
			return err
		}
		switch {
		case sc.untagged:
			var err error
			dst, err = o.encodeValue(dst, s, mc)
			return inMember(err, mc.name)
		case sc.discriminator != "":
			dst = append(dst, '{')
			dst = appendString(dst, sc.discriminator)
			dst = append(dst, ':')
			dst = appendString(dst, mc.wireName)
			mark := len(dst)
			var err error
			dst, err = o.encodeValue(dst, s, mc)
			if err != nil {
				return inMember(err, mc.name)
			}
			body := dst[mark:]
			if len(body) > 2 {
				// {"a":1} becomes ,"a":1} after the tag.
				body[0] = ','
			} else {
				dst = append(dst[:mark], '}')
			}
			return nil
		default:
			dst = append(dst, '{')
			dst = appendString(dst, mc.wireName)
			dst = append(dst, ':')
			var err error
			dst, err = o.encodeValue(dst, s, mc)
			dst = append(dst, '}')
			return inMember(err, mc.name)
		}
	})
	return dst, err
}

// decodeValue transcodes one value from the protocol's wire JSON to the
// document form.
func (o *jsonOptions) decodeValue(dst []byte, s *scanner, mc *memberCodec) ([]byte, error) {
	if o.bigAsString && (mc.target.kind == kBigInt || mc.target.kind == kBigDec) && s.peek() == '"' {
		return appendBigString(dst, s, mc.target)
	}
	sc := mc.target
	switch sc.kind {
	case kInt, kBigInt, kBigDec, kIntEnum, kFloat:
		// Checked as an input is: a typed client must be able to hold it.
		return appendNumber(dst, s, sc)
	case kBlob:
		raw, err := readBase64(s)
		if err != nil {
			return dst, err
		}
		return append(dst, raw...), nil
	}
	if out, done, err := copyScalar(dst, s, mc); done {
		return out, err
	}
	switch sc.kind {
	case kTimestamp:
		var t timestamp
		if o.strict {
			t, err := o.strictTimestamp(s, mc)
			if err != nil {
				return dst, err
			}
			return o.appendDocTimestamp(dst, t), nil
		}
		if s.peek() == '"' {
			v, err := s.str()
			if err != nil {
				return dst, err
			}
			if mc.tsFormat == formatHTTPDate {
				t, err = parseHTTPDate(v)
			} else if t, err = parseDateTime(v); err != nil {
				if t2, err2 := parseHTTPDate(v); err2 == nil {
					t, err = t2, nil
				}
			}
			if err != nil {
				return dst, badValue(err.Error())
			}
		} else {
			lit, err := s.number()
			if err != nil {
				return dst, typeError("a timestamp")
			}
			if t, err = parseEpoch(string(lit)); err != nil {
				return dst, badValue(err.Error())
			}
		}
		return o.appendDocTimestamp(dst, t), nil
	case kDocument:
		raw, err := s.document()
		return appendCompact(dst, raw), err
	case kList:
		isNull := s.isNull
		var nullErr error
		if o.strict && !sc.sparse {
			// A server refuses a null item of a list that is not
			// @sparse; a client leaves it out.
			isNull = func() bool {
				if s.isNull() && nullErr == nil {
					nullErr = badValue("null in a list that is not @sparse")
				}
				return nullErr != nil
			}
		}
		out, err := decodeList(dst, sc, s.array, isNull, func(dst []byte) ([]byte, error) {
			return o.decodeValue(dst, s, sc.elem)
		})
		if err == nil {
			err = nullErr
		}
		return out, err
	case kMap:
		dst = append(dst, '{')
		n := 0
		err := s.object(func(key []byte) error {
			if s.isNull() {
				if o.strict && !sc.sparse {
					return inKey(badValue("null in a map that is not @sparse"), key)
				}
				if sc.sparse {
					if n > 0 {
						dst = append(dst, ',')
					}
					n++
					dst = appendString(dst, string(key))
					dst = append(dst, ":null"...)
				}
				return nil
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendString(dst, string(key))
			dst = append(dst, ':')
			var err error
			dst, err = o.decodeValue(dst, s, sc.elem)
			return inKey(err, key)
		})
		return append(dst, '}'), err
	case kStruct, kUnit:
		return o.decodeStruct(dst, s, sc)
	case kUnion:
		return o.decodeUnion(dst, s, sc)
	}
	return dst, badValue("unsupported shape")
}

func (o *jsonOptions) appendDocTimestamp(dst []byte, t timestamp) []byte {
	if o.epochOutput {
		return appendEpoch(dst, t)
	}
	dst = append(dst, '"')
	dst = appendDateTime(dst, t)
	return append(dst, '"')
}

// memberSet records which members of a structure were seen.
type memberSet struct {
	lo uint64
	hi map[int]bool
}

func (m *memberSet) add(i int) {
	if i < 64 {
		m.lo |= 1 << i
		return
	}
	if m.hi == nil {
		m.hi = map[int]bool{}
	}
	m.hi[i] = true
}

func (m *memberSet) has(i int) bool {
	if i < 64 {
		return m.lo&(1<<i) != 0
	}
	return m.hi[i]
}

// objectWriter writes the fields of one document-form object.
type objectWriter struct {
	dst  []byte
	n    int
	seen memberSet
}

func (w *objectWriter) key(name string) {
	if w.n > 0 {
		w.dst = append(w.dst, ',')
	}
	w.n++
	w.dst = appendString(w.dst, name)
	w.dst = append(w.dst, ':')
}

// member starts a member's field.
func (w *objectWriter) member(mc *memberCodec) {
	if w.n > 0 {
		w.dst = append(w.dst, ',')
	}
	w.n++
	w.dst = append(w.dst, mc.docKey...)
}

// decodeStruct reads a structure and adds the defaults of absent members.
func (o *jsonOptions) decodeStruct(dst []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	w := objectWriter{dst: append(dst, '{')}
	if err := o.decodeFields(&w, s, sc); err != nil {
		return w.dst, err
	}
	o.addDefaults(&w, sc)
	return append(w.dst, '}'), nil
}

// decodeFields reads the members of a structure's JSON object into w.
func (o *jsonOptions) decodeFields(w *objectWriter, s *scanner, sc *shapeCodec) error {
	var unknown []byte
	err := s.object(func(key []byte) error {
		mc, ok := sc.byWire[string(key)]
		if !ok {
			raw, err := s.document()
			if err != nil {
				return err
			}
			if sc.unknown != nil && !bytes.Equal(raw, []byte("null")) {
				if len(unknown) > 0 {
					unknown = append(unknown, ',')
				}
				unknown = appendString(unknown, string(key))
				unknown = append(unknown, ':')
				unknown = append(unknown, raw...)
			}
			return nil
		}
		if s.isNull() {
			if mc.nullable {
				w.key(mc.name)
				w.dst = append(w.dst, "null"...)
			}
			return nil
		}
		w.seen.add(memberIndex(sc, mc))
		w.member(mc)
		var err error
		w.dst, err = o.decodeValue(w.dst, s, mc)
		return inMember(err, mc.name)
	})
	if err != nil {
		return err
	}
	if unknown != nil {
		w.seen.add(memberIndex(sc, sc.unknown))
		w.key(sc.unknown.name)
		w.dst = append(w.dst, '{')
		w.dst = append(w.dst, unknown...)
		w.dst = append(w.dst, '}')
	}
	return nil
}

// addDefaults writes the default of every member not seen.
func (o *jsonOptions) addDefaults(w *objectWriter, sc *shapeCodec) {
	for i, mc := range sc.members {
		if !mc.hasDefault || w.seen.has(i) || mc.streaming {
			continue
		}
		w.member(mc)
		w.dst = append(w.dst, mc.defaultDoc...)
	}
}

// decodeUnion reads a union in any of its three JSON forms.
func (o *jsonOptions) decodeUnion(dst []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	if sc.untagged {
		raw, err := s.skip()
		if err != nil {
			return dst, err
		}
		for _, mc := range sc.members {
			if !fits(raw, mc.target) {
				continue
			}
			sub := scanner{data: raw}
			out, err := o.decodeValue(nil, &sub, mc)
			if err == nil && sub.atEnd() {
				dst = append(dst, '{')
				dst = appendString(dst, mc.name)
				dst = append(dst, ':')
				dst = append(dst, out...)
				return append(dst, '}'), nil
			}
		}
		return dst, fmt.Errorf("union %s: the value matches none of its members", sc.shape.ID)
	}
	if sc.discriminator != "" {
		raw, err := s.document()
		if err != nil {
			return dst, err
		}
		var tag string
		found := false
		sub := scanner{data: raw}
		err = sub.object(func(key []byte) error {
			if string(key) == sc.discriminator && !found {
				found = true
				var err error
				tag, err = sub.str()
				return err
			}
			_, err := sub.skip()
			return err
		})
		if err != nil {
			return dst, err
		}
		mc, ok := sc.byWire[tag]
		if !ok {
			dst = append(dst, '{')
			if sc.unknown != nil {
				dst = appendString(dst, sc.unknown.name)
				dst = append(dst, ':')
				dst = append(dst, raw...)
			} else {
				dst = appendUnknownMember(dst, []byte(tag), raw)
			}
			return append(dst, '}'), nil
		}
		dst = append(dst, '{')
		dst = appendString(dst, mc.name)
		dst = append(dst, ':')
		sub = scanner{data: raw}
		dst, err = o.decodeValue(dst, &sub, mc)
		return append(dst, '}'), inMember(err, mc.name)
	}
	start := s.pos
	dst = append(dst, '{')
	n := 0
	var unkName, unkValue []byte // the first member the model does not know
	err := s.object(func(key []byte) error {
		mc, ok := sc.byWire[string(key)]
		if !ok && o.strict && sc.unknown == nil && string(key) != "__type" {
			return badValue(fmt.Sprintf("union %s has no member %q", sc.shape.ID, key))
		}
		if !ok {
			raw, err := s.document()
			if err == nil && unkName == nil && keepUnknown(key, raw) {
				unkName, unkValue = bytes.Clone(key), raw
			}
			return err
		}
		if s.isNull() {
			return nil
		}
		if err := oneUnionMember(&n, sc); err != nil {
			return err
		}
		dst = appendString(dst, mc.name)
		dst = append(dst, ':')
		var err error
		dst, err = o.decodeValue(dst, s, mc)
		return inMember(err, mc.name)
	})
	if err != nil {
		return dst, err
	}
	switch {
	case n == 0 && o.strict && sc.unknown == nil:
		return dst, badValue(fmt.Sprintf("union %s: no member is set", sc.shape.ID))
	case n == 0 && sc.unknown != nil:
		dst = appendString(dst, sc.unknown.name)
		dst = append(dst, ':')
		dst = append(dst, bytes.TrimSpace(s.data[start:s.pos])...)
	case n == 0 && unkName != nil:
		dst = appendUnknownMember(dst, unkName, unkValue)
	}
	return append(dst, '}'), nil
}

// fits reports whether a JSON value can be a value of sc, for untagged
// unions: the JSON type must match, and an object must have only known
// members and every required one.
func fits(raw []byte, sc *shapeCodec) bool {
	if sc.kind == kDocument {
		return true
	}
	s := scanner{data: raw}
	switch c := s.peek(); {
	case c == '"':
		return sc.kind == kString || sc.kind == kEnum || sc.kind == kBlob || sc.kind == kTimestamp || sc.kind == kFloat
	case c == 't' || c == 'f':
		return sc.kind == kBool
	case c == '-' || (c >= '0' && c <= '9'):
		switch sc.kind {
		case kInt, kBigInt, kFloat, kBigDec, kIntEnum, kTimestamp:
			return true
		}
		return false
	case c == '[':
		return sc.kind == kList
	case c == '{':
		switch sc.kind {
		case kMap, kUnion:
			return true
		case kStruct:
			var seen memberSet
			ok := true
			err := s.object(func(key []byte) error {
				mc, found := sc.byWire[string(key)]
				if !found {
					ok = false
				} else {
					seen.add(mc.index)
				}
				_, err := s.skip()
				return err
			})
			if err != nil || !ok {
				return false
			}
			for i, mc := range sc.members {
				if mc.required && !mc.hasDefault && !seen.has(i) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// appendCompact appends a valid JSON value without its insignificant
// whitespace, so that documents read the same whatever the peer's layout.
func appendCompact(dst, raw []byte) []byte {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString:
			dst = append(dst, c)
			if c == '\\' && i+1 < len(raw) {
				i++
				dst = append(dst, raw[i])
			} else if c == '"' {
				inString = false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			dst = append(dst, c)
			inString = c == '"'
		}
	}
	return dst
}

// appendBigString reads a bigInteger or bigDecimal sent as a JSON string
// (rpcv2Json) and writes it as a number: the string must hold a JSON number,
// without a fraction or an exponent for a bigInteger.
func appendBigString(dst []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	v, err := s.strBytes()
	if err != nil {
		return dst, err
	}
	sub := scanner{data: v}
	lit, err := sub.number()
	if err != nil || len(lit) != len(v) || (sc.kind == kBigInt && !plainInt(lit)) {
		if sc.kind == kBigInt {
			return dst, badValue(fmt.Sprintf("%q is not a bigInteger", v))
		}
		return dst, badValue(fmt.Sprintf("%q is not a bigDecimal", v))
	}
	if lit, err = checkNumber(lit, sc); err != nil {
		return dst, err
	}
	return append(dst, lit...), nil
}
