package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

// recorder is a loopback server that answers {} and keeps what it received.
type recorder struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req.Clone(context.Background()))
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte("{}"))
}

func (r *recorder) last() *http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[len(r.reqs)-1]
}

func loadIDL(t *testing.T, src string) *model.Model {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("test.smithy", []byte(src))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const authModel = `$version: "2"
namespace t
@alloy#simpleRestJson
@httpApiKeyAuth(name: "%NAME%", in: "%IN%"%SCHEME%)
service S { operations: [Op, Open, Prefixed, Sync] }

@http(method: "GET", uri: "/op")
operation Op {}

@auth([])
@http(method: "GET", uri: "/open")
operation Open {}

@endpoint(hostPrefix: "{region}.api.")
@http(method: "POST", uri: "/prefixed")
operation Prefixed {
    input := {
        @required
        @hostLabel
        region: String
    }
}

@endpoint(hostPrefix: "sync-")
@http(method: "POST", uri: "/sync")
operation Sync {}
`

func authClient(t *testing.T, name, in, scheme string, endpoint string, opts ...client.Option) *client.Client {
	src := strings.NewReplacer("%NAME%", name, "%IN%", in, "%SCHEME%", scheme).Replace(authModel)
	c, err := client.New(loadIDL(t, src), "t#S", endpoint, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestAPIKeyInHeaderWithScheme(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	c := authClient(t, "Authorization", "header", `, scheme: "ApiKey"`, srv.URL, client.WithAPIKey("k-123"))
	if _, err := c.Call(context.Background(), "Op", nil); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Header.Get("Authorization"); got != "ApiKey k-123" {
		t.Errorf("Authorization = %q", got)
	}
	// @auth([]) on the operation: no credentials are sent.
	if _, err := c.Call(context.Background(), "Open", nil); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Header.Get("Authorization"); got != "" {
		t.Errorf("@auth([]) operation sent Authorization %q", got)
	}
}

func TestAPIKeyInQueryIsRedactedFromErrors(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	c := authClient(t, "api_key", "query", "", srv.URL, client.WithAPIKey("s3cr3t"))
	if _, err := c.Call(context.Background(), "Op", nil); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().URL.Query().Get("api_key"); got != "s3cr3t" {
		t.Errorf("api_key query = %q", got)
	}
	srv.Close() // now the call fails, and its error must not show the key
	_, err := c.Call(context.Background(), "Op", nil)
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindTransport {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("the API key leaks into the error: %v", err)
	}
	// Without credentials, an operation that needs them is refused before sending.
	c2 := authClient(t, "api_key", "query", "", srv.URL)
	if _, err := c2.Call(context.Background(), "Op", nil); !errors.As(err, &e) || e.Kind != client.KindUsage {
		t.Errorf("missing key: %v", err)
	}
}

func TestHostPrefix(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	// libcurl resolves every *.localhost name to the loopback address.
	endpoint := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	port := endpoint[strings.LastIndex(endpoint, ":"):]
	c := authClient(t, "k", "header", "", endpoint, client.WithAPIKey("x"))
	if _, err := c.Call(context.Background(), "Prefixed", []byte(`{"region": "eu1"}`)); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Host; got != "eu1.api.localhost"+port {
		t.Errorf("Host = %q, want eu1.api.localhost%s", got, port)
	}
	c = authClient(t, "k", "header", "", endpoint, client.WithAPIKey("x"), client.WithoutHostPrefix())
	if _, err := c.Call(context.Background(), "Prefixed", []byte(`{"region": "eu1"}`)); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Host; got != "localhost"+port {
		t.Errorf("with WithoutHostPrefix, Host = %q", got)
	}
	// Turned off, the prefix and its labels are not looked at at all.
	if _, err := c.Call(context.Background(), "Prefixed", []byte(`{"region": "evil.com/x"}`)); err != nil {
		t.Errorf("with WithoutHostPrefix, a label that is no host name: %v", err)
	} else if got := rec.last().Host; got != "localhost"+port {
		t.Errorf("with WithoutHostPrefix, Host = %q", got)
	}
	// A label that would move the request to another host is refused
	// before anything is sent.
	c = authClient(t, "k", "header", "", endpoint, client.WithAPIKey("x"))
	for _, bad := range []string{"evil.com/x", "a:80", "a b", "-a", "a..b"} {
		_, err := c.Call(context.Background(), "Prefixed", []byte(`{"region": "`+bad+`"}`))
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindUsage || !strings.Contains(err.Error(), "host") {
			t.Errorf("host label %q: %v", bad, err)
		}
	}
}

// TestHostPrefixPartOfALabel calls an operation whose prefix is not a whole
// label (StepFunctions' StartSyncExecution: "sync-"): it joins the
// endpoint's first label, and the resulting host is what is checked.
func TestHostPrefixPartOfALabel(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	endpoint := strings.Replace(srv.URL, "127.0.0.1", "states.localhost", 1)
	port := endpoint[strings.LastIndex(endpoint, ":"):]
	c := authClient(t, "k", "header", "", endpoint, client.WithAPIKey("x"))
	if _, err := c.Call(context.Background(), "Sync", nil); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Host; got != "sync-states.localhost"+port {
		t.Errorf("Host = %q, want sync-states.localhost%s", got, port)
	}
	c = authClient(t, "k", "header", "", endpoint, client.WithAPIKey("x"), client.WithoutHostPrefix())
	if _, err := c.Call(context.Background(), "Sync", nil); err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Host; got != "states.localhost"+port {
		t.Errorf("with WithoutHostPrefix, Host = %q", got)
	}
	// On an IP address endpoint a prefix makes no host: refused, with the way out.
	c = authClient(t, "k", "header", "", srv.URL, client.WithAPIKey("x"))
	if _, err := c.Call(context.Background(), "Sync", nil); err == nil || !strings.Contains(err.Error(), "turn host prefixes off") {
		t.Errorf("prefix on an IP endpoint: %v", err)
	}
}

func TestSensitiveLabelsStayOutOfErrorsAndTraces(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // every call fails to connect
	var traced []string
	var mu sync.Mutex
	c, err := client.New(httpBinModel(t), httpBinService, url, client.WithBasicAuth("ann", "pw"), client.WithoutRetries(),
		client.WithTrace(func(ev transport.TraceEvent) {
			mu.Lock()
			traced = append(traced, ev.URL)
			mu.Unlock()
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Call(context.Background(), "BasicAuth", []byte(`{"user": "ann", "passwd": "hunter2"}`))
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "/basic-auth/{user}/{passwd}") {
		t.Errorf("error = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(traced) == 0 || strings.Contains(strings.Join(traced, " "), "hunter2") {
		t.Errorf("trace URLs = %v", traced)
	}
}

func TestSensitiveHeadersRedactedInTraces(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	m := loadIDL(t, `$version: "2"
namespace t
@alloy#simpleRestJson
service S { operations: [Op] }
@http(method: "GET", uri: "/op")
operation Op {
    input := {
        @httpHeader("X-Secret")
        secret: Secret
        @httpHeader("X-Plain")
        plain: String
    }
}
@sensitive
string Secret
`)
	var mu sync.Mutex
	var seen []string
	c, err := client.New(m, "t#S", srv.URL, client.WithTrace(func(ev transport.TraceEvent) {
		mu.Lock()
		seen = append(seen, ev.Header.Get("X-Secret")+"|"+ev.Header.Get("X-Plain"))
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(context.Background(), "Op", []byte(`{"secret": "pin-1234", "plain": "visible"}`)); err != nil {
		t.Fatal(err)
	}
	if rec.last().Header.Get("X-Secret") != "pin-1234" {
		t.Error("the sensitive header was not sent")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0] != "REDACTED|visible" {
		t.Errorf("traced headers = %v", seen)
	}
}

// TestSigV4WithoutKeys: a SigV4 operation with a region but no keys, or
// with half of them, is a usage error saying so, and nothing is sent (it
// once went out unsigned).
func TestSigV4WithoutKeys(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	m := loadIDL(t, `$version: "2"
namespace t
use aws.auth#sigv4
use aws.protocols#awsJson1_0
@awsJson1_0
@sigv4(name: "svc")
service S { version: "1", operations: [Op] }
operation Op {}
`)
	for _, tc := range []struct {
		creds client.AWSCredentials
		want  string
	}{
		{client.AWSCredentials{Region: "us-east-1"}, "no credentials were given"},
		{client.AWSCredentials{Region: "us-east-1", AccessKeyID: "AKID"}, "the AWS credentials lack the secret access key"},
		{client.AWSCredentials{Region: "us-east-1", SecretAccessKey: "hush-hush"}, "the AWS credentials lack the access key id"},
	} {
		c, err := client.New(m, "t#S", srv.URL, client.WithAWSCredentials(tc.creds), client.WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Call(context.Background(), "Op", nil)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want a usage error with %q", tc.creds.AccessKeyID, err, tc.want)
		}
		if strings.Contains(err.Error(), "hush-hush") {
			t.Errorf("the secret shows in %q", err)
		}
		c.Close()
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.reqs) != 0 {
		t.Errorf("%d requests sent without keys", len(rec.reqs))
	}
}
