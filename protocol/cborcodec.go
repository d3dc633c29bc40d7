package protocol

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/smithycurl/smithycurl/internal/b64"
	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// The rpcv2Cbor transcoder: document-form JSON to CBOR and back in one pass
// each way, driven by the compiled shapes (no intermediate tree). Input
// values get the same type checks as the JSON protocols (typecheck.go).

// encodeCBORInput writes the top-level input members as a CBOR map.
func (o *jsonOptions) encodeCBORInput(in *shapeCodec, vals [][]byte) ([]byte, error) {
	size := 16
	for _, v := range vals {
		size += len(v) + 8
	}
	dst, mark := cbor.StartContainer(make([]byte, 0, size))
	n := 0
	for i, mc := range in.members {
		raw := vals[i]
		if raw == nil {
			continue
		}
		n++
		dst = cbor.AppendText(dst, mc.wireName)
		s := scanner{data: raw}
		var err error
		if dst, err = o.encodeCBORValue(dst, &s, mc); err != nil {
			return nil, inMember(err, mc.name)
		}
	}
	return cbor.EndContainer(dst, mark, cbor.MajorMap, n), nil
}

// encodeCBORValue transcodes one document-form value (s) to CBOR.
func (o *jsonOptions) encodeCBORValue(dst []byte, s *scanner, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kString, kEnum:
		v, err := s.strBytes()
		if err != nil {
			return dst, typeError("a string")
		}
		return cbor.AppendTextBytes(dst, v), nil
	case kBool:
		switch {
		case s.peek() == 't' && s.literal("true"):
			return cbor.AppendBool(dst, true), nil
		case s.peek() == 'f' && s.literal("false"):
			return cbor.AppendBool(dst, false), nil
		}
		return dst, typeError("a boolean")
	case kBlob:
		text, err := s.strBytes()
		if err != nil {
			return dst, typeError("a base64 string")
		}
		// Padded standard base64: the length is known before decoding in
		// place (the fast decoder says whether it is that).
		size := len(text) / 4 * 3
		for k := len(text) - 1; k >= 0 && k >= len(text)-2 && text[k] == '='; k-- {
			size--
		}
		if out, ok := b64.AppendDecode(cbor.AppendHead(dst, cbor.MajorBytes, uint64(size)), text); ok {
			return out, nil
		}
		if err := checkBase64(text); err != nil {
			return dst, err
		}
		dec, err := base64.StdEncoding.AppendDecode(nil, text)
		if err != nil {
			return dst, badValue("invalid base64")
		}
		dst = cbor.AppendHead(dst, cbor.MajorBytes, uint64(len(dec)))
		return append(dst, dec...), nil
	case kInt, kIntEnum, kBigInt, kBigDec:
		lit, err := readChecked(s, sc)
		if err != nil {
			return dst, err
		}
		switch sc.kind {
		case kBigInt:
			v, ok := new(big.Int).SetString(string(lit), 10)
			if !ok {
				return dst, badValue("invalid bigInteger")
			}
			return cbor.AppendBignum(dst, v), nil
		case kBigDec:
			mant, exp, err := decimalParts(lit)
			if err != nil {
				return dst, err
			}
			return cbor.AppendDecimal(dst, mant, exp), nil
		}
		v, err := strconv.ParseInt(string(lit), 10, 64)
		if err != nil {
			return dst, badValue(fmt.Sprintf("%s is not a whole number", lit))
		}
		return cbor.AppendInt(dst, v), nil
	case kFloat:
		var f float64
		if s.peek() == '"' {
			v, err := specialFloat(s)
			switch {
			case err != nil:
				return dst, err
			case v == "NaN":
				f = math.NaN()
			case v == "Infinity":
				f = math.Inf(1)
			default:
				f = math.Inf(-1)
			}
		} else {
			lit, err := readChecked(s, sc)
			if err != nil {
				return dst, err
			}
			f, _ = strconv.ParseFloat(string(lit), sc.bits)
		}
		if sc.bits == 32 || float64(float32(f)) == f || math.IsNaN(f) {
			return cbor.AppendFloat32(dst, float32(f)), nil
		}
		return cbor.AppendFloat64(dst, f), nil
	case kTimestamp:
		t, err := readDocTimestamp(s)
		if err != nil {
			return dst, err
		}
		return appendCBORTimestamp(dst, t), nil
	case kDocument:
		return encodeCBORDocument(dst, s, 0)
	}
	if err := checkContainer(s, sc); err != nil {
		return dst, err
	}
	switch sc.kind {
	case kList:
		dst, mark := cbor.StartContainer(dst)
		n := 0
		err := s.array(func(i int) error {
			null, err := nullItem(s, sc)
			if err != nil {
				return inIndex(err, i)
			}
			n++
			if null {
				dst = cbor.AppendNull(dst)
				return nil
			}
			dst, err = o.encodeCBORValue(dst, s, sc.elem)
			return inIndex(err, i)
		})
		return cbor.EndContainer(dst, mark, cbor.MajorArray, n), err
	case kMap:
		dst, mark := cbor.StartContainer(dst)
		n := 0
		err := s.object(func(key []byte) error {
			null, err := nullItem(s, sc)
			if err != nil {
				return inKey(err, key)
			}
			n++
			dst = cbor.AppendTextBytes(dst, key)
			if null {
				dst = cbor.AppendNull(dst)
				return nil
			}
			dst, err = o.encodeCBORValue(dst, s, sc.elem)
			return inKey(err, key)
		})
		return cbor.EndContainer(dst, mark, cbor.MajorMap, n), err
	case kStruct, kUnit:
		return o.encodeCBORStruct(dst, s, sc)
	case kUnion:
		dst, mark := cbor.StartContainer(dst)
		count, err := setMembers(s, sc, func(mc *memberCodec) error {
			var err error
			dst = cbor.AppendText(dst, mc.wireName)
			dst, err = o.encodeCBORValue(dst, s, mc)
			return inMember(err, mc.name)
		})
		return cbor.EndContainer(dst, mark, cbor.MajorMap, count), err
	}
	return dst, badValue("unsupported shape")
}

// encodeCBORStruct writes a structure; absent members with a default get
// it when the options say so (nested structures only; top-level members
// are written by encodeCBORInput).
func (o *jsonOptions) encodeCBORStruct(dst []byte, s *scanner, sc *shapeCodec) ([]byte, error) {
	dst, mark := cbor.StartContainer(dst)
	var seen memberSet
	n, err := setMembers(s, sc, func(mc *memberCodec) error {
		var err error
		seen.add(mc.index)
		dst = cbor.AppendText(dst, mc.wireName)
		dst, err = o.encodeCBORValue(dst, s, mc)
		return inMember(err, mc.name)
	})
	if err != nil {
		return dst, err
	}
	if o.fillDefaults {
		for i, mc := range sc.members {
			if !mc.hasDefault || mc.clientOpt || seen.has(i) {
				continue
			}
			n++
			dst = cbor.AppendText(dst, mc.wireName)
			ds := scanner{data: mc.defaultDoc}
			if dst, err = o.encodeCBORValue(dst, &ds, mc); err != nil {
				return dst, inMember(err, mc.name)
			}
		}
	}
	return cbor.EndContainer(dst, mark, cbor.MajorMap, n), nil
}

// appendCBORTimestamp writes tag 1 with whole epoch seconds as an integer,
// else as a double.
func appendCBORTimestamp(dst []byte, t timestamp) []byte {
	dst = cbor.AppendHead(dst, cbor.MajorTag, cbor.TagEpoch)
	if t.nsec == 0 {
		return cbor.AppendInt(dst, t.sec)
	}
	var buf [40]byte
	f, _ := strconv.ParseFloat(string(appendEpoch(buf[:0], t)), 64)
	return cbor.AppendFloat64(dst, f)
}

// decimalParts splits a JSON number into a mantissa and a power of ten.
func decimalParts(lit []byte) (*big.Int, int64, error) {
	var digits []byte
	var exp int64
	i := 0
	if i < len(lit) && lit[i] == '-' {
		digits = append(digits, '-')
		i++
	}
	for ; i < len(lit) && lit[i] >= '0' && lit[i] <= '9'; i++ {
		digits = append(digits, lit[i])
	}
	if i < len(lit) && lit[i] == '.' {
		for i++; i < len(lit) && lit[i] >= '0' && lit[i] <= '9'; i++ {
			digits = append(digits, lit[i])
			exp--
		}
	}
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		e, err := strconv.ParseInt(string(lit[i+1:]), 10, 32)
		if err != nil {
			return nil, 0, badValue(fmt.Sprintf("bigDecimal %s: exponent out of range", lit))
		}
		exp += e
	}
	v, ok := new(big.Int).SetString(string(digits), 10)
	if !ok {
		return nil, 0, badValue(fmt.Sprintf("invalid bigDecimal %s", lit))
	}
	return v, exp, nil
}

// encodeCBORDocument writes any JSON value as CBOR: whole numbers that fit
// 64 bits as integers, other numbers as doubles (bignums past 64 bits).
func encodeCBORDocument(dst []byte, s *scanner, depth int) ([]byte, error) {
	if depth > cbor.MaxDepth {
		return dst, badValue("document nested too deep")
	}
	switch c := s.peek(); {
	case c == '{':
		dst, mark := cbor.StartContainer(dst)
		n := 0
		err := s.object(func(key []byte) error {
			n++
			dst = cbor.AppendTextBytes(dst, key)
			var err error
			dst, err = encodeCBORDocument(dst, s, depth+1)
			return inKey(err, key)
		})
		return cbor.EndContainer(dst, mark, cbor.MajorMap, n), err
	case c == '[':
		dst, mark := cbor.StartContainer(dst)
		n := 0
		err := s.array(func(i int) error {
			n++
			var err error
			dst, err = encodeCBORDocument(dst, s, depth+1)
			return inIndex(err, i)
		})
		return cbor.EndContainer(dst, mark, cbor.MajorArray, n), err
	case c == '"':
		v, err := s.strBytes()
		return cbor.AppendTextBytes(dst, v), err
	case c == 't' && s.literal("true"):
		return cbor.AppendBool(dst, true), nil
	case c == 'f' && s.literal("false"):
		return cbor.AppendBool(dst, false), nil
	case c == 'n' && s.literal("null"):
		return cbor.AppendNull(dst), nil
	}
	lit, err := readNumber(s)
	if err != nil {
		return dst, err
	}
	if plainInt(lit) {
		if v, ok := new(big.Int).SetString(string(lit), 10); ok {
			return cbor.AppendBigInt(dst, v), nil
		}
	}
	f, _ := strconv.ParseFloat(string(lit), 64)
	return cbor.AppendFloat64(dst, f), nil
}

// cborError turns a reader error into a value error, so that the member
// path is added as it goes up.
func cborError(err error) error {
	if err == nil {
		return nil
	}
	var ve *valueError
	if errors.As(err, &ve) {
		return err
	}
	var te *cbor.TypeError
	if errors.As(err, &te) {
		return badValue(fmt.Sprintf("expected %s, got %s (byte %d)", te.Want, te.Got, te.Offset))
	}
	return badValue(err.Error())
}

// decodeCBORValue transcodes one CBOR value to the document form.
func (o *jsonOptions) decodeCBORValue(dst []byte, r *cbor.Reader, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kString, kEnum:
		b, err := r.Text()
		if err != nil {
			return dst, cborError(err)
		}
		return jsonstr.Append(dst, b), nil
	case kBlob:
		b, err := r.Bytes()
		if err != nil {
			return dst, cborError(err)
		}
		dst = append(dst, '"')
		dst = b64.AppendEncode(dst, b)
		return append(dst, '"'), nil
	case kBool:
		v, err := r.Bool()
		if err != nil {
			return dst, cborError(err)
		}
		return strconv.AppendBool(dst, v), nil
	case kInt, kIntEnum, kBigInt, kBigDec, kFloat:
		n, err := r.Number()
		if err != nil {
			return dst, cborError(err)
		}
		return appendCBORNumber(dst, n, sc)
	case kTimestamp:
		if _, _, err := r.Tag(); err != nil {
			return dst, cborError(err)
		}
		n, err := r.Number()
		if err != nil {
			return dst, cborError(err)
		}
		var t timestamp
		switch {
		case n.Kind == cbor.NumInt:
			sec, ok := n.Int64()
			if !ok || sec < minEpoch || sec > maxEpoch {
				return dst, badValue(rangeError(string(cbor.AppendNumber(nil, n))).Error())
			}
			t = timestamp{sec: sec}
		case n.Kind == cbor.NumFloat && !math.IsNaN(n.F) && !math.IsInf(n.F, 0):
			t, err = parseEpoch(strconv.FormatFloat(n.F, 'f', -1, 64))
		default:
			return dst, badValue("a timestamp must be an integer or a finite float")
		}
		if err != nil {
			return dst, badValue(err.Error())
		}
		return o.appendDocTimestamp(dst, t), nil
	case kDocument:
		out, err := r.AppendJSON(dst)
		return out, cborError(err)
	case kList:
		out, err := decodeList(dst, sc, r.Array, r.IsNull, func(dst []byte) ([]byte, error) {
			return o.decodeCBORValue(dst, r, sc.elem)
		})
		return out, cborError(err)
	case kMap:
		dst = append(dst, '{')
		n := 0
		var keys keySet
		err := r.Map(func(key []byte) error {
			if !keys.add(key) {
				return inKey(badValue("duplicate map key"), key)
			}
			if r.IsNull() {
				if sc.sparse {
					if n > 0 {
						dst = append(dst, ',')
					}
					n++
					dst = jsonstr.Append(dst, key)
					dst = append(dst, ":null"...)
				}
				return nil
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = jsonstr.Append(dst, key)
			dst = append(dst, ':')
			var err error
			dst, err = o.decodeCBORValue(dst, r, sc.elem)
			return inKey(err, key)
		})
		return append(dst, '}'), cborError(err)
	case kStruct, kUnit:
		w := objectWriter{dst: append(dst, '{')}
		if err := o.decodeCBORFields(&w, r, sc); err != nil {
			return w.dst, err
		}
		o.addDefaults(&w, sc)
		return append(w.dst, '}'), nil
	case kUnion:
		dst = append(dst, '{')
		n := 0
		var unknown []byte // the first member the model does not know
		err := r.Map(func(key []byte) error {
			mc, ok := sc.byWire[string(key)]
			if !ok {
				// Kept as its JSON rendering (byte strings as base64).
				value, err := r.AppendJSON(nil)
				if err == nil && unknown == nil && keepUnknown(key, value) {
					unknown = appendUnknownMember(nil, key, value)
				}
				return err
			}
			if r.IsNull() {
				return nil
			}
			if err := oneUnionMember(&n, sc); err != nil {
				return err
			}
			dst = append(dst, mc.docKey...)
			var err error
			dst, err = o.decodeCBORValue(dst, r, mc)
			return inMember(err, mc.name)
		})
		if n == 0 && err == nil {
			dst = append(dst, unknown...)
		}
		return append(dst, '}'), cborError(err)
	}
	return dst, badValue("unsupported shape")
}

// decodeCBORFields reads the members of a structure's CBOR map into w;
// unknown members are skipped, a member sent twice is an error.
func (o *jsonOptions) decodeCBORFields(w *objectWriter, r *cbor.Reader, sc *shapeCodec) error {
	err := r.Map(func(key []byte) error {
		mc, ok := sc.byWire[string(key)]
		if !ok {
			return r.Skip()
		}
		if w.seen.has(mc.index) {
			return inMember(badValue("member sent twice"), mc.name)
		}
		if r.IsNull() {
			return nil
		}
		w.seen.add(mc.index)
		w.member(mc)
		var err error
		w.dst, err = o.decodeCBORValue(w.dst, r, mc)
		return inMember(err, mc.name)
	})
	return cborError(err)
}

// appendCBORNumber writes a CBOR number as a value of the numeric shape sc,
// checking that it fits.
func appendCBORNumber(dst []byte, n cbor.Number, sc *shapeCodec) ([]byte, error) {
	if n.Kind == cbor.NumFloat && (math.IsNaN(n.F) || math.IsInf(n.F, 0)) {
		if sc.kind != kFloat {
			return dst, badValue(fmt.Sprintf("%s is not a number (%s)", cbor.AppendNumber(nil, n), kindName(sc)))
		}
		return cbor.AppendNumber(dst, n), nil
	}
	if sc.kind == kBigInt && n.Kind != cbor.NumInt && n.Kind != cbor.NumBig {
		return dst, typeError("an integer")
	}
	// Checked as a JSON number is (checkNumber): the same rules and words
	// as every other protocol.
	n64 := n
	n64.Bits = 64
	lit, err := checkNumber(cbor.AppendNumber(nil, n64), sc)
	if err != nil {
		return dst, err
	}
	if sc.kind == kFloat {
		// A float is written at the width of its Smithy type: a half
		// received for a double keeps every digit of its value.
		n.Bits = sc.bits
		return cbor.AppendNumber(dst, n), nil
	}
	return append(dst, lit...), nil
}

// keySet finds duplicate map keys: a scan of the first few (most maps are
// small), a map past them.
type keySet struct {
	small [8][]byte
	n     int
	more  map[string]struct{}
}

// add records key and reports whether it is new.
func (k *keySet) add(key []byte) bool {
	for _, s := range k.small[:k.n] {
		if string(s) == string(key) {
			return false
		}
	}
	if k.n < len(k.small) {
		k.small[k.n] = key
		k.n++
		return true
	}
	if k.more == nil {
		k.more = map[string]struct{}{}
	}
	if _, dup := k.more[string(key)]; dup {
		return false
	}
	k.more[string(key)] = struct{}{}
	return true
}
