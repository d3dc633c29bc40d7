package protocol

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const testModel = `$version: "2"
namespace example

use aws.protocols#restJson1

@restJson1
service Shop {
    version: "1"
    operations: [PutItem, GetItem]
    errors: [NotFound, Throttled]
}

@http(method: "PUT", uri: "/items/{id}/files/{path+}?mode=fast")
operation PutItem {
    input := {
        @required @httpLabel id: String
        @required @httpLabel path: String
        @httpQuery("tag") tags: Tags
        @httpQuery("ratio") ratio: Double
        @httpQuery("since") since: Timestamp
        @httpHeader("X-Names") names: Tags
        @httpHeader("X-When") when: Timestamp
        @httpHeader("X-Json") @mediaType("application/json") json: String
        @httpQueryParams extra: StringMap
        lines: Lines
        @length(max: 3) note: String
        @range(min: 1, max: 10) count: Integer
        color: Color
        @pattern("^[a-z]+$") code: String
        ids: Ids
        @jsonName("Stamp") stamp: Timestamp
        @timestampFormat("date-time") isoStamp: Timestamp
        data: Blob
        @idempotencyToken token: String
    }
    output := {
        @httpHeader("X-Names") names: Tags
        @httpHeader("X-Dates") dates: Dates
        @httpResponseCode code: Integer
        @jsonName("Stamp") stamp: Timestamp
        size: Long = 7
        lines: Lines
    }
}

@readonly
@http(method: "GET", uri: "/items/{id}")
operation GetItem {
    input := { @required @httpLabel id: String }
    output := { @httpPayload body: Blob }
}

@error("client") @httpError(404)
structure NotFound { message: String, @httpHeader("X-Id") id: String }

@error("server") @httpError(503)
structure Throttled { message: String }

list Tags { member: String }
@uniqueItems
list Ids { member: Integer }
list Dates { member: Timestamp }
list Lines { member: Line }
structure Line { @required @length(min: 1) name: String, qty: Integer }
map StringMap { key: String, value: String }
enum Color { RED, GREEN }
`

func loadTestModel(t testing.TB) (*model.Model, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("protocol_test.smithy", []byte(testModel))
	l.AddSource("aws.protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service")
@protocolDefinition
structure restJson1 {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("example#Shop")
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

func newTestCodec(t testing.TB, opts ...Option) (Codec, *model.Service) {
	m, svc := loadTestModel(t)
	opts = append([]Option{WithIdempotencyTokens(func() string { return "tok" })}, opts...)
	return NewRestJSON1(m, opts...), svc
}

func encode(t *testing.T, c Codec, svc *model.Service, op, input string) *wire.Request {
	t.Helper()
	o, err := svc.Operation(op)
	if err != nil {
		t.Fatal(err)
	}
	req, err := c.EncodeRequest(context.Background(), o, []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestLabelEncoding(t *testing.T) {
	c, svc := newTestCodec(t)
	req := encode(t, c, svc, "PutItem", `{"id": "a b/c%", "path": "x y/z/ü"}`)
	want := "/items/a%20b%2Fc%25/files/x%20y/z/%C3%BC?mode=fast"
	if req.Path != want {
		t.Errorf("path %q, want %q", req.Path, want)
	}
	if req.Method != "PUT" {
		t.Errorf("method %q", req.Method)
	}
}

func TestQueryValues(t *testing.T) {
	c, svc := newTestCodec(t)
	req := encode(t, c, svc, "PutItem", `{"id": "1", "path": "p", "tags": ["a", "b&c"], "ratio": "NaN",
		"since": 1576540098.5, "extra": {"tag": "ignored", "other": "x y"}}`)
	want := "/items/1/files/p?mode=fast&tag=a&tag=b%26c&ratio=NaN&since=2019-12-16T23%3A48%3A18.5Z&other=x%20y"
	if req.Path != want {
		t.Errorf("path\n %q, want\n %q", req.Path, want)
	}
	req = encode(t, c, svc, "PutItem", `{"id": "1", "path": "p", "ratio": "-Infinity", "tags": []}`)
	if want := "/items/1/files/p?mode=fast&ratio=-Infinity"; req.Path != want {
		t.Errorf("path %q, want %q", req.Path, want)
	}
}

func TestHeaders(t *testing.T) {
	c, svc := newTestCodec(t)
	req := encode(t, c, svc, "PutItem", `{"id": "1", "path": "p", "names": ["a", "b,c", "say \"hi\""],
		"when": 1576540098, "json": "true"}`)
	if got, want := req.Header.Get("X-Names"), `a, "b,c", "say \"hi\""`; got != want {
		t.Errorf("X-Names %q, want %q", got, want)
	}
	if got, want := req.Header.Get("X-When"), "Mon, 16 Dec 2019 23:48:18 GMT"; got != want {
		t.Errorf("X-When %q, want %q", got, want)
	}
	if got, want := req.Header.Get("X-Json"), "dHJ1ZQ=="; got != want {
		t.Errorf("X-Json %q, want %q", got, want)
	}
}

func TestBody(t *testing.T) {
	c, svc := newTestCodec(t)
	req := encode(t, c, svc, "PutItem", `{"id": "1", "path": "p", "stamp": "2019-12-16T23:48:18.250+01:00",
		"isoStamp": 0, "data": "AAE=", "lines": [{"name": "x"}]}`)
	want := `{"lines":[{"name":"x"}],"Stamp":1576536498.25,"isoStamp":"1970-01-01T00:00:00Z","data":"AAE=","token":"tok"}`
	if string(req.Body) != want {
		t.Errorf("body\n %s, want\n %s", req.Body, want)
	}
	if req.Header.Get("Content-Type") != "application/json" || req.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("headers %v", req.Header)
	}
	req = encode(t, c, svc, "GetItem", `{"id": "1"}`)
	if len(req.Body) != 0 || req.Header.Get("Content-Type") != "" {
		t.Errorf("GET without body members: body %q, headers %v", req.Body, req.Header)
	}
}

func TestValidationMessages(t *testing.T) {
	c, svc := newTestCodec(t, WithValidation())
	op, _ := svc.Operation("PutItem")
	_, err := c.EncodeRequest(context.Background(), op, []byte(`{"path": "p",
		"lines": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": ""}, {"qty": 1}],
		"note": "long", "count": 11, "color": "BLUE", "code": "ABC", "ids": [1, 2, 1]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *ValidationError, got %v", err)
	}
	want := []string{
		"id: is required",
		"lines[3].name: length 0 is below the minimum 1",
		"lines[4].name: is required",
		"note: length 4 is above the maximum 3",
		"count: value 11 is above the maximum 10",
		`color: value "BLUE" is not one of "GREEN", "RED"`,
		`code: value "ABC" does not match the pattern ^[a-z]+$`,
		"ids: items 0 and 2 are equal; the list must have unique items",
	}
	var got []string
	for _, v := range ve.Violations {
		got = append(got, v.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(err.Error(), "invalid input for PutItem: id: is required; lines[3].name: length 0") {
		t.Errorf("message %q", err)
	}

	// Turned off, the same input is sent (the label is still needed).
	c2, _ := newTestCodec(t, WithValidation(), WithoutValidation())
	if _, err := c2.EncodeRequest(context.Background(), op, []byte(`{"id": "1", "path": "p", "note": "long"}`)); err != nil {
		t.Errorf("without validation: %v", err)
	}
}

// By default (the Smithy specification's rule for clients) the constraint
// traits are not enforced, but @required is, with the same messages.
func TestValidationDefault(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithoutValidation()}} {
		c, svc := newTestCodec(t, opts...)
		op, _ := svc.Operation("PutItem")
		req, err := c.EncodeRequest(context.Background(), op, []byte(`{"id": "1", "path": "p",
			"lines": [{"name": ""}], "note": "long", "count": 11, "color": "BLUE", "code": "ABC", "ids": [1, 1]}`))
		if err != nil {
			t.Fatalf("a constraint violation is refused by default: %v", err)
		}
		want := `{"lines":[{"name":""}],"note":"long","count":11,"color":"BLUE","code":"ABC","ids":[1,1],"token":"tok"}`
		if string(req.Body) != want {
			t.Errorf("body\n %s, want\n %s", req.Body, want)
		}
		_, err = c.EncodeRequest(context.Background(), op, []byte(`{"path": "p", "lines": [{"name": "a"}, {"qty": 1}], "note": "long"}`))
		var ve *ValidationError
		if !errors.As(err, &ve) || err.Error() != "invalid input for PutItem: id: is required; lines[1].name: is required" {
			t.Errorf("@required by default: %v", err)
		}
	}
}

func TestInputErrors(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("PutItem")
	for _, in := range []string{`{"id": "1", "path": "p", "nope": 1}`, `{"id": "1", "path": "p", "count": "x"}`, `{"id": `} {
		_, err := c.EncodeRequest(context.Background(), op, []byte(in))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: want *InputError, got %v", in, err)
		}
	}
}

func TestDecodeOutput(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("PutItem")
	resp := &wire.Response{Status: 201, Header: wire.Header{
		"X-Names": {`a, "b,c", "say \"hi\""`},
		"X-Dates": {"Mon, 16 Dec 2019 23:48:18 GMT, Tue, 17 Dec 2019 23:48:18 GMT"},
	}, Body: []byte(`{"Stamp": 1576540098.123, "lines": [{"name": "x"}, null], "unknown": {"a": [1]}}`)}
	out, err := c.DecodeResponse(context.Background(), op, resp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":201,"names":["a","b,c","say \"hi\""],"dates":["2019-12-16T23:48:18Z","2019-12-17T23:48:18Z"],` +
		`"stamp":"2019-12-16T23:48:18.123Z","lines":[{"name":"x"}],"size":7}`
	if string(out) != want {
		t.Errorf("output\n %s, want\n %s", out, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("GetItem")
	cases := []struct {
		header, body string
		status       int
		shape        model.ShapeID
		code         string
	}{
		{"example#NotFound:http://internal.example.com/", `{"message": "gone"}`, 404, "example#NotFound", "NotFound"},
		{"", `{"__type": "example#Throttled", "message": "slow down"}`, 503, "example#Throttled", "Throttled"},
		{"", `{"code": "NotFound"}`, 404, "example#NotFound", "NotFound"},
		{"", `{"code": "Other"}`, 400, "", "Other"},
	}
	for _, tc := range cases {
		resp := &wire.Response{Status: tc.status, Header: wire.Header{}, Body: []byte(tc.body)}
		if tc.header != "" {
			resp.Header.Set("X-Amzn-Errortype", tc.header)
		}
		resp.Header.Set("X-Id", "42")
		_, err := c.DecodeResponse(context.Background(), op, resp)
		var se *ServiceError
		if !errors.As(err, &se) {
			t.Fatalf("want *ServiceError, got %v", err)
		}
		if se.Shape != tc.shape || se.Code != tc.code || se.Status != tc.status {
			t.Errorf("%s %s: got shape %q code %q status %d", tc.header, tc.body, se.Shape, se.Code, se.Status)
		}
	}
	resp := &wire.Response{Status: 404, Header: wire.Header{"X-Amzn-Errortype": {"NotFound"}, "X-Id": {"42"}}, Body: []byte(`{"message":"gone"}`)}
	_, err := c.DecodeResponse(context.Background(), op, resp)
	se := err.(*ServiceError)
	if string(se.Members) != `{"id":"42","message":"gone"}` || se.Error() != "example#NotFound (HTTP 404): gone" {
		t.Errorf("members %s, message %q", se.Members, se.Error())
	}
}

func TestSanitizeErrorType(t *testing.T) {
	for in, want := range map[string]string{
		"FooError":                             "FooError",
		"FooError:http://internal.amazon.com/": "FooError",
		"aws.protocoltests.restjson#FooError":  "FooError",
		"aws.protocoltests.restjson#FooError:http://internal.amazon.com/swagger/2016-10-19/": "FooError",
		" FooError ": "FooError",
	} {
		if got := sanitizeErrorType(in); got != want {
			t.Errorf("sanitizeErrorType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTimestamps(t *testing.T) {
	for lit, want := range map[string]string{
		"0":             "1970-01-01T00:00:00Z",
		"1576540098":    "2019-12-16T23:48:18Z",
		"1576540098.5":  "2019-12-16T23:48:18.5Z",
		"-1.5":          "1969-12-31T23:59:58.5Z",
		"1.576540098e9": "2019-12-16T23:48:18Z",
	} {
		ts, err := parseEpoch(lit)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendDateTime(nil, ts)); got != want {
			t.Errorf("%s: %s, want %s", lit, got, want)
		}
		if lit != "1.576540098e9" {
			if got := string(appendEpoch(nil, ts)); got != lit {
				t.Errorf("epoch round trip %s: %s", lit, got)
			}
		}
	}
	ts, err := parseHTTPDate("Mon, 16 Dec 2019 23:48:18 GMT")
	if err != nil || ts.sec != 1576540098 {
		t.Errorf("http-date: %v %v", ts, err)
	}
	ts, err = parseDateTime("2019-12-16T23:48:18.123-02:00")
	if err != nil || string(appendDateTime(nil, ts)) != "2019-12-17T01:48:18.123Z" {
		t.Errorf("date-time with offset: %v %v", ts, err)
	}
}

func TestSplitHeaderList(t *testing.T) {
	got := splitHeaderList(`a, "b,c" , "say \"hi\"",d`)
	want := []string{"a", "b,c", `say "hi"`, "d"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestConcurrentUse(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("PutItem")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if _, err := c.EncodeRequest(context.Background(), op, []byte(`{"id":"1","path":"p","lines":[{"name":"x"}]}`)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestUntaggedUnionDecode(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("u.smithy", []byte(`$version: "2"
namespace u
use alloy#simpleRestJson
use alloy#untagged
@simpleRestJson
service S { version: "1", operations: [Get] }
@readonly @http(method: "GET", uri: "/")
operation Get { output := { v: U } }
@untagged
union U { a: A, b: B, n: Integer }
structure A { @required x: String }
structure B { @required y: String }
`))
	l.AddSource("alloy.smithy", []byte(`$version: "2"
namespace alloy
@trait(selector: "service") @protocolDefinition structure simpleRestJson {}
@trait(selector: "union") structure untagged {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service("u#S")
	op, _ := svc.Operation("Get")
	c := NewSimpleRestJSON(m)
	for body, want := range map[string]string{
		`{"v": {"y": "1"}}`: `{"v":{"b":{"y":"1"}}}`,
		`{"v": {"x": "1"}}`: `{"v":{"a":{"x":"1"}}}`,
		`{"v": 3}`:          `{"v":{"n":3}}`,
	} {
		out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Header: wire.Header{}, Body: []byte(body)})
		if err != nil || string(out) != want {
			t.Errorf("%s: got %s (%v), want %s", body, out, err, want)
		}
	}
	req, err := c.EncodeRequest(context.Background(), op, nil)
	if err != nil || req.Path != "/" {
		t.Errorf("request %v %v", req, err)
	}
}

func TestAppendCompact(t *testing.T) {
	in := "{\n  \"a b\": [1, 2],\t\"s\": \"x \\\" y\\\\\",\r\n \"n\": null }"
	want := `{"a b":[1,2],"s":"x \" y\\","n":null}`
	if got := string(appendCompact(nil, []byte(in))); got != want {
		t.Errorf("appendCompact = %s, want %s", got, want)
	}
}

func TestHeaderValuesCannotAddHeaders(t *testing.T) {
	h := wire.Header{}
	for _, bad := range []string{"a\r\nX-Evil: 1", "a\nb", "nul\x00"} {
		if err := setHeader(h, "X-Custom", bad); err == nil {
			t.Errorf("setHeader accepted %q", bad)
		}
	}
	if err := setHeader(h, "X-Bad Name", "v"); err == nil {
		t.Error("setHeader accepted a header name with a space")
	}
	if err := setHeader(h, "X-Ok", "tab\tand ünïcode"); err != nil || h.Get("X-Ok") != "tab\tand ünïcode" {
		t.Errorf("setHeader refused a valid value: %v", err)
	}
}

// A blob @httpPayload with an empty body is an empty blob, not an absent
// member (Lambda's Invoke with an empty Payload).
func TestEmptyBlobPayload(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("GetItem")
	for body, want := range map[string]string{"": `{"body":""}`, "hi": `{"body":"aGk="}`} {
		out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Header: wire.Header{}, Body: []byte(body)})
		if err != nil || string(out) != want {
			t.Errorf("body %q: got %s (%v), want %s", body, out, err, want)
		}
	}
}
