// Package credserver holds fake AWS credential endpoints on 127.0.0.1 for
// tests: an EC2 instance metadata service (IMDSv2) and a container
// credentials endpoint (ECS, EKS Pod Identity). Both hand out credentials
// that expire after a few seconds (SetLifetime), record what they issued
// (Issued, for checking that no message shows a secret) and let a test
// replace a handler (Override) to misbehave: garbage, redirects, huge
// bodies, or Stall (no answer until the client leaves).
package credserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Issued is a set of credentials a fake handed out.
type Issued struct {
	AccessKeyID, SecretAccessKey, Token string
	Expires                             time.Time
}

// Secrets are the values no message may show.
func (is Issued) Secrets() []string { return []string{is.SecretAccessKey, is.Token} }

// base is what both fakes share: the server, the lock, the issued
// credentials, the overrides and the hit counts.
type base struct {
	URL  string
	srv  *httptest.Server
	stop chan struct{}
	name string // "IMDS" or "CONTAINER", in the issued values

	mu       sync.Mutex
	lifetime time.Duration
	issued   []Issued
	override map[string]http.HandlerFunc // by "METHOD path"
	hits     map[string]int
}

func (b *base) start(name string, h http.HandlerFunc) {
	b.name, b.lifetime, b.stop = name, 5*time.Second, make(chan struct{})
	b.override, b.hits = map[string]http.HandlerFunc{}, map[string]int{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Method + " " + r.URL.Path
		b.mu.Lock()
		b.hits[key]++
		o := b.override[key]
		b.mu.Unlock()
		if o != nil {
			o(w, r)
			return
		}
		h(w, r)
	}))
	b.URL = b.srv.URL
}

// Close stops the server; handlers waiting in Stall return.
func (b *base) Close() {
	close(b.stop)
	b.srv.Close()
}

// SetLifetime sets how long new credentials live (negative: expired).
func (b *base) SetLifetime(d time.Duration) { b.mu.Lock(); b.lifetime = d; b.mu.Unlock() }

// Override answers "METHOD path" with h instead of the fake (nil: the fake).
func (b *base) Override(methodPath string, h http.HandlerFunc) {
	b.mu.Lock()
	b.override[methodPath] = h
	b.mu.Unlock()
}

// Hits counts the requests to "METHOD path".
func (b *base) Hits(methodPath string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.hits[methodPath]
}

// Issued lists the credentials handed out so far.
func (b *base) Issued() []Issued {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Issued(nil), b.issued...)
}

// Stall answers nothing until the client goes away or the server closes.
func (b *base) Stall(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-b.stop:
	}
}

// issue writes new credentials as JSON with extra fields.
func (b *base) issue(w http.ResponseWriter, extra map[string]string) {
	b.mu.Lock()
	n := len(b.issued) + 1
	is := Issued{
		AccessKeyID:     fmt.Sprintf("ASIA%sFAKE%06d", b.name, n),
		SecretAccessKey: fmt.Sprintf("%s-secret-%d-%s", strings.ToLower(b.name), n, strings.Repeat("s", 24)),
		Token:           fmt.Sprintf("%s-token-%d-%s", strings.ToLower(b.name), n, strings.Repeat("t", 40)),
		Expires:         time.Now().Add(b.lifetime).Truncate(time.Second),
	}
	b.issued = append(b.issued, is)
	b.mu.Unlock()
	doc := map[string]string{"AccessKeyId": is.AccessKeyID, "SecretAccessKey": is.SecretAccessKey,
		"Token": is.Token, "Expiration": is.Expires.UTC().Format(time.RFC3339)}
	for k, v := range extra {
		doc[k] = v
	}
	json.NewEncoder(w).Encode(doc)
}
