package protocol_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

const exampleModel = `$version: "2"
namespace example

use alloy#simpleRestJson

@simpleRestJson
service Notes { version: "1", operations: [PutNote] }

@idempotent
@http(method: "PUT", uri: "/notes/{id}")
operation PutNote {
    input := {
        @required @httpLabel id: String
        @httpHeader("X-Tags") tags: Tags
        lines: Lines
        at: Timestamp
        data: Blob
    }
    output := {
        @jsonName("created_at") createdAt: Timestamp
        version: Long = 1
    }
}

list Tags { member: String }
list Lines { member: Line }
structure Line { @required @length(min: 1) name: String }
`

const alloyTrait = `$version: "2"
namespace alloy
@trait(selector: "service")
@protocolDefinition
structure simpleRestJson {}
`

func loadExample() (*model.Model, *model.Operation) {
	l := model.NewLoader()
	l.AddSource("example.smithy", []byte(exampleModel))
	l.AddSource("alloy.smithy", []byte(alloyTrait))
	m, _, err := l.Load(context.Background())
	if err != nil {
		panic(err)
	}
	svc, _ := m.Service("example#Notes")
	op, _ := svc.Operation("PutNote")
	return m, op
}

// The document form: member names, base64 blobs, timestamps as epoch
// seconds or RFC 3339 on input and RFC 3339 UTC on output.
func Example() {
	m, op := loadExample()
	codec := protocol.NewSimpleRestJSON(m)
	req, err := codec.EncodeRequest(context.Background(), op, []byte(`{
		"id": "a/b", "tags": ["x", "y,z"], "lines": [{"name": "first"}],
		"at": "2024-05-01T12:30:45.5+02:00", "data": "aGk="}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(req.Method, req.Path)
	fmt.Println(req.Header.Get("X-Tags"))
	fmt.Println(string(req.Body))

	out, err := codec.DecodeResponse(context.Background(), op, &wire.Response{
		Status: 200, Header: wire.Header{}, Body: []byte(`{"created_at": 1714559445.5}`)})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// PUT /notes/a%2Fb
	// x, "y,z"
	// {"lines":[{"name":"first"}],"at":1714559445.5,"data":"aGk="}
	// {"createdAt":"2024-05-01T10:30:45.5Z","version":1}
}

// With WithValidation, every violation of the model's constraints is listed
// with its member path before anything is sent (by default only @required
// members and the types of values are checked).
func Example_validation() {
	m, op := loadExample()
	codec := protocol.NewSimpleRestJSON(m, protocol.WithValidation())
	_, err := codec.EncodeRequest(context.Background(), op, []byte(`{"lines": [{"name": "a"}, {"name": ""}, {}]}`))
	var ve *protocol.ValidationError
	if errors.As(err, &ve) {
		for _, v := range ve.Violations {
			fmt.Println(v)
		}
	}
	// Output:
	// id: is required
	// lines[1].name: length 0 is below the minimum 1
	// lines[2].name: is required
}
