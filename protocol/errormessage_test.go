package protocol

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// lockedModel is one service per protocol whose operation's error shape
// models no message member.
func lockedModel(t *testing.T, trait string) (*model.Model, *model.Service) {
	t.Helper()
	_, name, _ := strings.Cut(trait, "#")
	src := fmt.Sprintf(`$version: "2"
namespace example.locked
use %s
@%s
service Svc { version: "2024-01-01", operations: [Get] }
@http(method: "GET", uri: "/get")
operation Get { input := {}, output := {}, errors: [Locked] }
@error("client")
@httpError(409)
structure Locked { holder: String }
`, trait, name)
	l := model.NewLoader()
	l.AddSource("locked.smithy", []byte(src))
	l.AddSource("protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure restJson1 {}
@trait(selector: "service") @protocolDefinition structure awsJson1_0 {}
@trait(selector: "service") @protocolDefinition structure awsJson1_1 {}
@trait(selector: "service") @protocolDefinition structure restXml {}
@trait(selector: "service") @protocolDefinition structure awsQuery {}
@trait(selector: "service") @protocolDefinition structure ec2Query {}
`))
	l.AddSource("smithyprotocols.smithy", []byte(`$version: "2"
namespace smithy.protocols
@trait(selector: "service") @protocolDefinition structure rpcv2Cbor {}
@trait(selector: "service") @protocolDefinition structure rpcv2Json {}
`))
	l.AddSource("alloy.smithy", []byte(`$version: "2"
namespace alloy
@trait(selector: "service") @protocolDefinition structure simpleRestJson {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("example.locked#Svc")
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

// A modeled error whose shape has no message member keeps the message the
// service sent (message, Message or errorMessage in a JSON or CBOR body,
// <Message> in an XML envelope), in every protocol; it used to be "".
func TestModeledErrorKeepsUnmodeledMessage(t *testing.T) {
	cborBody := cbor.AppendText(append([]byte(nil), 0xa3), "__type")
	cborBody = cbor.AppendText(cborBody, "example.locked#Locked")
	cborBody = cbor.AppendText(cborBody, "holder")
	cborBody = cbor.AppendText(cborBody, "ann")
	cborBody = cbor.AppendText(cborBody, "errorMessage")
	cborBody = cbor.AppendText(cborBody, "held by ann")
	xmlEnvelope := `<ErrorResponse><Error><Type>Sender</Type><Code>Locked</Code><Message>held by ann</Message><holder>ann</holder></Error></ErrorResponse>`
	cases := []struct {
		trait  model.ShapeID
		header wire.Header
		body   string
	}{
		{RestJSON1, wire.Header{"X-Amzn-Errortype": {"Locked"}}, `{"holder":"ann","Message":"held by ann"}`},
		{RestJSON1, wire.Header{"X-Amzn-Errortype": {"Locked"}}, `{"holder":"ann","errorMessage":"held by ann"}`},
		{SimpleRestJSON, wire.Header{"X-Error-Type": {"Locked"}}, `{"holder":"ann","message":"held by ann"}`},
		{AWSJSON1_0, wire.Header{}, `{"__type":"example.locked#Locked","holder":"ann","message":"held by ann"}`},
		{AWSJSON1_1, wire.Header{}, `{"__type":"Locked","Message":"held by ann","holder":"ann"}`},
		{RPCv2JSON, wire.Header{"Smithy-Protocol": {"rpc-v2-json"}}, `{"__type":"example.locked#Locked","holder":"ann","message":"held by ann"}`},
		{RPCv2CBOR, wire.Header{"Smithy-Protocol": {"rpc-v2-cbor"}}, string(cborBody)},
		{RestXML, wire.Header{}, xmlEnvelope},
		{AWSQuery, wire.Header{}, xmlEnvelope},
	}
	for _, tc := range cases {
		m, svc := lockedModel(t, string(tc.trait))
		c, err := New(m, svc)
		if err != nil {
			t.Fatal(err)
		}
		op, _ := svc.Operation("Get")
		_, err = c.DecodeResponse(context.Background(), op, &wire.Response{Status: 409, Header: tc.header, Body: []byte(tc.body)})
		var se *ServiceError
		if !errors.As(err, &se) || se.Shape != "example.locked#Locked" {
			t.Errorf("%s %s: want the modeled error Locked, got %v", tc.trait, tc.body, err)
			continue
		}
		if se.Message != "held by ann" || se.Error() != "example.locked#Locked (HTTP 409): held by ann" {
			t.Errorf("%s %s: message %q, error %q", tc.trait, tc.body, se.Message, se.Error())
		}
	}
}
