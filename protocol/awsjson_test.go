package protocol

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const awsJSONTestModel = `$version: "2"
namespace example.aws

use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use aws.protocols#awsQueryCompatible

@awsJson1_0
service Table_2020 {
    version: "2020"
    operations: [PutRow, Ping, Upload]
    errors: [Throttled]
}

@awsJson1_1
@awsQueryCompatible
service Queue_2012 {
    version: "2012"
    operations: [Ping]
}

@endpoint(hostPrefix: "{shard}.data.")
operation PutRow {
    input := {
        @required @hostLabel shard: String
        @jsonName("WIRE") renamed: String
        @httpHeader("X-Ignored") header: String
        when: Timestamp
        @timestampFormat("date-time") iso: Timestamp
        data: Blob
        nested: Nested
        @idempotencyToken token: String
    }
    output := {
        @required count: Integer
        @required items: Names
        @jsonName("X") renamed: String
        when: Timestamp
        size: Long = 7
    }
    errors: [Conflict]
}

operation Ping {}

@requestCompression(encodings: ["gzip"])
operation Upload {
    input := { text: String }
}

structure Nested {
    a: String
    b: Integer = 3
}
list Names { member: String }

@error("client")
structure Conflict { message: String, Item: Nested }

@error("server")
structure Throttled { Message: String }
`

func loadAWSJSONModel(t testing.TB) *model.Model {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("awsjson_test.smithy", []byte(awsJSONTestModel))
	l.AddSource("aws.protocols.smithy", []byte(`$version: "2"
namespace aws.protocols
@trait(selector: "service") @protocolDefinition structure awsJson1_0 {}
@trait(selector: "service") @protocolDefinition structure awsJson1_1 {}
@trait(selector: "service") structure awsQueryCompatible {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func awsCodec(t testing.TB, svcID model.ShapeID) (Codec, *model.Service) {
	t.Helper()
	m := loadAWSJSONModel(t)
	svc, err := m.Service(svcID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, svc, WithIdempotencyTokens(func() string { return "tok" }))
	if err != nil {
		t.Fatal(err)
	}
	return c, svc
}

func TestAWSJSONRequest(t *testing.T) {
	c, svc := awsCodec(t, "example.aws#Table_2020")
	if c.Protocol() != AWSJSON1_0 {
		t.Fatalf("protocol %s", c.Protocol())
	}
	req := encode(t, c, svc, "PutRow", `{"shard": "s1", "renamed": "r", "header": "h",
		"when": "2019-12-16T23:48:18.5Z", "iso": 0, "data": "AAEC", "nested": {"a": "x"}}`)
	if req.Method != "POST" || req.Path != "/" {
		t.Errorf("%s %s, want POST /", req.Method, req.Path)
	}
	for k, want := range map[string]string{
		"Content-Type": "application/x-amz-json-1.0",
		"X-Amz-Target": "Table_2020.PutRow",
		"X-Ignored":    "",
	} {
		if got := req.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	want := `{"shard":"s1","renamed":"r","header":"h","when":1576540098.5,"iso":"1970-01-01T00:00:00Z","data":"AAEC","nested":{"a":"x","b":3},"token":"tok"}`
	if string(req.Body) != want {
		t.Errorf("body\n %s\nwant\n %s", req.Body, want)
	}
	if req.HostPrefix != "s1.data." {
		t.Errorf("host prefix %q", req.HostPrefix)
	}

	req = encode(t, c, svc, "Ping", "")
	if string(req.Body) != "{}" || req.Header.Get("X-Amzn-Query-Mode") != "" {
		t.Errorf("Ping: body %q, query mode %q", req.Body, req.Header.Get("X-Amzn-Query-Mode"))
	}

	o, _ := svc.Operation("PutRow")
	_, err := c.EncodeRequest(context.Background(), o, []byte(`{"renamed": "r"}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Violations[0].Path != "shard" {
		t.Errorf("missing host label: %v", err)
	}
}

// @requestCompression compresses a body of at least the minimum size
// (10,240 bytes unless set), never when turned off.
func TestAWSJSONCompression(t *testing.T) {
	m := loadAWSJSONModel(t)
	svc, err := m.Service("example.aws#Table_2020")
	if err != nil {
		t.Fatal(err)
	}
	small := `{"text": "hello hello hello"}`
	large := `{"text": "` + strings.Repeat("x", DefaultMinCompressionBytes-11) + `"}` // 10,240 bytes as sent
	for _, tc := range []struct {
		name  string
		opts  []Option
		input string
		gzip  bool
	}{
		{"small, default minimum", nil, small, false},
		{"at the default minimum", nil, large, true},
		{"small, minimum 0", []Option{WithRequestCompression(true, 0)}, small, true},
		{"one byte under the minimum", []Option{WithRequestCompression(true, 29)}, small, false},
		{"at the minimum", []Option{WithRequestCompression(true, 28)}, small, true},
		{"off", []Option{WithRequestCompression(false, 0)}, large, false},
	} {
		c, err := New(m, svc, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		req := encode(t, c, svc, "Upload", tc.input)
		if got := req.Header.Get("Content-Encoding") == "gzip"; got != tc.gzip {
			t.Errorf("%s: Content-Encoding %q, want gzip %v", tc.name, req.Header.Get("Content-Encoding"), tc.gzip)
			continue
		}
		plain := req.Body
		if tc.gzip {
			zr, err := gzip.NewReader(bytes.NewReader(req.Body))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ = io.ReadAll(zr)
		}
		if want := strings.Replace(tc.input, `": "`, `":"`, 1); len(plain) != len(want) {
			t.Errorf("%s: body of %d bytes, want %d", tc.name, len(plain), len(want))
		}
	}
}

func TestAWSJSON11QueryCompatible(t *testing.T) {
	c, svc := awsCodec(t, "example.aws#Queue_2012")
	req := encode(t, c, svc, "Ping", "{}")
	if req.Header.Get("Content-Type") != "application/x-amz-json-1.1" || req.Header.Get("X-Amz-Target") != "Queue_2012.Ping" ||
		req.Header.Get("X-Amzn-Query-Mode") != "true" {
		t.Errorf("headers %v", req.Header)
	}
	o, _ := svc.Operation("Ping")
	_, err := c.DecodeResponse(context.Background(), o, &wire.Response{Status: 400,
		Header: wire.Header{"X-Amzn-Query-Error": {"AWS.SimpleQueueService.NonExistentQueue;Sender"}},
		Body:   []byte(`{"__type": "com.amazonaws.sqs#QueueDoesNotExist", "message": "no"}`)})
	var se *ServiceError
	if !errors.As(err, &se) || se.Code != "AWS.SimpleQueueService.NonExistentQueue" || se.Message != "no" || se.Modeled() {
		t.Errorf("error %#v", err)
	}
}

func TestAWSJSONResponse(t *testing.T) {
	c, svc := awsCodec(t, "example.aws#Table_2020")
	o, _ := svc.Operation("PutRow")
	out, err := c.DecodeResponse(context.Background(), o, &wire.Response{Status: 200,
		Body: []byte(`{"renamed": "r", "X": "ignored", "when": 1576540098, "extra": [1]}`)})
	if err != nil {
		t.Fatal(err)
	}
	// count and items are required and missing: error-corrected to zero values.
	want := `{"renamed":"r","when":"2019-12-16T23:48:18Z","size":7,"count":0,"items":[]}`
	if string(out) != want {
		t.Errorf("output\n %s\nwant\n %s", out, want)
	}

	cases := []struct {
		resp  *wire.Response
		shape model.ShapeID
		msg   string
	}{
		{&wire.Response{Status: 400, Body: []byte(`{"__type": "example.aws#Conflict", "message": "taken", "Item": {"a": "x", "__type": "other#Thing"}}`)},
			"example.aws#Conflict", "taken"},
		{&wire.Response{Status: 500, Header: wire.Header{"X-Amzn-Errortype": {"Throttled:http://internal/"}}, Body: []byte(`{"Message": "slow"}`)},
			"example.aws#Throttled", "slow"},
		{&wire.Response{Status: 500, Body: []byte(`{"code": "other.ns#Throttled"}`)}, "example.aws#Throttled", ""},
		{&wire.Response{Status: 400, Body: []byte(`{"__type": "Unknown", "message": "m"}`)}, "", "m"},
	}
	for _, tc := range cases {
		_, err := c.DecodeResponse(context.Background(), o, tc.resp)
		var se *ServiceError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v", tc.resp.Body, err)
			continue
		}
		if se.Shape != tc.shape || se.Message != tc.msg || se.Status != tc.resp.Status {
			t.Errorf("%s: got %#v", tc.resp.Body, se)
		}
	}
	_, err = c.DecodeResponse(context.Background(), o, &wire.Response{Status: 400, Body: []byte(`{"__type": "Conflict", "message": "taken", "Item": {"a": "x"}}`)})
	var se *ServiceError
	if errors.As(err, &se) && string(se.Members) != `{"message":"taken","Item":{"a":"x","b":3}}` {
		t.Errorf("members %s", se.Members)
	}
}
