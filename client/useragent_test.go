package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
)

// headerServer is a DynamoDB stand-in that records each request's headers
// and throttles the first request of each call it is told to.
type headerServer struct {
	*httptest.Server
	mu       sync.Mutex
	got      []http.Header
	throttle int // requests still to throttle
}

func newHeaderServer(t *testing.T) *headerServer {
	s := &headerServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.Header.Clone())
		throttle := s.throttle > 0
		s.throttle--
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if throttle {
			w.WriteHeader(400)
			w.Write([]byte(`{"__type":"com.amazon.coral.availability#ThrottlingException","message":"slow down"}`))
			return
		}
		w.Write([]byte(`{"TableNames":[]}`))
	}))
	t.Cleanup(s.Close)
	return s
}

// setThrottle holds the lock: the request reaches the handler through
// libcurl, which the race detector does not see as a synchronisation.
func (s *headerServer) setThrottle(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.throttle = n
}

func (s *headerServer) requests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.got...)
}

var uuidV4Form = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// An AWS service's requests carry the SDKs' headers: one
// amz-sdk-invocation-id per call on every attempt, amz-sdk-request with
// the attempt and the max, both signed, and a User-Agent and
// X-Amz-User-Agent naming smithycurl, its version, the OS, the language,
// the service, the retry mode and the application id.
func TestAWSInvocationHeaders(t *testing.T) {
	srv := newHeaderServer(t)
	srv.setThrottle(1)
	creds := client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"})
	c, err := client.New(loadAWSModel(t, "dynamodb.json"), "com.amazonaws.dynamodb#DynamoDB_20120810", srv.URL, quickRetries, creds,
		client.WithAWSConfig(awsConfig(t, map[string]string{"AWS_SDK_UA_APP_ID": "my app/1"}, "")))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < 2; i++ {
		if _, err := c.Call(context.Background(), "ListTables", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	got := srv.requests()
	t.Logf("User-Agent: %s", got[0].Get("User-Agent"))
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3 (a throttled one retried, then one)", len(got))
	}
	for i, want := range []string{"attempt=1; max=3", "attempt=2; max=3", "attempt=1; max=3"} {
		if h := got[i].Get("Amz-Sdk-Request"); h != want {
			t.Errorf("request %d: amz-sdk-request %q, want %q", i+1, h, want)
		}
		if id := got[i].Get("Amz-Sdk-Invocation-Id"); !uuidV4Form.MatchString(id) {
			t.Errorf("request %d: amz-sdk-invocation-id %q is not a UUID v4", i+1, id)
		}
		if a := got[i].Get("Authorization"); !strings.Contains(a, "amz-sdk-invocation-id;amz-sdk-request;") {
			t.Errorf("request %d: the invocation headers are not signed: %s", i+1, a)
		}
	}
	if a, b, c := got[0].Get("Amz-Sdk-Invocation-Id"), got[1].Get("Amz-Sdk-Invocation-Id"), got[2].Get("Amz-Sdk-Invocation-Id"); a != b || a == c {
		t.Errorf("invocation ids %s, %s (same call), %s (next call): want the first two equal, the third new", a, b, c)
	}
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	ua := regexp.MustCompile(`^smithycurl/[0-9][^ ]* ua/2\.1 os/linux#[^ ]+ lang/go#` + regexp.QuoteMeta(goVersion) + ` md/arch#` + runtime.GOARCH +
		` api/dynamodb#2012-08-10 cfg/retry-mode#standard app/my-app-1$`)
	for _, h := range []string{"User-Agent", "X-Amz-User-Agent"} {
		if v := got[0].Get(h); !ua.MatchString(v) {
			t.Errorf("%s %q, want the form %s", h, v, ua)
		}
	}
}

// WithUserAgent replaces the User-Agent, not X-Amz-User-Agent; WithAppID
// and WithFrontEnd (which the C API and Python use) and the adaptive mode
// show in it; a service that is not AWS's gets none of the SDK headers;
// an application id over 50 characters fails New, naming where it is set.
func TestAWSUserAgentOptions(t *testing.T) {
	srv := newHeaderServer(t)
	creds := client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"})
	m := loadAWSModel(t, "dynamodb.json")
	c, err := client.New(m, "com.amazonaws.dynamodb#DynamoDB_20120810", srv.URL, creds, client.WithUserAgent("mine/1"),
		client.WithAppID("shop"), client.WithFrontEnd("python", "3.12.1"), client.WithRetryMode(client.RetryAdaptive),
		client.WithAWSConfig(awsConfig(t, map[string]string{"AWS_SDK_UA_APP_ID": "ignored"}, "")))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(context.Background(), "ListTables", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	h := srv.requests()[0]
	if ua := h.Get("User-Agent"); ua != "mine/1" {
		t.Errorf("User-Agent %q, want mine/1", ua)
	}
	want := regexp.MustCompile(` lang/python#3\.12\.1 md/go#[^ ]+ md/arch#[^ ]+ api/dynamodb#2012-08-10 cfg/retry-mode#adaptive app/shop$`)
	if ua := h.Get("X-Amz-User-Agent"); !want.MatchString(ua) {
		t.Errorf("X-Amz-User-Agent %q, want it to end as %s", ua, want)
	}

	_, err = client.New(m, "com.amazonaws.dynamodb#DynamoDB_20120810", srv.URL, creds,
		client.WithAWSConfig(awsConfig(t, nil, "[default]\nsdk_ua_app_id = "+strings.Repeat("a", 51)+"\n")))
	if err == nil || !strings.Contains(err.Error(), "config:2: sdk_ua_app_id: the application id must be at most 50 characters") {
		t.Errorf("a 51-character app id: error %v", err)
	}

	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, name := range []string{"Amz-Sdk-Invocation-Id", "Amz-Sdk-Request", "X-Amz-User-Agent"} {
			if r.Header.Get(name) != "" {
				t.Errorf("a service that is not AWS's got %s", name)
			}
		}
		if !strings.HasPrefix(r.Header.Get("User-Agent"), "smithycurl/") || strings.Contains(r.Header.Get("User-Agent"), " ") {
			t.Errorf("a service that is not AWS's got User-Agent %q", r.Header.Get("User-Agent"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer plain.Close()
	pc, err := client.New(loadIDL(t, `$version: "2"
namespace t
use aws.protocols#restJson1
@restJson1
service S { operations: [Ping] }
@http(method: "POST", uri: "/ping")
operation Ping { input := {}, output := {} }
`), "t#S", plain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	if _, err := pc.Call(context.Background(), "Ping", nil); err != nil {
		t.Fatal(err)
	}
}

// The retry mode comes from WithRetryMode, AWS_RETRY_MODE or the profile's
// retry_mode, in that order (the User-Agent says which applies); another
// mode fails New naming where it is set.
func TestRetryModeSettings(t *testing.T) {
	m := loadIDL(t, compressModel)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"Got": "` + r.Header.Get("X-Amz-User-Agent") + `"}`))
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		vars   map[string]string
		config string
		opts   []client.Option
		want   string // the mode, or the error
	}{
		{"default", nil, "", nil, "standard"},
		{"environment", map[string]string{"AWS_RETRY_MODE": "adaptive"}, "", nil, "adaptive"},
		{"profile", nil, "[default]\nretry_mode = adaptive\n", nil, "adaptive"},
		{"legacy", nil, "[default]\nretry_mode = legacy\n", nil, "standard"},
		{"environment over profile", map[string]string{"AWS_RETRY_MODE": "standard"}, "[default]\nretry_mode = adaptive\n", nil, "standard"},
		{"option over environment", map[string]string{"AWS_RETRY_MODE": "adaptive"}, "", []client.Option{client.WithRetryMode(client.RetryStandard)}, "standard"},
		{"option", nil, "", []client.Option{client.WithRetryMode(client.RetryAdaptive)}, "adaptive"},
		{"bad option", nil, "", []client.Option{client.WithRetryMode("fast")}, `WithRetryMode("fast"): retry_mode must be "standard" or "adaptive"`},
		{"bad profile", nil, "[default]\nretry_mode = fast\n", nil, "config:2: retry_mode must be standard, adaptive or legacy"},
	} {
		c, err := client.New(m, "t#S", srv.URL, append([]client.Option{client.WithAWSConfig(awsConfig(t, tc.vars, tc.config))}, tc.opts...)...)
		if strings.Contains(tc.want, " ") {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out, err := c.Call(context.Background(), "Put", []byte(`{}`))
		c.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ua := got(t, out)["Got"].(string); !strings.Contains(ua, " cfg/retry-mode#"+tc.want+" ") && !strings.HasSuffix(ua, " cfg/retry-mode#"+tc.want) {
			t.Errorf("%s: User-Agent %q, want retry mode %s", tc.name, ua, tc.want)
		}
	}
}

// In an AWS Lambda function (AWS_LAMBDA_FUNCTION_NAME set) an AWS
// service's requests carry the invocation's trace id in X-Amzn-Trace-Id,
// read at each call and percent-encoded as botocore's
// add_recursion_detection_header does; never over the caller's header, and
// not outside Lambda.
func TestLambdaTraceID(t *testing.T) {
	srv := newHeaderServer(t)
	vars := map[string]string{"AWS_LAMBDA_FUNCTION_NAME": "fn", "_X_AMZN_TRACE_ID": "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"}
	var mu sync.Mutex
	cfg := awsConfig(t, nil, "")
	cfg.Env.Lookup = func(name string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		v, ok := vars[name]
		return v, ok
	}
	creds := client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"})
	newClient := func(opts ...client.Option) *client.Client {
		c, err := client.New(loadAWSModel(t, "dynamodb.json"), "com.amazonaws.dynamodb#DynamoDB_20120810", srv.URL,
			append([]client.Option{creds, client.WithAWSConfig(cfg)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	call := func(c *client.Client, opts ...client.CallOption) string {
		t.Helper()
		if _, err := c.Call(context.Background(), "ListTables", []byte(`{}`), opts...); err != nil {
			t.Fatal(err)
		}
		got := srv.requests()
		return got[len(got)-1].Get("X-Amzn-Trace-Id")
	}
	c := newClient()
	if h := call(c); h != vars["_X_AMZN_TRACE_ID"] {
		t.Errorf("X-Amzn-Trace-Id %q, want %q", h, vars["_X_AMZN_TRACE_ID"])
	}
	mu.Lock()
	vars["_X_AMZN_TRACE_ID"] = "foo(bar) baz/é\n[x]{y}\"q\",'"
	mu.Unlock()
	if h, want := call(c), `foo%28bar%29%20baz%2F%C3%A9%0A[x]{y}"q",'`; h != want {
		t.Errorf("the next invocation's X-Amzn-Trace-Id %q, want %q (Python's quote)", h, want)
	}
	if h := call(c, client.WithCallHeader("X-Amzn-Trace-Id", "mine")); h != "mine" {
		t.Errorf("X-Amzn-Trace-Id %q, want the caller's", h)
	}
	mu.Lock()
	delete(vars, "AWS_LAMBDA_FUNCTION_NAME")
	mu.Unlock()
	if h := call(newClient()); h != "" {
		t.Errorf("outside Lambda: X-Amzn-Trace-Id %q, want none", h)
	}
}
