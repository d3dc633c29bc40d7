package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// Redacted replaces the value of a @sensitive member in traces and logs.
const Redacted = "*** sensitive ***"

// RedactSensitive returns a copy of doc, a value of shape in the document
// form, with every @sensitive member's value (or value of a @sensitive
// shape) replaced by Redacted, for logs and traces. Invalid JSON gives "".
func RedactSensitive(m *model.Model, shape *model.Shape, doc []byte) []byte {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // keep every digit
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	out, err := json.Marshal(redact(m, shape, v, 0))
	if err != nil {
		return nil
	}
	return out
}

func redact(m *model.Model, s *model.Shape, v any, depth int) any {
	if s == nil || depth > 64 {
		return v
	}
	if s.HasTrait(model.TraitSensitive) {
		return Redacted
	}
	switch s.Type {
	case model.StructureType, model.UnionType:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for name, val := range obj {
			mem, ok := s.Member(name)
			if !ok {
				continue
			}
			if mem.Traits.Has(model.TraitSensitive) {
				obj[name] = Redacted
				continue
			}
			target, _ := m.Target(mem)
			obj[name] = redact(m, target, val, depth+1)
		}
	case model.ListType, model.SetType:
		arr, ok := v.([]any)
		mem, found := s.Member("member")
		if !ok || !found {
			return v
		}
		target, _ := m.Target(mem)
		for i := range arr {
			arr[i] = redact(m, target, arr[i], depth+1)
		}
	case model.MapType:
		obj, ok := v.(map[string]any)
		mem, found := s.Member("value")
		if !ok || !found {
			return v
		}
		target, _ := m.Target(mem)
		for k := range obj {
			obj[k] = redact(m, target, obj[k], depth+1)
		}
	}
	return v
}

// RedactCBOR writes a CBOR body holding a value of shape in CBOR diagnostic
// notation (RFC 8949 section 8), for traces: {"id": 25, "photo":
// h'68656c6c6f', "when": 1(1700000000.5)}, with every @sensitive member's
// value (or value of a @sensitive shape) replaced by Redacted. A nil shape
// redacts nothing. Malformed CBOR is shown up to the error, then the error.
func RedactCBOR(m *model.Model, shape *model.Shape, body []byte) string {
	r := cbor.NewReader(body)
	out, err := redactDiag(m, shape, r, nil, 0)
	if err == nil && !r.AtEnd() {
		err = fmt.Errorf("%d bytes after the body", len(body)-r.Pos())
	}
	if err != nil {
		out = append(out, " <error: "...)
		out = append(out, err.Error()...)
		out = append(out, '>')
	}
	return string(out)
}

func redactDiag(m *model.Model, s *model.Shape, r *cbor.Reader, dst []byte, depth int) ([]byte, error) {
	if s != nil && s.HasTrait(model.TraitSensitive) {
		return strconv.AppendQuote(dst, Redacted), r.Skip()
	}
	major, _, err := r.Peek()
	if s == nil || depth > 64 || err != nil {
		return r.AppendDiagnostic(dst)
	}
	value := func(mem *model.Member) error {
		if mem.Traits.Has(model.TraitSensitive) {
			dst = strconv.AppendQuote(dst, Redacted)
			return r.Skip()
		}
		target, _ := m.Target(mem)
		var err error
		dst, err = redactDiag(m, target, r, dst, depth+1)
		return err
	}
	switch {
	case (s.Type == model.StructureType || s.Type == model.UnionType || s.Type == model.MapType) && major == cbor.MajorMap:
		dst = append(dst, '{')
		n := 0
		err := r.Map(func(key []byte) error {
			if n++; n > 1 {
				dst = append(dst, ", "...)
			}
			dst = append(strconv.AppendQuote(dst, string(key)), ": "...)
			name := string(key)
			if s.Type == model.MapType {
				name = "value"
			}
			mem, ok := s.Member(name)
			if !ok {
				var err error
				dst, err = r.AppendDiagnostic(dst)
				return err
			}
			return value(mem)
		})
		return append(dst, '}'), err
	case (s.Type == model.ListType || s.Type == model.SetType) && major == cbor.MajorArray:
		mem, _ := s.Member("member")
		dst = append(dst, '[')
		err := r.Array(func(i int) error {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if mem == nil {
				var err error
				dst, err = r.AppendDiagnostic(dst)
				return err
			}
			return value(mem)
		})
		return append(dst, ']'), err
	}
	return r.AppendDiagnostic(dst)
}

// cborTraceBody shows the CBOR bodies of op's requests and responses in
// traces (other bodies are not shown): the input, the output, or the error
// the body's __type names (an error body of no known shape has every value
// shown, as the service sent it for anyone to read).
func cborTraceBody(m *model.Model, op *model.Operation) func(int, wire.Header, []byte) string {
	return func(status int, h wire.Header, body []byte) string {
		if !strings.HasPrefix(h.Get("Content-Type"), "application/cbor") {
			return ""
		}
		shape := op.Input
		if status >= 200 && status <= 299 {
			shape = op.Output
		} else if status != 0 {
			shape = cborErrorShape(op, body)
		}
		return RedactCBOR(m, shape, body)
	}
}

// cborErrorShape finds the error shape an rpcv2Cbor error body names.
func cborErrorShape(op *model.Operation, body []byte) *model.Shape {
	name := ""
	r := cbor.NewReader(body)
	r.Map(func(key []byte) error {
		if string(key) == "__type" && name == "" {
			if v, err := r.Text(); err == nil {
				name = protocol.ErrorTypeName(string(v))
				return nil
			}
		}
		return r.Skip()
	})
	for _, e := range op.Errors {
		if name != "" && e.ID.Name() == name {
			return e
		}
	}
	return nil
}
