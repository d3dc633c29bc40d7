package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// skewServer is a DynamoDB stand-in whose clock is off from the local one:
// it refuses a request whose X-Amz-Date is more than 5 minutes from its
// clock, as AWS does (InvalidSignatureException, "Signature expired"), and
// sends its clock in Date.
type skewServer struct {
	*httptest.Server
	mu    sync.Mutex
	off   []time.Duration // its clock's offset, one per request (the last one stays)
	bad   bool            // refuse every signature (a wrong key, not a clock)
	dates []time.Duration // each request's X-Amz-Date against its clock
}

func newSkewServer(t *testing.T, off ...time.Duration) *skewServer {
	s := &skewServer{off: off}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		off := s.off[0]
		if len(s.off) > 1 {
			s.off = s.off[1:]
		}
		now := time.Now().Add(off)
		signed, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
		s.dates = append(s.dates, signed.Sub(now))
		bad := s.bad
		s.mu.Unlock()
		w.Header().Set("Date", now.UTC().Format(http.TimeFormat))
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if d := signed.Sub(now); bad || err != nil || d > 5*time.Minute || d < -5*time.Minute {
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"__type":"com.amazon.coral.service#InvalidSignatureException","message":"Signature expired: %s is now earlier than %s"}`,
				r.Header.Get("X-Amz-Date"), now.UTC().Format("20060102T150405Z"))
			return
		}
		w.Write([]byte(`{"TableNames":[]}`))
	}))
	t.Cleanup(s.Close)
	return s
}

// requests returns each request's X-Amz-Date against the server's clock.
func (s *skewServer) requests() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.dates...)
}

func skewClient(t *testing.T, url string) *client.Client {
	c, err := client.New(loadAWSModel(t, "dynamodb.json"), "com.amazonaws.dynamodb#DynamoDB_20120810", url,
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A service whose clock is 20 minutes ahead refuses the first signature;
// the client learns the offset from its Date, sends the call again signed
// as of the service's time, and signs later calls so at once.
func TestClockSkewCorrected(t *testing.T) {
	srv := newSkewServer(t, 20*time.Minute)
	c := skewClient(t, srv.URL)
	ctx := context.Background()
	if _, err := c.Call(ctx, "ListTables", []byte(`{}`)); err != nil {
		t.Fatalf("first call: %v", err)
	}
	if got := c.ClockOffset(); got < 20*time.Minute-5*time.Second || got > 20*time.Minute+5*time.Second {
		t.Errorf("ClockOffset() = %s, want about 20m", got)
	}
	if _, err := c.Call(ctx, "ListTables", []byte(`{}`)); err != nil {
		t.Fatalf("second call: %v", err)
	}
	dates := srv.requests()
	if len(dates) != 3 {
		t.Fatalf("%d requests, want 3 (refused, retried, then the second call at once): %v", len(dates), dates)
	}
	for i, d := range dates[1:] {
		if d > 5*time.Second || d < -5*time.Second {
			t.Errorf("request %d: X-Amz-Date %s from the service's clock", i+2, d)
		}
	}
}

// A signature error with the clocks agreeing is not a skew: not retried.
// A skew is retried once a call, even when the service's clock moves on
// again; the offset is the last one learned.
func TestClockSkewRetriedOnce(t *testing.T) {
	ctx := context.Background()
	srv := newSkewServer(t, 0)
	srv.mu.Lock()
	srv.bad = true
	srv.mu.Unlock()
	c := skewClient(t, srv.URL)
	if _, err := c.Call(ctx, "ListTables", []byte(`{}`)); err == nil || c.ClockOffset() != 0 || len(srv.requests()) != 1 {
		t.Errorf("signature refused with agreeing clocks: err %v, offset %s, %d requests; want an error, 0, 1",
			err, c.ClockOffset(), len(srv.requests()))
	}

	moving := newSkewServer(t, 20*time.Minute, -20*time.Minute, 20*time.Minute)
	c2 := skewClient(t, moving.URL)
	_, err := c2.Call(ctx, "ListTables", []byte(`{}`))
	if err == nil {
		t.Fatal("call to a service whose clock jumps: no error")
	}
	if n := len(moving.requests()); n != 2 {
		t.Errorf("%d requests, want 2 (one skew retry a call): %v", n, err)
	}
	if got := c2.ClockOffset(); got > -20*time.Minute+5*time.Second || got < -20*time.Minute-5*time.Second {
		t.Errorf("ClockOffset() = %s, want about -20m (the last Date)", got)
	}
}
