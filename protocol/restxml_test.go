package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const restXMLTestModel = `$version: "2"
namespace example.s3

use aws.protocols#restXml
use aws.protocols#httpChecksum

@restXml(noErrorWrapping: true)
@xmlNamespace(uri: "http://s3.example/doc/")
service Store {
    version: "2006-03-01"
    operations: [GetObject, PutTags, HeadObject, PutPolicy]
}

@readonly
@http(method: "GET", uri: "/{Bucket}/{Key+}")
operation GetObject {
    input := {
        @required @httpLabel Bucket: String
        @required @httpLabel Key: String
    }
    output := {
        @httpPayload Body: Blob
        @httpPrefixHeaders("x-amz-meta-") Metadata: Meta
        @httpHeader("Content-Length") ContentLength: Long
    }
    errors: [NoSuchKey]
}

@readonly
@http(method: "HEAD", uri: "/{Bucket}/{Key+}")
operation HeadObject {
    input := {
        @required @httpLabel Bucket: String
        @required @httpLabel Key: String
    }
    errors: [NotFound]
}

@error("client")
structure NotFound {}

@idempotent
@http(method: "PUT", uri: "/{Bucket}?policy")
operation PutPolicy {
    input := {
        @required @httpLabel Bucket: String
        @httpPayload Policy: String
    }
    output := {
        @httpPayload Policy: String
    }
}

@idempotent
@httpChecksum(requestChecksumRequired: true)
@http(method: "PUT", uri: "/{Bucket}?tagging")
operation PutTags {
    input := {
        @required @httpLabel Bucket: String
        @required @httpPayload @xmlName("Tagging") Tagging: Tagging
    }
    output := {
        @xmlFlattened @xmlName("Tag") Tags: TagList
        Owner: Owner
    }
}

structure Tagging {
    @required TagSet: TagList
    @xmlAttribute @xmlName("version") Version: String
}
list TagList { @xmlName("Tag") member: Tag }
structure Tag { @required Key: String, @required Value: String }
structure Owner { ID: String, Created: Timestamp }
map Meta { key: String, value: String }

@error("client")
@httpError(404)
structure NoSuchKey { Message: String }
`

func restXMLCodecForTest(t testing.TB) (Codec, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("restxml_test.smithy", []byte(restXMLTestModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("example.s3#Store")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Protocol() != RestXML {
		t.Fatalf("protocol %s", c.Protocol())
	}
	return c, svc
}

// Path-style S3 requests: the bucket is the first segment; keys keep their
// slashes and dot segments, everything else is percent-encoded.
func TestRestXMLS3PathStyleKeys(t *testing.T) {
	c, svc := restXMLCodecForTest(t)
	for key, want := range map[string]string{
		"my key.txt":         "/mybucket/my%20key.txt",
		"foo/bar/my key.txt": "/mybucket/foo/bar/my%20key.txt",
		"../key.txt":         "/mybucket/../key.txt",
		"foo/../key.txt":     "/mybucket/foo/../key.txt",
	} {
		req := encode(t, c, svc, "GetObject", `{"Bucket": "mybucket", "Key": "`+key+`"}`)
		if req.Path != want || req.Method != "GET" {
			t.Errorf("key %q: %s %s, want GET %s", key, req.Method, req.Path, want)
		}
	}
}

func TestRestXMLRequestBody(t *testing.T) {
	c, svc := restXMLCodecForTest(t)
	req := encode(t, c, svc, "PutTags", `{"Bucket": "b", "Tagging": {"Version": "1\"", "TagSet": [{"Key": "a<b", "Value": "c&d"}]}}`)
	want := `<Tagging xmlns="http://s3.example/doc/" version="1&quot;"><TagSet><Tag><Key>a&lt;b</Key><Value>c&amp;d</Value></Tag></TagSet></Tagging>`
	if string(req.Body) != want || req.Path != "/b?tagging" || req.Header.Get("Content-Type") != "application/xml" {
		t.Errorf("%s %s\n%s\nwant\n%s", req.Path, req.Header.Get("Content-Type"), req.Body, want)
	}
	// @httpChecksum(requestChecksumRequired: true): Content-MD5 of the body.
	if got := req.Header.Get("Content-Md5"); got != "1OVQyol6Rq6dZ4lcnsM/lQ==" {
		t.Errorf("Content-MD5 %q", got)
	}
}

func TestRestXMLResponses(t *testing.T) {
	c, svc := restXMLCodecForTest(t)
	ctx := context.Background()
	put, _ := svc.Operation("PutTags")
	body := `<PutTagsOutput><Tag><Key>a</Key><Value>1</Value></Tag><Owner><ID>me</ID><Created>2020-01-02T03:04:05.5Z</Created></Owner><Tag><Key>b</Key><Value>2</Value></Tag></PutTagsOutput>`
	out, err := c.DecodeResponse(ctx, put, &wire.Response{Status: 200, Body: []byte(body)})
	if err != nil {
		t.Fatal(err)
	}
	// Members come in document order; a flattened list, spread over the
	// element, comes last.
	if want := `{"Owner":{"ID":"me","Created":"2020-01-02T03:04:05.5Z"},"Tags":[{"Key":"a","Value":"1"},{"Key":"b","Value":"2"}]}`; string(out) != want {
		t.Errorf("output %s\nwant   %s", out, want)
	}
	get, _ := svc.Operation("GetObject")
	out, err = c.DecodeResponse(ctx, get, &wire.Response{Status: 200, Body: []byte("\x00\x01"),
		Header: wire.Header{"X-Amz-Meta-Color": {"red"}, "Content-Length": {"2"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ContentLength":2,"Metadata":{"Color":"red"},"Body":"AAE="}`; string(out) != want {
		t.Errorf("output %s\nwant   %s", out, want)
	}
	// S3's unwrapped error envelope (noErrorWrapping).
	_, err = c.DecodeResponse(ctx, get, &wire.Response{Status: 404,
		Body: []byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>gone</Message><RequestId>r</RequestId></Error>`)})
	var se *ServiceError
	if !errors.As(err, &se) || se.Shape != "example.s3#NoSuchKey" || se.Message != "gone" || string(se.Members) != `{"Message":"gone"}` {
		t.Errorf("error %#v", err)
	}
	// S3 answers some operations 200 with an <Error> document: an error.
	_, err = c.DecodeResponse(ctx, put, &wire.Response{Status: 200,
		Body: []byte("\n<?xml version=\"1.0\"?>\n<Error><Code>InternalError</Code><Message>try again</Message></Error>")})
	if !errors.As(err, &se) || se.Code != "InternalError" || se.Status != 200 || se.Message != "try again" {
		t.Errorf("200 with <Error>: %#v", err)
	}
	// A HEAD's 404 has no body: NotFound, as S3 models it.
	head, _ := svc.Operation("HeadObject")
	_, err = c.DecodeResponse(ctx, head, &wire.Response{Status: 404})
	if !errors.As(err, &se) || se.Shape != "example.s3#NotFound" {
		t.Errorf("HEAD 404: %#v", err)
	}
	// An error shape without a message member (as S3's NoSuchKey): the
	// message is the envelope's.
	_, err = c.DecodeResponse(ctx, head, &wire.Response{Status: 404,
		Body: []byte(`<Error><Code>NotFound</Code><Message>nothing &amp; nobody</Message></Error>`)})
	if !errors.As(err, &se) || se.Shape != "example.s3#NotFound" || se.Message != "nothing & nobody" || string(se.Members) != `{}` {
		t.Errorf("error without a message member: %#v", err)
	}
	// An unmodeled error keeps its code and message.
	_, err = c.DecodeResponse(ctx, get, &wire.Response{Status: 403,
		Body: []byte(`<Error><Code>AccessDenied</Code><Message>no</Message></Error>`)})
	if !errors.As(err, &se) || se.Modeled() || se.Code != "AccessDenied" || se.Message != "no" {
		t.Errorf("error %#v", err)
	}
}

func TestRestXMLBadInput(t *testing.T) {
	c, svc := restXMLCodecForTest(t)
	ctx := context.Background()
	put, _ := svc.Operation("PutTags")
	for name, tc := range map[string]struct{ body, want string }{
		"bomb":      {`<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><PutTagsOutput><Owner><ID>&b;</ID></Owner></PutTagsOutput>`, "directives"},
		"deep":      {"<PutTagsOutput><Owner>" + strings.Repeat("<x>", 100000), "nesting deeper"},
		"truncated": {"<PutTagsOutput><Owner><ID>me", "invalid XML"},
		"timestamp": {"<PutTagsOutput><Owner><Created>yesterday</Created></Owner></PutTagsOutput>", "member PutTagsOutput.Owner.Created"},
	} {
		_, err := c.DecodeResponse(ctx, put, &wire.Response{Status: 200, Body: []byte(tc.body)})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		}
	}
	_, err := c.EncodeRequest(ctx, put, []byte(`{"Bucket": "b", "Tagging": {"TagSet": [{"Key": 1, "Value": "v"}]}}`))
	if err == nil || !strings.Contains(err.Error(), "Tagging.TagSet[0].Key") {
		t.Errorf("error %v, want one naming Tagging.TagSet[0].Key", err)
	}
}

// An empty string payload is an empty body with a Content-Type, both ways
// (the property tests' S3 GetBucketPolicy with an empty Policy); an empty
// body without one is no payload.
func TestRestXMLEmptyStringPayload(t *testing.T) {
	c, svc := restXMLCodecForTest(t)
	ctx := context.Background()
	op, err := svc.Operation("PutPolicy")
	if err != nil {
		t.Fatal(err)
	}
	req, err := c.EncodeRequest(ctx, op, []byte(`{"Bucket": "b", "Policy": ""}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Body) != 0 || req.Header.Get("Content-Type") != "text/plain" {
		t.Fatalf("request: body %q, Content-Type %q; want an empty text/plain body", req.Body, req.Header.Get("Content-Type"))
	}
	for _, c2 := range []struct {
		body, contentType, want string
	}{
		{"", "text/plain", `{"Policy":""}`},
		{"", "", `{}`},
		{"{}", "", `{"Policy":"{}"}`},
	} {
		h := wire.Header{}
		if c2.contentType != "" {
			h.Set("Content-Type", c2.contentType)
		}
		out, err := c.DecodeResponse(ctx, op, &wire.Response{Status: 200, Header: h, Body: []byte(c2.body)})
		if err != nil || string(out) != c2.want {
			t.Errorf("body %q, Content-Type %q: %s, %v; want %s", c2.body, c2.contentType, out, err, c2.want)
		}
	}
}
