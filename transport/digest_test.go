package transport

import (
	"context"
	"testing"
	"time"
)

// TestDigest: a digest challenge (go-httpbin's) is answered within the
// call, the send after the 401 allowed though the request is not
// idempotent; the handle then forgets the credentials: the next request
// on it, without Digest, gets the 401.
func TestDigest(t *testing.T) { bothPaths(t, testDigest) }

func testDigest(t *testing.T, mk mkTransport) {
	tr := mk(t, Config{})
	url := bin(t) + "/digest-auth/auth/ann/pw"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, c := range []struct {
		d    *Digest
		want int
	}{{&Digest{User: "ann", Password: "pw"}, 200}, {nil, 401}, {&Digest{User: "ann", Password: "wrong"}, 401}, {nil, 401}} {
		r, err := tr.Do(ctx, &Request{Method: "GET", URL: url, Digest: c.d})
		if err != nil {
			t.Fatalf("digest %v: %v", c.d != nil, err)
		}
		if r.Status != c.want {
			t.Errorf("digest %v: status %d, want %d", c.d != nil, r.Status, c.want)
		}
	}
}
