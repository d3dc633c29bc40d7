package transport

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/servers/faultserver"
)

// libcurl re-sends a request on a fresh connection when a reused one dies
// before any response byte. The server may have acted on the first copy,
// so that happens only for requests marked Idempotent.
func TestNoSilentResendOnReusedConnection(t *testing.T) {
	bothPaths(t, testNoSilentResendOnReusedConnection)
}

func testNoSilentResendOnReusedConnection(t *testing.T, mk mkTransport) {
	s := faultserver.Start()
	defer s.Close()
	tr := mk(t, Config{})
	var err error
	ctx := context.Background()
	s.Handle("/warm", faultserver.JSON(200, `{}`))
	warm := func() {
		t.Helper()
		if _, err := tr.Do(ctx, &Request{URL: s.URL + "/warm"}); err != nil {
			t.Fatal(err)
		}
	}

	for _, method := range []string{"POST", "GET"} {
		path := "/once-" + method
		s.Handle(path, faultserver.Reset(), faultserver.JSON(200, `{}`))
		warm()
		var body []byte
		if method == "POST" {
			body = []byte(`{"a":1}`)
		}
		_, err = tr.Do(ctx, &Request{Method: method, URL: s.URL + path, Body: body})
		var te *Error
		if !errors.As(err, &te) || te.Kind != KindOther || !te.MayHaveReached {
			t.Errorf("%s: err = %v, want KindOther with MayHaveReached", method, err)
		}
		if n := s.Hits(path); n != 1 {
			t.Errorf("%s: server saw the request %d times, want 1", method, n)
		}
		if te != nil && !strings.Contains(te.Message, "reused connection closed") {
			t.Errorf("%s: libcurl's re-send was not the one refused: %v", method, te)
		}
	}

	s.Handle("/twice", faultserver.Reset(), faultserver.JSON(200, `{}`))
	warm()
	resp, err := tr.Do(ctx, &Request{Method: "PUT", URL: s.URL + "/twice", Body: []byte(`{}`), Idempotent: true})
	if err != nil || resp.Status != 200 {
		t.Fatalf("idempotent PUT after a stale connection: %v", err)
	}
	if n := s.Hits("/twice"); n != 2 {
		t.Errorf("server saw the idempotent request %d times, want 2 (libcurl's own re-send)", n)
	}
}

// A reply that is not HTTP fails with libcurl's code 1, the code of an
// unsupported scheme too: the request was sent, so it may have reached the
// server; a URL libcurl cannot send fails with the same code and did not.
func TestGarbageReplyMayHaveReached(t *testing.T) { bothPaths(t, testGarbageReplyMayHaveReached) }

func testGarbageReplyMayHaveReached(t *testing.T, mk mkTransport) {
	s := faultserver.Start()
	defer s.Close()
	tr := mk(t, Config{})
	s.Handle("/garbage", faultserver.Garbage())
	_, err := tr.Do(context.Background(), &Request{Method: "POST", URL: s.URL + "/garbage", Body: []byte(`{}`)})
	var te *Error
	if !errors.As(err, &te) || te.Kind != KindOther || !te.MayHaveReached {
		t.Fatalf("err = %v, want KindOther with MayHaveReached", err)
	}
	if !strings.Contains(te.Error(), "may have reached the server") {
		t.Errorf("the error does not say the request may have reached the server: %v", te)
	}
	if n := s.Hits("/garbage"); n != 1 {
		t.Errorf("server saw the request %d times, want 1", n)
	}
	_, err = tr.Do(context.Background(), &Request{URL: "nosuchscheme://127.0.0.1/"})
	if !errors.As(err, &te) || te.MayHaveReached || te.Code != 1 {
		t.Errorf("unsupported scheme: err = %v, want code 1 that did not reach", err)
	}
}

// A transfer its ctx's deadline stops says which time ran out, not
// libcurl's "Operation was aborted by an application callback" (code 42)
// of the cancellation that stopped it (the engine's path, the asyncio
// client's).
func TestDeadlineSaysTheTime(t *testing.T) { bothPaths(t, testDeadlineSaysTheTime) }

func testDeadlineSaysTheTime(t *testing.T, mk mkTransport) {
	s := faultserver.Start()
	defer s.Close()
	tr := mk(t, Config{})
	s.Handle("/slow", faultserver.Delay(5*time.Second, faultserver.JSON(200, `{}`)))
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		_, err := tr.Do(ctx, &Request{URL: s.URL + "/slow"})
		cancel()
		var te *Error
		if !errors.As(err, &te) || te.Kind != KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a timeout", err)
		}
		if msg := te.Error(); strings.Contains(msg, "aborted") || te.Code == curleAbortedByCallback || !strings.Contains(msg, "timed out after") {
			t.Errorf("the error does not say which time ran out: %s", msg)
		}
	}
}
