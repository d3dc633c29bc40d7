package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const queryTestModel = `$version: "2"
namespace example.query

use aws.protocols#awsQuery
use aws.protocols#awsQueryError

@awsQuery
@xmlNamespace(uri: "https://example.com/")
service Topics {
    version: "2010-03-31"
    operations: [Publish]
}

operation Publish {
    input := {
        @required TopicArn: String
        Attributes: Attrs
        Tags: Tags
        when: Timestamp
    }
    output := {
        MessageId: String
        Count: Integer
        Items: Names
    }
    errors: [NotFound]
}

map Attrs { key: String, value: String }
list Tags { member: Tag }
structure Tag { Key: String, Value: String }
list Names { member: String }

@awsQueryError(code: "NotFound", httpResponseCode: 404)
@error("client")
structure NotFoundException { message: String }
`

func queryCodecForTest(t testing.TB) (Codec, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("query_test.smithy", []byte(strings.Replace(queryTestModel, "errors: [NotFound]", "errors: [NotFoundException]", 1)))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("example.query#Topics")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	return c, svc
}

func TestAWSQueryRequest(t *testing.T) {
	c, svc := queryCodecForTest(t)
	req := encode(t, c, svc, "Publish", `{"TopicArn": "arn:a b", "Attributes": {"k": "v"},
		"Tags": [{"Key": "a", "Value": "b"}], "when": 0}`)
	want := "Action=Publish&Version=2010-03-31&TopicArn=arn%3Aa%20b&Attributes.entry.1.key=k&Attributes.entry.1.value=v" +
		"&Tags.member.1.Key=a&Tags.member.1.Value=b&when=1970-01-01T00%3A00%3A00Z"
	if string(req.Body) != want {
		t.Errorf("body\n %s\nwant\n %s", req.Body, want)
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type %q", ct)
	}
	op, _ := svc.Operation("Publish")
	_, err := c.EncodeRequest(context.Background(), op, []byte(`{"TopicArn": "x", "Tags": [{"Key": 1}]}`))
	if err == nil || !strings.Contains(err.Error(), "Tags[0].Key") {
		t.Errorf("error %v, want one naming Tags[0].Key", err)
	}
}

func TestAWSQueryResponse(t *testing.T) {
	c, svc := queryCodecForTest(t)
	op, _ := svc.Operation("Publish")
	body := `<?xml version="1.0"?><PublishResponse xmlns="https://example.com/"><PublishResult>
	<MessageId>m&amp;1</MessageId><Count>3</Count><Unknown><a/></Unknown><Items><member>x</member><member>&#65;</member></Items>
	</PublishResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></PublishResponse>`
	out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: []byte(body)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"MessageId":"m&1","Count":3,"Items":["x","A"]}`; string(out) != want {
		t.Errorf("output %s, want %s", out, want)
	}
	errBody := `<ErrorResponse><Error><Type>Sender</Type><Code>NotFound</Code><Message>no topic</Message></Error><RequestId>r</RequestId></ErrorResponse>`
	_, err = c.DecodeResponse(context.Background(), op, &wire.Response{Status: 404, Body: []byte(errBody)})
	var se *ServiceError
	if !errors.As(err, &se) || se.Shape != "example.query#NotFoundException" || se.Code != "NotFound" || se.Message != "no topic" ||
		string(se.Members) != `{"message":"no topic"}` {
		t.Errorf("error %#v", err)
	}
}

// Bad XML is a decode error naming what is wrong, never a crash or an
// unbounded expansion.
func TestXMLBadInput(t *testing.T) {
	c, svc := queryCodecForTest(t)
	op, _ := svc.Operation("Publish")
	wrap := func(inner string) string {
		return "<PublishResponse><PublishResult>" + inner + "</PublishResult></PublishResponse>"
	}
	cases := map[string]struct{ body, want string }{
		"dtd":       {`<!DOCTYPE a [<!ENTITY x "xxxxxxxx">]>` + wrap(`<MessageId>&x;</MessageId>`), "directives"},
		"entity":    {wrap(`<MessageId>&x;</MessageId>`), "invalid XML"},
		"deep":      {wrap(strings.Repeat("<Unknown>", 100000)), "nesting deeper"},
		"truncated": {wrap(`<MessageId>abc`)[:40], "invalid XML"},
		"utf8":      {wrap("<MessageId>\xff\xfe</MessageId>"), "invalid XML"},
		"type":      {wrap(`<Count>many</Count>`), "member PublishOutput.Count"},
		"listType":  {wrap(`<Items><member>a</member></Items><Count>1.5</Count>`), "member PublishOutput.Count"},
	}
	for name, tc := range cases {
		_, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: []byte(tc.body)})
		var re *ResponseError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want a ResponseError with %q", name, err, tc.want)
		}
	}
}
