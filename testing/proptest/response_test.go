package proptest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// checkResponse is the response property for one output: nil when the
// response rendered from it decodes to it.
func checkResponse(tg target, codec protocol.Codec, out map[string]any) error {
	resp, err := tg.p.RenderResponse(tg.m, tg.op, out)
	if err != nil {
		return fmt.Errorf("render: %v", err)
	}
	doc, err := codec.DecodeResponse(context.Background(), tg.op, resp)
	if err != nil {
		return fmt.Errorf("decode: %v\n  response: %s", err, dumpResponse(resp))
	}
	return compareOutput(tg, tg.op.Output, out, doc, resp)
}

func compareOutput(tg target, s *model.Shape, out map[string]any, doc []byte, resp *wire.Response) error {
	got, err := Decode(doc)
	if err != nil {
		return fmt.Errorf("decoded output is not JSON: %v: %q", err, doc)
	}
	gm, _ := got.(map[string]any)
	want := Clone(out).(map[string]any)
	for _, mem := range s.Members {
		if tg.p.Locate(mem, true) == LocStatus && want[mem.Name()] == nil {
			want[mem.Name()] = jsonNumber(resp.Status)
		}
		if h, ok := mem.Traits.Get(model.TraitHTTPHeader); ok && want[mem.Name()] == nil && protocolHeader(wire.CanonicalHeaderKey(h.Str())) {
			delete(gm, mem.Name()) // the header the test sets itself
		}
		if pf, ok := mem.Traits.Get(model.TraitHTTPPrefixHeaders); ok && tg.p.Locate(mem, true) == LocPrefixHeaders {
			// Every header with the prefix, those bound to other members
			// and the protocol's own included.
			pm := map[string]any{}
			for k, vs := range resp.Header {
				if strings.HasPrefix(strings.ToLower(k), strings.ToLower(pf.Str())) {
					pm[k[len(pf.Str()):]] = strings.Join(vs, ", ")
				}
			}
			delete(want, mem.Name())
			if len(pm) > 0 {
				want[mem.Name()] = pm
			}
		}
		if tg.p.Locate(mem, true) == LocPayload && want[mem.Name()] == nil && typeOf(view{tg.m}.target(mem)) == model.BlobType {
			want[mem.Name()] = "" // no body is an empty blob payload
		}
		if tg.p.Locate(mem, true) == LocPayload && want[mem.Name()] == "" && typeOf(view{tg.m}.target(mem)) != model.BlobType {
			// An empty body is no payload: a blob or string payload that
			// is empty reads as absent.
			if _, ok := gm[mem.Name()]; !ok {
				delete(want, mem.Name())
			}
		}
	}
	FillDefaults(tg.m, s, want, true)
	nw := Encode(Normalize(tg.m, tg.p, s, want, true))
	ng := Encode(Normalize(tg.m, tg.p, s, gm, true))
	if string(nw) != string(ng) {
		return fmt.Errorf("the response decodes differently\n  want %s\n  got  %s\n  response: %s", nw, ng, dumpResponse(resp))
	}
	return nil
}

func jsonNumber(n int) any { return mustDecode(strconv.Itoa(n)) }

func mustDecode(s string) any {
	v, err := Decode([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}

// checkError is the error property: an error response rendered from
// members of error shape e decodes to a *protocol.ServiceError of e with
// those members.
func checkError(tg target, codec protocol.Codec, e *model.Shape, members map[string]any) error {
	resp, err := tg.p.RenderError(tg.m, tg.op, e, members)
	if err != nil {
		return fmt.Errorf("render: %v", err)
	}
	_, err = codec.DecodeResponse(context.Background(), tg.op, resp)
	var se *protocol.ServiceError
	if !errors.As(err, &se) {
		return fmt.Errorf("decode: %v, want a service error %s\n  response: %s", err, e.ID, dumpResponse(resp))
	}
	if se.Shape != e.ID {
		return fmt.Errorf("decode: service error %q (code %q), want %s\n  response: %s", se.Shape, se.Code, e.ID, dumpResponse(resp))
	}
	if se.Status != resp.Status {
		return fmt.Errorf("status %d, want %d", se.Status, resp.Status)
	}
	return compareOutput(tg, e, members, se.Members, resp)
}

func dumpResponse(resp *wire.Response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", resp.Status)
	for _, k := range sortedKeysH(resp.Header) {
		fmt.Fprintf(&b, " | %s: %q", k, resp.Header[k])
	}
	body := string(resp.Body)
	if len(body) > 2000 {
		body = body[:2000] + "..."
	}
	fmt.Fprintf(&b, " | body %q", body)
	return b.String()
}

func sortedKeysH(h wire.Header) []string {
	m := make(map[string]any, len(h))
	for k := range h {
		m[k] = nil
	}
	return sortedKeys(m)
}

// TestResponseRoundTrip: a response rendered (by the protocol's rules,
// independently of the codec) from a valid output decodes to that output;
// an error response of each modeled error decodes to that error.
func TestResponseRoundTrip(t *testing.T) {
	propertyTests(t)
	tgs := targets(t)
	ran := 0
	codecs := map[*model.Service]protocol.Codec{}
	for _, tg := range tgs {
		codec := codecs[tg.svc]
		if codec == nil {
			codec = tg.p.NewCodec(tg.m, tg.svc)
			codecs[tg.svc] = codec
		}
		for i := 0; i < *nFlag; i++ {
			seed := caseSeed(*seedFlag, tg, "response", i)
			g := newGen(tg, seed)
			out := g.Output(tg.op)
			ran++
			if err := checkResponse(tg, codec, out); err != nil {
				kind := errKind(err)
				min := Shrink(out, func(c map[string]any) bool { e := checkResponse(tg, codec, c); return e != nil && errKind(e) == kind }, 300)
				report(t, tg, "response round trip", *seedFlag, min, "%v\n  (first failure: %v)", checkResponse(tg, codec, min), firstLine(err))
			}
			if len(tg.op.Errors) == 0 {
				continue
			}
			e := tg.op.Errors[g.R.Intn(len(tg.op.Errors))]
			members := g.Error(e)
			ran++
			if err := checkError(tg, codec, e, members); err != nil {
				kind := errKind(err)
				min := Shrink(members, func(c map[string]any) bool { x := checkError(tg, codec, e, c); return x != nil && errKind(x) == kind }, 300)
				report(t, tg, "error response "+string(e.ID), *seedFlag, min, "%v\n  (first failure: %v)", checkError(tg, codec, e, min), firstLine(err))
			}
		}
	}
	t.Logf("%d operations, %d cases", len(tgs), ran)
}
