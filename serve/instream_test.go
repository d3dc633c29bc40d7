package serve_test

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// TestInputEventStreamRefused: an operation whose input is an event stream
// gets a 501 naming it before the server reads the body, so a duplex
// client that waits for the answer before sending its events does not hang.
func TestInputEventStreamRefused(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("testdata", "chat.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		svc    model.ShapeID
		path   string
		header map[string]string
	}{
		{"smithycurl.serve.chat#ChatRest", "/chat", map[string]string{"Content-Type": "application/vnd.amazon.eventstream"}},
		{"smithycurl.serve.chat#ChatJson", "/", map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "ChatJson.Chat"}},
	} {
		t.Run(tc.svc.Name(), func(t *testing.T) {
			svc, err := m.Service(tc.svc)
			if err != nil {
				t.Fatal(err)
			}
			srv, logs := startServer(t, m, svc, nil)
			// The body never ends while the test waits for the answer.
			pr, pw := io.Pipe()
			defer pw.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+tc.path, pr)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("no answer while the body is open: %v", err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusNotImplemented || !strings.Contains(string(b), "streams events in its input") {
				t.Errorf("status %d, body %s", resp.StatusCode, b)
			}
			if !strings.Contains(logs.String(), "Chat") {
				t.Errorf("log does not name the operation: %s", logs)
			}
		})
	}
}
