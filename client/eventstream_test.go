package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
	"github.com/smithycurl/smithycurl/transport"
)

// tickerClient starts the event-stream test server on 127.0.0.1 and
// returns a client for it.
func tickerClient(t testing.TB, opts ...client.Option) *client.Client {
	t.Helper()
	return eventClient(t, eventserver.Model, "smithycurl.test.events#Ticker", opts...)
}

// eventClient starts the event-stream test server and returns a client of
// its service svc, from the model src.
func eventClient(t testing.TB, src, svc string, opts ...client.Option) *client.Client {
	t.Helper()
	srv := httptest.NewUnstartedServer(eventserver.Service{}.Handler())
	// HTTP/1.1, and HTTP/2 without TLS for a client WithHTTPVersion(HTTPVersion2PriorKnowledge).
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	t.Cleanup(srv.Close)
	l := model.NewLoader()
	l.AddSource("ticker.smithy", []byte(src))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, model.ShapeID(svc), srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func tickDoc(n int) string {
	return fmt.Sprintf(`{"tick":{"seq":%d,"at":"%s","message":"tick %d"}}`, n,
		eventserver.Epoch.Add(time.Duration(n)*time.Second).Format(time.RFC3339), n)
}

// collect ranges over the stream's events with a bound on their number.
func collect(t *testing.T, s *client.EventStream) ([]string, []time.Time, error) {
	var got []string
	var at []time.Time
	for ev, err := range s.Events() {
		if err != nil {
			return got, at, err
		}
		got = append(got, string(ev))
		at = append(at, time.Now())
		if len(got) > 1000 {
			t.Fatal("too many events")
		}
	}
	return got, at, nil
}

func TestCallStreamSlowEvents(t *testing.T) {
	c := tickerClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	s, err := c.CallStream(ctx, "Tick", []byte(`{"count":4,"intervalMs":150}`))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if string(s.Initial()) != `{"session":"s-1"}` {
		t.Errorf("initial %s", s.Initial())
	}
	got, at, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d events: %v", len(got), got)
	}
	for i, g := range got {
		if g != tickDoc(i) {
			t.Errorf("event %d: %s, want %s", i, g, tickDoc(i))
		}
	}
	// Events arrive as sent, not at the end: the first one well before the last.
	if first, last := at[0].Sub(start), at[3].Sub(start); last-first < 300*time.Millisecond {
		t.Errorf("first event after %v, last after %v: not streamed", first, last)
	}
}

func TestCallStreamEndings(t *testing.T) {
	for _, v := range []struct {
		name string
		v    transport.HTTPVersion
	}{{"HTTP1.1", transport.HTTPVersion1}, {"h2c", transport.HTTPVersion2PriorKnowledge}} {
		t.Run(v.name, func(t *testing.T) {
			testEndings(t, tickerClient(t, client.WithHTTPVersion(v.v)), "smithycurl.test.events")
		})
	}
}

// testEndings checks each way the ticker of namespace ns can end a stream.
func testEndings(t *testing.T, c *client.Client, ns string) {
	cases := []struct {
		fail   string
		events int
		kind   client.Kind
		want   string
		shape  string
	}{
		{"exception", 2, client.KindService, "slow down", ns + "#TooFast"},
		{"error", 2, client.KindService, "An unknown error occurred.", ""},
		{"truncate", 2, client.KindTransport, "", ""},
		{"crc", 2, client.KindDecode, "message CRC", ""},
		{"cut", 2, client.KindDecode, "truncated: the stream ended after", ""},
		{"unknown", 2, 0, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.fail, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s, err := c.CallStream(ctx, "Tick", []byte(fmt.Sprintf(`{"count":2,"fail":%q}`, tc.fail)))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got, _, err := collect(t, s)
			if len(got) != tc.events {
				t.Errorf("%d events before the end, want %d: %v", len(got), tc.events, got)
			}
			if tc.kind == 0 {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			var e *client.Error
			if !errors.As(err, &e) || e.Kind != tc.kind {
				t.Fatalf("error %v, want kind %v", err, tc.kind)
			}
			if !strings.Contains(e.Error(), tc.want) || string(e.Shape) != tc.shape {
				t.Errorf("error %q (shape %q), want %q and shape %q", e, e.Shape, tc.want, tc.shape)
			}
			t.Logf("%s: %v", tc.fail, e)
			if tc.fail == "error" && e.Code != "internal-error" {
				t.Errorf("code %q", e.Code)
			}
		})
	}
}

func TestCallStreamErrorResponse(t *testing.T) {
	c := tickerClient(t)
	_, err := c.CallStream(context.Background(), "Tick", []byte(`{"count":1,"fail":"refuse"}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != "smithycurl.test.events#BadRequest" || e.Status != 400 {
		t.Fatalf("error %v", err)
	}
	if _, err := c.CallStream(context.Background(), "Tick", []byte(`{}`)); !errors.As(err, &e) || e.Kind != client.KindValidation {
		t.Errorf("missing count: %v", err)
	}
	// Call refuses an event-stream operation and says what to use.
	if _, err := c.Call(context.Background(), "Tick", []byte(`{"count":1}`)); err == nil || !strings.Contains(err.Error(), "CallStream") {
		t.Errorf("Call: %v", err)
	}
}

// Closing a stream in the middle ends the transfer at once and frees the
// connection; the client is usable afterwards and nothing leaks.
func TestCallStreamCloseEarly(t *testing.T) {
	c := tickerClient(t)
	before := runtime.NumGoroutine()
	for i := 0; i < 3; i++ {
		s, err := c.CallStream(context.Background(), "Tick", []byte(`{"count":1000,"intervalMs":50}`))
		if err != nil {
			t.Fatal(err)
		}
		for ev, err := range s.Events() {
			if err != nil || string(ev) != tickDoc(0) {
				t.Fatalf("%s %v", ev, err)
			}
			break
		}
		start := time.Now()
		s.Close()
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Close took %v", d)
		}
	}
	// The context's end stops a stream too.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	s, err := c.CallStream(ctx, "Tick", []byte(`{"count":1000,"intervalMs":50}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = collect(t, s)
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindTimeout {
		t.Errorf("after the deadline: %v", err)
	}
	s.Close()
	for end := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before+2 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before+2 {
		t.Errorf("goroutines %d before, %d after", before, after)
	}
}

// The client's timeout bounds the service's silence, not the stream: a
// stream longer than it goes on while events keep coming, and ends with
// KindTimeout when the service goes quiet for longer; a slow reader does
// not count.
func TestCallStreamIdleTimeout(t *testing.T) {
	c := tickerClient(t, client.WithTimeout(400*time.Millisecond))
	s, err := c.CallStream(context.Background(), "Tick", []byte(`{"count":8,"intervalMs":150}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := collect(t, s)
	s.Close()
	if err != nil || len(got) != 8 {
		t.Errorf("a 1 s stream with a 400 ms timeout: %d events, %v", len(got), err)
	}
	// The reader pausing longer than the timeout loses nothing.
	s, err = c.CallStream(context.Background(), "Tick", []byte(`{"count":3}`))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	got, _, err = collect(t, s)
	s.Close()
	if err != nil || len(got) != 3 {
		t.Errorf("after a pause of the reader: %d events, %v", len(got), err)
	}
	// Silence: 1 s between events.
	start := time.Now()
	s, err = c.CallStream(context.Background(), "Tick", []byte(`{"count":3,"intervalMs":1000}`))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, _, err = collect(t, s)
	var e *client.Error
	if len(got) != 1 || !errors.As(err, &e) || e.Kind != client.KindTimeout || !strings.Contains(err.Error(), "no data from the service for 400ms") {
		t.Errorf("silent service: %d events, %v", len(got), err)
	}
	if d := time.Since(start); d > 900*time.Millisecond {
		t.Errorf("the silence was noticed after %v", d)
	}
}

// A stream far larger than the memory it may use: 160 events of 1 MiB
// (160 MiB) while the heap stays under 64 MiB (the body is never held).
func TestCallStreamMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 160 MiB")
	}
	c := tickerClient(t)
	// A bound for a stuck stream, not a measure: under the race detector on
	// a busy machine 160 MiB take minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const pad = 1 << 20
	count := 160
	if raceEnabled {
		count = 96 // still half again the heap bound
	}
	// The bound is on what the stream adds: the heap other tests of the
	// process left live (models, servers) is measured first and subtracted.
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	s, err := c.CallStream(ctx, "Tick", []byte(fmt.Sprintf(`{"count":%d,"pad":%d}`, count, pad)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	var peak uint64
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if len(ev) < pad {
			t.Fatalf("event of %d bytes", len(ev))
		}
		if n++; n%10 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse-min(base, ms.HeapInuse))
		}
	}
	if n != count {
		t.Fatalf("%d events, want %d", n, count)
	}
	t.Logf("peak heap in use %.1f MiB above the %.1f MiB before the stream, for %d MiB streamed", float64(peak)/(1<<20), float64(base)/(1<<20), n*pad>>20)
	if peak > 64<<20 {
		t.Errorf("peak heap in use %d MiB", peak>>20)
	}
}

// BenchmarkEventStream measures the cost per event of a stream of
// small events through libcurl, the framing decoder and the codec.
// Sub-benchmarks: restJson1 and each RPC protocol.
func BenchmarkEventStream(b *testing.B) {
	b.Run("restJson1", func(b *testing.B) { benchEvents(b, tickerClient(b)) })
	for _, svc := range rpcTickers {
		b.Run(svc, func(b *testing.B) { benchEvents(b, eventClient(b, eventserver.RPCModel, rpcNS+"#"+svc)) })
	}
}

func benchEvents(b *testing.B, c *client.Client) {
	const n = 2000
	b.ReportAllocs()
	for b.Loop() {
		s, err := c.CallStream(context.Background(), "Tick", []byte(fmt.Sprintf(`{"count":%d}`, n)))
		if err != nil {
			b.Fatal(err)
		}
		k := 0
		for _, err := range s.Events() {
			if err != nil {
				b.Fatal(err)
			}
			k++
		}
		s.Close()
		if k != n {
			b.Fatalf("%d events", k)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}
