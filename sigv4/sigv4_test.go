package sigv4

import (
	"bytes"
	"encoding/hex"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/wire"
)

var exampleCreds = Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}

// The worked example of the AWS SigV4 documentation (IAM ListUsers, GET
// with a query, signed Content-Type): the signer gives its signature.
func TestDocumentationExample(t *testing.T) {
	s := &Signer{Region: "us-east-1", Service: "iam", Credentials: exampleCreds}
	h := wire.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}}
	sig, err := s.Sign(Request{Method: "GET", URL: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08",
		Header: h, PayloadHash: PayloadHash(nil)}, time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	const wantSig = "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
	want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, " +
		"SignedHeaders=content-type;host;x-amz-date, Signature=" + wantSig
	if got := h.Get("Authorization"); got != want {
		t.Errorf("Authorization\n %s\nwant\n %s", got, want)
	}
	if sig != wantSig {
		t.Errorf("Sign returned %s, want %s", sig, wantSig)
	}
	if h.Get(ContentSHA256Header) != "" || h.Get("X-Amz-Security-Token") != "" {
		t.Errorf("Sign added %s or a token header: %v", ContentSHA256Header, h)
	}
}

// The path is encoded once more but for S3 (DisableURIPathEscaping); the
// session token is sent and signed; Expect and Content-Length are not
// signed; a port that is not the scheme's is part of the host.
func TestPathEscapingAndToken(t *testing.T) {
	for _, tc := range []struct {
		service string
		raw     bool
		want    string
	}{
		{"s3", true, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240229/eu-west-3/s3/aws4_request, " +
			"SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, " +
			"Signature=f36ee54e577439c768ea6a3beb542fa97c7a3768afe0be4ff8dc9fb0b4d457fb"},
		{"lambda", false, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240229/eu-west-3/lambda/aws4_request, " +
			"SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, " +
			"Signature=41719c4674c10023e5b63e4336ea15948e613e7aaf0fc6a1209465ff2e8c0496"},
	} {
		creds := exampleCreds
		creds.SessionToken = "tok=="
		s := &Signer{Region: "eu-west-3", Service: tc.service, Credentials: creds, DisableURIPathEscaping: tc.raw}
		h := wire.Header{"Content-Type": {"text/plain"}, "Expect": {"100-continue"}, "Content-Length": {"5"}}
		payload := PayloadHash([]byte("hello"))
		if tc.raw {
			h.Set(ContentSHA256Header, payload)
		}
		_, err := s.Sign(Request{Method: "PUT", URL: "https://h.example.com:8443/b/a%20b/arn%3Aaws%3Ax/~k?x-id=PutObject&a=%2F",
			Header: h, PayloadHash: payload}, time.Date(2024, 2, 29, 1, 2, 3, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Get("Authorization"); got != tc.want {
			t.Errorf("%s: Authorization\n %s\nwant\n %s", tc.service, got, tc.want)
		}
		if got := h.Get("X-Amz-Security-Token"); got != "tok==" {
			t.Errorf("%s: X-Amz-Security-Token %q, want the session token", tc.service, got)
		}
	}
}

// The canonical query sorts by name then value, encodes the SigV4 way
// (space %20, '+' %2B, '/' %2F) and gives a name without a value "=".
func TestCanonicalQuery(t *testing.T) {
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

// A KeyCache keeps the signing key it derived; a new day, region, service
// or secret derives it again: every signature made through the cache is
// the one made without it.
func TestKeyCache(t *testing.T) {
	keys := &KeyCache{}
	secrets := []string{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "another-secret"}
	days := []time.Time{time.Date(2015, 8, 30, 23, 59, 59, 0, time.UTC), time.Date(2015, 8, 31, 0, 0, 1, 0, time.UTC)}
	signed := func(s *Signer, now time.Time) string {
		h := wire.Header{"Content-Type": {"  application/json ; a=b  "}, "X-Multi": {"1", "two  words"}}
		if _, err := s.Sign(Request{Method: "POST", URL: "https://example.amazonaws.com/a%20b?x=1", Header: h,
			PayloadHash: PayloadHash([]byte("{}"))}, now); err != nil {
			t.Fatal(err)
		}
		return h.Get("Authorization")
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
		creds := Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: s.secret}
		got := signed(&Signer{Region: s.region, Service: s.service, Credentials: creds, Keys: keys}, s.now)
		want := signed(&Signer{Region: s.region, Service: s.service, Credentials: creds}, s.now)
		if got != want {
			t.Errorf("%s %s %v: with the cache\n %s\nwithout\n %s", s.region, s.service, s.now, got, want)
		}
	}
	// Header values are trimmed and inner white space made one space.
	if got := canonicalValue([]string{"  a \t b  ", "c"}); got != "a b,c" {
		t.Errorf("canonicalValue = %q, want %q", got, "a b,c")
	}
}

// An event stream's messages are signed in a chain from the request's
// signature, across a change of day (a new key) and to the empty final
// message; the :date header is truncated to the millisecond.
func TestEventSignerChain(t *testing.T) {
	s := &Signer{Region: "us-east-1", Service: "transcribe", Credentials: exampleCreds}
	es := s.EventSigner("e1d8e8c8815e60969f2a34765c9a15945ffc0badbaa4b7e3b163ea19131e949b")
	for i, m := range []struct {
		t       time.Time
		payload string
		sig     string
	}{
		{time.Date(2023, 3, 14, 23, 59, 59, 999_999_999, time.UTC), "first message",
			"b45a0ae0e642bd31b2769e77b0b5895787ad4f469995b6d3628c8dcf474ff51e"},
		{time.Date(2023, 3, 15, 0, 0, 1, 250_000_000, time.UTC), "second",
			"f7b0c90ee854d6ba66c6c8e0b06519b816b3412a63f3eb7cf10eb75e9b3323eb"},
		{time.Date(2023, 3, 15, 0, 0, 2, 0, time.UTC), "",
			"535a836b86ada433665c9aa59bdb15e9b8d472a0490c9c5dea322f7682f436e0"},
	} {
		var payload []byte
		if m.payload != "" {
			payload = []byte(m.payload)
		}
		out, err := es.Sign([]byte("prefix"), payload, m.t)
		if err != nil {
			t.Fatal(err)
		}
		if string(out[:len("prefix")]) != "prefix" {
			t.Fatalf("message %d: dst was not appended to", i)
		}
		msg, err := eventstream.NewDecoder(bytes.NewReader(out[len("prefix"):]), eventstream.Limits{}).Next()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if string(msg.Payload) != m.payload {
			t.Errorf("message %d: payload %q, want %q", i, msg.Payload, m.payload)
		}
		sigValue, _ := msg.Get(":chunk-signature")
		dateValue, _ := msg.Get(":date")
		sig, date := sigValue.Bytes, dateValue.Time()
		if got := hex.EncodeToString(sig); got != m.sig {
			t.Errorf("message %d: signature %s, want %s", i, got, m.sig)
		}
		if want := m.t.Truncate(time.Millisecond); !date.Equal(want) {
			t.Errorf("message %d: :date %v, want %v", i, date, want)
		}
	}
}
