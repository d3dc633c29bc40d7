package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

var presignAt = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func presignClient(t *testing.T, path, service string, opts ...client.Option) *client.Client {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]client.Option{client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret",
		SessionToken: "tok", Region: "eu-west-1"})}, opts...)
	c, err := client.New(m, model.ShapeID(service), "", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// S3 presigned URLs: virtual-host and path style as the rules resolve
// them for a call, the session token in the query, a ContentType the
// input sets signed and returned, the codec's own Content-Type not, the
// expiry.
func TestPresignS3(t *testing.T) {
	s3 := shareddata.Path(t, "models", "aws-large", "s3.json")
	ctx := context.Background()
	c := presignClient(t, s3, "com.amazonaws.s3#AmazonS3")
	p, err := c.Presign(ctx, "GetObject", []byte(`{"Bucket":"my-bucket","Key":"a b"}`), time.Hour, client.WithSigningTime(presignAt))
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "https://my-bucket.s3.eu-west-1.amazonaws.com/a%20b?x-id=GetObject&X-Amz-Algorithm=AWS4-HMAC-SHA256" +
		"&X-Amz-Credential=AKID%2F20240102%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20240102T030405Z&X-Amz-Expires=3600" +
		"&X-Amz-SignedHeaders=host&X-Amz-Security-Token=tok&X-Amz-Signature="
	if !strings.HasPrefix(p.URL, prefix) || p.Method != "GET" || len(p.SignedHeader) != 0 || !p.Expires.Equal(presignAt.Add(time.Hour)) {
		t.Errorf("got %+v\nwant the URL to start with %s", p, prefix)
	}

	put := func(c *client.Client, input string) *client.Presigned {
		t.Helper()
		p, err := c.Presign(ctx, "PutObject", []byte(input), 15*time.Minute, client.WithSigningTime(presignAt))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p = put(c, `{"Bucket":"my-bucket","Key":"k","ContentType":"text/plain"}`)
	if p.Method != "PUT" || !strings.Contains(p.URL, "&X-Amz-SignedHeaders=content-type%3Bhost&") ||
		len(p.SignedHeader) != 1 || p.SignedHeader.Get("Content-Type") != "text/plain" {
		t.Errorf("PutObject with ContentType: %+v", p)
	}
	path := presignClient(t, s3, "com.amazonaws.s3#AmazonS3", client.WithEndpointParams(map[string]any{"ForcePathStyle": true}))
	p = put(path, `{"Bucket":"my-bucket","Key":"k"}`)
	if !strings.HasPrefix(p.URL, "https://s3.eu-west-1.amazonaws.com/my-bucket/k?x-id=PutObject&") ||
		!strings.Contains(p.URL, "&X-Amz-SignedHeaders=host&") || len(p.SignedHeader) != 0 {
		t.Errorf("PutObject path style: %+v", p)
	}
	if j, err := p.MarshalJSON(); err != nil || !strings.Contains(string(j), `"method":"PUT","headers":{},"expires":"2024-01-02T03:19:05Z"}`) {
		t.Errorf("JSON %s, %v", j, err)
	}

	for _, d := range []time.Duration{0, time.Second - 1, 7*24*time.Hour + time.Second} {
		_, err := c.Presign(ctx, "GetObject", []byte(`{"Bucket":"b","Key":"k"}`), d)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), "7 days") {
			t.Errorf("expires %s: %v", d, err)
		}
	}
}

// A form (awsQuery) goes into the query; a JSON body cannot be presigned;
// nothing is sent either way.
func TestPresignBodies(t *testing.T) {
	ctx := context.Background()
	sent := false
	sts := presignClient(t, shareddata.Path(t, "models", "aws", "sts.json"), "com.amazonaws.sts#AWSSecurityTokenServiceV20110615",
		client.WithObserver(func(client.Attempt) { sent = true }))
	p, err := sts.Presign(ctx, "GetCallerIdentity", nil, time.Minute, client.WithSigningTime(presignAt))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.URL, "https://sts.eu-west-1.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Algorithm=") ||
		len(p.SignedHeader) != 0 {
		t.Errorf("STS: %+v", p)
	}
	ddb := presignClient(t, shareddata.Path(t, "models", "aws", "dynamodb.json"), "com.amazonaws.dynamodb#DynamoDB_20120810")
	_, err = ddb.Presign(ctx, "ListTables", []byte(`{}`), time.Minute)
	if err == nil || !strings.Contains(err.Error(), "cannot carry") {
		t.Errorf("DynamoDB ListTables: %v", err)
	}
	if sent {
		t.Error("Presign sent a request")
	}
}
