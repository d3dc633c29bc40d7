package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
)

const typesModel = `$version: "2"
namespace types

use aws.protocols#restJson1
use aws.protocols#awsJson1_0

@restJson1
service Rest { version: "1", operations: [Put, Upload] }

@awsJson1_0
service RPC { version: "1", operations: [Put] }

@http(method: "POST", uri: "/put/{label}/{when}")
operation Put {
    input := {
        @required @httpLabel label: Integer
        @required @httpLabel when: Timestamp
        @httpHeader("X-Byte") hbyte: Byte
        @httpHeader("X-When") hwhen: Timestamp
        @httpHeader("X-Blob") hblob: Blob
        @httpQuery("long") qlong: Long
        @httpQuery("dbl") qdbl: Double
        @httpQuery("ints") qints: Ints
        i: Integer
        b: Byte
        s: Short
        l: Long
        f: Float
        d: Double
        bi: BigInteger
        bd: BigDecimal
        e: Level
        t: Timestamp
        @timestampFormat("date-time") tdt: Timestamp
        blob: Blob
        nested: Nested
    }
}

@http(method: "POST", uri: "/upload")
operation Upload {
    input := { @httpPayload data: Blob }
}

list Ints { member: Integer }
map LongMap { key: String, value: Long }
structure Nested { items: Items, byKey: LongMap }
list Items { member: Item }
structure Item { n: Integer, at: Timestamp, raw: Blob }
intEnum Level {
    LOW = 1
    HIGH = 2
}
`

func typesCodecs(t *testing.T) (rest Codec, rpc Codec, restSvc, rpcSvc *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("types.smithy", []byte(typesModel))
	l.AddSource("aws.protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure restJson1 {}
@trait(selector: "service") @protocolDefinition structure awsJson1_0 {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	restSvc, _ = m.Service("types#Rest")
	rpcSvc, _ = m.Service("types#RPC")
	return NewRestJSON1(m), NewAWSJSON1_0(m, rpcSvc), restSvc, rpcSvc
}

// Values that do not fit their Smithy type are input errors naming the
// member path and the type's range, in the body, headers, query and labels,
// with validation on or off; they used to go out as given.
func TestTypeChecks(t *testing.T) {
	rest, rpc, restSvc, rpcSvc := typesCodecs(t)
	base := `"label": 1, "when": 0`
	cases := []struct{ member, want string }{
		{`"i": 1.5`, "member i: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
		{`"i": 1180591620717411303424`, "member i: 1180591620717411303424 is out of range (integer: -2147483648 to 2147483647)"},
		{`"i": 1e400`, "member i: 1e400 is out of range (integer: -2147483648 to 2147483647)"},
		{`"i": 2147483648`, "member i: 2147483648 is out of range (integer: -2147483648 to 2147483647)"},
		{`"i": 01`, "member i: invalid JSON at offset 29: 01 is not a JSON number"},
		{`"i": -`, "member i: invalid JSON at offset 29: - is not a JSON number"},
		{`"i": 1.`, "member i: invalid JSON at offset 29: 1. is not a JSON number"},
		{`"i": "1"`, "member i: expected a number"},
		{`"b": 128`, "member b: 128 is out of range (byte: -128 to 127)"},
		{`"b": -129`, "member b: -129 is out of range (byte: -128 to 127)"},
		{`"s": 32768`, "member s: 32768 is out of range (short: -32768 to 32767)"},
		{`"l": 9223372036854775808`, "member l: 9223372036854775808 is out of range (long: -9223372036854775808 to 9223372036854775807)"},
		{`"l": -9223372036854775809`, "member l: -9223372036854775809 is out of range (long: -9223372036854775808 to 9223372036854775807)"},
		{`"e": 1e10`, "member e: 1e10 is out of range (intEnum: -2147483648 to 2147483647)"},
		{`"e": 1.5`, "member e: 1.5 is not a whole number (intEnum: -2147483648 to 2147483647)"},
		{`"bi": 1.5`, "member bi: 1.5 is not a whole number (bigInteger)"},
		{`"bi": 1e100000`, "member bi: 1e100000 has more than 10000 digits (bigInteger)"},
		{`"d": 1e400`, "member d: 1e400 is out of range (double: ±1.7976931348623157e308)"},
		{`"d": "Infinit"`, `member d: expected a number, "NaN", "Infinity" or "-Infinity"`},
		{`"f": 1e39`, "member f: 1e39 is out of range (float: ±3.4028234663852886e38)"},
		{`"f": -1000000000000000000000000000000000000000`, "member f: -1000000000000000000000000000000000000000 is out of range (float: ±3.4028234663852886e38)"},
		{`"bd": 01.5`, "member bd: invalid JSON at offset 30: 01.5 is not a JSON number"},
		{`"t": 1e20`, "member t: timestamp 1e20 is out of range: years 0001 to 9999 (epoch seconds -62135596800 to 253402300799.999999999)"},
		{`"t": 1e308`, "member t: timestamp 1e308 is out of range"},
		{`"t": -1e20`, "member t: timestamp -1e20 is out of range"},
		{`"t": 253402300800`, "member t: timestamp 253402300800 is out of range"},
		{`"t": 99999999999999999999`, "member t: timestamp 99999999999999999999 is out of range"},
		{`"t": "NaN"`, `member t: invalid date-time "NaN"`},
		{`"t": "Infinity"`, `member t: invalid date-time "Infinity"`},
		{`"t": "0000-12-31T00:00:00Z"`, `member t: timestamp "0000-12-31T00:00:00Z" is out of range`},
		{`"tdt": 1e20`, "member tdt: timestamp 1e20 is out of range"},
		{`"blob": "!!!notbase64"`, "member blob: invalid base64: illegal character '!' at offset 0 (standard base64 with padding)"},
		{`"blob": "aGk"`, "member blob: invalid base64: the length is not a multiple of 4"},
		{`"blob": "a-_b"`, "member blob: invalid base64: illegal character '-' at offset 1"},
		{`"blob": "a=bc"`, "member blob: invalid base64: illegal character '=' at offset 1"},
		{`"nested": {"items": [{"n": 1}, {"n": 1.5}]}`, "member nested.items[1].n: 1.5 is not a whole number"},
		{`"nested": {"items": [{"at": 1e20}]}`, "member nested.items[0].at: timestamp 1e20 is out of range"},
		{`"nested": {"items": [{"raw": "@@@@"}]}`, "member nested.items[0].raw: invalid base64"},
		{`"nested": {"byKey": {"k x": 9223372036854775808}}`, `member nested.byKey["k x"]: 9223372036854775808 is out of range (long:`},
		{`"nested": {"items": 1}`, "member nested.items: expected an array"},
		{`"nested": {"byKey": []}`, "member nested.byKey: expected an object"},
		{`"nested": {"items": [{"nope": 1}]}`, `member nested.items[0]: types#Item has no member "nope"`},
	}
	httpCases := []struct{ member, want string }{
		{`"hbyte": 300`, "member hbyte: 300 is out of range (byte: -128 to 127)"},
		{`"hwhen": 1e20`, "member hwhen: timestamp 1e20 is out of range"},
		{`"hblob": "!!!!"`, "member hblob: invalid base64"},
		{`"qlong": 1e19`, "member qlong: 1e19 is out of range (long:"},
		{`"qdbl": 1e400`, "member qdbl: 1e400 is out of range (double:"},
		{`"qints": [1, 2.5]`, "member qints[1]: 2.5 is not a whole number (integer:"},
	}
	check := func(c Codec, svc *model.Service, op, input, want string) {
		t.Helper()
		o, _ := svc.Operation(op)
		_, err := c.EncodeRequest(context.Background(), o, []byte(input))
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s %s %s:\n got %v\nwant an *InputError containing %q", c.Protocol(), op, input, err, want)
		}
	}
	for _, tc := range cases {
		check(rest, restSvc, "Put", "{"+base+", "+tc.member+"}", tc.want)
		check(rpc, rpcSvc, "Put", "{"+base+", "+tc.member+"}", tc.want)
	}
	for _, tc := range httpCases {
		check(rest, restSvc, "Put", "{"+base+", "+tc.member+"}", tc.want)
	}
	check(rest, restSvc, "Put", `{"label": 2147483648, "when": 0}`, "member label: 2147483648 is out of range (integer:")
	check(rest, restSvc, "Put", `{"label": 1, "when": 1e20}`, "member when: timestamp 1e20 is out of range")
	check(rest, restSvc, "Put", `{"label": 1.5, "when": 0}`, "member label: 1.5 is not a whole number")
	check(rest, restSvc, "Upload", `{"data": "!!!notbase64"}`, "member data: invalid base64: illegal character '!'")
	// Type checks are not constraint validation: they stay on without it.
	rest2 := NewRestJSON1(restSvcModel(t), WithoutValidation())
	check(rest2, restSvc, "Put", `{"label": 1, "when": 0, "b": 128}`, "member b: 128 is out of range (byte: -128 to 127)")
}

func restSvcModel(t *testing.T) *model.Model {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("types.smithy", []byte(typesModel))
	l.AddSource("aws.protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure restJson1 {}
@trait(selector: "service") @protocolDefinition structure awsJson1_0 {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Values at the edges of their types go out, whole numbers written with a
// fraction or an exponent as plain digits.
func TestTypeChecksAccept(t *testing.T) {
	rest, _, restSvc, _ := typesCodecs(t)
	op, _ := restSvc.Operation("Put")
	in := `{"label": 1e1, "when": -62135596800, "hbyte": -128, "hwhen": "9999-12-31T23:59:59.999Z", "hblob": "aGk=",
		"qlong": -9223372036854775808, "qdbl": "NaN", "qints": [1.0, 2E2],
		"i": 2147483647, "b": 127, "s": -32768, "l": 9223372036854775807, "f": 3.4e38, "d": 1.7976931348623157e308,
		"bi": 123456789012345678901234567890.000e3, "bd": 1e400, "e": 3, "t": 253402300799.5, "tdt": -1.5,
		"blob": "", "nested": {"items": [{"n": -0, "at": 1e9, "raw": "aGVsbG8="}], "byKey": {"a": 10e-1}}}`
	req, err := rest.EncodeRequest(context.Background(), op, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"i":2147483647,"b":127,"s":-32768,"l":9223372036854775807,"f":3.4e38,"d":1.7976931348623157e308,` +
		`"bi":123456789012345678901234567890000,"bd":1e400,"e":3,"t":253402300799.5,"tdt":"1969-12-31T23:59:58.5Z",` +
		`"blob":"","nested":{"items":[{"n":-0,"at":1000000000,"raw":"aGVsbG8="}],"byKey":{"a":1}}}`
	if string(req.Body) != want {
		t.Errorf("body\n %s\nwant\n %s", req.Body, want)
	}
	if want := "/put/10/0001-01-01T00%3A00%3A00Z?long=-9223372036854775808&dbl=NaN&ints=1&ints=200"; req.Path != want {
		t.Errorf("path %s, want %s", req.Path, want)
	}
	if got := req.Header.Get("X-Byte") + "|" + req.Header.Get("X-When") + "|" + req.Header.Get("X-Blob"); got != "-128|Fri, 31 Dec 9999 23:59:59 GMT|aGk=" {
		t.Errorf("headers %s", got)
	}
}

func TestNumberGrammar(t *testing.T) {
	for lit, ok := range map[string]bool{
		"0": true, "-0": true, "12": true, "1.5": true, "-1.5e+3": true, "1E-2": true, "0.0": true,
		"01": false, "-": false, "1.": false, "+1": false, ".5": false, "1e": false, "1e+": false, "--1": false, "1.2.3": false, "0x1": false,
	} {
		s := scanner{data: []byte(lit)}
		got, err := s.number()
		if ok && (err != nil || string(got) != lit) {
			t.Errorf("%s: %q %v", lit, got, err)
		}
		if !ok && err == nil && s.atEnd() {
			t.Errorf("%s: accepted as a number", lit)
		}
	}
}
