package transport

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Handles freed by concurrent releases while the transport closes: the
// share handle (DNS cache, TLS sessions) is freed only once no easy handle
// uses it. Counting a handle out before it had left the share let another
// release free the share under it (curl_share_cleanup refused, and the
// share's locks were freed while the handle still used them).
func TestShareFreedLast(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	before := shareInUse.Load()
	for round := 0; round < 20; round++ {
		// MaxIdleHandles 1: most releases free their handle.
		tr, err := New(Config{MaxIdleHandles: 1})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := 0; g < 16; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := 0; i < 4; i++ {
					tr.Do(context.Background(), &Request{URL: srv.URL})
				}
			}()
		}
		close(start)
		time.Sleep(10 * time.Millisecond)
		tr.Close() // cancels the calls in flight: their handles are released at once
		wg.Wait()
		if st := tr.Stats(); st.Live != 0 {
			t.Fatalf("round %d: %d handles alive after Close and the calls", round, st.Live)
		}
	}
	if n := shareInUse.Load() - before; n != 0 {
		t.Errorf("a share handle was let go %d times while an easy handle still used it", n)
	}
}
