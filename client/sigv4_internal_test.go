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

// A client keeps the signing key it derived (sigV4Keys); a new day, region,
// service or secret derives it again: every signature made through the cache
// is the one made without it.
func TestSigV4KeyCache(t *testing.T) {
	keys := &sigV4Keys{}
	secrets := []string{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "another-secret"}
	days := []time.Time{time.Date(2015, 8, 30, 23, 59, 59, 0, time.UTC), time.Date(2015, 8, 31, 0, 0, 1, 0, time.UTC)}
	signed := func(s *sigV4, now time.Time) string {
		req := &transport.Request{Method: "POST", URL: "https://example.amazonaws.com/a%20b?x=1", Body: []byte("{}"),
			Header: wire.Header{"Content-Type": {"  application/json ; a=b  "}, "X-Multi": {"1", "two  words"}}}
		if err := s.sign(req, now); err != nil {
			t.Fatal(err)
		}
		return req.Header.Get("Authorization")
	}
	// Each step changes one of secret, day, region and service, or none:
	// the cache must notice each change.
	type step struct {
		secret, region, service string
		now                     time.Time
	}
	steps := []step{{secrets[0], "us-east-1", "dynamodb", days[0]}}
	for i := 0; i < 12; i++ {
		s := steps[len(steps)-1]
		switch i % 5 {
		case 0:
			s.now = days[(i/5+1)%2]
		case 1:
			s.region = map[string]string{"us-east-1": "eu-west-3", "eu-west-3": "us-east-1"}[s.region]
		case 2:
			s.service = map[string]string{"dynamodb": "s3", "s3": "dynamodb"}[s.service]
		case 3:
			s.secret = secrets[(i/5+1)%2]
		}
		steps = append(steps, s)
	}
	for _, s := range steps {
		creds := &AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: s.secret}
		got := signed(&sigV4{region: s.region, service: s.service, creds: creds, keys: keys}, s.now)
		want := signed(&sigV4{region: s.region, service: s.service, creds: creds}, s.now)
		if got != want {
			t.Errorf("%s %s %v: with the cache\n %s\nwithout\n %s", s.region, s.service, s.now, got, want)
		}
	}
	// Header values are trimmed and inner white space made one space.
	if got := canonicalValue([]string{"  a \t b  ", "c"}); got != "a b,c" {
		t.Errorf("canonicalValue = %q, want %q", got, "a b,c")
	}
}
