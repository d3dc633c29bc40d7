package client_test

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/faultserver"
	"github.com/smithycurl/smithycurl/transport"
)

// Fault injection: client.Client against testing/servers/faultserver, which
// misbehaves at the byte level. Every test checks the error kind, the
// transport failure kind, how many times the request was sent (by the
// client's count and the server's), and that nothing leaks.

const faultService = "smithycurl.test.faults#Faults"

// quickRetries: the default policy's shape with millisecond backoff. Cap is
// large enough to honour a one-second Retry-After.
var quickRetries = client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 3 * time.Second})

var (
	faultModelOnce sync.Once
	faultModelVal  *model.Model
	faultModelErr  error
)

func faultModel(t testing.TB) *model.Model {
	t.Helper()
	faultModelOnce.Do(func() {
		faultModelVal, faultModelErr = model.LoadPaths(context.Background(), filepath.Join("testdata", "faults.smithy"))
	})
	if faultModelErr != nil {
		t.Fatal(faultModelErr)
	}
	return faultModelVal
}

// faultRig is a fault server, a client for it, and what the client saw.
type faultRig struct {
	srv *faultserver.Server
	c   *client.Client

	mu       sync.Mutex
	attempts []observed
}

type observed struct {
	client.Attempt
	end time.Time
}

// newFaultRig starts a fault server and a client, and registers a leak
// check that runs after both are closed.
func newFaultRig(t *testing.T, opts ...client.Option) *faultRig {
	t.Helper()
	noLeaks(t)
	r := &faultRig{srv: faultserver.Start()}
	t.Cleanup(func() { r.srv.Close() })
	opts = append([]client.Option{quickRetries, client.WithObserver(func(a client.Attempt) {
		r.mu.Lock()
		r.attempts = append(r.attempts, observed{a, time.Now()})
		r.mu.Unlock()
	})}, opts...)
	c, err := client.New(faultModel(t), faultService, r.srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	r.c = c
	t.Cleanup(func() { c.Close() })
	return r
}

func (r *faultRig) call(op, input string) ([]byte, error) {
	return r.c.Call(context.Background(), op, []byte(input))
}

func (r *faultRig) seen() []observed {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]observed(nil), r.attempts...)
}

// noLeaks checks, after the test's other cleanups (it must be registered
// first), that the goroutine count is back to where it was and that no
// libcurl easy handle is left alive. Goroutines get a bounded wait to end.
func noLeaks(t *testing.T) {
	t.Helper()
	goroutines := runtime.NumGoroutine()
	handles := transport.LiveHandles()
	t.Cleanup(func() {
		deadline := time.Now().Add(3 * time.Second)
		for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > goroutines {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("goroutines: %d before, %d after Close:\n%s", goroutines, n, buf)
		}
		if n := transport.LiveHandles(); n != handles {
			t.Errorf("easy handles alive: %d before, %d after Close", handles, n)
		}
	})
}

// wantErr checks the client error kind, the attempts, and (when
// transportKind is not -1) the transport failure's kind.
func wantErr(t *testing.T, err error, kind client.Kind, attempts int, transportKind transport.Kind) *client.Error {
	t.Helper()
	var e *client.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *client.Error", err, err)
	}
	if e.Kind != kind {
		t.Errorf("kind = %s, want %s: %v", e.Kind, kind, err)
	}
	if e.Attempts != attempts {
		t.Errorf("attempts = %d, want %d: %v", e.Attempts, attempts, err)
	}
	var te *transport.Error
	switch {
	case transportKind < 0:
		if errors.As(err, &te) {
			t.Errorf("unexpected transport error in %v", err)
		}
	case !errors.As(err, &te):
		t.Errorf("no *transport.Error in %v", err)
	case te.Kind != transportKind:
		t.Errorf("transport kind = %s, want %s: %v", te.Kind, transportKind, err)
	}
	return e
}

func wantHits(t *testing.T, s *faultserver.Server, path string, n int) {
	t.Helper()
	if got := s.Hits(path); got != n {
		t.Errorf("server saw %d requests on %s, want %d", got, path, n)
	}
}

const okBody = `{"message":"ok"}`

func wantOK(t *testing.T, out []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != okBody {
		t.Errorf("output = %s, want %s", out, okBody)
	}
}

// A @readonly call whose response breaks mid-body is retried: the third
// attempt fails too, and the error is the reset.
func TestFaultResetMidBodyRetriedWhenReadonly(t *testing.T) {
	viaBoth(t, testFaultResetMidBodyRetriedWhenReadonly)
}

func testFaultResetMidBodyRetriedWhenReadonly(t *testing.T, path client.Option) {
	r := newFaultRig(t, path)
	r.srv.Handle("/read/reset", faultserver.ResetMidBody(200, `{"message":"par`))
	_, err := r.call("Read", `{"name": "reset"}`)
	e := wantErr(t, err, client.KindTransport, 3, transport.KindOther)
	var te *transport.Error
	if errors.As(e, &te) && !te.MayHaveReached {
		t.Errorf("a reset after the response began must count as may-have-reached: %v", te)
	}
	wantHits(t, r.srv, "/read/reset", 3)

	// And once it heals, the same call succeeds on a retry.
	r.srv.Handle("/read/heals", faultserver.ResetMidBody(200, `{"mess`), faultserver.JSON(200, okBody))
	out, err := r.call("Read", `{"name": "heals"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/read/heals", 2)
}

// The non-idempotent POST is sent once, whatever the reset.
func TestFaultResetNotRetriedWhenNotIdempotent(t *testing.T) {
	viaBoth(t, testFaultResetNotRetriedWhenNotIdempotent)
}

func testFaultResetNotRetriedWhenNotIdempotent(t *testing.T, path client.Option) {
	r := newFaultRig(t, path)
	r.srv.Handle("/write/mid-body", faultserver.ResetMidBody(200, `{"message":"par`), faultserver.JSON(200, okBody))
	_, err := r.call("Write", `{"name": "mid-body", "item": "x"}`)
	wantErr(t, err, client.KindTransport, 1, transport.KindOther)
	wantHits(t, r.srv, "/write/mid-body", 1)

	// Reset before any byte of a response, on a fresh connection and on a
	// reused keep-alive one.
	r.srv.Handle("/write/reset", faultserver.Reset(), faultserver.JSON(200, okBody))
	_, err = r.call("Write", `{"name": "reset"}`)
	wantErr(t, err, client.KindTransport, 1, transport.KindOther)
	wantHits(t, r.srv, "/write/reset", 1)

	r.srv.Handle("/read/ok", faultserver.JSON(200, okBody))
	r.srv.Handle("/write/reset-reused", faultserver.Reset(), faultserver.JSON(200, okBody))
	out, err := r.call("Read", `{"name": "ok"}`)
	wantOK(t, out, err)
	_, err = r.call("Write", `{"name": "reset-reused"}`)
	wantErr(t, err, client.KindTransport, 1, transport.KindOther)
	wantHits(t, r.srv, "/write/reset-reused", 1)
	if !strings.Contains(err.Error(), "reused connection closed") || !strings.Contains(err.Error(), "may have reached the server") ||
		!strings.Contains(err.Error(), "not retried: the operation is not idempotent") {
		t.Errorf("want libcurl's own re-send on a fresh connection refused, and why: %v", err)
	}

	// 503 is not retried either for it (the server may have acted).
	r.srv.Handle("/write/busy", faultserver.JSON(503, `{"message":"busy"}`), faultserver.JSON(200, okBody))
	_, err = r.call("Write", `{"name": "busy"}`)
	if e := wantErr(t, err, client.KindService, 1, -1); e.Status != 503 || e.Shape != "smithycurl.test.faults#Unavailable" {
		t.Errorf("503: %+v", e)
	}
	wantHits(t, r.srv, "/write/busy", 1)
}

// A reply that is not HTTP (libcurl's code 1, also that of a scheme it
// cannot send) comes after the request was sent: the non-idempotent call
// is sent once, and its error says it may have reached the server.
func TestFaultGarbageNotRetriedWhenNotIdempotent(t *testing.T) {
	viaBoth(t, testFaultGarbageNotRetriedWhenNotIdempotent)
}

func testFaultGarbageNotRetriedWhenNotIdempotent(t *testing.T, path client.Option) {
	r := newFaultRig(t, path)
	r.srv.Handle("/write/garbage", faultserver.Garbage(), faultserver.JSON(200, okBody))
	_, err := r.call("Write", `{"name": "garbage"}`)
	e := wantErr(t, err, client.KindTransport, 1, transport.KindOther)
	wantHits(t, r.srv, "/write/garbage", 1)
	if !e.MayHaveReached() || !strings.Contains(e.Message(), "may have reached the server") {
		t.Errorf("MayHaveReached %v, message %q: want both to say it may have reached", e.MayHaveReached(), e.Message())
	}
	// The idempotent one is retried.
	r.srv.Handle("/put/garbage", faultserver.Garbage(), faultserver.JSON(200, okBody))
	out, err := r.call("Put", `{"name": "garbage", "item": "x"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/put/garbage", 2)
}

// libcurl's own re-send, when a reused connection dies before any byte of
// the response, is an attempt of the retry loop: counted, bounded by
// MaxAttempts, charged to the quota and observed.
func TestFaultStaleConnectionResendIsAnAttempt(t *testing.T) {
	viaBoth(t, testFaultStaleConnectionResendIsAnAttempt)
}

func testFaultStaleConnectionResendIsAnAttempt(t *testing.T, path client.Option) {
	r := newFaultRig(t, path)
	r.srv.Handle("/read/ok", faultserver.JSON(200, okBody))
	warm := func() {
		t.Helper()
		out, err := r.call("Read", `{"name": "ok"}`)
		wantOK(t, out, err)
	}
	warm()
	r.srv.Handle("/put/stale", faultserver.Reset(), faultserver.JSON(200, okBody))
	before := len(r.seen())
	out, err := r.call("Put", `{"name": "stale", "item": "x"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/put/stale", 2)
	if n := len(r.seen()) - before; n != 2 {
		t.Errorf("observer saw %d attempts for 2 sends, want 2", n)
	}

	// Resets every time: 3 sends (MaxAttempts), not 3 attempts and a
	// hidden re-send.
	warm()
	r.srv.Handle("/put/dead", faultserver.Reset(), faultserver.Reset(), faultserver.Reset(), faultserver.Reset(), faultserver.JSON(200, okBody))
	_, err = r.call("Put", `{"name": "dead", "item": "x"}`)
	wantErr(t, err, client.KindTransport, 3, transport.KindOther)
	wantHits(t, r.srv, "/put/dead", 3)
}

// After a reused connection's reset, the retry that times out reports its
// own failure: the timeout, not the reset of the send before it (libcurl's
// own re-send kept the first failure's text).
func TestFaultTimeoutAfterStaleConnectionSaysTimeout(t *testing.T) {
	viaBoth(t, testFaultTimeoutAfterStaleConnectionSaysTimeout)
}

func testFaultTimeoutAfterStaleConnectionSaysTimeout(t *testing.T, path client.Option) {
	r := newFaultRig(t, path, client.WithTimeout(500*time.Millisecond))
	r.srv.Handle("/read/ok", faultserver.JSON(200, okBody))
	out, err := r.call("Read", `{"name": "ok"}`)
	wantOK(t, out, err)
	r.srv.Handle("/put/stale-slow", faultserver.Reset(), faultserver.Delay(5*time.Second, faultserver.JSON(200, okBody)))
	_, err = r.call("Put", `{"name": "stale-slow", "item": "x"}`)
	e := wantErr(t, err, client.KindTimeout, 2, transport.KindTimeout)
	if msg := e.Message(); strings.Contains(msg, "reset") || strings.Contains(msg, "closed") {
		t.Errorf("the timeout carries an earlier send's failure: %s", msg)
	}
}

// The @idempotent PUT is re-sent after resets and succeeds.
func TestFaultResetRetriedWhenIdempotent(t *testing.T) {
	viaBoth(t, testFaultResetRetriedWhenIdempotent)
}

func testFaultResetRetriedWhenIdempotent(t *testing.T, path client.Option) {
	r := newFaultRig(t, path)
	r.srv.Handle("/put/reset", faultserver.Reset(), faultserver.Reset(), faultserver.JSON(200, okBody))
	out, err := r.call("Put", `{"name": "reset", "item": "x"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/put/reset", 3)
	if n := len(r.seen()); n != 3 {
		t.Errorf("observer saw %d attempts, want 3", n)
	}
}

// A server that accepts the request and sends nothing: the call times out
// at the client's timeout, retries included.
func TestFaultSlowFirstByteTimesOut(t *testing.T) { viaBoth(t, testFaultSlowFirstByteTimesOut) }

func testFaultSlowFirstByteTimesOut(t *testing.T, path client.Option) {
	r := newFaultRig(t, path, client.WithTimeout(300*time.Millisecond), client.WithoutRetries())
	r.srv.Handle("/read/slow", faultserver.Delay(10*time.Second, faultserver.JSON(200, okBody)))
	start := time.Now()
	_, err := r.call("Read", `{"name": "slow"}`)
	took := time.Since(start)
	wantErr(t, err, client.KindTimeout, 1, transport.KindTimeout)
	if took < 250*time.Millisecond || took > 2*time.Second {
		t.Errorf("timed out after %s, want about 300ms", took)
	}
	wantHits(t, r.srv, "/read/slow", 1)

	// The ctx deadline bounds it too, and errors.Is sees it.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = r.c.Call(ctx, "Read", []byte(`{"name": "slow"}`))
	wantErr(t, err, client.KindTimeout, 1, transport.KindTimeout)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("errors.Is(err, context.DeadlineExceeded) = false: %v", err)
	}
}

// WithTimeout bounds the whole call, retries and backoff included.
func TestFaultTimeoutBoundsRetries(t *testing.T) {
	r := newFaultRig(t, client.WithTimeout(400*time.Millisecond))
	r.srv.Handle("/read/slow", faultserver.Delay(10*time.Second, faultserver.JSON(200, okBody)))
	start := time.Now()
	_, err := r.call("Read", `{"name": "slow"}`)
	took := time.Since(start)
	wantErr(t, err, client.KindTimeout, 1, transport.KindTimeout)
	if took > 1500*time.Millisecond {
		t.Errorf("a 400ms call took %s", took)
	}

	// A fast failure leaves time for retries within the same budget.
	r.srv.Handle("/read/flaky", faultserver.Status(503), faultserver.JSON(200, okBody))
	out, err := r.call("Read", `{"name": "flaky"}`)
	wantOK(t, out, err)
}

func TestFaultTruncatedChunkedBody(t *testing.T) {
	r := newFaultRig(t, client.WithoutRetries())
	r.srv.Handle("/read/chunked", faultserver.TruncatedChunked(`{"message":`, `"partial`))
	_, err := r.call("Read", `{"name": "chunked"}`)
	wantErr(t, err, client.KindTransport, 1, transport.KindOther)
	wantHits(t, r.srv, "/read/chunked", 1)
}

// A 200 whose body is not JSON is a decode error, and not retried.
func TestFaultInvalidJSON(t *testing.T) {
	r := newFaultRig(t)
	r.srv.Handle("/read/garbage", faultserver.JSON(200, `{"message": "unterminated`))
	_, err := r.call("Read", `{"name": "garbage"}`)
	if e := wantErr(t, err, client.KindDecode, 1, -1); e.Status != 200 {
		t.Errorf("status = %d, want 200", e.Status)
	}
	wantHits(t, r.srv, "/read/garbage", 1)

	r.srv.Handle("/read/wrong-type", faultserver.JSON(200, `{"message": 42}`))
	_, err = r.call("Read", `{"name": "wrong-type"}`)
	if e := wantErr(t, err, client.KindDecode, 1, -1); !strings.Contains(e.Error(), "message") {
		t.Errorf("decode error does not name the member: %v", e)
	}
}

// 503 twice then 200: the @readonly call succeeds on its third attempt.
func TestFaultUnavailableTwiceThenOK(t *testing.T) {
	r := newFaultRig(t)
	r.srv.Handle("/read/flaky",
		faultserver.JSON(503, `{"message":"busy"}`),
		faultserver.Status(503),
		faultserver.JSON(200, okBody))
	out, err := r.call("Read", `{"name": "flaky"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/read/flaky", 3)
	var statuses []int
	for _, a := range r.seen() {
		statuses = append(statuses, a.Status)
	}
	if len(statuses) != 3 || statuses[0] != 503 || statuses[1] != 503 || statuses[2] != 200 {
		t.Errorf("attempt statuses = %v, want [503 503 200]", statuses)
	}
}

// A GET the model does not mark idempotent is retried after a 503 and a
// reset, by HTTP's method semantics; a POST is not (the tests above).
func TestFaultIdempotentMethodRetried(t *testing.T) {
	r := newFaultRig(t)
	r.srv.Handle("/get/flaky", faultserver.JSON(503, `{"message":"busy"}`), faultserver.Reset(), faultserver.JSON(200, okBody))
	out, err := r.call("Get", `{"name": "flaky"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/get/flaky", 3)
}

// 429 with Retry-After: 1 is retried (even for a POST: the server refused
// it) after the wait the server asked for.
func TestFaultTooManyRequestsHonoursRetryAfter(t *testing.T) {
	r := newFaultRig(t)
	r.srv.Handle("/write/throttled",
		faultserver.JSON(429, `{"message":"slow down"}`, "Retry-After: 1"),
		faultserver.JSON(200, okBody))
	out, err := r.call("Write", `{"name": "throttled"}`)
	wantOK(t, out, err)
	wantHits(t, r.srv, "/write/throttled", 2)
	seen := r.seen()
	if len(seen) != 2 {
		t.Fatalf("observer saw %d attempts, want 2", len(seen))
	}
	if seen[0].Status != 429 {
		t.Errorf("first attempt status = %d", seen[0].Status)
	}
	wait := seen[1].end.Add(-seen[1].Took).Sub(seen[0].end)
	if wait < 950*time.Millisecond || wait > 2500*time.Millisecond {
		t.Errorf("waited %s between attempts, want the 1s Retry-After", wait)
	}

	// Without retries, the 429 is the error.
	r2 := newFaultRig(t, client.WithoutRetries())
	r2.srv.Handle("/write/throttled", faultserver.JSON(429, `{"message":"slow down"}`, "Retry-After: 1"))
	_, err = r2.call("Write", `{"name": "throttled"}`)
	if e := wantErr(t, err, client.KindService, 1, -1); e.Status != 429 || e.Modeled() {
		t.Errorf("429: %+v", e)
	}
}

// A response over the size limit fails as too large, declared up front or
// not, and is not re-sent (it would be as large again).
func TestFaultResponseTooLarge(t *testing.T) {
	r := newFaultRig(t, client.WithMaxResponseBytes(64<<10))
	r.srv.Handle("/read/declared", faultserver.Large(1<<20, false))
	r.srv.Handle("/read/chunked", faultserver.Large(1<<20, true))
	r.srv.Handle("/read/fits", faultserver.Large(60<<10, true))
	for _, name := range []string{"declared", "chunked"} {
		_, err := r.call("Read", `{"name": "`+name+`"}`)
		wantErr(t, err, client.KindTransport, 1, transport.KindTooLarge)
		wantHits(t, r.srv, "/read/"+name, 1)
	}
	out, err := r.call("Read", `{"name": "fits"}`)
	if err != nil || len(out) < 60<<10 {
		t.Errorf("a 60 KiB response under a 64 KiB limit: %d bytes, %v", len(out), err)
	}
}

// Close cancels a call in flight and leaks nothing (checked by noLeaks).
func TestFaultCloseCancelsInFlight(t *testing.T) {
	r := newFaultRig(t)
	r.srv.Handle("/read/slow", faultserver.Delay(10*time.Second, faultserver.JSON(200, okBody)))
	done := make(chan error, 1)
	go func() {
		_, err := r.call("Read", `{"name": "slow"}`)
		done <- err
	}()
	for r.srv.Hits("/read/slow") == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	r.c.Close()
	select {
	case err := <-done:
		wantErr(t, err, client.KindCancelled, 1, transport.KindCancelled)
	case <-time.After(3 * time.Second):
		t.Fatal("Close did not cancel the call in flight")
	}
	wantHits(t, r.srv, "/read/slow", 1)
}
