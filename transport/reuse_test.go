package transport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/smithycurl/smithycurl/wire"
)

// Request.Reuse: the response is written into the one given (header map
// and body array reused where they fit), on both paths, for any status;
// BodyBuffer still takes a 2xx body; a failed call leaves Reuse alone.
func TestReuseResponse(t *testing.T) {
	bothPaths(t, func(t *testing.T, mk mkTransport) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			status, _ := strconv.Atoi(r.URL.Query().Get("status"))
			w.Header().Set("X-Body", r.URL.Query().Get("body"))
			if r.URL.Query().Has("other") {
				w.Header().Set("X-Other", "1")
			}
			w.WriteHeader(status)
			w.Write([]byte(r.URL.Query().Get("body")))
		}))
		defer srv.Close()
		tr := mk(t, Config{})
		reuse := &wire.Response{}
		do := func(query string, bodyBuffer []byte) *wire.Response {
			t.Helper()
			resp, err := tr.Do(context.Background(), &Request{URL: srv.URL + "/?" + query, Reuse: reuse, BodyBuffer: bodyBuffer})
			if err != nil {
				t.Fatal(err)
			}
			if resp != reuse {
				t.Fatalf("%s: a new response, want Reuse", query)
			}
			return resp
		}
		check := func(resp *wire.Response, status int, body string, other bool) {
			t.Helper()
			if resp.Status != status || string(resp.Body) != body || resp.Header.Get("X-Body") != body ||
				(resp.Header.Get("X-Other") != "") != other || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("got %d %q %v, want %d %q (X-Other %v)", resp.Status, resp.Body, resp.Header, status, body, other)
			}
		}
		check(do("status=200&body=first-body", nil), 200, "first-body", false)
		arr := &reuse.Body[:1][0]
		check(do("status=200&body=2nd", nil), 200, "2nd", false)
		if &reuse.Body[0] != arr {
			t.Error("a body that fits went to a new array")
		}
		check(do("status=404&body=nf", nil), 404, "nf", false)
		check(do("status=200&body=x&other", nil), 200, "x", true)
		check(do("status=200&body=y", nil), 200, "y", false)
		check(do("status=200&body=much-longer-than-any-before", nil), 200, "much-longer-than-any-before", false)
		buf := make([]byte, 0, 64)
		check(do("status=200&body=buffered", buf), 200, "buffered", false)
		if &reuse.Body[0] != &buf[:1][0] {
			t.Error("a 2xx body did not go to BodyBuffer")
		}
		kept := *reuse
		if _, err := tr.Do(context.Background(), &Request{URL: "http://127.0.0.1:1/", Reuse: reuse}); err == nil {
			t.Fatal("a call to a closed port succeeded")
		}
		if reuse.Status != kept.Status || string(reuse.Body) != "buffered" {
			t.Errorf("a failed call changed Reuse: %d %q", reuse.Status, reuse.Body)
		}
	})
}
