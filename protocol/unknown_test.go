package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// One operation in every protocol that decodes unions.
const unknownUnionModel = `$version: "2"
namespace example.unknown

use aws.protocols#restJson1
use aws.protocols#awsJson1_0
use aws.protocols#restXml
use aws.protocols#awsQuery
use aws.protocols#ec2Query
use smithy.protocols#rpcv2Cbor

@restJson1 service RestJSON { version: "1", operations: [Get] }
@awsJson1_0 service AWSJSON { version: "1", operations: [Get] }
@rpcv2Cbor service CBOR { version: "1", operations: [Get] }
@restXml service RestXML { version: "1", operations: [Get] }
@awsQuery @xmlNamespace(uri: "https://example.com/") service Query { version: "1", operations: [Get] }
@ec2Query @xmlNamespace(uri: "https://example.com/") service EC2 { version: "1", operations: [Get] }

@http(method: "POST", uri: "/get")
operation Get {
    input := { u: Value }
    output := { u: Value, l: Values }
}

union Value { s: String, n: Integer }
list Values { member: Value }
`

// modelCodec loads model text and returns the codec of service svcID and
// its operation opName.
func modelCodec(t testing.TB, text string, svcID model.ShapeID, opName string) (Codec, *model.Operation) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("test.smithy", []byte(text))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service(svcID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.Operation(opName)
	if err != nil {
		t.Fatal(err)
	}
	return c, op
}

func unknownCodec(t *testing.T, svcName string) (Codec, *model.Operation) {
	return modelCodec(t, unknownUnionModel, model.ShapeID("example.unknown#"+svcName), "Get")
}

// A union member the model does not know (a newer service's) was dropped:
// the document form had {} in its place. It is kept as
// {"$unknown": [name, value]}, in every protocol; a known member wins, and
// null members and JSON's __type are not members.
func TestUnknownUnionMemberIsKept(t *testing.T) {
	cborBody := func() []byte {
		b := cbor.AppendHead(nil, 5, 2) // {"u": {...}, "l": [...]}
		b = cbor.AppendText(b, "u")
		b = cbor.AppendHead(b, 5, 3)
		b = cbor.AppendText(b, "__type")
		b = cbor.AppendText(b, "x#Value")
		b = cbor.AppendText(b, "gone")
		b = cbor.AppendNull(b)
		b = cbor.AppendText(b, "NEWTYPE")
		b = cbor.AppendHead(b, 5, 2)
		b = cbor.AppendText(b, "raw")
		b = cbor.AppendBytes(b, []byte("hi"))
		b = cbor.AppendText(b, "n")
		b = cbor.AppendInt(b, 2)
		b = cbor.AppendText(b, "l")
		b = cbor.AppendHead(b, 4, 2)
		b = cbor.AppendHead(b, 5, 1)
		b = cbor.AppendText(b, "s")
		b = cbor.AppendText(b, "k")
		b = cbor.AppendHead(b, 5, 2)
		b = cbor.AppendText(b, "NEWTYPE")
		b = cbor.AppendBool(b, true)
		b = cbor.AppendText(b, "s")
		b = cbor.AppendText(b, "known wins")
		return b
	}()
	const jsonBody = `{"u": {"__type": "x#Value", "gone": null, "NEWTYPE": {"raw": "aGk=", "n": 2}},
		"l": [{"s": "k"}, {"NEWTYPE": true, "s": "known wins"}]}`
	const jsonOut = `{"u":{"$unknown":["NEWTYPE",{"raw":"aGk=","n":2}]},"l":[{"s":"k"},{"s":"known wins"}]}`
	const xmlMembers = `<u><NEWTYPE a="1">x &amp; <b>y</b></NEWTYPE><Other/></u>` +
		`<l><member><s>k</s></member><member><NEWTYPE/><s>known wins</s></member><member><Empty/></member></l>`
	const xmlOut = `{"u":{"$unknown":["NEWTYPE","x &amp; <b>y</b>"]},"l":[{"s":"k"},{"s":"known wins"},{"$unknown":["Empty",""]}]}`
	for _, tc := range []struct {
		svc, ct string
		body    []byte
		want    string
	}{
		{"RestJSON", "application/json", []byte(jsonBody), jsonOut},
		{"AWSJSON", "application/x-amz-json-1.0", []byte(jsonBody), jsonOut},
		{"CBOR", "application/cbor", cborBody, jsonOut},
		{"RestXML", "application/xml", []byte(`<GetOutput>` + xmlMembers + `</GetOutput>`), xmlOut},
		{"Query", "text/xml", []byte(`<GetResponse xmlns="https://example.com/"><GetResult>` + xmlMembers + `</GetResult></GetResponse>`), xmlOut},
		{"EC2", "text/xml", []byte(`<GetResponse xmlns="https://example.com/">` + xmlMembers + `</GetResponse>`), xmlOut},
	} {
		t.Run(tc.svc, func(t *testing.T) {
			c, op := unknownCodec(t, tc.svc)
			h := wire.Header{"Content-Type": {tc.ct}}
			if tc.svc == "CBOR" {
				h.Set("Smithy-Protocol", "rpc-v2-cbor")
			}
			out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Header: h, Body: tc.body})
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, string(out), tc.want)
		})
	}
}

// Sending back an output with an unknown member would send something else
// than what was received (its value was never decoded): the input is
// refused, naming the member path and the member, in every protocol.
func TestUnknownUnionMemberIsNotSent(t *testing.T) {
	for _, svc := range []string{"RestJSON", "AWSJSON", "CBOR", "RestXML", "Query", "EC2"} {
		t.Run(svc, func(t *testing.T) {
			c, op := unknownCodec(t, svc)
			_, err := c.EncodeRequest(context.Background(), op, []byte(`{"u": {"$unknown": ["NEWTYPE", {"raw": 1}]}}`))
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), `member u: union example.unknown#Value: member "NEWTYPE" is one this model does not know`) {
				t.Errorf("error %v, want an input error naming u and NEWTYPE", err)
			}
		})
	}
}

// An alloy#discriminated union's tag the model does not know failed the
// whole decode; it is kept like any unknown member, the object whole.
func TestUnknownDiscriminatedMemberIsKept(t *testing.T) {
	c, op := modelCodec(t, `$version: "2"
namespace d
use alloy#simpleRestJson
use alloy#discriminated
@simpleRestJson
service S { version: "1", operations: [Get] }
@readonly @http(method: "GET", uri: "/")
operation Get { output := { v: U } }
@discriminated("kind")
union U { a: A }
structure A { x: String }
`, "d#S", "Get")
	out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Header: wire.Header{},
		Body: []byte(`{"v": {"kind": "b", "y": [1]}}`)})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(out), `{"v":{"$unknown":["b",{"kind":"b","y":[1]}]}}`)
}
