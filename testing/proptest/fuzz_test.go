package proptest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/wire"
)

// Fuzzers of the decoders that read bytes from the network and of the
// JSON document input of a call, over the operations of the protocol test
// models, seeded from their request and response cases.

type fuzzOp struct {
	op    *model.Operation
	codec protocol.Codec
}

var (
	fuzzOnce sync.Once
	fuzzOps  []fuzzOp
)

func conformanceOps(f testing.TB) []fuzzOp {
	dir := shareddata.Path(f)
	fuzzOnce.Do(func() {
		l := model.NewLoader()
		if err := l.AddPath(dir + "/conformance"); err != nil {
			return
		}
		m, _, err := l.Load(context.Background())
		if err != nil {
			return
		}
		for _, sid := range m.Services() {
			svc, err := m.Service(sid)
			if err != nil {
				continue
			}
			p := ProtocolOf(svc)
			if p == nil {
				continue
			}
			codec := p.NewCodec(m, svc, protocol.WithIdempotencyTokens(func() string { return fixedToken }))
			for _, op := range svc.Operations {
				if excluded(m, op, p) == "" {
					fuzzOps = append(fuzzOps, fuzzOp{op, codec})
				}
			}
		}
	})
	if len(fuzzOps) == 0 {
		f.Fatal("no conformance operations loaded")
	}
	return fuzzOps
}

// headerBlock renders headers as "Name: value" lines; parseBlock reads
// them back (the fuzzer's form of a header set).
func headerBlock(n model.Node) string {
	var b strings.Builder
	for _, k := range n.Keys() {
		v, _ := n.Get(k)
		b.WriteString(k + ": " + v.Str() + "\n")
	}
	return b.String()
}

func parseBlock(s string) wire.Header {
	h := wire.Header{}
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && k != "" {
			h.Add(k, strings.TrimLeft(v, " "))
		}
	}
	return h
}

// seedResponses adds the response cases of the conformance models.
func seedResponses(f *testing.F, ops []fuzzOp, errorsOnly bool) {
	for i, fo := range ops {
		traits := []model.Traits{fo.op.Shape.Traits}
		for _, e := range fo.op.Errors {
			traits = append(traits, e.Traits)
		}
		for j, tr := range traits {
			list, ok := tr.Get("smithy.test#httpResponseTests")
			if !ok || (errorsOnly && j == 0) {
				continue
			}
			for _, tc := range list.Items() {
				code, _ := tc.Get("code")
				st, _ := code.Int64()
				hs, _ := tc.Get("headers")
				body, _ := tc.Get("body")
				f.Add(uint16(i), uint16(st), headerBlock(hs), []byte(body.Str()))
			}
		}
	}
}

func checkDecode(t *testing.T, fo fuzzOp, status int, hdr string, body []byte) {
	resp := &wire.Response{Status: status, Header: parseBlock(hdr), Body: body}
	out, err := fo.codec.DecodeResponse(context.Background(), fo.op, resp)
	if err == nil {
		if !json.Valid(out) {
			t.Fatalf("%s: output is not JSON: %q", fo.op.Shape.ID, out)
		}
		return
	}
	var se *protocol.ServiceError
	var re *protocol.ResponseError
	switch {
	case errors.As(err, &se):
		if se.Modeled() && !json.Valid(se.Members) {
			t.Fatalf("%s: error members are not JSON: %q", fo.op.Shape.ID, se.Members)
		}
	case errors.As(err, &re):
	default:
		t.Fatalf("%s: error %T %v is neither a service nor a response error", fo.op.Shape.ID, err, err)
	}
}

// FuzzDecodeResponse: any status, headers and body given to any
// operation's response decoder give a JSON document or a typed error, never
// a panic.
func FuzzDecodeResponse(f *testing.F) {
	ops := conformanceOps(f)
	seedResponses(f, ops, false)
	f.Fuzz(func(t *testing.T, opi, status uint16, hdr string, body []byte) {
		fo := ops[int(opi)%len(ops)]
		checkDecode(t, fo, 100+int(status)%500, hdr, body)
	})
}

// FuzzDecodeError: error discrimination: error statuses with any headers
// and body (the error type in X-Amzn-Errortype, X-Error-Type, __type or
// code) give a service or response error, never a panic.
func FuzzDecodeError(f *testing.F) {
	ops := conformanceOps(f)
	seedResponses(f, ops, true)
	f.Fuzz(func(t *testing.T, opi, status uint16, hdr string, body []byte) {
		fo := ops[int(opi)%len(ops)]
		checkDecode(t, fo, 400+int(status)%200, hdr, body)
	})
}

// FuzzEncodeRequest: the JSON document input of a call (as the C API,
// Python and the CLI pass it) gives a well-formed request or an input or
// validation error, never a panic.
func FuzzEncodeRequest(f *testing.F) {
	ops := conformanceOps(f)
	for i, fo := range ops {
		list, ok := fo.op.Shape.Traits.Get("smithy.test#httpRequestTests")
		if !ok {
			continue
		}
		for _, tc := range list.Items() {
			params, _ := tc.Get("params")
			f.Add(uint16(i), []byte(params.JSON()))
		}
	}
	f.Add(uint16(0), []byte(`{"a": 1e400, "b": "\ud800", "c": [null, {}]}`))
	f.Fuzz(func(t *testing.T, opi uint16, input []byte) {
		fo := ops[int(opi)%len(ops)]
		req, err := fo.codec.EncodeRequest(context.Background(), fo.op, input)
		if err != nil {
			var ie *protocol.InputError
			var ve *protocol.ValidationError
			if req != nil || (!errors.As(err, &ie) && !errors.As(err, &ve)) {
				t.Fatalf("%s: error %T %v (request %v)", fo.op.Shape.ID, err, err, req)
			}
			return
		}
		if !strings.HasPrefix(req.Path, "/") {
			t.Fatalf("%s: path %q", fo.op.Shape.ID, req.Path)
		}
		for k, vs := range req.Header {
			for _, v := range vs {
				if strings.ContainsAny(k+v, "\r\n") {
					t.Fatalf("%s: header %q: %q", fo.op.Shape.ID, k, v)
				}
			}
		}
		if strings.ContainsAny(req.HostPrefix, "/:@?#") {
			t.Fatalf("%s: host prefix %q", fo.op.Shape.ID, req.HostPrefix)
		}
	})
}
