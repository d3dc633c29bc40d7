package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const rpcv2TestModel = `$version: "2"
namespace example.rpc

use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

@rpcv2Cbor
service Store {
    version: "1"
    operations: [Echo, Ping]
}

@rpcv2Json
service StoreJson {
    version: "1"
    operations: [Echo, Ping]
}

operation Ping {}

operation Echo {
    input: Everything
    output: Everything
    errors: [Oops]
}

structure Everything {
    s: String
    e: Color
    n: Integer
    b: Byte
    l: Long
    big: BigInteger
    dec: BigDecimal
    f: Float
    d: Double
    t: Timestamp
    @timestampFormat("date-time") iso: Timestamp
    blob: Blob
    ok: Boolean
    list: Strings
    sparse: SparseStrings
    map: StringMap
    smap: SparseMap
    u: Choice
    doc: Document
    nested: Nested
    deep: Deep
}

structure Nested {
    a: String
    z: Integer = 3
}

structure Deep { next: Deep, v: Integer }

enum Color { RED, GREEN }
list Strings { member: String }
@sparse list SparseStrings { member: String }
map StringMap { key: String, value: Integer }
@sparse map SparseMap { key: String, value: String }
union Choice { text: String, num: Integer, nested: Nested }

@error("client")
structure Oops { message: String, code: Integer }
`

func rpcv2Codec(t testing.TB, svcID model.ShapeID) (Codec, *model.Operation) {
	t.Helper()
	return modelCodec(t, rpcv2TestModel, svcID, "Echo")
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("output is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if !bytes.Equal(gb, wb) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

const everything = `{"s":"héllo \"q\"","e":"GREEN","n":-7,"b":127,"l":9007199254740993,
	"big":123456789012345678901234567890,"dec":-12345678901234567890.000000000000000000001,
	"f":1.5,"d":"NaN","t":"2024-05-01T12:30:45.123Z","iso":1700000000,"blob":"aGVsbG8=","ok":true,
	"list":["a","b"],"sparse":["x",null],"map":{"k":1},"smap":{"k":null,"j":"v"},
	"u":{"nested":{"a":"in"}},"doc":{"any":[1,"two",null,true,1.5]},
	"nested":{"a":"x"},"deep":{"next":{"next":{"v":3}}}}`

const everythingOut = `{"s":"héllo \"q\"","e":"GREEN","n":-7,"b":127,"l":9007199254740993,
	"big":123456789012345678901234567890,"dec":-12345678901234567890.000000000000000000001,
	"f":1.5,"d":"NaN","t":"2024-05-01T12:30:45.123Z","iso":"2023-11-14T22:13:20Z","blob":"aGVsbG8=","ok":true,
	"list":["a","b"],"sparse":["x",null],"map":{"k":1},"smap":{"k":null,"j":"v"},
	"u":{"nested":{"a":"in","z":3}},"doc":{"any":[1,"two",null,true,1.5]},
	"nested":{"a":"x","z":3},"deep":{"next":{"next":{"v":3}}}}`

// Every kind of value goes to CBOR and back unchanged (the request body is
// read back as a response of the same structure).
func TestRPCv2CBORRoundTrip(t *testing.T) {
	c, op := rpcv2Codec(t, "example.rpc#Store")
	ctx := context.Background()
	req, err := c.EncodeRequest(ctx, op, []byte(everything))
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != "POST" || req.Path != "/service/Store/operation/Echo" {
		t.Errorf("request line %s %s", req.Method, req.Path)
	}
	for k, v := range map[string]string{"Smithy-Protocol": "rpc-v2-cbor", "Content-Type": "application/cbor", "Accept": "application/cbor"} {
		if got := req.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	diag := cbor.Diagnostic(req.Body)
	for _, want := range []string{`"big": 2(h'018ee90ff6c373e0ee4e3f0ad2')`, `"t": 1(1714566645.123)`, `"blob": h'68656c6c6f'`,
		`"dec": 4([-21, 3(h'`, `"d": NaN`, `"iso": 1(1700000000)`} {
		if !strings.Contains(diag, want) {
			t.Errorf("body %s lacks %s", diag, want)
		}
	}
	out, err := c.DecodeResponse(ctx, op, &wire.Response{Status: 200,
		Header: wire.Header{"Smithy-Protocol": {"rpc-v2-cbor"}}, Body: req.Body})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(out), everythingOut)
}

func TestRPCv2JSONRoundTrip(t *testing.T) {
	c, op := rpcv2Codec(t, "example.rpc#StoreJson")
	ctx := context.Background()
	req, err := c.EncodeRequest(ctx, op, []byte(everything))
	if err != nil {
		t.Fatal(err)
	}
	body := string(req.Body)
	for _, want := range []string{`"big":"123456789012345678901234567890"`, `"dec":"-12345678901234567890.000000000000000000001"`,
		`"t":1714566645.123`, `"iso":1700000000`} {
		if !strings.Contains(body, want) {
			t.Errorf("body %s lacks %s", body, want)
		}
	}
	if req.Header.Get("Smithy-Protocol") != "rpc-v2-json" || req.Header.Get("Accept") != "application/json" {
		t.Errorf("headers %v", req.Header)
	}
	out, err := c.DecodeResponse(ctx, op, &wire.Response{Status: 200,
		Header: wire.Header{"Smithy-Protocol": {"rpc-v2-json"}}, Body: req.Body})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(out), everythingOut)
	// A big number must be a number in its string.
	_, err = c.DecodeResponse(ctx, op, &wire.Response{Status: 200,
		Header: wire.Header{"Smithy-Protocol": {"rpc-v2-json"}}, Body: []byte(`{"big":"1.5"}`)})
	if err == nil || !strings.Contains(err.Error(), "member Everything.big") {
		t.Errorf("bigInteger 1.5: %v", err)
	}
}

// Input values are type-checked as in every protocol: an input error with
// the member path, nothing sent.
func TestRPCv2CBORInputTypeChecks(t *testing.T) {
	c, op := rpcv2Codec(t, "example.rpc#Store")
	for in, want := range map[string]string{
		`{"b":128}`:                    "member b: 128",
		`{"n":1.5}`:                    "member n: 1.5 is not a whole number",
		`{"list":["a",1]}`:             "member list[1]: expected a string",
		`{"blob":"aGVsbG8"}`:           "member blob",
		`{"t":"2024-13-01T00:00:00Z"}`: "member t",
		`{"u":{"text":"a","num":1}}`:   "more than one member",
		`{"f":1e39}`:                   "member f",
	} {
		_, err := c.EncodeRequest(context.Background(), op, []byte(in))
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an input error with %q", in, err, want)
		}
	}
}

func TestRPCv2UnitInputAndErrors(t *testing.T) {
	c, _ := rpcv2Codec(t, "example.rpc#Store")
	cc := c.(*rpcCodec)
	ping, _ := cc.svc.Operation("Ping")
	req, err := c.EncodeRequest(context.Background(), ping, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Body) != 0 || req.Header.Get("Content-Type") != "" {
		t.Errorf("Unit input: body %q, Content-Type %q", req.Body, req.Header.Get("Content-Type"))
	}
	echo, _ := cc.svc.Operation("Echo")
	body := cbor.AppendText(append([]byte(nil), 0xa3), "__type")
	body = cbor.AppendText(body, "example.rpc#Oops")
	body = cbor.AppendText(body, "message")
	body = cbor.AppendText(body, "bad")
	body = cbor.AppendText(body, "code")
	body = cbor.AppendInt(body, 7)
	hdr := wire.Header{"Smithy-Protocol": {"rpc-v2-cbor"}, "X-Amzn-Errortype": {"Other"}}
	_, err = c.DecodeResponse(context.Background(), echo, &wire.Response{Status: 400, Header: hdr, Body: body})
	var se *ServiceError
	if !errors.As(err, &se) || se.Shape != "example.rpc#Oops" || se.Message != "bad" || string(se.Members) != `{"message":"bad","code":7}` {
		t.Fatalf("modeled error: %v %+v", err, se)
	}
	// An unmodeled error keeps its type and its members as JSON.
	body[len("\xa3\x66__type\x70example.rpc#")] = 'X'
	_, err = c.DecodeResponse(context.Background(), echo, &wire.Response{Status: 400, Header: hdr, Body: body})
	if !errors.As(err, &se) || se.Shape != "" || se.Code != "Xops" || !strings.HasPrefix(string(se.Members), `{"__type":"example.rpc#Xops"`) {
		t.Fatalf("unmodeled error: %v %+v", err, se)
	}
	// A response without the protocol's Smithy-Protocol header is malformed.
	_, err = c.DecodeResponse(context.Background(), echo, &wire.Response{Status: 200, Header: wire.Header{}, Body: []byte{0xa0}})
	var re *ResponseError
	if !errors.As(err, &re) {
		t.Errorf("no Smithy-Protocol: %v", err)
	}
}

func nested(depth int) []byte {
	// {"deep": {"next": {"next": ...}}}
	b := cbor.AppendText([]byte{0xa1}, "deep")
	for i := 0; i < depth; i++ {
		b = cbor.AppendText(append(b, 0xa1), "next")
	}
	return append(b, 0xa0)
}

// Bad CBOR never crashes and never allocates more than its size: a decode
// error saying what and where.
func TestRPCv2CBORBadResponses(t *testing.T) {
	c, op := rpcv2Codec(t, "example.rpc#Store")
	hdr := wire.Header{"Smithy-Protocol": {"rpc-v2-cbor"}}
	text := func(s string) []byte { return cbor.AppendText(nil, s) }
	m := func(parts ...[]byte) []byte {
		out := cbor.AppendHead(nil, cbor.MajorMap, uint64(len(parts)/2))
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cases := []struct {
		name string
		body []byte
		want string
	}{
		{"truncated", m(text("s"), text("hello"))[:6], "member Everything.s: CBOR at byte 4: declared length 5 is longer than the data"},
		{"wrong major type", m(text("n"), text("1")), "member Everything.n: expected a number, got a text string"},
		{"nesting 10000 deep", nested(10000), "nesting deeper than"},
		{"declared 2 GB", append(append([]byte{0xa1}, text("blob")...), 0x5a, 0x80, 0, 0, 0), "declared length 2147483648 is longer than the data"},
		{"invalid UTF-8", m(text("s"), []byte{0x62, 0xff, 0xfe}), "member Everything.s: CBOR at byte 3: text string is not valid UTF-8"},
		{"duplicate member", m(text("n"), []byte{1}, text("n"), []byte{2}), "member Everything.n: member sent twice"},
		{"duplicate map key", m(text("map"), m(text("k"), []byte{1}, text("k"), []byte{2})), `member Everything.map["k"]: duplicate map key`},
		{"unknown tag", m(text("n"), []byte{0xd8, 0x63, 1}), "member Everything.n: CBOR at byte 3: tag 99 is not a number"},
		{"JSON body", []byte(`{"s":"x"}`), "expected a map"},
		{"integer out of range", m(text("b"), []byte{0x19, 1, 0}), "member Everything.b: 256 is out of range"},
		{"trailing data", append(m(), 0), "data after the CBOR body"},
		{"indefinite string with a wrong chunk", m(text("s"), []byte{0x7f, 0x41, 'a', 0xff}), "chunk"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Header: hdr, Body: tc.body})
			runtime.ReadMemStats(&after)
			var re *ResponseError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want a response error with %q", err, tc.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("decoding %d bytes allocated %d bytes", len(tc.body), grew)
			}
		})
	}
}

func TestRPCv2Route(t *testing.T) {
	c, op := rpcv2Codec(t, "example.rpc#Store")
	if got := Route(c.(*rpcCodec).svc, op); got != "POST /service/Store/operation/Echo" {
		t.Errorf("route %q", got)
	}
}

// FuzzDecodeCBOR feeds arbitrary bodies to the rpcv2Cbor decoder: never a
// panic, and any output is valid JSON.
func FuzzDecodeCBOR(f *testing.F) {
	c, op := rpcv2Codec(f, "example.rpc#Store")
	req, err := c.EncodeRequest(context.Background(), op, []byte(everything))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(req.Body)
	f.Add(nested(40))
	f.Add([]byte{0xbf, 0x61, 's', 0x7f, 0x61, 'a', 0xff, 0xff})
	f.Add([]byte{0xa1, 0x61, 'f', 0xf9, 0x7c, 0x00})
	hdr := wire.Header{"Smithy-Protocol": {"rpc-v2-cbor"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, status := range []int{200, 400} {
			out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: status, Header: hdr, Body: body})
			var se *ServiceError
			if errors.As(err, &se) {
				out = se.Members
				if !se.Modeled() && !json.Valid(out) {
					continue // the raw body of an error that is not CBOR
				}
			}
			if out != nil && !json.Valid(out) {
				t.Fatalf("invalid JSON %q from %x", out, body)
			}
		}
		_ = cbor.Diagnostic(body)
	})
}

// FuzzDecodeRPCJSON feeds arbitrary bodies to the rpcv2Json decoder.
func FuzzDecodeRPCJSON(f *testing.F) {
	c, op := rpcv2Codec(f, "example.rpc#StoreJson")
	req, err := c.EncodeRequest(context.Background(), op, []byte(everything))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(req.Body)
	f.Add([]byte(`{"big":"-0","dec":"1e5","__type":"x"}`))
	hdr := wire.Header{"Smithy-Protocol": {"rpc-v2-json"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Header: hdr, Body: body})
		if err == nil && !json.Valid(out) {
			t.Fatalf("invalid JSON %q from %q", out, body)
		}
	})
}

// A deep value of a recursive shape is an error, not a stack overflow, in
// the JSON protocols too (input and response).
func TestRPCv2JSONNestingBound(t *testing.T) {
	c, op := rpcv2Codec(t, "example.rpc#StoreJson")
	deep := `{"deep":` + strings.Repeat(`{"next":`, 100000) + `{}` + strings.Repeat(`}`, 100000) + `}`
	if _, err := c.EncodeRequest(context.Background(), op, []byte(deep)); err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Errorf("input: %v", err)
	}
	_, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200,
		Header: wire.Header{"Smithy-Protocol": {"rpc-v2-json"}}, Body: []byte(deep)})
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Errorf("response: %v", err)
	}
}
