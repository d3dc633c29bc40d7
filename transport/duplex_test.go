package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// duplexBody is a request body written while the response is read: Read
// returns ErrNoDataYet when nothing is queued, and Send wakes the paused
// upload (the mechanism an input event stream needs).
type duplexBody struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	closed bool
	wake   func()
	paused int           // reads that returned ErrNoDataYet
	pausec chan struct{} // signalled at each such read, if made
}

func (d *duplexBody) SetWake(wake func()) {
	d.mu.Lock()
	d.wake = wake
	d.mu.Unlock()
}

func (d *duplexBody) Read(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.buf.Len() > 0 {
		return d.buf.Read(p)
	}
	if d.closed {
		return 0, io.EOF
	}
	d.paused++
	if d.pausec != nil {
		select {
		case d.pausec <- struct{}{}:
		default:
		}
	}
	return 0, ErrNoDataYet
}

func (d *duplexBody) send(b []byte, end bool) {
	d.mu.Lock()
	d.buf.Write(b)
	d.closed = d.closed || end
	if d.wake != nil {
		d.wake()
	}
	d.mu.Unlock()
}

// echoWriter hands each line of the response to got as it arrives.
type echoWriter struct {
	partial []byte
	got     chan string
}

func (e *echoWriter) Write(p []byte) (int, error) {
	e.partial = append(e.partial, p...)
	for {
		i := bytes.IndexByte(e.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		e.got <- string(e.partial[:i])
		e.partial = e.partial[i+1:]
	}
}

// duplexServer echoes each line of the request body at once (HTTP/2 is
// full duplex in net/http; HTTP/1.1 is made so).
func duplexServer(t testing.TB) string {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.ProtoMajor == 1 {
			rc.EnableFullDuplex()
		}
		if r.URL.Path == "/refuse" || r.URL.Path == "/refuse-late" {
			w.WriteHeader(400)
			io.WriteString(w, "refused")
			if r.URL.Path == "/refuse-late" {
				rc.Flush()
				time.Sleep(300 * time.Millisecond) // the stream stays open a while
			}
			return
		}
		w.WriteHeader(200)
		if r.URL.Path == "/ready" {
			io.WriteString(w, "ready\n")
		}
		rc.Flush()
		buf := make([]byte, 0, 256)
		chunk := make([]byte, 256)
		for {
			n, err := r.Body.Read(chunk)
			buf = append(buf, chunk[:n]...)
			for {
				i := bytes.IndexByte(buf, '\n')
				if i < 0 {
					break
				}
				w.Write(buf[:i+1])
				rc.Flush()
				buf = buf[i+1:]
			}
			if err != nil {
				return
			}
		}
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// pingPong runs one duplex exchange: rounds lines sent one at a time, each
// only after the echo of the one before came back, the upload paused in
// between (CURL_READFUNC_PAUSE, resumed with curl_easy_pause from the loop).
func pingPong(ctx context.Context, tr *Curl, url string, rounds int) error {
	body := &duplexBody{pausec: make(chan struct{}, 1)}
	w := &echoWriter{got: make(chan string, rounds+1)}
	errc := make(chan error, 1)
	go func() {
		resp, err := tr.Do(ctx, &Request{Method: "POST", URL: url, BodyReader: body, BodySize: -1, BodyWriter: w, NoTimeout: true,
			Header: map[string][]string{"Content-Type": {"application/vnd.amazon.eventstream"}}})
		if err == nil && resp.Status != 200 {
			err = fmt.Errorf("status %d", resp.Status)
		}
		errc <- err
	}()
	if strings.HasSuffix(url, "/ready") {
		// The server speaks first: the request's headers must go out
		// before any of its body.
		select {
		case got := <-w.got:
			if got != "ready" {
				return fmt.Errorf("first line %q", got)
			}
		case err := <-errc:
			return fmt.Errorf("the call ended before the server spoke: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("the server never spoke (hang): %w", ctx.Err())
		}
	}
	for i := 0; i < rounds; i++ {
		want := fmt.Sprintf("event %d", i)
		body.send([]byte(want+"\n"), false)
		select {
		case got := <-w.got:
			if got != want {
				return fmt.Errorf("round %d: echo %q, want %q", i, got, want)
			}
		case err := <-errc:
			return fmt.Errorf("round %d: the call ended: %v", i, err)
		case <-ctx.Done():
			return fmt.Errorf("round %d: no echo (hang): %w", i, ctx.Err())
		}
	}
	// libcurl asks for more after the last line and must pause: wait for
	// it, so the check below does not hang on how fast the echo came.
	select {
	case <-body.pausec:
	case err := <-errc:
		return fmt.Errorf("the call ended before the body did: %v", err)
	case <-ctx.Done():
		return fmt.Errorf("the upload never paused (hang): %w", ctx.Err())
	}
	body.send(nil, true)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return fmt.Errorf("the call did not end after the body did (hang): %w", ctx.Err())
	}
}

// TestDuplexExperiment is the experiment behind input event streams: can
// libcurl (7.88.1 on Debian 12) send a request body while the
// response is read, event by event? Each exchange sends a line only after
// the echo of the one before has arrived, so the request cannot be
// buffered whole: 200 exchanges of 5 rounds and one of 200, over h2c and
// HTTP/1.1, each bounded in time.
func TestDuplexExperiment(t *testing.T) {
	url := duplexServer(t)
	for _, v := range []struct {
		name string
		v    HTTPVersion
	}{{"h2c", HTTPVersion2PriorKnowledge}, {"HTTP1.1", HTTPVersion1}} {
		t.Run(v.name, func(t *testing.T) {
			tr := newT(t, Config{HTTPVersion: v.v})
			start := time.Now()
			for i := 0; i < 200; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				err := pingPong(ctx, tr, url, 5)
				cancel()
				if err != nil {
					t.Fatalf("exchange %d: %v", i, err)
				}
			}
			t.Logf("200 exchanges of 5 rounds in %v", time.Since(start))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			start = time.Now()
			if err := pingPong(ctx, tr, url, 200); err != nil {
				t.Fatal(err)
			}
			t.Logf("200 rounds in one exchange in %v", time.Since(start))
		})
	}
}

// The server answers before the request body's first byte (an event
// stream whose initial response comes first): libcurl must send the
// request's headers although the read callback pauses at once.
func TestDuplexServerFirst(t *testing.T) {
	url := duplexServer(t) + "/ready"
	for _, v := range []struct {
		name string
		v    HTTPVersion
	}{{"h2c", HTTPVersion2PriorKnowledge}, {"HTTP1.1", HTTPVersion1}} {
		t.Run(v.name, func(t *testing.T) {
			tr := newT(t, Config{HTTPVersion: v.v})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := pingPong(ctx, tr, url, 3); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// The server refuses the request before reading its body (an error
// response while the upload is paused): the call ends with that response.
// Known libcurl 7.88 limitation, documented here: over HTTP/2, when the
// server's response ends its stream at once (net/http answers and resets
// the stream whose body it did not read), libcurl never reports that
// response while the upload is paused; the call waits for its deadline
// (an event stream: the client's timeout). Not always: when libcurl reads
// the response before it pauses the upload (a loaded machine) it reports
// it, so either ending is accepted there, and nothing else. If the stream
// stays open a moment (refuse-late) the response comes through. HTTP/1.1
// is fine.
func TestDuplexRefused(t *testing.T) {
	srv := duplexServer(t)
	for _, v := range []struct {
		name, path string
		v          HTTPVersion
		hangs      bool
	}{
		{"h2c", "/refuse", HTTPVersion2PriorKnowledge, curlVersion() < 0x080000},
		{"h2c-late", "/refuse-late", HTTPVersion2PriorKnowledge, false},
		{"HTTP1.1", "/refuse", HTTPVersion1, false},
	} {
		t.Run(v.name, func(t *testing.T) {
			tr := newT(t, Config{HTTPVersion: v.v})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			resp, err := tr.Do(ctx, &Request{Method: "POST", URL: srv + v.path, BodyReader: &duplexBody{}, BodySize: -1,
				BodyWriter: &echoWriter{got: make(chan string, 10)}, NoTimeout: true, OnBodyStart: func(int, wire.Header) {}})
			var e *Error
			if v.hangs && errors.As(err, &e) && e.Kind == KindTimeout {
				t.Logf("libcurl %x: the refused stream was not seen; the call ended at its deadline (known limitation)", curlVersion())
				return
			}
			if err != nil || resp.Status != 400 || string(resp.Body) != "refused" {
				t.Fatalf("%v %+v", err, resp)
			}
		})
	}
}
