package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/s3expressserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// The directory bucket of the tests: S3's endpoint rules (the real model)
// choose sigv4-s3express for its object calls, with the endpoint given
// (path style on 127.0.0.1), and sigv4 for its CreateSession.
const expressBucket = "mybucket--usw2-az1--x-s3"

// s3Model is the real S3 model, loaded once for the tests of this file.
var s3Model = sync.OnceValues(func() (*model.Model, error) {
	dir, err := shareddata.Dir()
	if err != nil {
		return nil, err
	}
	return model.LoadPaths(context.Background(), filepath.Join(dir, "models", "aws-large", "s3.json"))
})

// expressClient starts a fake whose sessions live lifetime and returns it
// with an S3 client of its endpoint, signing with its test credentials
// (with a session token of the caller's, which the object calls must not
// send).
func expressClient(t *testing.T, lifetime time.Duration, opts ...client.Option) (*s3expressserver.Server, *client.Client) {
	t.Helper()
	m, err := s3Model()
	if err != nil {
		t.Fatal(err)
	}
	fake := s3expressserver.New(lifetime)
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	opts = append([]client.Option{client.WithRegion("us-west-2"), client.WithoutRetries(),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: s3expressserver.TestAccessKeyID,
			SecretAccessKey: s3expressserver.TestSecretKey, SessionToken: "caller-session-token"})}, opts...)
	cl, err := client.New(m, "com.amazonaws.s3#AmazonS3", srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return fake, cl
}

func getBody(t *testing.T, cl *client.Client, bucket, key string) string {
	t.Helper()
	out, err := cl.Call(context.Background(), "GetObject", []byte(`{"Bucket":"`+bucket+`","Key":"`+key+`"}`))
	if err != nil {
		t.Fatalf("GetObject: %v", err)
	}
	var o struct{ Body []byte }
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatal(err)
	}
	return string(o.Body)
}

// PutObject and GetObject on a directory bucket are signed with the
// session that one CreateSession gave (the fake checks the signature with
// the session's secret and its x-amz-s3session-token), and the session is
// kept for the calls after; CreateSession is signed with the caller's
// credentials. Before sigv4-s3express was signed as such, the fake refused
// the object calls (signed by the caller's access key).
func TestS3ExpressPutGet(t *testing.T) {
	var mu sync.Mutex
	var sent []wire.Header
	fake, cl := expressClient(t, 5*time.Minute, client.WithTrace(func(ev transport.TraceEvent) {
		if ev.Phase == transport.TraceRequest {
			mu.Lock()
			sent = append(sent, ev.Header)
			mu.Unlock()
		}
	}))
	if _, err := cl.Call(context.Background(), "PutObject", []byte(`{"Bucket":"`+expressBucket+`","Key":"a/b.txt","Body":"aGVsbG8="}`)); err != nil {
		t.Fatalf("PutObject: %v", err)
	}
	for i := 0; i < 3; i++ {
		if got := getBody(t, cl, expressBucket, "a/b.txt"); got != "hello" {
			t.Fatalf("GetObject gave %q, want hello", got)
		}
	}
	if n := fake.CreateSessions(); n != 1 {
		t.Errorf("%d CreateSession calls for 4 calls on one bucket, want 1", n)
	}
	// The trace shows the session's token redacted (the fake gave "session-token-1-...").
	mu.Lock()
	for _, h := range sent {
		if v := h.Get("X-Amz-S3session-Token"); v != "" && v != "REDACTED" {
			t.Errorf("the trace shows x-amz-s3session-token %q", v)
		}
	}
	mu.Unlock()
	// Another bucket has its own session.
	if _, err := cl.Call(context.Background(), "PutObject", []byte(`{"Bucket":"other--usw2-az1--x-s3","Key":"k","Body":""}`)); err != nil {
		t.Fatalf("PutObject on another bucket: %v", err)
	}
	if n := fake.CreateSessions(); n != 2 {
		t.Errorf("%d CreateSession calls for two buckets, want 2", n)
	}
}

// With DisableS3ExpressSessionAuth the rules choose plain sigv4: no
// session, and the fake refuses the caller's signature.
func TestS3ExpressDisabled(t *testing.T) {
	fake, cl := expressClient(t, 5*time.Minute, client.WithEndpointParams(map[string]any{"DisableS3ExpressSessionAuth": true}))
	_, err := cl.Call(context.Background(), "GetObject", []byte(`{"Bucket":"`+expressBucket+`","Key":"k"}`))
	if err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch") || fake.CreateSessions() != 0 {
		t.Errorf("GetObject without session auth: %v (%d CreateSession), want the fake's refusal and none", err, fake.CreateSessions())
	}
}

// AWS_S3_DISABLE_EXPRESS_SESSION_AUTH (or the profile's
// s3_disable_express_session_auth) does the same, unless the caller gives
// the parameter.
func TestS3ExpressDisabledBySettings(t *testing.T) {
	for _, tc := range []struct {
		vars    map[string]string
		config  string
		opts    []client.Option
		session bool
	}{
		{vars: map[string]string{"AWS_S3_DISABLE_EXPRESS_SESSION_AUTH": "true"}},
		{config: "[default]\ns3_disable_express_session_auth = true\n"},
		{vars: map[string]string{"AWS_S3_DISABLE_EXPRESS_SESSION_AUTH": "false"}, config: "[default]\ns3_disable_express_session_auth = true\n", session: true},
		{vars: map[string]string{"AWS_S3_DISABLE_EXPRESS_SESSION_AUTH": "true"}, session: true,
			opts: []client.Option{client.WithEndpointParams(map[string]any{"DisableS3ExpressSessionAuth": false})}},
	} {
		fake, cl := expressClient(t, 5*time.Minute, append(tc.opts, client.WithAWSConfig(awsConfig(t, tc.vars, tc.config)))...)
		_, err := cl.Call(context.Background(), "PutObject", []byte(`{"Bucket":"`+expressBucket+`","Key":"k","Body":""}`))
		if (err == nil) != tc.session || (fake.CreateSessions() == 1) != tc.session {
			t.Errorf("%v %q: PutObject: %v after %d CreateSession, want a session: %v", tc.vars, tc.config, err, fake.CreateSessions(), tc.session)
		}
	}
}

// A session close to its expiry is replaced by a new CreateSession, and
// the calls go on with it: the fake's sessions live 4 s, so the client
// refreshes from 2 s (half the life, in the background) and waits for the
// refresh from 3 s; the fake refuses an expired session.
func TestS3ExpressRefresh(t *testing.T) {
	fake, cl := expressClient(t, 4*time.Second)
	if _, err := cl.Call(context.Background(), "PutObject", []byte(`{"Bucket":"`+expressBucket+`","Key":"k","Body":"eA=="}`)); err != nil {
		t.Fatalf("PutObject: %v", err)
	}
	// Calls go on, a few milliseconds apart, until one made after 2 s has
	// started the refresh: bounded in time, not in calls, whose number in
	// 2 s depends on the machine's speed.
	start := time.Now()
	pace := time.NewTicker(5 * time.Millisecond)
	defer pace.Stop()
	calls := 0
	for fake.CreateSessions() < 2 {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("no second CreateSession after %v (%d calls)", time.Since(start), calls)
		}
		if got := getBody(t, cl, expressBucket, "k"); got != "x" {
			t.Fatalf("GetObject gave %q", got)
		}
		calls++
		<-pace.C
	}
	t.Logf("second CreateSession after %v and %d calls", time.Since(start), calls)
	// The new session signs the next calls.
	if got := getBody(t, cl, expressBucket, "k"); got != "x" {
		t.Fatalf("GetObject after the refresh gave %q", got)
	}
}

// Concurrent first calls on one bucket share one CreateSession.
func TestS3ExpressConcurrentFirstCalls(t *testing.T) {
	fake, cl := expressClient(t, 5*time.Minute)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = cl.Call(context.Background(), "PutObject", []byte(`{"Bucket":"`+expressBucket+`","Key":"k","Body":""}`))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if n := fake.CreateSessions(); n != 1 {
		t.Errorf("%d CreateSession calls for 8 concurrent first calls, want 1", n)
	}
}

// A CreateSession that fails fails the call with CreateSession's error,
// naming the bucket's session.
func TestS3ExpressCreateSessionFails(t *testing.T) {
	_, cl := expressClient(t, 5*time.Minute)
	_, err := cl.Call(context.Background(), "GetObject", []byte(`{"Bucket":"denied--usw2-az1--x-s3","Key":"k"}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Status != 403 || e.Code != "AccessDenied" || e.Operation.Name() != "GetObject" ||
		!strings.Contains(err.Error(), "S3 Express session of bucket denied--usw2-az1--x-s3 (CreateSession)") {
		t.Errorf("GetObject: %v, want CreateSession's AccessDenied naming the session", err)
	}
}

// A presigned URL for a directory bucket carries the session's token in
// X-Amz-S3session-Token (signed), not X-Amz-Security-Token.
func TestS3ExpressPresign(t *testing.T) {
	fake, cl := expressClient(t, 5*time.Minute)
	p, u := presign(t, cl, "PutObject", `{"Bucket":"`+expressBucket+`","Key":"k"}`, time.Minute)
	q := u.Query()
	if q.Get("X-Amz-S3session-Token") != "session-token-1-"+expressBucket || q.Has("X-Amz-Security-Token") ||
		!strings.HasPrefix(q.Get("X-Amz-Credential"), "ASIAS3EXPRESS1/") || fake.CreateSessions() != 1 {
		t.Errorf("presigned %s", p.URL)
	}
	// The fake takes the URL without credentials (it checks the signature
	// with the session's secret), and the object reads back.
	req, err := http.NewRequest(p.Method, p.URL, strings.NewReader("by URL"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("PUT to the presigned URL: %d %s", resp.StatusCode, msg)
	}
	if got := getBody(t, cl, expressBucket, "k"); got != "by URL" || fake.CreateSessions() != 1 {
		t.Errorf("GetObject gave %q after %d CreateSession, want \"by URL\" after 1", got, fake.CreateSessions())
	}
}

// presign presigns operation with input and returns the URL, parsed too.
func presign(t *testing.T, cl *client.Client, operation, input string, expires time.Duration) (*client.Presigned, *url.URL) {
	t.Helper()
	p, err := cl.Presign(context.Background(), operation, []byte(input), expires)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	return p, u
}
