package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// FuzzServerRequest feeds arbitrary requests to the servers of the RPC
// and query protocols (awsJson1_0, awsJson1_1, rpcv2Cbor, rpcv2Json,
// awsQuery, ec2Query) and the REST ones (restJson1, simpleRestJson,
// restXml: targets 6 to 8): Route and DecodeRequest must give an operation and
// a JSON input, a *RequestError or a *ValidationError, never panic or
// hang. The operation is the routed one, else the one opi picks, so that
// bodies reach the decoders whatever the routing headers say.
func FuzzServerRequest(f *testing.F) {
	type target struct {
		c   Codec
		s   Server
		svc *model.Service
	}
	var targets []target
	rm := loadRPCServerModel(f)
	for _, id := range []model.ShapeID{"example.srv#Json10", "example.srv#Json11", "example.srv#Cbor", "example.srv#RJson"} {
		c, s, svc := rpcServerPair(f, rm, id, WithValidation())
		targets = append(targets, target{c, s, svc})
	}
	for _, id := range []model.ShapeID{"example.qs#Query", "example.qs#Ec2"} {
		c, s, svc := queryServerPair(f, id, WithValidation())
		targets = append(targets, target{c, s, svc})
	}
	for _, p := range restServerPairs(f) {
		targets = append(targets, target{p.c, p.s, p.svc})
	}
	headerBlock := func(h wire.Header) string {
		var b strings.Builder
		for k, vs := range h {
			for _, v := range vs {
				b.WriteString(k + ": " + v + "\n")
			}
		}
		return b.String()
	}
	// Seeds: what the clients send, and what bounds the readers.
	inputs := []string{
		`{"name":"n","tag":"abc","count":2,"when":"2020-01-02T03:04:05Z","data":"AAEC","items":[{"id":"i1"}],"attrs":{"k":1},"nested":{"id":"x"},"pick":{"b":4}}`,
		`{"name":"a b","strings":["s1"],"flat":["f"],"attrs":{"k":["v"]},"deep":{"next":{"v":1}}}`,
	}
	for ti, tg := range targets {
		for _, in := range inputs {
			op, err := tg.svc.Operation("Put")
			if err != nil {
				continue // a REST target: its seeds follow
			}
			req, err := tg.c.EncodeRequest(context.Background(), op, []byte(in))
			if err != nil {
				continue // an input of the other model's members
			}
			f.Add(uint8(ti), uint8(0), req.Method, req.Path, headerBlock(req.Header), req.Body)
		}
	}
	f.Add(uint8(4), uint8(0), "POST", "/", "", []byte("Action=Put&name=n&strings.member.999999999=x&deep"+strings.Repeat(".next", 600)+".v=1"))
	f.Add(uint8(0), uint8(0), "POST", "/", "X-Amz-Target: Json10.Put\n", []byte(`{"name":"n","x":`+strings.Repeat("[", 1000)))
	f.Add(uint8(2), uint8(0), "POST", "/service/Cbor/operation/Put", "Smithy-Protocol: rpc-v2-cbor\nContent-Type: application/cbor\n", []byte{0xbf, 0x9f, 0x9f, 0x9f, 0xff})

	for ti := 6; ti <= 7; ti++ {
		op, _ := targets[ti].svc.Operation("PutItem")
		if req, err := targets[ti].c.EncodeRequest(context.Background(), op, []byte(shopInput)); err == nil {
			f.Add(uint8(ti), uint8(0), req.Method, req.Path, headerBlock(req.Header), req.Body)
		}
	}
	f.Add(uint8(6), uint8(0), "PUT", "/items/a/files/b?mode=fast", "Content-Type: application/json\n", []byte(`{"lines":`+strings.Repeat("[", 1000)))
	f.Add(uint8(6), uint8(0), "PUT", "/items/%zz/files/%2F%2e%2e?mode=fast&tag&tag=%ff", "X-Names: \"a,\nX-When: x\n", []byte(`{"lines":[null],"color":"BLUE"}`))
	f.Add(uint8(8), uint8(1), "PUT", "/b?tagging", "Content-Type: application/xml\nContent-Encoding: gzip\n", []byte("<Tagging><TagSet>"+strings.Repeat("<Tag>", 600)+"</TagSet></Tagging>"))

	f.Fuzz(func(t *testing.T, ti, opi uint8, method, path, hdr string, body []byte) {
		tg := targets[int(ti)%len(targets)]
		req := &wire.Request{Method: method, Path: path, Header: wire.Header{}, Body: body}
		for _, line := range strings.Split(hdr, "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && k != "" {
				req.Header.Add(k, strings.TrimSpace(v))
			}
		}
		check := func(err error) {
			var re *RequestError
			var ve *ValidationError
			if err != nil && !errors.As(err, &re) && !errors.As(err, &ve) {
				t.Fatalf("error %T %v is neither a request nor a validation error", err, err)
			}
			if re != nil && (re.Status < 400 || re.Status > 499 || re.Code == "") {
				t.Fatalf("refused with %d %q: %v", re.Status, re.Code, err)
			}
		}
		op, err := tg.s.Route(req)
		check(err)
		if op == nil {
			op = tg.svc.Operations[int(opi)%len(tg.svc.Operations)]
		}
		doc, err := tg.s.DecodeRequest(context.Background(), op, req)
		check(err)
		if err == nil && !json.Valid(doc) {
			t.Fatalf("input is not JSON: %q", doc)
		}
	})
}
