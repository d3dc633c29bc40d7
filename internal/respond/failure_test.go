package respond

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

const failureModel = `$version: "2"
namespace example
use aws.protocols#restJson1
use smithy.framework#ValidationException
@restJson1
service S { version: "1", operations: [Checked, Plain] }
@http(method: "POST", uri: "/c") operation Checked { input := { @length(min: 2) s: String }, errors: [ValidationException] }
@http(method: "POST", uri: "/p") operation Plain { input := { @length(min: 2) s: String } }
`

const frameworkModel = `$version: "2"
namespace smithy.framework
@error("client")
structure ValidationException { @required message: String, fieldList: ValidationExceptionFieldList }
structure ValidationExceptionField { @required path: String, @required message: String }
list ValidationExceptionFieldList { member: ValidationExceptionField }
`

func loadFailureModel(t *testing.T, withFramework bool) (*model.Model, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	src := failureModel
	if !withFramework {
		src = `$version: "2"
namespace example
use aws.protocols#restJson1
@restJson1
service S { version: "1", operations: [Plain] }
@http(method: "POST", uri: "/p") operation Plain { input := { @length(min: 2) s: String } }
`
	}
	l.AddSource("s.smithy", []byte(src))
	l.AddSource("framework.smithy", []byte(frameworkModel))
	l.AddSource("aws.protocols.smithy", []byte("$version: \"2\"\nnamespace aws.protocols\n@trait(selector: \"service\")\n@protocolDefinition\nstructure restJson1 {}\n"))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("example#S")
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

// A validation failure is the service's ValidationException (any
// operation of the service may declare it), else the protocol's 400; a
// request error is its status and code.
func TestRequestFailure(t *testing.T) {
	ve := &protocol.ValidationError{Violations: []protocol.Violation{{Path: "/s", Message: "Value with length 1 at '/s' failed to satisfy constraint: Member must have length greater than or equal to 2"}}}
	m, svc := loadFailureModel(t, true)
	plain, _ := svc.Operation("Plain")
	resp, err := RequestFailure(RestJSON1, m, svc, plain, ve)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Message   string `json:"message"`
		FieldList []struct{ Path, Message string }
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		t.Fatal(err)
	}
	if resp.Status != 400 || resp.Header.Get("X-Amzn-Errortype") != "ValidationException" ||
		body.Message != "1 validation error detected. "+ve.Violations[0].Message ||
		len(body.FieldList) != 1 || body.FieldList[0].Path != "/s" || body.FieldList[0].Message != ve.Violations[0].Message {
		t.Errorf("ValidationException: %d %v %s", resp.Status, resp.Header, resp.Body)
	}

	m, svc = loadFailureModel(t, false)
	plain, _ = svc.Operation("Plain")
	resp, err = RequestFailure(RestJSON1, m, svc, plain, ve)
	if err != nil || resp.Status != 400 || resp.Header.Get("X-Amzn-Errortype") != "ValidationException" {
		t.Errorf("without ValidationException: %v %v", resp, err)
	}
	resp, err = RequestFailure(SimpleRestJSON, m, svc, nil, &protocol.RequestError{Status: 404, Code: "UnknownOperationException", Err: errors.New("GET /x")})
	if err != nil || resp.Status != 404 || resp.Header.Get("X-Error-Type") != "UnknownOperationException" {
		t.Errorf("unknown operation: %v %v", resp, err)
	}
	for _, r := range []Renderer{RestJSON1, SimpleRestJSON, RestXML, AWSJSON1_0, AWSJSON1_1, RPCv2JSON{}, RPCv2CBOR{}, Query{}, EC2{}} {
		resp, err := RequestFailure(r, m, svc, nil, &protocol.RequestError{Status: 400, Code: "SerializationException", Err: errors.New("bad")})
		if err != nil || resp.Status != 400 || len(resp.Body) == 0 {
			t.Errorf("%T: %v %v", r, resp, err)
		}
	}
	if _, err := RequestFailure(RestJSON1, m, svc, nil, errors.New("other")); err == nil {
		t.Error("another error rendered")
	}
}
