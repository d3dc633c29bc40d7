package serve_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/serve"
)

// The caller's credentials and a @sensitive input value: forwarded to the
// upstream, never written to a recording.
const (
	secretAuth   = "AWS4-HMAC-SHA256 Credential=AKIDRECORDTEST/20261202/us-east-1/shop/aws4_request, SignedHeaders=host, Signature=5ec7e75ec7e7"
	secretToken  = "SESSIONTOKENRECORDTEST"
	secretMember = "zqxjk"
)

// startServer serves svc of m with opts on 127.0.0.1.
func startServer(t *testing.T, m *model.Model, svc *model.Service, wrap func(http.Handler) http.Handler, opts ...serve.Option) (*httptest.Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	opts = append([]serve.Option{serve.WithLogger(slog.New(slog.NewTextHandler(logs, nil)))}, opts...)
	h, err := serve.New(m, svc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var handler http.Handler = h
	if wrap != nil {
		handler = wrap(h)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv, logs
}

// TestRecordReplay: the project's client calls an upstream through
// `serve --proxy --record`, then the same calls are replayed with the
// upstream stopped: the same outputs and errors, and the recording holds
// neither the caller's credentials nor the @sensitive value.
func TestRecordReplay(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	var mu sync.Mutex
	seen := http.Header{}
	upstream, _ := startServer(t, m, svc, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			for k, v := range r.Header {
				seen[k] = v
			}
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}, serve.WithSeed(7), serve.WithFixtures([]byte(`{"GetItem": [{"match": {"id": "pen"}, "output": {"id": "pen", "name": "A pen"}}]}`)))

	file := filepath.Join(t.TempDir(), "exchanges.jsonl")
	proxy, proxyLogs := startServer(t, m, svc, nil, serve.WithProxy(upstream.URL), serve.WithRecordFile(file))
	calls := []struct{ op, input string }{
		{"GetItem", `{"id": "pen"}`},
		{"GetItem", `{"id": "other"}`},
		{"PutItem", `{"name": "pen", "count": 3, "secret": "` + secretMember + `"}`},
	}
	clientOf := func(url string) *client.Client {
		c, err := client.New(m, shopJSON, url, client.WithoutValidation(), client.WithoutRetries(),
			client.WithHeader("Authorization", secretAuth), client.WithHeader("X-Amz-Security-Token", secretToken))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := clientOf(proxy.URL)
	var want []map[string]any
	for _, k := range calls {
		want = append(want, call(t, c, k.op, k.input))
	}
	wantErr := serviceError(t, c, "GetItem", `{"id": "gone"}`) // a modeled error, from @examples
	if got := want[0]["name"]; got != "A pen" {
		t.Fatalf("through the proxy: %v, want the upstream's fixture", want[0])
	}
	mu.Lock()
	if seen.Get("Authorization") != secretAuth || seen.Get("X-Amz-Security-Token") != secretToken {
		t.Errorf("the upstream did not get the caller's credentials as they were: %v", seen)
	}
	mu.Unlock()
	if !strings.Contains(proxyLogs.String(), "answer=proxy") {
		t.Errorf("proxy log: %s", proxyLogs)
	}

	rec, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(rec), "\n"); n != len(calls)+1 {
		t.Fatalf("%d exchanges recorded, want %d:\n%s", n, len(calls)+1, rec)
	}
	for _, secret := range []string{secretAuth, "AKIDRECORDTEST", "5ec7e75ec7e7", secretToken, secretMember, "Authorization", "X-Amz-Security-Token"} {
		if strings.Contains(string(rec), secret) {
			t.Errorf("the recording holds %q:\n%s", secret, rec)
		}
	}
	if !strings.Contains(string(rec), `"secret":"sha256:`) {
		t.Errorf("the @sensitive member is not recorded as its digest:\n%s", rec)
	}

	upstream.Close() // the replay must not need it
	replayed, replayLogs := startServer(t, m, svc, nil, serve.WithReplayFile(file))
	c = clientOf(replayed.URL)
	for i, k := range calls {
		if got := call(t, c, k.op, k.input); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("replayed %s %s: %v, recorded %v", k.op, k.input, got, want[i])
		}
	}
	if got := serviceError(t, c, "GetItem", `{"id": "gone"}`); got.Code != wantErr.Code || got.Status != wantErr.Status {
		t.Errorf("replayed error: %v, recorded %v", got, wantErr)
	}
	// A miss: the recording does not hold the input.
	if got := serviceError(t, c, "GetItem", `{"id": "unrecorded"}`); got.Status != http.StatusInternalServerError {
		t.Errorf("a miss: %v, want 500", got)
	}
	if !strings.Contains(replayLogs.String(), "not in the recording") || strings.Count(replayLogs.String(), "answer=replay") != len(calls)+1 {
		t.Errorf("replay log:\n%s", replayLogs)
	}
}

// TestProxyHopByHop: the headers of one connection are not forwarded.
func TestProxyHopByHop(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	got := make(chan http.Header, 1)
	upstream, _ := startServer(t, m, svc, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got <- r.Header.Clone()
			w.Header().Set("Connection", "X-Upstream-Hop")
			w.Header().Set("X-Upstream-Hop", "1")
			h.ServeHTTP(w, r)
		})
	})
	proxy, _ := startServer(t, m, svc, nil, serve.WithProxy(upstream.URL))
	req, _ := http.NewRequestWithContext(context.Background(), "POST", proxy.URL, strings.NewReader(`{"id": "a"}`))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "ShopJson.GetItem")
	req.Header.Set("Connection", "X-Hop")
	req.Header.Set("X-Hop", "1")
	req.Header.Set("Proxy-Authorization", "Basic cHJveHk6c2VjcmV0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := <-got
	if resp.StatusCode != http.StatusOK || h.Get("X-Amz-Target") != "ShopJson.GetItem" {
		t.Fatalf("%d, upstream got %v", resp.StatusCode, h)
	}
	if h.Get("X-Hop") != "" || h.Get("Proxy-Authorization") != "" {
		t.Errorf("hop-by-hop headers forwarded: %v", h)
	}
	if resp.Header.Get("X-Upstream-Hop") != "" {
		t.Errorf("the upstream's hop-by-hop header came back: %v", resp.Header)
	}
}

// TestReplayCorrupt: a recording that is not one names the file and the
// entry.
func TestReplayCorrupt(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	file := filepath.Join(t.TempDir(), "bad.jsonl")
	good := `{"operation":"GetItem","input":{"id":"a"},"response":{"status":200,"body":"{}"}}`
	for name, second := range map[string]string{
		"json":      `{"operation":"GetItem","input":`,
		"operation": `{"operation":"NoSuch","input":{},"response":{"status":200}}`,
		"status":    `{"operation":"GetItem","input":{},"response":{"status":0}}`,
		"base64":    `{"operation":"GetItem","input":{},"response":{"status":200,"bodyBase64":"%%"}}`,
	} {
		if err := os.WriteFile(file, []byte(good+"\n"+second+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := serve.New(m, svc, serve.WithReplayFile(file))
		if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%s: %v, want an error naming %s and line 2", name, err, file)
		}
	}
	if _, err := serve.New(m, svc, serve.WithRecordFile(file)); err == nil {
		t.Error("WithRecordFile without WithProxy: no error")
	}
}

// TestReplayRepeats: the same request gets the recorded responses in
// their order, then the last one again; inputs are compared by value
// (member order and spacing aside), a @sensitive member by its digest.
func TestReplayRepeats(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	line := func(name string) string {
		return `{"operation":"GetItem","input":{ "id" : "a" },"response":{"status":200,` +
			`"headers":{"Content-Type":["application/x-amz-json-1.0"]},"body":"{\"id\":\"a\",\"name\":\"` + name + `\"}"}}` + "\n"
	}
	srv, _ := startServer(t, m, svc, nil, serve.WithReplay([]byte(line("first")+"\n"+line("second"))))
	c, err := client.New(m, shopJSON, srv.URL, client.WithoutValidation(), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"first", "second", "second"} {
		if got := call(t, c, "GetItem", `{"id": "a"}`); got["name"] != want {
			t.Errorf("%v, want name %s", got, want)
		}
	}
}

// TestProxyUnreadRequest: a request the server cannot read still goes to
// the upstream, is not recorded, and its log line keeps a @sensitive
// member's message out.
func TestProxyUnreadRequest(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	upstream, _ := startServer(t, m, svc, nil)
	file := filepath.Join(t.TempDir(), "exchanges.jsonl")
	proxy, logs := startServer(t, m, svc, nil, serve.WithProxy(upstream.URL), serve.WithRecordFile(file))
	c, err := client.New(m, shopJSON, proxy.URL, client.WithoutValidation(), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	const bad = "NOTLOWERCASE"
	if got := serviceError(t, c, "PutItem", `{"name": "pen", "secret": "`+bad+`"}`); got.Status != http.StatusBadRequest {
		t.Errorf("%v, want the upstream's 400", got)
	}
	rec, err := os.ReadFile(file)
	if err != nil || len(rec) != 0 {
		t.Errorf("recorded %q, %v; want nothing", rec, err)
	}
	l := logs.String()
	if !strings.Contains(l, "member=/secret") || strings.Contains(l, bad) || !strings.Contains(l, "left out") {
		t.Errorf("proxy log:\n%s", l)
	}
}
