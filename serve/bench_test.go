package serve_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/serve"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
)

// BenchmarkServeHTTP: one small awsJson1_0 request, answered from a
// fixture and at random, in process (no network): the handler's own cost.
func BenchmarkServeHTTP(b *testing.B) {
	m, err := loadShopModel()
	if err != nil {
		b.Fatal(err)
	}
	svc, _ := m.Service(shopJSON)
	h, err := serve.New(m, svc, serve.WithFixtures([]byte(`{"GetItem": [{"match": {"id": "pen"}, "output": {"id": "pen", "name": "A pen"}}]}`)))
	if err != nil {
		b.Fatal(err)
	}
	for _, id := range []string{"pen", "random"} {
		b.Run(id, func(b *testing.B) {
			body := `{"id": "` + id + `"}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/x-amz-json-1.0")
				req.Header.Set("X-Amz-Target", "ShopJson.GetItem")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}

// TestServeHTTPAllocs: a fixture's answer is rendered once, when it is
// loaded, and the body read in one piece: a request it answers makes no
// more allocations than these (62 when each request rendered it anew).
func TestServeHTTPAllocs(t *testing.T) {
	m := loadShop(t)
	svc, _ := m.Service(shopJSON)
	h, err := serve.New(m, svc, serve.WithFixtures([]byte(`{"GetItem": [{"match": {"id": "pen"}, "output": {"id": "pen", "name": "A pen"}}]}`)))
	if err != nil {
		t.Fatal(err)
	}
	benchserver.CheckSteadyAllocs(t, "a request answered from a fixture", 46, func() {
		req := httptest.NewRequest("POST", "/", strings.NewReader(`{"id": "pen"}`))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "ShopJson.GetItem")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"A pen"`) {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
}
