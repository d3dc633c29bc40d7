package protocol

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// One service per RPC protocol over the same operations.
const rpcServerTestModel = `$version: "2"
namespace example.srv

use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

@awsJson1_0 service Json10 { version: "1", operations: [Put, Ping, Stream] }
@awsJson1_1 service Json11 { version: "1", operations: [Put, Ping, Stream] }
@rpcv2Cbor service Cbor { version: "1", operations: [Put, Ping, Stream] }
@rpcv2Json service RJson { version: "1", operations: [Put, Ping, Stream] }

operation Ping {}

operation Stream {
    input := {
        @required id: String
        size: Integer = 1
        events: Events
    }
}

@streaming union Events { chunk: Chunk }
structure Chunk { @eventPayload data: Blob }

operation Put {
    input := {
        @required name: String
        @length(max: 3) tag: String
        @range(min: 1) count: Integer
        when: Timestamp
        data: Blob
        items: Items
        attrs: Attrs
        nested: Nested
        pick: Pick
    }
}

structure Nested {
    @required id: String
    level: Integer = 2
}
list Items { member: Nested }
map Attrs { key: String, value: Long }
union Pick { a: String, b: Integer }
`

func loadRPCServerModel(t testing.TB) *model.Model {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("rpc_server_test.smithy", []byte(rpcServerTestModel))
	l.AddSource("protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure awsJson1_0 {}
@trait(selector: "service") @protocolDefinition structure awsJson1_1 {}
`))
	l.AddSource("rpcv2.smithy", []byte(`$version: "2"
namespace smithy.protocols
@trait(selector: "service") @protocolDefinition structure rpcv2Cbor {}
@trait(selector: "service") @protocolDefinition structure rpcv2Json {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// rpcServerPair is a client codec and the server of one service.
func rpcServerPair(t testing.TB, m *model.Model, svcID model.ShapeID, opts ...Option) (Codec, Server, *model.Service) {
	t.Helper()
	svc, err := m.Service(svcID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewServer(m, svc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, s, svc
}

// serve routes and decodes req.
func serve(s Server, req *wire.Request, opts ...Option) ([]byte, *model.Operation, error) {
	op, err := s.Route(req)
	if err != nil {
		return nil, nil, err
	}
	doc, err := s.DecodeRequest(context.Background(), op, req)
	return doc, op, err
}

// A request the client encodes is routed to its operation and read back
// to the input, with the defaults of nested structures, in every protocol.
func TestRPCServerReadsWhatTheClientSends(t *testing.T) {
	m := loadRPCServerModel(t)
	input := `{"name":"n","tag":"abc","count":2,"when":"2020-01-02T03:04:05Z","data":"AAEC",
		"items":[{"id":"i1"},{"id":"i2","level":5}],"attrs":{"k":9007199254740993},"nested":{"id":"x"},"pick":{"b":4}}`
	want := `{"name":"n","tag":"abc","count":2,"when":"2020-01-02T03:04:05Z","data":"AAEC",
		"items":[{"id":"i1","level":2},{"id":"i2","level":5}],"attrs":{"k":9007199254740993},"nested":{"id":"x","level":2},"pick":{"b":4}}`
	for _, id := range []model.ShapeID{"example.srv#Json10", "example.srv#Json11", "example.srv#Cbor", "example.srv#RJson"} {
		t.Run(id.Name(), func(t *testing.T) {
			c, s, svc := rpcServerPair(t, m, id)
			if s.Protocol() != c.Protocol() {
				t.Errorf("server protocol %s, codec %s", s.Protocol(), c.Protocol())
			}
			readsBack(t, c, s, svc, input, want)
		})
	}
}

// readsBack checks that the requests client c encodes of Put (input)
// and Ping are routed by s to their operation and read back (Put's to
// want).
func readsBack(t *testing.T, c Codec, s Server, svc *model.Service, input, want string) {
	t.Helper()
	for _, name := range []string{"Put", "Ping"} {
		in, out := input, want
		if name == "Ping" {
			in, out = "", "{}"
		}
		req := encode(t, c, svc, name, in)
		doc, op, err := serve(s, req)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, req.Body)
		}
		if op.Name != name {
			t.Errorf("routed to %s, want %s", op.Name, name)
		}
		sameJSON(t, string(doc), out)
	}
}

func requestError(t *testing.T, err error, status int, code, member string) {
	t.Helper()
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T), want a *RequestError", err, err)
	}
	if re.Status != status || re.Code != code || re.Member != member {
		t.Errorf("%v: status %d code %q member %q, want %d %q %q", err, re.Status, re.Code, re.Member, status, code, member)
	}
}

func TestRPCServerRouteRefusals(t *testing.T) {
	m := loadRPCServerModel(t)
	_, aj, _ := rpcServerPair(t, m, "example.srv#Json10")
	_, cb, _ := rpcServerPair(t, m, "example.srv#Cbor")
	cborHeaders := func(extra ...string) wire.Header {
		h := wire.Header{"Smithy-Protocol": {"rpc-v2-cbor"}}
		for i := 0; i+1 < len(extra); i += 2 {
			h.Set(extra[i], extra[i+1])
		}
		return h
	}
	for _, tc := range []struct {
		name   string
		s      Server
		req    wire.Request
		status int
	}{
		{"unknown target", aj, wire.Request{Method: "POST", Path: "/", Header: wire.Header{"X-Amz-Target": {"Json10.Nope"}}}, 400},
		{"other service", aj, wire.Request{Method: "POST", Path: "/", Header: wire.Header{"X-Amz-Target": {"Json11.Put"}}}, 400},
		{"no target", aj, wire.Request{Method: "POST", Path: "/", Header: wire.Header{}}, 400},
		{"GET", aj, wire.Request{Method: "GET", Path: "/", Header: wire.Header{"X-Amz-Target": {"Json10.Put"}}}, 400},
		{"unknown operation", cb, wire.Request{Method: "POST", Path: "/service/Cbor/operation/Nope", Header: cborHeaders()}, 404},
		{"absolute operation id", cb, wire.Request{Method: "POST", Path: "/service/Cbor/operation/example.srv.Put", Header: cborHeaders()}, 404},
		{"other service name", cb, wire.Request{Method: "POST", Path: "/service/RJson/operation/Put", Header: cborHeaders()}, 404},
		{"short path", cb, wire.Request{Method: "POST", Path: "/operation/Put", Header: cborHeaders()}, 404},
		{"no Smithy-Protocol", cb, wire.Request{Method: "POST", Path: "/service/Cbor/operation/Put", Header: wire.Header{}}, 404},
		{"rpc-v2-json", cb, wire.Request{Method: "POST", Path: "/service/Cbor/operation/Put", Header: wire.Header{"Smithy-Protocol": {"rpc-v2-json"}}}, 404},
		{"X-Amz-Target", cb, wire.Request{Method: "POST", Path: "/service/Cbor/operation/Put", Header: cborHeaders("X-Amz-Target", "Cbor.Put")}, 404},
		{"X-Amzn-Target", cb, wire.Request{Method: "POST", Path: "/service/Cbor/operation/Put", Header: cborHeaders("x-amzn-target", "Cbor.Put")}, 404},
	} {
		op, err := tc.s.Route(&tc.req)
		if op != nil {
			t.Errorf("%s: routed to %s", tc.name, op.Name)
		}
		requestError(t, err, tc.status, "UnknownOperationException", "")
	}
	// A path prefix and the service's absolute id route as the name does.
	for _, path := range []string{"/v1/service/Cbor/operation/Put", "/service/example.srv.Cbor/operation/Put?x=1"} {
		op, err := cb.Route(&wire.Request{Method: "POST", Path: path, Header: cborHeaders()})
		if err != nil || op.Name != "Put" {
			t.Errorf("%s: %v, %v", path, op, err)
		}
	}
}

func TestRPCServerRefusesBadRequests(t *testing.T) {
	m := loadRPCServerModel(t)
	_, s, _ := rpcServerPair(t, m, "example.srv#Json10")
	_, sv, _ := rpcServerPair(t, m, "example.srv#Json10", WithValidation())
	req := func(body, ct string) *wire.Request {
		h := wire.Header{"X-Amz-Target": {"Json10.Put"}}
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		return &wire.Request{Method: "POST", Path: "/", Header: h, Body: []byte(body)}
	}
	const ct = "application/x-amz-json-1.0"
	for _, tc := range []struct {
		name, body, ct, code, member string
		status                       int
	}{
		{"not JSON", `{"name":`, ct, "SerializationException", "name", 400},
		{"an array", `["name"]`, ct, "SerializationException", "", 400},
		{"data after the body", `{"name":"n"} {}`, ct, "SerializationException", "", 400},
		{"wrong type", `{"name":"n","items":[{"id":"a"},{"id":"b","level":"x"}]}`, ct, "SerializationException", "items[1].level", 400},
		{"not an integer", `{"name":"n","count":1.5}`, ct, "SerializationException", "count", 400},
		{"invalid base64", `{"name":"n","data":"%%"}`, ct, "SerializationException", "data", 400},
		{"missing required", `{"tag":"t"}`, ct, "ValidationException", "name", 400},
		{"missing nested required", `{"name":"n","nested":{"level":1}}`, ct, "ValidationException", "nested.id", 400},
		{"no body", ``, ct, "ValidationException", "name", 400},
		{"wrong media type", `{"name":"n"}`, "application/json", "UnsupportedMediaTypeException", "", 415},
		{"deep unknown member", `{"name":"n","x":` + strings.Repeat("[", 100000), ct, "SerializationException", "", 400},
	} {
		_, _, err := serve(s, req(tc.body, tc.ct))
		requestError(t, err, tc.status, tc.code, tc.member)
	}
	// Parameters of the media type are allowed
	// (AwsJson10ServerContentTypeParameters), and so is no Content-Type.
	for _, ct := range []string{ct + "; charset=utf-8", ""} {
		if _, _, err := serve(s, req(`{"name":"n"}`, ct)); err != nil {
			t.Errorf("Content-Type %q: %v", ct, err)
		}
	}
	// Constraints are checked with WithValidation only, required members
	// then among them.
	bad := `{"tag":"long","count":0,"nested":{}}`
	if _, _, err := serve(s, req(bad, ct)); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("without validation: %v", err)
	}
	_, _, err := serve(sv, req(bad, ct))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("with validation: %v (%T), want a *ValidationError", err, err)
	}
	var paths []string
	for _, v := range ve.Violations {
		paths = append(paths, v.Path)
	}
	if got := strings.Join(paths, " "); got != "/name /tag /count /nested/id" {
		t.Errorf("violations at %q: %s", got, ve.List())
	}
}

func TestRPCServerGzipAndAccept(t *testing.T) {
	m := loadRPCServerModel(t)
	c, s, svc := rpcServerPair(t, m, "example.srv#Json11")
	req := encode(t, c, svc, "Put", `{"name":"zipped"}`)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(req.Body)
	zw.Close()
	req.Body = buf.Bytes()
	req.Header.Set("Content-Encoding", "gzip")
	doc, _, err := serve(s, req)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(doc), `{"name":"zipped"}`)
	req.Body = []byte("not gzip")
	_, _, err = serve(s, req)
	requestError(t, err, 400, "SerializationException", "")
	req.Header.Set("Content-Encoding", "br")
	_, _, err = serve(s, req)
	requestError(t, err, 415, "UnsupportedMediaTypeException", "")

	c, s, svc = rpcServerPair(t, m, "example.srv#Cbor")
	req = encode(t, c, svc, "Put", `{"name":"n"}`)
	req.Header.Set("Accept", "text/html")
	_, _, err = serve(s, req)
	requestError(t, err, 406, "NotAcceptableException", "")
	req.Header.Set("Accept", "text/html, application/cbor;q=0.5")
	if _, _, err = serve(s, req); err != nil {
		t.Error(err)
	}
}

// An input event stream's other members come in its initial-request
// message; the events after it are left to the caller.
func TestRPCServerInitialRequest(t *testing.T) {
	m := loadRPCServerModel(t)
	for _, id := range []model.ShapeID{"example.srv#Json10", "example.srv#Cbor", "example.srv#RJson"} {
		c, s, svc := rpcServerPair(t, m, id)
		op, _ := svc.Operation("Stream")
		req, err := c.EncodeRequest(context.Background(), op, []byte(`{"id":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		es := c.(EventStreams)
		init, _, err := es.EncodeInitialMessage(context.Background(), op, []byte(`{"id":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		ev, err := es.EncodeEvent(context.Background(), op, []byte(`{"chunk":{"data":"AAE="}}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := eventstream.Append(nil, init)
		body, _ = eventstream.Append(body, ev)
		req.Body = body
		doc, _, err := serve(s, req)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		sameJSON(t, string(doc), `{"id":"x","size":1}`)
		// Without the initial request, the required member is missing.
		req.Body, _ = eventstream.Append(nil, ev)
		_, _, err = serve(s, req)
		requestError(t, err, 400, "ValidationException", "id")
		req.Body = []byte("not a message")
		_, _, err = serve(s, req)
		requestError(t, err, 400, "SerializationException", "")
	}
}
