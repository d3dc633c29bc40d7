package transport

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// TestDuplexBurst sends many lines without waiting for their echoes, so
// that uploads pause and resume while the response arrives: every echo
// must come back once, in order. Known libcurl 7.88 defect, documented
// here: over HTTP/2 part of the response is sometimes lost (measured: 1
// iteration of 100 loses the end of one line, "event 65" + "event 653
// ..."), when the paused upload is resumed (curl_easy_pause) while the
// response's DATA frames arrive; the same server is intact through Go's
// HTTP/2 client. HTTP/1.1 is exact. Over h2c with libcurl < 8 the test
// counts broken iterations instead of failing (event streams detect the
// loss: the message CRCs, client.TestEventStreamSendBurst).
func TestDuplexBurst(t *testing.T) {
	url := duplexServer(t)
	for _, v := range []struct {
		name string
		v    HTTPVersion
	}{{"h2c", HTTPVersion2PriorKnowledge}, {"HTTP1.1", HTTPVersion1}} {
		t.Run(v.name, func(t *testing.T) {
			tr := newT(t, Config{HTTPVersion: v.v})
			tolerate := v.v == HTTPVersion2PriorKnowledge && curlVersion() < 0x080000
			broken := 0
		iterations:
			for iter := 0; iter < 20; iter++ {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				const n = 2000
				body := &duplexBody{}
				w := &echoWriter{got: make(chan string, n+1)}
				errc := make(chan error, 1)
				go func() {
					_, err := tr.Do(ctx, &Request{Method: "POST", URL: url, BodyReader: body, BodySize: -1, BodyWriter: w, NoTimeout: true, OnBodyStart: func(int, wire.Header) {}})
					errc <- err
				}()
				for i := 0; i < n; i++ {
					body.send([]byte(fmt.Sprintf("event %d with some padding to make it longer\n", i)), false)
					if i%7 == 0 {
						time.Sleep(time.Microsecond)
					}
				}
				body.send(nil, true)
				err := <-errc
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				close(w.got)
				i := 0
				for got := range w.got {
					if want := fmt.Sprintf("event %d with some padding to make it longer", i); got != want {
						if !tolerate {
							t.Fatalf("iteration %d: echo %d is %q", iter, i, got)
						}
						t.Logf("libcurl %x, iteration %d: echo %d is %q (known defect)", curlVersion(), iter, i, got)
						broken++
						continue iterations
					}
					i++
				}
				if i != n && !tolerate {
					t.Fatalf("iteration %d: %d echoes", iter, i)
				}
			}
			t.Logf("%d of 20 iterations lost response data", broken)
		})
	}
}
