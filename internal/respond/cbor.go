package respond

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// RPCv2CBOR renders smithy.protocols#rpcv2Cbor responses: the output as a
// CBOR map keyed by member names, timestamps as epoch seconds (tag 1),
// blobs as byte strings, bigInteger as an integer or a bignum (tags 2, 3),
// bigDecimal as a decimal fraction (tag 4), float as single precision,
// errors named by __type (the shape id), with Smithy-Protocol:
// rpc-v2-cbor; absent members with a @default are sent with it, a Unit
// output has neither body nor Content-Type.
type RPCv2CBOR struct{}

func (p RPCv2CBOR) RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error) {
	resp, err := p.render(View{m}, op.Output, out, 200, "")
	if err == nil && unitOutput(op) {
		resp.Body = nil
		resp.Header.Del("Content-Type")
	}
	return resp, err
}

func (p RPCv2CBOR) RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error) {
	return p.render(View{m}, e, members, ErrorStatus(e), string(e.ID))
}

func (p RPCv2CBOR) render(v View, s *model.Shape, out map[string]any, status int, errType string) (*wire.Response, error) {
	body, mark := cbor.StartContainer(nil)
	n := 0
	if errType != "" {
		body = cbor.AppendText(cbor.AppendText(body, "__type"), errType)
		n++
	}
	body, k, err := cborMembers(body, v, s, out)
	if err != nil {
		return nil, err
	}
	body = cbor.EndContainer(body, mark, cbor.MajorMap, n+k)
	h := wire.Header{}
	h.Set("Content-Type", "application/cbor")
	h.Set("Smithy-Protocol", "rpc-v2-cbor")
	return &wire.Response{Status: status, Header: h, Body: body}, nil
}

// cborMembers appends the members of structure s set in val, and the
// defaults of those absent, returning how many it wrote.
func cborMembers(dst []byte, v View, s *model.Shape, val map[string]any) ([]byte, int, error) {
	n := 0
	for _, mem := range s.Members {
		it, ok := val[mem.Name()]
		if !ok {
			it, ok = defaultValue(mem)
		}
		if !ok || it == nil {
			continue
		}
		dst = cbor.AppendText(dst, mem.Name())
		var err error
		if dst, err = cborValue(dst, v, mem, it); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", mem.Name(), err)
		}
		n++
	}
	return dst, n, nil
}

// cborValue appends val, a document-form value of mem's target.
func cborValue(dst []byte, v View, mem *model.Member, val any) ([]byte, error) {
	if val == nil {
		return cbor.AppendNull(dst), nil
	}
	s := v.Target(mem)
	switch t := TypeOf(s); t {
	case model.StructureType:
		m, _ := val.(map[string]any)
		dst, mark := cbor.StartContainer(dst)
		dst, n, err := cborMembers(dst, v, s, m)
		if err != nil {
			return nil, err
		}
		return cbor.EndContainer(dst, mark, cbor.MajorMap, n), nil
	case model.UnionType:
		m, _ := val.(map[string]any)
		dst = cbor.AppendHead(dst, cbor.MajorMap, 1)
		for name, it := range m {
			if u, ok := it.([]any); ok && name == UnknownMember && len(u) == 2 {
				return cborDocument(cbor.AppendText(dst, fmt.Sprint(u[0])), u[1])
			}
			um, ok := s.Member(name)
			if !ok {
				return nil, fmt.Errorf("union %s has no member %q", s.ID, name)
			}
			return cborValue(cbor.AppendText(dst, name), v, um, it)
		}
		return nil, fmt.Errorf("union %s: no member set", s.ID)
	case model.ListType:
		items, _ := val.([]any)
		dst = cbor.AppendHead(dst, cbor.MajorArray, uint64(len(items)))
		for _, it := range items {
			var err error
			if dst, err = cborValue(dst, v, Elem(s, "member"), it); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case model.MapType:
		m, _ := val.(map[string]any)
		dst = cbor.AppendHead(dst, cbor.MajorMap, uint64(len(m)))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			var err error
			if dst, err = cborValue(cbor.AppendText(dst, k), v, Elem(s, "value"), m[k]); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case model.TimestampType:
		in, err := DocInstant(val)
		if err != nil {
			return nil, err
		}
		dst = cbor.AppendHead(dst, cbor.MajorTag, cbor.TagEpoch)
		if in.nsec == 0 {
			return cbor.AppendInt(dst, in.sec), nil
		}
		return cbor.AppendFloat64(dst, float64(in.sec)+float64(in.nsec)/1e9), nil
	case model.BlobType:
		b, err := base64.StdEncoding.DecodeString(fmt.Sprint(val))
		if err != nil {
			return nil, fmt.Errorf("blob: %w", err)
		}
		return cbor.AppendBytes(dst, b), nil
	case model.StringType, model.EnumType:
		return cbor.AppendText(dst, fmt.Sprint(val)), nil
	case model.BooleanType:
		b, _ := val.(bool)
		return cbor.AppendBool(dst, b), nil
	case model.FloatType, model.DoubleType:
		f, err := floatOf(val)
		if err != nil {
			return nil, err
		}
		if t == model.FloatType {
			return cbor.AppendFloat32(dst, float32(f)), nil
		}
		return cbor.AppendFloat64(dst, f), nil
	case model.BigDecimalType:
		mant, exp, err := decimalOf(fmt.Sprint(val))
		if err != nil {
			return nil, err
		}
		return cbor.AppendDecimal(dst, mant, exp), nil
	case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.BigIntegerType, model.IntEnumType:
		n, ok := new(big.Int).SetString(fmt.Sprint(val), 10)
		if !ok {
			return nil, fmt.Errorf("%v is not an integer", val)
		}
		return cbor.AppendBigInt(dst, n), nil
	}
	return cborDocument(dst, val)
}

// floatOf reads a float or double: a number, or "NaN", "Infinity",
// "-Infinity".
func floatOf(val any) (float64, error) {
	switch x := fmt.Sprint(val); x {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	default:
		return strconv.ParseFloat(x, 64)
	}
}

// decimalOf reads a decimal number as mantissa × 10^exp, exactly.
func decimalOf(text string) (*big.Int, int64, error) {
	digits, e, _ := strings.Cut(strings.ToLower(text), "e")
	exp := int64(0)
	if e != "" {
		var err error
		if exp, err = strconv.ParseInt(e, 10, 64); err != nil {
			return nil, 0, fmt.Errorf("%q is not a decimal number", text)
		}
	}
	if whole, frac, ok := strings.Cut(digits, "."); ok {
		digits, exp = whole+frac, exp-int64(len(frac))
	}
	mant, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, 0, fmt.Errorf("%q is not a decimal number", text)
	}
	return mant, exp, nil
}

// cborDocument appends a document value (JSON in the value form).
func cborDocument(dst []byte, val any) ([]byte, error) {
	switch x := val.(type) {
	case nil:
		return cbor.AppendNull(dst), nil
	case bool:
		return cbor.AppendBool(dst, x), nil
	case string:
		return cbor.AppendText(dst, x), nil
	case json.Number:
		if n, ok := new(big.Int).SetString(string(x), 10); ok {
			return cbor.AppendBigInt(dst, n), nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, err
		}
		return cbor.AppendFloat64(dst, f), nil
	case []any:
		dst = cbor.AppendHead(dst, cbor.MajorArray, uint64(len(x)))
		for _, it := range x {
			var err error
			if dst, err = cborDocument(dst, it); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case map[string]any:
		dst = cbor.AppendHead(dst, cbor.MajorMap, uint64(len(x)))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			var err error
			if dst, err = cborDocument(cbor.AppendText(dst, k), x[k]); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	return nil, fmt.Errorf("a document cannot hold %T", val)
}
