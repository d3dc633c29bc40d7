package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// A request the client codec encodes is routed back to its operation and
// decoded to the same input by the server.
func TestServerReadsWhatTheClientSends(t *testing.T) {
	m, svc := loadTestModel(t)
	c, _ := newTestCodec(t)
	srv, err := NewServer(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	in := shopInput
	req := encode(t, c, svc, "PutItem", in)
	op, err := srv.Route(req)
	if err != nil || op.Name != "PutItem" {
		t.Fatalf("route: %v, %v", op, err)
	}
	got, err := srv.DecodeRequest(context.Background(), op, req)
	if err != nil {
		t.Fatal(err)
	}
	// A server's @httpQueryParams map holds every query parameter, those
	// of @httpQuery members too (a string map: the first value).
	want := strings.Replace(in, `"extra":{"q":"v"}`, `"extra":{"tag":"t1","ratio":"0.5","since":"2020-01-02T03:04:05Z","q":"v"}`, 1)
	if d := jsonDifference(t, got, want); d != "" {
		t.Errorf("decoded %s: %s", got, d)
	}
}

// shopInput is an input of testModel's PutItem with a member in every
// location.
const shopInput = `{"id":"a b/c","path":"x/y z/..","tags":["t1","t2"],"ratio":0.5,"since":"2020-01-02T03:04:05Z",` +
	`"names":["n, 1","n2"],"when":"2021-01-01T00:00:00Z","json":"{\"k\":1}","extra":{"q":"v"},` +
	`"lines":[{"name":"l","qty":2}],"note":"abc","count":3,"color":"RED","code":"ab","ids":[1,2],` +
	`"stamp":"1970-01-01T00:00:10Z","isoStamp":"2000-01-01T00:00:00.5Z","data":"AAE=","token":"tok"}`

// restServerPair is a client codec, the server and the service of one
// REST protocol, for the fuzzer.
type restServerPair struct {
	c   Codec
	s   Server
	svc *model.Service
}

// restServerPairs are restJson1 and simpleRestJson on testModel (every
// HTTP binding) and restXml on restXMLTestModel, their servers validating.
func restServerPairs(t testing.TB) []restServerPair {
	t.Helper()
	var out []restServerPair
	m, svc := loadTestModel(t)
	sm, ssvc := loadService(t, "example#Shop", "alloy#simpleRestJson",
		strings.NewReplacer("use aws.protocols#restJson1", "use alloy#simpleRestJson", "@restJson1", "@simpleRestJson").Replace(testModel))
	xc, xsvc := restXMLCodecForTest(t)
	for _, p := range []struct {
		m   *model.Model
		svc *model.Service
	}{{m, svc}, {sm, ssvc}, {xc.(*restCodec).m, xsvc}} {
		c, err := New(p.m, p.svc)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := NewServer(p.m, p.svc, WithValidation())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, restServerPair{c, srv, p.svc})
	}
	return out
}

// jsonDifference says how two JSON texts differ as values ("" when not).
func jsonDifference(t *testing.T, got []byte, want string) string {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		return err.Error()
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		return "not equal"
	}
	return ""
}

const routingModel = `$version: "2"
namespace example
use aws.protocols#restJson1
@restJson1
service Router { version: "1", operations: [A, B, C, D, E, F, G] }
@readonly @http(method: "GET", uri: "/abc/bcd/{xyz}") operation A { input := { @required @httpLabel xyz: String } }
@readonly @http(method: "GET", uri: "/abc/{xyz}/cde") operation B { input := { @required @httpLabel xyz: String } }
@readonly @http(method: "GET", uri: "/{xyz}/bcd/cde?def=efg") operation C { input := { @required @httpLabel xyz: String } }
@readonly @http(method: "GET", uri: "/p/{xyz+}/bcd") operation D { input := { @required @httpLabel xyz: String } }
@readonly @http(method: "GET", uri: "/p/{xyz+}") operation E { input := { @required @httpLabel xyz: String } }
@http(method: "POST", uri: "/q?flag") operation F { input := { @httpHeader("X-N") n: Integer, @length(min: 2) s: String } output := { body: String } }
@http(method: "POST", uri: "/q") operation G {}
`

func loadRoutingModel(t *testing.T) (*model.Model, *model.Service) {
	return loadService(t, "example#Router", RestJSON1, routingModel)
}

// loadService loads the IDL src with a definition of protocol trait
// proto and returns service id of it.
func loadService(t testing.TB, id, proto model.ShapeID, src string) (*model.Model, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("test.smithy", []byte(src))
	l.AddSource("protocol.smithy", []byte(fmt.Sprintf("$version: \"2\"\nnamespace %s\n@trait(selector: \"service\")\n@protocolDefinition\nstructure %s {}\n", proto.Namespace(), proto.Name())))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service(id)
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

// The Smithy specification's specificity routing examples, greedy labels
// in the middle, query literals and unknown operations.
func TestServerRoutesBySpecificity(t *testing.T) {
	m, svc := loadRoutingModel(t)
	srv, err := NewServer(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ method, path, op, xyz string }{
		{"GET", "/abc/bcd/cde", "A", "cde"},
		{"GET", "/abc/bcd/cde?def=efg", "A", "cde"},
		{"GET", "/abc/foo/cde", "B", "foo"},
		{"GET", "/abc/foo/cde/", "B", "foo"},
		{"GET", "/foo/bcd/cde?def=efg", "C", "foo"},
		{"GET", "/p/foo/bar/bcd", "D", "foo/bar"},
		{"GET", "/p/foo/bar/baz", "E", "foo/bar/baz"},
		{"GET", "/p/a%2Fb%20c", "E", "a/b c"},
		{"POST", "/q?x=1&flag", "F", ""},
		{"POST", "/q?x=1", "G", ""},
		{"GET", "/foo/bcd/cde", "", ""},
		{"DELETE", "/abc/bcd/cde", "", ""},
	} {
		req := &wire.Request{Method: tc.method, Path: tc.path, Header: wire.Header{}}
		op, err := srv.Route(req)
		if tc.op == "" {
			var re *RequestError
			if !errors.As(err, &re) || re.Status != 404 || re.Code != "UnknownOperationException" {
				t.Errorf("%s %s: %v, %v; want an unknown operation", tc.method, tc.path, op, err)
			}
			continue
		}
		if err != nil || op.Name != tc.op {
			t.Errorf("%s %s: %v, %v; want %s", tc.method, tc.path, op, err, tc.op)
			continue
		}
		if tc.xyz == "" {
			continue
		}
		in, err := srv.DecodeRequest(context.Background(), op, req)
		if err != nil || string(in) != `{"xyz":"`+tc.xyz+`"}` {
			t.Errorf("%s %s: input %s, %v; want xyz %q", tc.method, tc.path, in, err, tc.xyz)
		}
	}
}

// Requests a server refuses: the status, code and Smithy message of each.
func TestServerRefuses(t *testing.T) {
	m, svc := loadRoutingModel(t)
	srv, err := NewServer(m, svc, WithValidation())
	if err != nil {
		t.Fatal(err)
	}
	op, _ := svc.Operation("F")
	jsonCT := wire.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		name   string
		header wire.Header
		body   string
		status int
		code   string
		msg    string
	}{
		{"media type", wire.Header{"Content-Type": {"application/hal+json"}}, "{}", 415, "UnsupportedMediaTypeException", ""},
		{"no media type", nil, "{}", 415, "UnsupportedMediaTypeException", ""},
		{"accept", wire.Header{"Content-Type": {"application/json"}, "Accept": {"text/plain"}}, "{}", 406, "NotAcceptableException", ""},
		{"syntax", jsonCT, "{", 400, "SerializationException", ""},
		{"type", jsonCT, `{"s":1}`, 400, "SerializationException", ""},
		{"header", wire.Header{"Content-Type": {"application/json"}, "X-N": {"1.5"}}, "{}", 400, "SerializationException", ""},
		{"length", jsonCT, `{"s":"a"}`, 400, "", "Value with length 1 at '/s' failed to satisfy constraint: Member must have length greater than or equal to 2"},
	} {
		h := tc.header
		if h == nil {
			h = wire.Header{}
		}
		_, err := srv.DecodeRequest(context.Background(), op, &wire.Request{Method: "POST", Path: "/q?flag", Header: h, Body: []byte(tc.body)})
		var re *RequestError
		var ve *ValidationError
		switch {
		case tc.msg != "":
			if !errors.As(err, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Message != tc.msg || ve.Violations[0].Path != "/s" {
				t.Errorf("%s: %v, want the violation %q", tc.name, err, tc.msg)
			}
		case !errors.As(err, &re) || re.Status != tc.status || re.Code != tc.code:
			t.Errorf("%s: %v, want %d %s", tc.name, err, tc.status, tc.code)
		case !strings.Contains(re.Error(), "request for F"):
			t.Errorf("%s: %q does not name the operation", tc.name, re.Error())
		}
	}
}

// BenchmarkServerRequest routes and decodes PutItem, a request with a
// member in every location.
func BenchmarkServerRequest(b *testing.B) {
	m, svc := loadTestModel(b)
	c, _ := New(m, svc)
	srv, err := NewServer(m, svc, WithValidation())
	if err != nil {
		b.Fatal(err)
	}
	op, _ := svc.Operation("PutItem")
	req, err := c.EncodeRequest(context.Background(), op, []byte(shopInput))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		o, err := srv.Route(req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := srv.DecodeRequest(context.Background(), o, req); err != nil {
			b.Fatal(err)
		}
	}
}
