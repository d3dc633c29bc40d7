package client

import (
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// The worked example of the AWS SigV4 documentation (IAM ListUsers, GET
// with a query, signed Content-Type): the signer gives its signature.
func TestSigV4DocumentationExample(t *testing.T) {
	s := &sigV4{region: "us-east-1", service: "iam",
		creds: &AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}}
	req := &transport.Request{Method: "GET", URL: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08",
		Header: wire.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}}}
	if err := s.sign(req, time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, " +
		"SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
	if got := req.Header.Get("Authorization"); got != want {
		t.Errorf("Authorization\n %s\nwant\n %s", got, want)
	}
	if req.Header.Get("X-Amz-Content-Sha256") != "" {
		t.Errorf("IAM got an X-Amz-Content-Sha256 header (only S3 and streamed bodies need one)")
	}
}

// The canonical query sorts by name then value, encodes the SigV4 way
// (space %20, '+' %2B, '/' %2F) and gives a name without a value "=".
func TestSigV4CanonicalQuery(t *testing.T) {
	for raw, want := range map[string]string{
		"b=2&a=1&a-b=3":            "a=1&a-b=3&b=2",
		"k=x%20y&k=a+b&flag":       "flag=&k=a%2Bb&k=x%20y",
		"p=a/b&q=%7E~&r=%E2%82%AC": "p=a%2Fb&q=~~&r=%E2%82%AC",
		"":                         "",
	} {
		if got := canonicalQuery(raw); got != want {
			t.Errorf("canonicalQuery(%q) = %q, want %q", raw, got, want)
		}
	}
}
