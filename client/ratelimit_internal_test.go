package client

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// The values are the ones the AWS SDKs test their adaptive mode with
// (aws-sdk-go-v2's adaptive_ratelimit_test.go), computed from CUBIC's
// published formulas: W(t) = C·(t−K)³ + Wmax with C = 0.4, β = 0.7,
// K = ∛(Wmax·(1−β)/C), and the rate × β on a throttle.
func TestCubic(t *testing.T) {
	type step struct {
		throttled bool
		at        float64 // seconds
		want      float64
	}
	for name, steps := range map[string][]step{
		"success": {{false, 5, 7}, {false, 6, 9.64893600966}, {false, 7, 10.000030849917364}, {false, 8, 10.453284520772092},
			{false, 9, 13.408697022224185}, {false, 10, 21.26626835427364}, {false, 11, 36.425998516920465}},
		"mixed": {{false, 5, 7}, {false, 6, 9.64893600966}, {true, 7, 6.754255206761999}, {true, 8, 4.727978644733399},
			{false, 9, 4.670125557970046}, {false, 10, 4.770870456867401}, {false, 11, 6.011819748005445},
			{false, 12, 10.792973431384178}},
	} {
		r := newRateLimiter(func() time.Time { return time.Unix(0, 0) })
		r.lastMaxRate, r.lastThrottle = 10, time.Unix(5, 0)
		var rate float64
		for _, s := range steps {
			at := time.Unix(0, int64(s.at*1e9))
			r.setWindow()
			if s.throttled {
				rate = cubicThrottle(rate)
				r.lastThrottle, r.lastMaxRate = at, rate
			} else {
				rate = r.cubicSuccess(at)
			}
			if !near(rate, s.want) {
				t.Errorf("%s at %gs: rate %v, want %v", name, s.at, rate, s.want)
			}
		}
	}
}

// The whole update: the send rate measured per half second (smoothed
// 0.8) and the bucket's fill rate (CUBIC, capped at twice the measured
// rate, at least 0.5), an attempt every 200 ms with two throttles.
func TestRateLimiterUpdate(t *testing.T) {
	now := time.Unix(0, 0)
	r := newRateLimiter(func() time.Time { return now })
	for _, s := range []struct {
		ms             int64
		throttled      bool
		measured, rate float64
	}{
		{200, false, 0, 0.5}, {400, false, 0, 0.5}, {600, false, 4.8, 0.5}, {800, false, 4.8, 0.5},
		{1000, false, 4.16, 0.5}, {1200, false, 4.16, 0.6912}, {1400, false, 4.16, 1.0976}, {1600, false, 5.632, 1.6384},
		{1800, false, 5.632, 2.3328}, {2000, true, 4.3264, 3.02848}, {2200, false, 4.3264, 3.4866391734702598},
		{2400, false, 4.3264, 3.8218744160402554}, {2600, false, 5.665280, 4.053385727709987},
		{2800, false, 5.665280, 4.200373108479455}, {3000, false, 4.333056, 4.282036558348658},
		{3200, true, 4.333056, 2.99742559084406}, {3400, false, 4.333056, 3.4522263943863463},
	} {
		now = time.UnixMilli(s.ms)
		r.update(s.throttled)
		if !near(r.measured, s.measured) || !near(r.fillRate, s.rate) {
			t.Errorf("at %d ms: measured %v, fill rate %v; want %v, %v", s.ms, r.measured, r.fillRate, s.measured, s.rate)
		}
		if r.enabled != (s.ms >= 2000) {
			t.Errorf("at %d ms: enabled %v", s.ms, r.enabled)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// A service that throttles (HTTP 429) from the 3rd to the 5th second of a
// client's run: in adaptive mode the send rate falls to a few requests a
// second while it does and climbs back after. The server is real; the time
// is virtual, for the test to be exact and quick: each request takes 10 ms
// of it (100 a second at most) and the limiter's waits pass it on.
func TestAdaptiveSendRate(t *testing.T) {
	m := pingModel(t)
	var (
		mu    sync.Mutex
		start = time.Unix(1000, 0)
		clock = start
		sent  []float64 // each request's virtual time, in seconds from the start
	)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		clock = clock.Add(10 * time.Millisecond)
		at := clock.Sub(start).Seconds()
		sent = append(sent, at)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if at >= 3 && at < 5 {
			w.WriteHeader(429)
			w.Write([]byte(`{"message": "slow down"}`))
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c, err := New(m, "t#S", srv.URL, WithRetryMode(RetryAdaptive), WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.limiter = newRateLimiter(now)
	c.limiter.sleep = func(_ context.Context, d time.Duration) error {
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
		return nil
	}
	for i := 0; i < 3000 && now().Sub(start) < 15*time.Second; i++ {
		c.Call(context.Background(), "Ping", nil)
	}
	rate := func(from, to float64) float64 {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, at := range sent {
			if at >= from && at < to {
				n++
			}
		}
		return float64(n) / (to - from)
	}
	before, during, after := rate(2, 3), rate(4, 5), rate(14, 15)
	t.Logf("requests a second: %.1f before the throttling, %.1f during, %.1f 9 s after", before, during, after)
	if before < 90 || during > 5 || after < 50 {
		t.Errorf("send rate %.1f/s before, %.1f/s while throttled, %.1f/s 9 s after; want ≥ 90, ≤ 5, ≥ 50", before, during, after)
	}
	for s := 2.0; s < 15; s++ {
		t.Logf("second %g: %.0f requests", s, rate(s, s+1))
	}
}

// One limiter for all of a client's goroutines (run under -race): a
// service that throttles every call brings the shared rate to its floor.
func TestAdaptiveConcurrent(t *testing.T) {
	m := pingModel(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(429) }))
	defer srv.Close()
	c, err := New(m, "t#S", srv.URL, WithRetryMode(RetryAdaptive), WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	clock := time.Now()
	c.limiter = newRateLimiter(func() time.Time { mu.Lock(); defer mu.Unlock(); return clock })
	c.limiter.sleep = func(_ context.Context, d time.Duration) error {
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
		return nil
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				c.Call(context.Background(), "Ping", nil)
			}
		}()
	}
	wg.Wait()
	c.limiter.mu.Lock()
	defer c.limiter.mu.Unlock()
	if !c.limiter.enabled || c.limiter.fillRate != minFillRate {
		t.Errorf("after 100 throttled calls: enabled %v, fill rate %v; want true, %v", c.limiter.enabled, c.limiter.fillRate, minFillRate)
	}
}

// pingModel is a service with one operation, Ping, and no auth.
func pingModel(t *testing.T) *model.Model {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("t.smithy", []byte(`$version: "2"
namespace t
use aws.protocols#restJson1
@restJson1
service S { operations: [Ping] }
@http(method: "POST", uri: "/ping")
operation Ping { input := {}, output := {} }
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}
