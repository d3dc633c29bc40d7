package serve_test

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

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/serve"
)

// TestRequestIDs: each request gets its own request id (WithRequestIDs
// gives them), which its response carries in the x-amzn-RequestId header
// and, in ec2Query and awsQuery, in the body; a client's error reports it.
// Answers from a fixture, at random, a fixture's error and a refusal.
func TestRequestIDs(t *testing.T) {
	m := loadShop(t)
	for _, id := range shopServices {
		t.Run(id.Name(), func(t *testing.T) {
			svc, _ := m.Service(id)
			var n atomic.Int64
			h, err := serve.New(m, svc, serve.WithFixtures(fixturesFor(t, m, id, shopFixtures)),
				serve.WithRequestIDs(func() string { return fmt.Sprintf("rid-%d", n.Add(1)) }))
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var header http.Header
			var body string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				mu.Lock()
				header, body = rec.Header(), rec.Body.String()
				mu.Unlock()
				for k, vs := range rec.Header() {
					w.Header()[k] = vs
				}
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(m, id, srv.URL, client.WithoutValidation(), client.WithoutRetries())
			if err != nil {
				t.Fatal(err)
			}
			inBody := id == shopQuery || id == shopEC2
			for i, input := range []string{`{"id": "pen"}`, `{"id": "other"}`, `{"id": "locked"}`, `{"id": "much-too-long-an-id"}`} {
				want := fmt.Sprintf("rid-%d", i+1)
				_, err := c.Call(context.Background(), "GetItem", []byte(input))
				mu.Lock()
				gotHeader, gotBody := header.Get("X-Amzn-Requestid"), body
				mu.Unlock()
				if gotHeader != want {
					t.Errorf("GetItem %s: x-amzn-RequestId %q, want %q", input, gotHeader, want)
				}
				if inBody && !strings.Contains(strings.ToLower(gotBody), "requestid>"+want+"</requestid>") {
					t.Errorf("GetItem %s: the body holds no request id %s: %s", input, want, gotBody)
				}
				var ce *client.Error
				if errors.As(err, &ce) && ce.RequestID != want {
					t.Errorf("GetItem %s: the client's error has request id %q, want %q", input, ce.RequestID, want)
				} else if err == nil && i >= 2 {
					t.Errorf("GetItem %s: no error", input)
				}
			}
		})
	}
}
