package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

const httpBinService = "smithycurl.examples.httpbin#HttpBin"

// fastRetries keeps retry tests quick while exercising the same code.
var fastRetries = client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 5 * time.Millisecond})

func httpBinModel(t testing.TB) *model.Model {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "httpbin"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// newHTTPBin starts go-httpbin on 127.0.0.1 and a client for it.
func newHTTPBin(t testing.TB, opts ...client.Option) *client.Client {
	t.Helper()
	srv := httptest.NewServer(httpbin.New().Handler())
	t.Cleanup(srv.Close)
	c, err := client.New(httpBinModel(t), httpBinService, srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func call(t *testing.T, c *client.Client, op, input string) map[string]any {
	t.Helper()
	out, err := c.Call(context.Background(), op, []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s output %s: %v", op, out, err)
	}
	return v
}

func asError(t *testing.T, err error, kind client.Kind) *client.Error {
	t.Helper()
	var e *client.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *client.Error", err, err)
	}
	if e.Kind != kind {
		t.Fatalf("kind = %s, want %s: %v", e.Kind, kind, err)
	}
	return e
}

func TestHTTPBinOperations(t *testing.T) {
	c := newHTTPBin(t, client.WithBearerToken("secret-token"), client.WithBasicAuth("ann", "pw"))

	if got := call(t, c, "GetIp", ""); got["origin"] != "127.0.0.1" {
		t.Errorf("GetIp = %v", got)
	}
	got := call(t, c, "Anything", `{"id": 25, "test": "yo", "queryParam": "hello"}`)
	if body, _ := got["json"].(map[string]any); body["id"] != 25.0 || body["test"] != "yo" || got["method"] != "POST" {
		t.Errorf("Anything = %v", got)
	}
	if args, _ := got["args"].(map[string]any); args["query"] == nil {
		t.Errorf("Anything query = %v", got["args"])
	}
	if got := call(t, c, "Get", `{"query": "a b&c"}`); !strings.Contains(got["url"].(string), "q=a%20b%26c") {
		t.Errorf("Get url = %v", got["url"])
	}
	if got := call(t, c, "Headers", `{"custom": "v1"}`); !strings.Contains(strings.ToLower(jsonText(got)), `"x-custom":["v1"]`) {
		t.Errorf("Headers = %v", got)
	}
	if got := call(t, c, "Gzip", ""); got["gzipped"] != true {
		t.Errorf("Gzip = %v", got)
	}
	if got := call(t, c, "Bearer", ""); got["authenticated"] != true || got["token"] != "secret-token" {
		t.Errorf("Bearer = %v", got)
	}
	if got := call(t, c, "BasicAuth", `{"user": "ann", "passwd": "pw"}`); got["authenticated"] != true {
		t.Errorf("BasicAuth = %v", got)
	}
	if got := call(t, c, "Status", `{"code": 204}`); len(got) != 0 {
		t.Errorf("Status 204 = %v", got)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestErrors(t *testing.T) {
	var attempts []client.Attempt
	var mu sync.Mutex
	c := newHTTPBin(t, fastRetries, client.WithObserver(func(a client.Attempt) {
		mu.Lock()
		attempts = append(attempts, a)
		mu.Unlock()
	}))
	ctx := context.Background()

	_, err := c.Call(ctx, "Status", []byte(`{"code": 500}`))
	e := asError(t, err, client.KindService)
	if e.Shape != "smithycurl.examples.httpbin#ServerFailure" || e.Status != 500 || !e.Modeled() {
		t.Errorf("500: %+v", e)
	}
	if e.Attempts != 3 || len(attempts) != 3 {
		t.Errorf("a @readonly call failing with 500 is sent %d times (observer saw %d), want 3", e.Attempts, len(attempts))
	}
	// Status models no 401 error: the error is unmodeled, and not retried.
	_, err = c.Call(ctx, "Status", []byte(`{"code": 401}`))
	if e := asError(t, err, client.KindService); e.Modeled() || e.Status != 401 || e.Attempts != 1 {
		t.Errorf("401: %+v", e)
	}
	// BasicAuth does model it: the status alone names the error (simpleRestJson).
	_, err = newHTTPBin(t, client.WithBasicAuth("a", "wrong")).Call(ctx, "BasicAuth", []byte(`{"user": "a", "passwd": "b"}`))
	if e := asError(t, err, client.KindService); e.Shape != "smithycurl.examples.httpbin#Unauthorized" || e.Status != 401 {
		t.Errorf("BasicAuth without credentials: %+v", e)
	}
	_, err = c.Call(ctx, "Anything", []byte(`{"test": "no id"}`))
	if e := asError(t, err, client.KindValidation); !strings.Contains(e.Error(), "id") {
		t.Errorf("missing required member: %v", e)
	}
	// @range is checked only when asked.
	_, err = newHTTPBin(t, client.WithValidation()).Call(ctx, "Status", []byte(`{"code": 42}`))
	asError(t, err, client.KindValidation)
	_, err = c.Call(ctx, "Anything", []byte(`{"id": "not a number"}`))
	asError(t, err, client.KindUsage)
	_, err = c.Call(ctx, "Anything", []byte(`{"id": 1`))
	asError(t, err, client.KindUsage)
	_, err = c.Call(ctx, "GetIP", nil)
	if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), "did you mean GetIp") {
		t.Errorf("unknown operation: %v", e)
	}
	_, err = c.Call(ctx, "Bearer", nil)
	if e := asError(t, err, client.KindUsage); !strings.Contains(e.Error(), "requires authentication") {
		t.Errorf("missing credentials: %v", e)
	}
}

func TestTimeoutAndCancel(t *testing.T) { viaBoth(t, testTimeoutAndCancel) }

func testTimeoutAndCancel(t *testing.T, path client.Option) {
	c := newHTTPBin(t, path, client.WithTimeout(300*time.Millisecond), client.WithoutRetries())
	start := time.Now()
	_, err := c.Call(context.Background(), "Delay", []byte(`{"seconds": 3}`))
	asError(t, err, client.KindTimeout)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout took %s", d)
	}

	c = newHTTPBin(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start = time.Now()
	_, err = c.Call(ctx, "Delay", []byte(`{"seconds": 5}`))
	asError(t, err, client.KindCancelled)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %s", d)
	}
}

func TestTraceRedactsCredentials(t *testing.T) { viaBoth(t, testTraceRedactsCredentials) }

func testTraceRedactsCredentials(t *testing.T, path client.Option) {
	var mu sync.Mutex
	var seen []string
	c := newHTTPBin(t, path, client.WithBearerToken("top-secret"), client.WithTrace(func(ev transport.TraceEvent) {
		mu.Lock()
		seen = append(seen, ev.Method+" "+ev.URL+" "+jsonText(ev.Header))
		mu.Unlock()
	}))
	call(t, c, "Bearer", "")
	all := strings.Join(seen, "\n")
	if strings.Contains(all, "top-secret") || !strings.Contains(all, "REDACTED") {
		t.Errorf("trace = %s", all)
	}
}

func TestEndpointPathPrefix(t *testing.T) {
	srv := httptest.NewServer(http.StripPrefix("/base", httpbin.New().Handler()))
	defer srv.Close()
	for _, endpoint := range []string{srv.URL + "/base", srv.URL + "/base/"} {
		c, err := client.New(httpBinModel(t), httpBinService, endpoint)
		if err != nil {
			t.Fatal(err)
		}
		if got := call(t, c, "GetIp", ""); got["origin"] == nil {
			t.Errorf("%s: GetIp = %v", endpoint, got)
		}
		c.Close()
	}
	for _, bad := range []string{"localhost:80", "ftp://x", "http://", "http://h/?q=1"} {
		if _, err := client.New(httpBinModel(t), httpBinService, bad); err == nil {
			t.Errorf("endpoint %q accepted", bad)
		}
	}
	if _, err := client.New(httpBinModel(t), "a.b#Nope", srv.URL); err == nil || !strings.Contains(err.Error(), httpBinService) {
		t.Errorf("unknown service: %v", err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	c := newHTTPBin(t)
	const workers, calls = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				in := []byte(`{"id": ` + jsonText(w*1000+i) + `}`)
				out, err := c.Call(context.Background(), "Anything", in)
				if err != nil {
					errs <- err
					return
				}
				var v struct{ JSON struct{ ID int } }
				if json.Unmarshal(out, &v) != nil || v.JSON.ID != w*1000+i {
					errs <- errors.New("wrong echo: " + string(out))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
