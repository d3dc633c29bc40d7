package client

import (
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// The client's part of SigV4: S3's signing names sign the path as sent and
// get X-Amz-Content-Sha256, other services neither; the session token is
// sent and signed; a streamed body is sent unsigned; a payload hash set
// before signing is kept.
func TestRequestSigner(t *testing.T) {
	creds := identity.AWS{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "tok=="}
	when := time.Date(2024, 2, 29, 1, 2, 3, 0, time.UTC)
	newReq := func() *transport.Request {
		return &transport.Request{Method: "PUT", URL: "https://h.example.com:8443/b/a%20b/arn%3Aaws%3Ax/~k?x-id=PutObject&a=%2F",
			Header: wire.Header{"Content-Type": {"text/plain"}, "Expect": {"100-continue"}, "Content-Length": {"5"}}, Body: []byte("hello")}
	}
	for _, tc := range []struct {
		service, signed, sha string
		rawPath              bool
	}{
		{"s3", "content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token",
			"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", true},
		{"s3express", "content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token",
			"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", true},
		{"lambda", "content-type;host;x-amz-date;x-amz-security-token", "", false},
	} {
		req := newReq()
		s := newRequestSigner(creds, "eu-west-3", tc.service, nil)
		sig, err := s.sign(req, when)
		if err != nil {
			t.Fatal(err)
		}
		if s.DisableURIPathEscaping != tc.rawPath {
			t.Errorf("%s: DisableURIPathEscaping %v, want %v", tc.service, s.DisableURIPathEscaping, tc.rawPath)
		}
		auth := req.Header.Get("Authorization")
		if !strings.Contains(auth, "/eu-west-3/"+tc.service+"/aws4_request, SignedHeaders="+tc.signed+", Signature="+sig) {
			t.Errorf("%s: Authorization %s, want headers %s and signature %s", tc.service, auth, tc.signed, sig)
		}
		if got := req.Header.Get("X-Amz-Content-Sha256"); got != tc.sha {
			t.Errorf("%s: X-Amz-Content-Sha256 %q, want %q", tc.service, got, tc.sha)
		}
		if got := req.Header.Get("X-Amz-Security-Token"); got != "tok==" {
			t.Errorf("%s: X-Amz-Security-Token %q, want the session token", tc.service, got)
		}
	}

	req := newReq()
	req.Body, req.BodyReader, req.BodySize = nil, strings.NewReader("hello"), 5
	if _, err := newRequestSigner(creds, "eu-west-3", "lambda", nil).sign(req, when); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("X-Amz-Content-Sha256"); got != "UNSIGNED-PAYLOAD" {
		t.Errorf("streamed body: X-Amz-Content-Sha256 %q, want UNSIGNED-PAYLOAD", got)
	}

	req = newReq()
	req.Header.Set("X-Amz-Content-Sha256", "STREAMING-AWS4-HMAC-SHA256-EVENTS")
	if _, err := newRequestSigner(creds, "eu-west-3", "s3", nil).sign(req, when); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("X-Amz-Content-Sha256"); got != "STREAMING-AWS4-HMAC-SHA256-EVENTS" {
		t.Errorf("a payload hash set before signing became %q", got)
	}
}
