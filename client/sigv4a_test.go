package client_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/sigv4aserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

var sigv4aCreds = client.AWSCredentials{AccessKeyID: sigv4aserver.TestAccessKeyID, SecretAccessKey: sigv4aserver.TestSecretKey}

// PutEvents with an EndpointId: EventBridge's endpoint rules (the real
// model) choose sigv4a with signingRegionSet ["*"] for the endpoint given,
// and the fake global endpoint verifies the SigV4a signature with the
// public key of the test credentials. Without EndpointId the rules choose
// sigv4, which the fake refuses. AWS_SIGV4A_SIGNING_REGION_SET (or a
// profile's sigv4a_signing_region_set) replaces the rules' region set.
func TestSigV4aEventBridgeGlobalEndpoint(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "aws-models", "eventbridge.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sigv4aserver.Handler())
	defer srv.Close()
	newClient := func(settings map[string]string) (*client.Client, error) {
		return client.New(m, "com.amazonaws.eventbridge#AWSEvents", srv.URL, client.WithRegion("us-east-1"),
			client.WithAWSCredentials(sigv4aCreds), client.WithoutRetries(), client.WithAWSConfig(awsConfig(t, settings, "")))
	}
	entries := `"Entries":[{"Source":"test","DetailType":"t","Detail":"{}"}]`
	for _, tc := range []struct {
		settings map[string]string
		want     string
	}{
		{nil, "sigv4a events *"},
		{map[string]string{"AWS_SIGV4A_SIGNING_REGION_SET": " us-east-1, us-west-2"}, "sigv4a events us-east-1,us-west-2"},
	} {
		cl, err := newClient(tc.settings)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		for i := 0; i < 2; i++ { // the second signs with the cached key
			out, err := cl.Call(context.Background(), "PutEvents", []byte(`{"EndpointId":"abcde.veo",`+entries+`}`))
			if err != nil {
				t.Fatalf("PutEvents with an EndpointId: %v", err)
			}
			var o struct{ Entries []struct{ EventId string } }
			if json.Unmarshal(out, &o) != nil || len(o.Entries) != 1 || o.Entries[0].EventId != tc.want {
				t.Errorf("PutEvents answered %s, want the fake's EventId %q", out, tc.want)
			}
		}
		_, err = cl.Call(context.Background(), "PutEvents", []byte(`{`+entries+`}`))
		if err == nil || !strings.Contains(err.Error(), "not signed with SigV4a") {
			t.Errorf("PutEvents without EndpointId (SigV4): %v, want the fake's refusal", err)
		}
	}
	_, err = newClient(map[string]string{"AWS_SIGV4A_SIGNING_REGION_SET": "us-east-1,,x"})
	if err == nil || !strings.Contains(err.Error(), "environment variable AWS_SIGV4A_SIGNING_REGION_SET: must be regions") {
		t.Errorf("a malformed region set: %v", err)
	}
}

// connectTo sends each request to addr over plain HTTP with the host of its
// URL as Host, as curl's --connect-to: a URL the endpoint rules resolved,
// and signed for, reaches a local server.
type connectTo struct {
	next transport.Transport
	addr string
	mu   sync.Mutex
	auth []string // the Authorization headers sent
}

func (c *connectTo) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.auth = append(c.auth, req.Header.Get("Authorization"))
	c.mu.Unlock()
	req.Header.Set("Host", u.Host)
	u.Scheme, u.Host = "http", c.addr
	req.URL = u.String()
	return c.next.Do(ctx, req)
}

// GetObject and PutObject on an S3 Multi-Region Access Point ARN: S3's
// endpoint rules (the real model) resolve the access point's global host
// and choose sigv4a for all regions; the request, sent to that host's
// stand-in on 127.0.0.1, carries a SigV4a signature the fake verifies.
// S3's rules resolve an MRAP to its global host even with an endpoint
// given, so the request goes where they said and a transport connects it
// to the fake.
func TestSigV4aS3MultiRegionAccessPoint(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "models", "aws-large", "s3.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sigv4aserver.Handler())
	defer srv.Close()
	curl, err := transport.New(transport.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer curl.Close()
	ct := &connectTo{next: curl, addr: strings.TrimPrefix(srv.URL, "http://")}
	cl, err := client.New(m, "com.amazonaws.s3#AmazonS3", "", client.WithRegion("eu-west-1"),
		client.WithAWSCredentials(sigv4aCreds), client.WithoutRetries(), client.WithTransport(ct), client.WithAWSConfig(awsConfig(t, nil, "")))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	const mrap = `"Bucket":"arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap"`
	ep, err := cl.ResolveEndpoint("GetObject", []byte(`{`+mrap+`,"Key":"k"}`))
	if err != nil || ep.URL != "https://mfzwi23gnjvgw.mrap.accesspoint.s3-global.amazonaws.com" {
		t.Fatalf("resolved %v, %v", ep, err)
	}
	out, err := cl.Call(context.Background(), "GetObject", []byte(`{`+mrap+`,"Key":"a b/../k"}`))
	if err != nil {
		t.Fatalf("GetObject: %v", err)
	}
	var o struct{ Body []byte }
	if json.Unmarshal(out, &o) != nil || string(o.Body) != "sigv4a s3 *" {
		t.Errorf("GetObject answered %s, want the body \"sigv4a s3 *\"", out)
	}
	if _, err := cl.Call(context.Background(), "PutObject", []byte(`{`+mrap+`,"Key":"k","Body":"aGVsbG8="}`)); err != nil {
		t.Fatalf("PutObject: %v", err)
	}
	for _, a := range ct.auth {
		if !strings.HasPrefix(a, "AWS4-ECDSA-P256-SHA256 Credential="+sigv4aserver.TestAccessKeyID+"/") ||
			!strings.Contains(a, "/s3/aws4_request, SignedHeaders=") {
			t.Errorf("Authorization %q", a)
		}
	}
}

// A presigned GetObject URL of a Multi-Region Access Point is signed with
// SigV4a in its query (X-Amz-Algorithm AWS4-ECDSA-P256-SHA256,
// X-Amz-Region-Set), as the rules choose; sent without credentials to the
// access point's stand-in, the fake verifies it.
func TestSigV4aPresignS3MultiRegionAccessPoint(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "models", "aws-large", "s3.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sigv4aserver.Handler())
	defer srv.Close()
	cl, err := client.New(m, "com.amazonaws.s3#AmazonS3", "", client.WithRegion("eu-west-1"),
		client.WithAWSCredentials(sigv4aCreds), client.WithAWSConfig(awsConfig(t, nil, "")))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	p, u := presign(t, cl, "GetObject", `{"Bucket":"arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap","Key":"k"}`, time.Hour)
	q := u.Query()
	if u.Host != "mfzwi23gnjvgw.mrap.accesspoint.s3-global.amazonaws.com" || q.Get("X-Amz-Algorithm") != "AWS4-ECDSA-P256-SHA256" ||
		q.Get("X-Amz-Region-Set") != "*" || !strings.HasSuffix(q.Get("X-Amz-Credential"), "/s3/aws4_request") {
		t.Fatalf("presigned URL %s", p.URL)
	}
	req, err := http.NewRequest(p.Method, "http://"+strings.TrimPrefix(srv.URL, "http://")+u.RequestURI(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = u.Host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "sigv4a s3 *" {
		t.Errorf("the presigned URL got %d %s", resp.StatusCode, body)
	}
}

// sigv4aEvents is a service whose endpoint rules choose sigv4a and whose
// operation sends an input event stream.
const sigv4aEvents = `$version: "2"
namespace t
use aws.auth#sigv4
use aws.protocols#restJson1
use smithy.rules#endpointRuleSet

@restJson1
@sigv4(name: "svc")
@endpointRuleSet({
    version: "1.0"
    parameters: {Endpoint: {type: "string", builtIn: "SDK::Endpoint", documentation: "endpoint"}}
    rules: [
        {conditions: [{fn: "isSet", argv: [{ref: "Endpoint"}]}], type: "endpoint",
         endpoint: {url: {ref: "Endpoint"}, properties: {authSchemes: [{name: "sigv4a", signingName: "svc", signingRegionSet: ["*"]}]}}}
        {conditions: [], error: "no endpoint", type: "error"}
    ]
})
service S { operations: [Send] }

@http(method: "POST", uri: "/send")
operation Send {
    input := {
        @httpPayload
        @required
        events: Events
    }
    output := {
        @httpPayload
        events: Events
    }
}

@streaming
union Events {
    msg: Msg
}

structure Msg {
    @eventPayload
    text: String
}
`

// An input event stream under SigV4a is refused, saying why: its messages
// would need SigV4a's chained signatures, which smithycurl does not make.
func TestSigV4aEventStreamRefused(t *testing.T) {
	m := loadIDL(t, sigv4aEvents)
	srv := httptest.NewServer(sigv4aserver.Handler())
	defer srv.Close()
	cl, err := client.New(m, "t#S", srv.URL, client.WithRegion("us-east-1"), client.WithAWSCredentials(sigv4aCreds))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	s, err := cl.CallDuplex(context.Background(), "Send", []byte(`{}`))
	if err == nil {
		s.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "does not sign the messages of an input event stream with SigV4a") {
		t.Errorf("CallDuplex: %v, want the SigV4a refusal", err)
	}
}
