package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// waitModel has one operation with waiters covering every matcher and
// comparator.
const waitModel = `$version: "2"
namespace t
use aws.protocols#awsJson1_0
use smithy.waiters#waitable

@awsJson1_0
service Things { version: "1", operations: [GetThing] }

@waitable(
    ThingReady: {
        documentation: "Waits until the thing is ready."
        acceptors: [
            { state: "failure", matcher: { output: { path: "status", comparator: "stringEquals", expected: "failed" } }, message: "reason" }
            { state: "success", matcher: { output: { path: "status", comparator: "stringEquals", expected: "ready" } } }
            { state: "retry", matcher: { errorType: "NotFound" } }
        ]
        minDelay: 1
        maxDelay: 2
    }
    ThingGone: {
        acceptors: [{ state: "success", matcher: { errorType: "t#NotFound" } }]
    }
    PartsDone: {
        acceptors: [
            { state: "failure", matcher: { output: { path: "parts[].state", comparator: "anyStringEquals", expected: "broken" } } }
            { state: "success", matcher: { output: { path: "parts[].state", comparator: "allStringEquals", expected: "done" } } }
        ]
    }
    NameEchoed: {
        acceptors: [{ state: "success", matcher: { inputOutput: { path: "input.name == output.name", comparator: "booleanEquals", expected: "true" } } }]
    }
    CreatedLate: {
        acceptors: [{ state: "success", matcher: { output: { path: "created > ` + "`1700000000.25`" + ` && data == 'aGk=' && length(tags) == ` + "`2`" + `", comparator: "booleanEquals", expected: "true" } } }]
    }
    AnyError: {
        acceptors: [{ state: "success", matcher: { success: false } }]
    }
)
operation GetThing {
    input := { @required name: String }
    output := {
        status: String
        reason: String
        parts: Parts
        created: Timestamp
        data: Blob
        tags: Tags
        name: String
    }
    errors: [NotFound]
}

list Parts { member: Part }
structure Part { state: String }
map Tags { key: String, value: Timestamp }

@error("client")
structure NotFound { message: String }
`

// scripted answers GetThing with its replies in turn, repeating the last.
type scripted struct {
	mu      sync.Mutex
	replies []string // "404 {...}" style: status, space, body
	n       int
	inputs  []string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	reply := s.replies[min(s.n, len(s.replies)-1)]
	s.n++
	s.inputs = append(s.inputs, string(body))
	s.mu.Unlock()
	status, text, _ := strings.Cut(reply, " ")
	if status == "slow" { // "slow 200 {...}": the reply after 400 ms
		select {
		case <-time.After(400 * time.Millisecond):
		case <-r.Context().Done():
		}
		status, text, _ = strings.Cut(text, " ")
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	switch status {
	case "200":
		w.WriteHeader(200)
	case "400":
		w.WriteHeader(400)
	default:
		w.WriteHeader(500)
	}
	io.WriteString(w, text)
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func newWaitClient(t *testing.T, replies ...string) (*client.Client, *scripted) {
	t.Helper()
	s := &scripted{replies: replies}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := client.New(loadIDL(t, waitModel), "t#Things", srv.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, s
}

// fast makes the waiter's delays milliseconds.
var fast = client.WithWaitDelays(5*time.Millisecond, 20*time.Millisecond)

const notFound = `400 {"__type": "t#NotFound", "message": "no such thing"}`

func TestWaitRetriesUntilSuccess(t *testing.T) {
	c, s := newWaitClient(t, notFound, notFound, `200 {"status": "pending"}`, `200 {"status": "ready", "name": "a"}`, `200 {"status": "failed"}`)
	var attempts []client.WaitAttempt
	out, err := c.Wait(context.Background(), "ThingReady", []byte(`{"name": "a"}`), 10*time.Second, fast,
		client.WithWaitObserver(func(a client.WaitAttempt) { attempts = append(attempts, a) }))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"ready"`) {
		t.Errorf("output %s, want the ready one", out)
	}
	if s.count() != 4 {
		t.Errorf("%d attempts, want 4", s.count())
	}
	want := []struct {
		state    string
		acceptor int
	}{{"retry", 2}, {"retry", 2}, {"retry", -1}, {"success", 1}}
	if len(attempts) != len(want) {
		t.Fatalf("observed %d attempts, want %d", len(attempts), len(want))
	}
	for i, w := range want {
		a := attempts[i]
		if a.Number != i+1 || a.State != w.state || a.Acceptor != w.acceptor {
			t.Errorf("attempt %d = %+v, want state %s acceptor %d", i+1, a, w.state, w.acceptor)
		}
		if a.State == "retry" && (a.Delay < 5*time.Millisecond || a.Delay > 20*time.Millisecond) {
			t.Errorf("attempt %d: delay %s outside [5ms, 20ms]", i+1, a.Delay)
		}
	}
	if s.inputs[0] != `{"name":"a"}` {
		t.Errorf("sent %s", s.inputs[0])
	}
}

func TestWaitFailureAcceptor(t *testing.T) {
	c, _ := newWaitClient(t, `200 {"status": "pending"}`, `200 {"status": "failed", "reason": "disk full"}`)
	_, err := c.Wait(context.Background(), "ThingReady", []byte(`{"name": "a"}`), 10*time.Second, fast)
	e := asError(t, err, client.KindWaiterFailure)
	var we *client.WaitError
	if !errors.As(err, &we) || we.Acceptor != 0 || we.Attempts != 2 || we.Message != "disk full" || we.Waiter != "ThingReady" {
		t.Fatalf("WaitError = %+v", we)
	}
	for _, want := range []string{"GetThing: waiter_failure error", "ThingReady", "acceptor 1", `output status stringEquals "failed"`, "attempt 2", "disk full"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("%q lacks %q", e.Error(), want)
		}
	}
}

// An errorType acceptor leading to failure keeps the service error's fields.
func TestWaitErrorTypeSuccessAndFailure(t *testing.T) {
	c, _ := newWaitClient(t, `200 {"status": "here"}`, notFound)
	if _, err := c.Wait(context.Background(), "ThingGone", []byte(`{"name": "a"}`), 10*time.Second, fast); err != nil {
		t.Fatalf("ThingGone: %v", err)
	}
	// success: false matches any error, here a 500 without a type.
	c, _ = newWaitClient(t, `200 {}`, `500 oops`)
	if _, err := c.Wait(context.Background(), "AnyError", []byte(`{"name": "a"}`), 10*time.Second, fast); err != nil {
		t.Fatalf("AnyError: %v", err)
	}
}

// An error no acceptor expects stops the waiter with that error.
func TestWaitUnexpectedError(t *testing.T) {
	c, s := newWaitClient(t, `200 {"status": "pending"}`, `400 {"__type": "ValidationException", "message": "bad name"}`)
	_, err := c.Wait(context.Background(), "ThingReady", []byte(`{"name": "a"}`), 10*time.Second, fast)
	e := asError(t, err, client.KindService)
	if e.Code != "ValidationException" || s.count() != 2 {
		t.Fatalf("err %v (code %q) after %d attempts", err, e.Code, s.count())
	}
}

func TestWaitTimeout(t *testing.T) {
	c, s := newWaitClient(t, `200 {"status": "pending"}`)
	maxWait := 200 * time.Millisecond
	start := time.Now()
	_, err := c.Wait(context.Background(), "ThingReady", []byte(`{"name": "a"}`), maxWait,
		client.WithWaitDelays(20*time.Millisecond, 40*time.Millisecond))
	took := time.Since(start)
	asError(t, err, client.KindWaiterTimeout)
	var we *client.WaitError
	if !errors.As(err, &we) || we.Acceptor != -1 || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v", err)
	}
	// The waiter never sleeps past maxWait: the last attempt starts at it
	// (one request's time after at most).
	if took < maxWait || took > maxWait+150*time.Millisecond {
		t.Errorf("took %s, want about %s", took, maxWait)
	}
	if n := s.count(); n < 4 || n > 12 || n != we.Attempts {
		t.Errorf("%d attempts (WaitError says %d)", n, we.Attempts)
	}
}

// An attempt still in flight when maxWait passes is cut: the wait times
// out (KindWaiterTimeout, the cut call's error as Last), it is not a call
// timeout.
func TestWaitTimeoutDuringAnAttempt(t *testing.T) {
	c, _ := newWaitClient(t, `slow 200 {"status": "pending"}`)
	start := time.Now()
	_, err := c.Wait(context.Background(), "ThingReady", []byte(`{"name": "a"}`), 150*time.Millisecond,
		client.WithWaitDelays(20*time.Millisecond, 40*time.Millisecond))
	asError(t, err, client.KindWaiterTimeout)
	var we *client.WaitError
	var last *client.Error
	if !errors.As(err, &we) || we.Attempts != 1 || !errors.As(we.Last, &last) || last.Kind != client.KindTimeout {
		t.Fatalf("err = %v (%+v)", err, we)
	}
	if took := time.Since(start); took > 350*time.Millisecond {
		t.Errorf("took %s: the attempt was not cut at maxWait", took)
	}
}

func TestWaitCancel(t *testing.T) {
	c, _ := newWaitClient(t, `200 {"status": "pending"}`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Wait(ctx, "ThingReady", []byte(`{"name": "a"}`), time.Hour) // the model's delays: 1 s to 2 s
	asError(t, err, client.KindCancelled)
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancelled after %s", took)
	}
}

func TestWaitUnknownWaiter(t *testing.T) {
	c, s := newWaitClient(t, `200 {}`)
	_, err := c.Wait(context.Background(), "ThingExists", nil, time.Second)
	asError(t, err, client.KindUsage)
	if !strings.Contains(err.Error(), `unknown waiter "ThingExists"; the waiters of Things are: AnyError, CreatedLate, NameEchoed, PartsDone, ThingGone, ThingReady`) {
		t.Errorf("err = %v", err)
	}
	if _, err := c.Wait(context.Background(), "ThingReady", nil, 0); err == nil || !strings.Contains(err.Error(), "must be positive") {
		t.Errorf("maxWait 0: %v", err)
	}
	if s.count() != 0 {
		t.Errorf("%d requests sent", s.count())
	}
	// Names are unique regardless of case: thingready is ThingReady.
	c, _ = newWaitClient(t, `200 {"status": "ready"}`)
	if _, err := c.Wait(context.Background(), "thingready", []byte(`{"name": "a"}`), time.Second); err != nil {
		t.Errorf("thingready: %v", err)
	}
}

// The comparators over lists, inputOutput, and the JMESPath data model:
// timestamps (top level and in a map) as epoch seconds, blobs as base64.
func TestWaitMatchers(t *testing.T) {
	for _, tc := range []struct {
		waiter, input string
		replies       []string
		attempts      int
		kind          client.Kind // 0: success
	}{
		{"PartsDone", `{"name":"a"}`, []string{`200 {"parts": []}`, `200 {"parts": [{"state": "done"}, {"state": "wip"}]}`, `200 {"parts": [{"state": "done"}, {"state": "done"}]}`}, 3, 0},
		{"PartsDone", `{"name":"a"}`, []string{`200 {"parts": [{"state": "done"}, {"state": "broken"}]}`}, 1, client.KindWaiterFailure},
		{"NameEchoed", `{"name":"a"}`, []string{`200 {"name": "b"}`, `200 {"name": "a"}`}, 2, 0},
		{"CreatedLate", `{"name":"a"}`, []string{
			`200 {"created": 1700000000.25, "data": "aGk=", "tags": {"x": 1, "y": 2}}`,
			`200 {"created": 1700000000.5, "data": "aGk=", "tags": {"x": 1}}`,
			`200 {"created": 1700000000.5, "data": "aGk=", "tags": {"x": 1, "y": 2}}`,
		}, 3, 0},
	} {
		t.Run(tc.waiter, func(t *testing.T) {
			c, s := newWaitClient(t, tc.replies...)
			_, err := c.Wait(context.Background(), tc.waiter, []byte(tc.input), 10*time.Second, fast)
			if tc.kind == 0 && err != nil {
				t.Fatal(err)
			}
			if tc.kind != 0 {
				asError(t, err, tc.kind)
			}
			if s.count() != tc.attempts {
				t.Errorf("%d attempts, want %d", s.count(), tc.attempts)
			}
		})
	}
}

// A malformed waiter is reported when used, naming the waiter and acceptor.
func TestWaitMalformedWaiter(t *testing.T) {
	src := strings.Replace(waitModel, `path: "input.name == output.name"`, `path: "input.name =="`, 1)
	c, err := client.New(loadIDL(t, src), "t#Things", "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Wait(context.Background(), "NameEchoed", []byte(`{"name":"a"}`), time.Second)
	if err == nil || !strings.Contains(err.Error(), "waiter NameEchoed of GetThing: acceptor 1: inputOutput: jmespath") {
		t.Fatalf("err = %v", err)
	}
}

// BenchmarkWait: a waiter that succeeds on its first attempt, next to the
// same call made with Call (the waiter's own cost: finding and compiling
// the waiter, the JMESPath data and the matchers).
func BenchmarkWait(b *testing.B) {
	s := &scripted{replies: []string{`200 {"status": "ready", "created": 1700000000, "parts": [{"state": "done"}]}`}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	l := model.NewLoader()
	l.AddSource("wait.smithy", []byte(waitModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	c, err := client.New(m, "t#Things", srv.URL, client.WithoutRetries())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	in := []byte(`{"name": "a"}`)
	ctx := context.Background()
	b.Run("Call", func(b *testing.B) {
		for range b.N {
			if _, err := c.Call(ctx, "GetThing", in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Wait", func(b *testing.B) {
		for range b.N {
			if _, err := c.Wait(ctx, "ThingReady", in, time.Minute); err != nil {
				b.Fatal(err)
			}
		}
	})
}
