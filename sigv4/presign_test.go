package sigv4

import (
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// The presigned URL example of the S3 documentation ("Authenticating
// Requests: Using Query Parameters"): GET test.txt for 24 hours.
func TestPresignDocumentationExample(t *testing.T) {
	s := &Signer{Region: "us-east-1", Service: "s3", DisableURIPathEscaping: true,
		Credentials: Credentials{AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}
	p, err := s.Presign(Request{Method: "GET", URL: "https://examplebucket.s3.amazonaws.com/test.txt", PayloadHash: UnsignedPayload},
		time.Date(2013, 5, 24, 0, 0, 0, 0, time.UTC), 86400*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
		"&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z" +
		"&X-Amz-Expires=86400&X-Amz-SignedHeaders=host" +
		"&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
	if p.URL != want || p.SignedHeaders != "host" {
		t.Errorf("got\n %s (%s)\nwant\n %s", p.URL, p.SignedHeaders, want)
	}
}

// The operation's query stays first, the token is signed, the headers
// given are signed (and named), and the expiry is bounded.
func TestPresignQueryTokenHeadersExpiry(t *testing.T) {
	s := &Signer{Region: "eu-west-1", Service: "sts", Credentials: Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret", SessionToken: "tok/en+="}}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	h := wire.Header{"Content-Type": {"text/plain"}}
	p, err := s.Presign(Request{Method: "GET", URL: "https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15", Header: h,
		PayloadHash: PayloadHash(nil)}, at, time.Hour+time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"?Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Algorithm=", "&X-Amz-Expires=3600&",
		"&X-Amz-SignedHeaders=content-type%3Bhost&X-Amz-Security-Token=tok%2Fen%2B%3D&X-Amz-Signature="} {
		if !strings.Contains(p.URL, part) {
			t.Errorf("%s lacks %s", p.URL, part)
		}
	}
	if p.SignedHeaders != "content-type;host" || len(h) != 1 {
		t.Errorf("signed %q, header %v", p.SignedHeaders, h)
	}
	for _, d := range []time.Duration{0, time.Second - 1, MaxExpires + time.Second} {
		if _, err := s.Presign(Request{Method: "GET", URL: "https://sts.amazonaws.com/"}, at, d); err == nil {
			t.Errorf("expires %s: no error", d)
		}
	}
	if _, err := s.Presign(Request{Method: "GET", URL: "https://sts.amazonaws.com/"}, at, MaxExpires); err != nil {
		t.Errorf("7 days: %v", err)
	}
}
