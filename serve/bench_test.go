package serve_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/serve"
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
