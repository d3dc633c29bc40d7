package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/transport"
)

// issuing hands out AWS credentials numbered by call (AKID1, AKID2, ...)
// that live for life on its clock, and remembers when each expires. With
// gate set, each call waits for it; with fail set, calls fail.
type issuing struct {
	now   func() time.Time
	life  time.Duration
	calls atomic.Int32
	gate  chan struct{}
	fail  atomic.Bool

	mu      sync.Mutex
	expires map[string]time.Time
}

func newIssuing(now func() time.Time, life time.Duration) *issuing {
	return &issuing{now: now, life: life, expires: map[string]time.Time{}}
}

func (p *issuing) Retrieve(context.Context) (identity.AWS, error) {
	n := p.calls.Add(1)
	if p.gate != nil {
		<-p.gate
	}
	if p.fail.Load() {
		return identity.AWS{}, errors.New("the metadata endpoint did not answer")
	}
	a := identity.AWS{AccessKeyID: fmt.Sprintf("AKID%d", n), SecretAccessKey: "SECRET-OF-" + fmt.Sprint(n),
		SessionToken: "TOKEN-OF-" + fmt.Sprint(n), Expires: p.now().Add(p.life)}
	p.mu.Lock()
	p.expires[a.AccessKeyID] = a.Expires
	p.mu.Unlock()
	return a, nil
}

func (p *issuing) String() string { return "the test issuer" }

func (p *issuing) expiry(akid string) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.expires[akid]
	return t, ok
}

// keyServer answers every request with {} and records the access key id
// each SigV4 request was signed with; check, when set, sees each one
// first and may answer instead (true).
type keyServer struct {
	mu    sync.Mutex
	keys  []string
	check func(w http.ResponseWriter, akid string) bool
}

func (s *keyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, cred, _ := strings.Cut(r.Header.Get("Authorization"), "Credential=")
	akid, _, _ := strings.Cut(cred, "/")
	s.mu.Lock()
	s.keys = append(s.keys, akid)
	s.mu.Unlock()
	if s.check != nil && s.check(w, akid) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte("{}"))
}

func (s *keyServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.keys...)
}

// fakeClock is a clock the tests move by hand.
type fakeClock struct{ ns atomic.Int64 }

func (c *fakeClock) now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.ns.Store(time.Now().UnixNano())
	return c
}

// TestCredentialsRefreshedAsTheyExpire: credentials that live two seconds
// are refreshed while calls go on; every call succeeds, signed with
// credentials that had not expired.
func TestCredentialsRefreshedAsTheyExpire(t *testing.T) {
	p := newIssuing(time.Now, 2*time.Second)
	var expired atomic.Int32
	srv := &keyServer{check: func(w http.ResponseWriter, akid string) bool {
		if exp, ok := p.expiry(akid); !ok || !time.Now().Before(exp) {
			expired.Add(1)
		}
		return false
	}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	var traceMu sync.Mutex
	var traced strings.Builder
	trace := func(ev transport.TraceEvent) {
		traceMu.Lock()
		defer traceMu.Unlock()
		fmt.Fprintf(&traced, "%s %v\n", ev.URL, ev.Header)
	}
	c, err := client.New(loadIDL(t, secretsModel), "t#S", hs.URL, client.WithAWSCredentialsProvider(p),
		client.WithRegion("eu-west-1"), client.WithoutRetries(), client.WithTimeout(5*time.Second), client.WithTrace(trace))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	deadline := time.Now().Add(20 * time.Second)
	calls := 0
	for p.calls.Load() < 3 { // two refreshes
		if time.Now().After(deadline) {
			t.Fatalf("after %d calls, %d retrieves, want 3", calls, p.calls.Load())
		}
		if _, err := c.Call(context.Background(), "Sig", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		calls++
	}
	if n := expired.Load(); n != 0 {
		t.Errorf("%d of %d requests signed with expired credentials", n, calls)
	}
	traceMu.Lock()
	defer traceMu.Unlock()
	if tr := traced.String(); !strings.Contains(tr, "REDACTED") || strings.Contains(tr, "SECRET-OF") || strings.Contains(tr, "TOKEN-OF") {
		t.Errorf("the trace shows a secret or redacts nothing:\n%.2000s", tr)
	}
	distinct := map[string]bool{}
	for _, k := range srv.seen() {
		distinct[k] = true
	}
	if len(distinct) < 2 {
		t.Errorf("requests signed with %v, want several credentials", distinct)
	}
}

// TestRetrySignsWithFreshCredentials: credentials that expire between two
// attempts of a call: the retry is signed with the new ones.
func TestRetrySignsWithFreshCredentials(t *testing.T) {
	clk := newFakeClock()
	p := newIssuing(clk.now, time.Hour)
	cache := identity.NewCache[identity.AWS](p, "the test issuer", identity.WithClock(clk.now))
	var attempts atomic.Int32
	srv := &keyServer{check: func(w http.ResponseWriter, akid string) bool {
		if attempts.Add(1) == 1 {
			clk.advance(2 * time.Hour) // the first attempt's credentials expire
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}
		return false
	}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c, err := client.New(loadIDL(t, secretsModel), "t#S", hs.URL, client.WithAWSCredentialsProvider(cache),
		client.WithRegion("eu-west-1"), client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 2, Base: time.Millisecond, Cap: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(context.Background(), "Sig", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if got := srv.seen(); len(got) != 2 || got[0] != "AKID1" || got[1] != "AKID2" {
		t.Errorf("attempts signed with %v, want [AKID1 AKID2]", got)
	}
}

// TestOneRefreshForManyCallsViaEngine: 1,000 calls in flight through the
// engine when the credentials expire: one Retrieve, every call signed
// with the new credentials.
func TestOneRefreshForManyCallsViaEngine(t *testing.T) {
	clk := newFakeClock()
	p := newIssuing(clk.now, time.Hour)
	cache := identity.NewCache[identity.AWS](p, "the test issuer", identity.WithClock(clk.now))
	srv := &keyServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c, err := client.New(loadIDL(t, secretsModel), "t#S", hs.URL, client.WithAWSCredentialsProvider(cache),
		client.WithRegion("eu-west-1"), client.WithEngine(), client.WithoutRetries(), client.WithTimeout(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(context.Background(), "Sig", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	clk.advance(2 * time.Hour)
	p.gate = make(chan struct{})
	const n = 1000
	errs := make(chan error, n)
	var started sync.WaitGroup
	for range n {
		started.Add(1)
		go func() {
			started.Done()
			_, err := c.Call(context.Background(), "Sig", []byte(`{}`))
			errs <- err
		}()
	}
	started.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for p.calls.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no refresh started")
		}
		time.Sleep(time.Millisecond)
	}
	close(p.gate)
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := p.calls.Load(); got != 2 {
		t.Errorf("%d retrieves, want 2 (the first, and one refresh for %d calls)", got, n)
	}
	seen := srv.seen()
	for i, k := range seen[1:] {
		if k != "AKID2" {
			t.Fatalf("call %d signed with %s, want AKID2", i+1, k)
		}
	}
	if len(seen) != n+1 {
		t.Errorf("%d requests, want %d", len(seen), n+1)
	}
}

// TestProviderFailure: a provider that fails fails the call, KindUsage,
// with a message naming the provider and no secret, and nothing is sent;
// a call whose deadline passes while it waits is KindTimeout.
func TestProviderFailure(t *testing.T) {
	srv := &keyServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	p := newIssuing(time.Now, time.Hour)
	p.fail.Store(true)
	c, err := client.New(loadIDL(t, secretsModel), "t#S", hs.URL, client.WithAWSCredentialsProvider(p),
		client.WithRegion("eu-west-1"), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Call(context.Background(), "Sig", []byte(`{}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindUsage ||
		!strings.Contains(err.Error(), "the AWS credentials from the test issuer: the metadata endpoint did not answer") {
		t.Fatalf("got %v, want a usage error naming the provider", err)
	}

	p.fail.Store(false)
	p.gate = make(chan struct{})
	defer close(p.gate)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Call(ctx, "Sig", []byte(`{}`))
	if !errors.As(err, &ce) || ce.Kind != client.KindTimeout || !strings.Contains(err.Error(), "the test issuer") {
		t.Fatalf("got %v, want a timeout naming the provider", err)
	}
	if got := srv.seen(); len(got) != 0 {
		t.Errorf("%d requests sent without credentials", len(got))
	}
}

// TestTokenProviders: bearer tokens and API keys (header and query) from
// providers, checked as static ones are; a cache is shared by two clients.
func TestTokenProviders(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	var n atomic.Int32
	tokens := identity.NewCache[identity.Token](identity.ProviderFunc[identity.Token](func(context.Context) (identity.Token, error) {
		return identity.Token{Value: fmt.Sprintf("TOKEN-%d\n", n.Add(1))}, nil
	}), "the token source")
	m := loadIDL(t, secretsModel)
	for i := range 2 {
		c, err := client.New(m, "t#S", srv.URL, client.WithBearerTokenProvider(tokens), client.WithAPIKeyProvider(tokens))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Call(context.Background(), "Bearer", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if got := rec.last().Header.Get("Authorization"); got != "Bearer TOKEN-1" {
			t.Errorf("client %d: Authorization %q", i, got)
		}
		if _, err := c.Call(context.Background(), "Key", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if got := rec.last().Header.Get("X-Api-Key"); got != "TOKEN-1" {
			t.Errorf("client %d: X-Api-Key %q", i, got)
		}
	}
	if n.Load() != 1 {
		t.Errorf("%d retrieves for two clients sharing a cache, want 1", n.Load())
	}

	bad := identity.ProviderFunc[identity.Token](func(context.Context) (identity.Token, error) {
		return identity.Token{Value: "KEY-SECRET\x01"}, nil
	})
	c, err := client.New(m, "t#S", srv.URL, client.WithAPIKeyProvider(bad))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Call(context.Background(), "Key", []byte(`{}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), "WithAPIKeyProvider") ||
		!strings.Contains(err.Error(), "control character") || strings.Contains(err.Error(), "KEY-SECRET") {
		t.Fatalf("got %v", err)
	}
}
