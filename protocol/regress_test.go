package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Regression tests of defects found by the property tests of
// testing/proptest.

// A label "." or ".." sent as is is removed by servers and proxies
// (dot-segment removal), sending the request to another path. A greedy
// label keeps its dot segments, as S3's protocol tests ask (a key is a path).
func TestLabelDotSegments(t *testing.T) {
	c, svc := newTestCodec(t)
	req := encode(t, c, svc, "PutItem", `{"id": "..", "path": "a/./../b"}`)
	want := "/items/%2E%2E/files/a/./../b?mode=fast"
	if req.Path != want {
		t.Errorf("path %q, want %q", req.Path, want)
	}
	req = encode(t, c, svc, "PutItem", `{"id": ".", "path": "..."}`)
	if want := "/items/%2E/files/...?mode=fast"; req.Path != want {
		t.Errorf("path %q, want %q", req.Path, want)
	}
}

// A list header item needing quotes is an RFC 9110 quoted-string: only "
// and \ escaped. strconv.Quote wrote \u0600 for U+0600, read back as
// "u0600".
func TestHeaderListQuoting(t *testing.T) {
	c, svc := newTestCodec(t)
	req := encode(t, c, svc, "PutItem", `{"id": "a", "path": "b", "names": ["x,\u0600\"\\", "é"]}`)
	if got, want := req.Header.Get("X-Names"), "\"x,\u0600\\\"\\\\\", é"; got != want {
		t.Errorf("X-Names %q, want %q", got, want)
	}
	if got := splitHeaderList(req.Header.Get("X-Names")); len(got) != 2 || got[0] != "x,\u0600\"\\" || got[1] != "é" {
		t.Errorf("read back as %q", got)
	}
}

// Header values lost Unicode white space at their ends (strings.TrimSpace):
// HTTP trims only spaces and tabs.
func TestHeaderTrimsOnlyOWS(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("PutItem")
	resp := &wire.Response{Status: 200, Header: wire.Header{"X-Names": {" \u00a0a\u2028, b\t"}}}
	out, err := c.DecodeResponse(context.Background(), op, resp)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\"names\":[\"\u00a0a\u2028\",\"b\"]"; !strings.Contains(string(out), want) {
		t.Errorf("output %s, want it to hold %s", out, want)
	}
	op, _ = svc.Operation("GetItem")
	resp = &wire.Response{Status: 404, Header: wire.Header{"X-Id": {"\u2028 x \u00a0"}, "X-Amzn-Errortype": {"NotFound"}}}
	_, err = c.DecodeResponse(context.Background(), op, resp)
	var se *ServiceError
	if !errors.As(err, &se) || !strings.Contains(string(se.Members), "\"id\":\"\u2028 x \u00a0\"") {
		t.Errorf("error %v, want members with the id kept whole", err)
	}
}

// A document member was copied after matching brackets only, so a body
// such as {"doc":{""}} came out as invalid JSON (found by
// FuzzDecodeResponse); an input document the same way went out invalid.
func TestDocumentsAreValidJSON(t *testing.T) {
	m, svc := loadDocModel(t)
	c := NewRestJSON1(m)
	op, _ := svc.Operation("Put")
	for _, body := range []string{`{"doc":{""}}`, `{"doc":[1,}]}`, `{"doc":{"a":tru}}`, `{"doc":[01]}`} {
		out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: []byte(body)})
		if err == nil {
			t.Errorf("response %s decoded to %s, want an error", body, out)
		}
		req, err := c.EncodeRequest(context.Background(), op, []byte(body))
		if err == nil {
			t.Errorf("input %s encoded to %s, want an error", body, req.Body)
		}
	}
	out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: []byte(`{"doc": {"a": [1, "x", null, {"b": {}}]}}`)})
	if err != nil || string(out) != `{"doc":{"a":[1,"x",null,{"b":{}}]}}` {
		t.Errorf("valid document: %s, %v", out, err)
	}
}

// An empty union, or one with two members, was refused with an error that
// named the union's shape but not the member holding it; a prefix-header
// value that is not a string (or not UTF-8) named no member either.
func TestBindingAndUnionErrorsNameTheMember(t *testing.T) {
	m, svc := loadDocModel(t)
	c := NewRestJSON1(m)
	op, _ := svc.Operation("Put")
	for in, want := range map[string]string{
		`{"u": {}}`:                    "member u: union example.doc#U: no member is set",
		`{"us": [{"a": "x"}, {}]}`:     "member us[1]: union example.doc#U: no member is set",
		"{\"pre\": {\"k\": \"\xff\"}}": `member pre["k"]: `,
		`{"pre": {"k": 1}}`:            `member pre["k"]: expected a string`,
		`{"u": {"a": "x", "b": 1}}`:    "member u: union example.doc#U: more than one member is set",
	} {
		_, err := c.EncodeRequest(context.Background(), op, []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", in, err, want)
		}
	}
}

func loadDocModel(t *testing.T) (*model.Model, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("doc.smithy", []byte(`$version: "2"
namespace example.doc
use aws.protocols#restJson1
@restJson1
service Svc { version: "1", operations: [Put] }
@http(method: "POST", uri: "/put")
operation Put { input := { doc: Document, u: U, us: Us, p: P, @httpPrefixHeaders("X-P-") pre: M }, output := { doc: Document, @httpHeader("X-N") n: Integer, @httpHeader("X-F") f: Double } }
map M { key: String, value: String }
structure P { @length(max: 5) a: String, @required b: String }
union U { a: String, b: Integer }
list Us { member: U }
`))
	l.AddSource("aws.protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure restJson1 {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("example.doc#Svc")
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

// Invalid UTF-8 in an input string went out as is (invalid JSON, or bytes
// in a header); a list, map or map item of the wrong type in a query,
// header or prefix-header binding failed with "invalid JSON at offset N"
// naming no member.
func TestInputErrorsNameTheMember(t *testing.T) {
	c, svc := newTestCodec(t)
	op, _ := svc.Operation("PutItem")
	for in, want := range map[string]string{
		"{\"id\": \"a\", \"path\": \"b\", \"note\": \"x\xffy\"}":              "member note: ",
		"{\"id\": \"a\", \"path\": \"b\", \"lines\": [{\"name\": \"\xc3\"}]}": "member lines[0].name: ",
		"{\"id\": \"a\xff\", \"path\": \"b\"}":                                "member id: ",
		`{"id": "a", "path": "b", "tags": {}}`:                                "member tags: expected a list",
		`{"id": "a", "path": "b", "names": "x"}`:                              "member names: expected a list",
		`{"id": "a", "path": "b", "extra": []}`:                               "member extra: expected a map",
	} {
		req, err := c.EncodeRequest(context.Background(), op, []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v (request %v), want one saying %q", in, err, req, want)
		}
	}
	// A response with invalid UTF-8 in a string is refused, not passed on.
	op, _ = svc.Operation("PutItem")
	if out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: []byte("{\"lines\": [{\"name\": \"\xff\"}]}")}); err == nil {
		t.Errorf("invalid UTF-8 decoded to %q", out)
	}
}

// A string the validator could not read (invalid UTF-8) left it reading
// from the middle of the value: it reported the members that follow as
// missing ("p.b: is required") instead of the bad string.
func TestValidatorStopsAtUnreadableValues(t *testing.T) {
	m, svc := loadDocModel(t)
	op, _ := svc.Operation("Put")
	for _, c := range []Codec{NewRestJSON1(m), NewRestJSON1(m, WithValidation())} {
		_, err := c.EncodeRequest(context.Background(), op, []byte("{\"p\": {\"a\": \"\xff\", \"b\": \"x\"}}"))
		if err == nil || !strings.Contains(err.Error(), "member p.a: ") || strings.Contains(err.Error(), "required") {
			t.Errorf("error %v, want one about p.a only", err)

		}
	}
}

// Numbers in response headers were checked with ParseInt and ParseFloat,
// which take "00", "+1", "0x1p3" and "inf", then copied into the output as
// invalid JSON (found by FuzzDecodeError: X-Code: 00).
func TestHeaderNumbersAreJSON(t *testing.T) {
	m, dsvc := loadDocModel(t)
	dc := NewRestJSON1(m)
	dop, _ := dsvc.Operation("Put")
	for _, v := range []string{"00", "+1", "0x10", "1_0", "01.5"} {
		for _, h := range []string{"X-N", "X-F"} {
			out, err := dc.DecodeResponse(context.Background(), dop, &wire.Response{Status: 200, Header: wire.Header{h: {v}}})
			if err == nil {
				t.Errorf("%s: %q decoded to %s, want an error", h, v, out)
			}
		}
	}
	for h, v := range map[string]string{"X-N": "-12", "X-F": "1.5e3"} {
		out, err := dc.DecodeResponse(context.Background(), dop, &wire.Response{Status: 200, Header: wire.Header{h: {v}}})
		if err != nil || !strings.Contains(string(out), ":"+v) {
			t.Errorf("%s: %q decoded to %s, %v", h, v, out, err)
		}
	}
}

// A string with an escape JSON does not have (\0, \x41, \q, \u12) was
// copied as is: a response or error member decoded to invalid JSON, an
// input string went out invalid (found by FuzzDecodeError in CI:
// {"TopLevel":"\0"}).
func TestInvalidEscapesAreRefused(t *testing.T) {
	c, svc := newTestCodec(t)
	put, _ := svc.Operation("PutItem")
	get, _ := svc.Operation("GetItem")
	for _, esc := range []string{`\0`, `\x41`, `\q`, `\u12`, `\u12g4`, `\`} {
		in := `{"id": "a", "path": "b", "note": "x` + esc + `"}`
		if req, err := c.EncodeRequest(context.Background(), put, []byte(in)); err == nil || !strings.Contains(err.Error(), "member note: ") {
			t.Errorf("input %s: error %v (request %v), want one naming note", in, err, req)
		}
		body := `{"lines": [{"name": "x` + esc + `"}]}`
		if out, err := c.DecodeResponse(context.Background(), put, &wire.Response{Status: 200, Body: []byte(body)}); err == nil {
			t.Errorf("response %s decoded to %s, want an error", body, out)
		}
		resp := &wire.Response{Status: 404, Header: wire.Header{"X-Amzn-Errortype": {"NotFound"}}, Body: []byte(`{"message": "m` + esc + `"}`)}
		var se *ServiceError
		if err := func() error { _, err := c.DecodeResponse(context.Background(), get, resp); return err }(); errors.As(err, &se) && se.Modeled() {
			t.Errorf("error body %s decoded to members %s, want a response error", resp.Body, se.Members)
		}
	}
	for _, ok := range []string{`\"`, `\\`, `\/`, `\b\f\n\r\t`, `\u00e9\uD83D\uDE00`} {
		in := `{"id": "a", "path": "b", "note": "x` + ok + `"}`
		if _, err := c.EncodeRequest(context.Background(), put, []byte(in)); err != nil {
			t.Errorf("input %s: %v", in, err)
		}
	}
}

// A null item in a list or map that is not @sparse was left out of the
// request (a list's later items moved to other indexes) unless validation
// was on: it is an input error in every protocol, whatever the options; a
// sparse collection keeps its null (JSON, CBOR) or leaves it out (XML and
// query, which have no null).
func TestDenseNullsAreRefused(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("nulls.smithy", []byte(`$version: "2"
namespace example.nulls
use aws.protocols#restJson1
use aws.protocols#restXml
use aws.protocols#awsQuery
use smithy.protocols#rpcv2Cbor
@restJson1 service J { version: "1", operations: [Put] }
@restXml service X { version: "1", operations: [Put] }
@awsQuery @xmlNamespace(uri: "https://example.com/") service Q { version: "1", operations: [Put] }
@rpcv2Cbor service C { version: "1", operations: [Put] }
@http(method: "POST", uri: "/put/{id}")
operation Put {
    input := {
        @required @httpLabel id: String
        l: L, m: M, sl: SL, sm: SM
        @httpHeader("X-H") h: L
        @httpQuery("q") q: L
        @httpPrefixHeaders("X-P-") p: M
    }
}
list L { member: String }
map M { key: String, value: String }
@sparse list SL { member: String }
@sparse map SM { key: String, value: String }
`))
	l.AddSource("protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure restJson1 {}
@trait(selector: "service") @protocolDefinition structure restXml {}
@trait(selector: "service") @protocolDefinition structure awsQuery {}
`))
	l.AddSource("rpcv2.smithy", []byte(`$version: "2"
namespace smithy.protocols
@trait(selector: "service") @protocolDefinition structure rpcv2Cbor {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"J", "X", "Q", "C"} {
		svc, err := m.Service(model.ShapeID("example.nulls#" + name))
		if err != nil {
			t.Fatal(err)
		}
		op, _ := svc.Operation("Put")
		for _, opts := range [][]Option{nil, {WithValidation()}} {
			c, err := New(m, svc, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for in, want := range map[string]string{
				`{"id": "a", "l": ["x", null, "y"]}`: "member l[1]: null in a list that is not @sparse",
				`{"id": "a", "m": {"k": null}}`:      `member m["k"]: null in a map that is not @sparse`,
				`{"id": "a", "h": [null]}`:           "member h[0]: null in a list",
				`{"id": "a", "q": ["x", null]}`:      "member q[1]: null in a list",
				`{"id": "a", "p": {"k": null}}`:      `member p["k"]: null in a map`,
			} {
				if name != "J" && name != "X" && (strings.Contains(in, `"h"`) || strings.Contains(in, `"q"`) || strings.Contains(in, `"p"`)) {
					continue // HTTP bindings: REST protocols only
				}
				req, err := c.EncodeRequest(context.Background(), op, []byte(in))
				var ie *InputError
				if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
					t.Errorf("%s %s (%d options): error %v (request %v), want an input error saying %q", name, in, len(opts), err, req, want)
				}
			}
			if _, err := c.EncodeRequest(context.Background(), op, []byte(`{"id": "a", "sl": ["x", null], "sm": {"k": null}}`)); err != nil {
				t.Errorf("%s: sparse nulls: %v", name, err)
			}
		}
	}
}
