package identity

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a fake clock the tests move by hand.
type clock struct{ ns atomic.Int64 }

var epoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func (c *clock) now() time.Time          { return epoch.Add(time.Duration(c.ns.Load())) }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// counting hands out credentials living life (0: forever), numbered by
// call, and counts its calls. With gate set, each call waits for it; with
// fail set, calls fail.
type counting struct {
	clk   *clock
	life  time.Duration
	calls atomic.Int32
	fail  atomic.Bool
	gate  chan struct{}
}

var errProvider = errors.New("the endpoint said no")

func (p *counting) Retrieve(ctx context.Context) (AWS, error) {
	n := p.calls.Add(1)
	if p.gate != nil {
		<-p.gate
	}
	if p.fail.Load() {
		return AWS{}, errProvider
	}
	a := AWS{AccessKeyID: "AKID" + string(rune('0'+n)), SecretAccessKey: "SECRET-VALUE", SessionToken: "TOKEN-VALUE"}
	if p.life > 0 {
		a.Expires = p.clk.now().Add(p.life)
	}
	return a, nil
}

func newTestCache(life time.Duration) (*Cache[AWS], *counting, *clock) {
	clk := &clock{}
	p := &counting{clk: clk, life: life}
	return NewCache[AWS](p, "test provider", WithWindows(15*time.Second, 10*time.Second), WithClock(clk.now)), p, clk
}

// settled waits until no refresh is under way.
func settled(t *testing.T, c *Cache[AWS]) {
	t.Helper()
	waitFor(t, "the refresh to end", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.flight == nil
	})
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func mustGet(t *testing.T, c *Cache[AWS], want string) {
	t.Helper()
	got, err := c.Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.AccessKeyID != want {
		t.Fatalf("got %s, want %s", got.AccessKeyID, want)
	}
}

// getAsync calls Get in a goroutine; the channel gets the access key id
// or the error's text.
func getAsync(ctx context.Context, c *Cache[AWS]) <-chan string {
	got := make(chan string, 1)
	go func() {
		a, err := c.Get(ctx)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- a.AccessKeyID
	}()
	return got
}

func TestCacheWithoutExpiryFetchesOnce(t *testing.T) {
	c, p, clk := newTestCache(0)
	for range 100 {
		mustGet(t, c, "AKID1")
		clk.advance(24 * time.Hour)
	}
	if n := p.calls.Load(); n != 1 {
		t.Errorf("%d retrieves, want 1", n)
	}
}

// TestCacheAdvisoryWindow: before the window nothing is refreshed; in it,
// callers get the current identity at once while one refresh runs, then
// the new one.
func TestCacheAdvisoryWindow(t *testing.T) {
	c, p, clk := newTestCache(time.Minute)
	mustGet(t, c, "AKID1")
	clk.advance(44 * time.Second) // 16 s left
	mustGet(t, c, "AKID1")
	if n := p.calls.Load(); n != 1 {
		t.Fatalf("%d retrieves before the advisory window, want 1", n)
	}
	p.gate = make(chan struct{})
	clk.advance(2 * time.Second) // 14 s left: advisory
	for range 50 {
		mustGet(t, c, "AKID1") // does not wait for the refresh
	}
	waitFor(t, "the refresh to start", func() bool { return p.calls.Load() == 2 })
	close(p.gate)
	settled(t, c)
	mustGet(t, c, "AKID2")
	if n := p.calls.Load(); n != 2 {
		t.Errorf("%d retrieves, want 2", n)
	}
}

// TestCacheAdvisoryFailureKeepsIdentity: a failed advisory refresh keeps
// the identity and is not tried again on every call, only later.
func TestCacheAdvisoryFailureKeepsIdentity(t *testing.T) {
	c, p, clk := newTestCache(time.Minute)
	mustGet(t, c, "AKID1")
	p.fail.Store(true)
	clk.advance(46 * time.Second)
	mustGet(t, c, "AKID1")
	waitFor(t, "the refresh", func() bool { return p.calls.Load() == 2 })
	settled(t, c)
	for range 20 {
		mustGet(t, c, "AKID1")
	}
	settled(t, c)
	if n := p.calls.Load(); n != 2 {
		t.Fatalf("%d retrieves right after a failed refresh, want 2", n)
	}
	clk.advance(time.Second) // past the retry delay, (15-10)/10 s
	p.fail.Store(false)
	mustGet(t, c, "AKID1")
	waitFor(t, "the second refresh", func() bool { return p.calls.Load() == 3 })
	settled(t, c)
	mustGet(t, c, "AKID3")
}

// TestCacheMandatoryWindow: callers wait for the refresh and get the new
// identity.
func TestCacheMandatoryWindow(t *testing.T) {
	c, p, clk := newTestCache(time.Minute)
	mustGet(t, c, "AKID1")
	p.gate = make(chan struct{})
	clk.advance(51 * time.Second) // 9 s left: mandatory
	got := getAsync(context.Background(), c)
	waitFor(t, "the refresh to start", func() bool { return p.calls.Load() == 2 })
	select {
	case g := <-got:
		t.Fatalf("Get returned %s before the refresh ended", g)
	default:
	}
	close(p.gate)
	if g := <-got; g != "AKID2" {
		t.Fatalf("got %s, want AKID2", g)
	}
}

// TestCacheMandatoryFailure: a failed mandatory refresh fails the call
// with an *Error naming the provider and wrapping the cause, without a
// secret; the next call tries again.
func TestCacheMandatoryFailure(t *testing.T) {
	for _, past := range []time.Duration{51 * time.Second, 2 * time.Minute} { // in the window; expired
		c, p, clk := newTestCache(time.Minute)
		mustGet(t, c, "AKID1")
		p.fail.Store(true)
		clk.advance(past)
		_, err := c.Get(context.Background())
		var ie *Error
		if !errors.As(err, &ie) || ie.Provider != "test provider" || !errors.Is(err, errProvider) {
			t.Fatalf("%s: got %v, want an *Error of the test provider wrapping its cause", past, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "test provider") || strings.Contains(msg, "SECRET") || strings.Contains(msg, "TOKEN-VALUE") {
			t.Errorf("%s: message %q", past, msg)
		}
		p.fail.Store(false)
		mustGet(t, c, "AKID3")
	}
}

// TestCacheFirstFailure: with no identity yet, a failure fails the call.
func TestCacheFirstFailure(t *testing.T) {
	c, p, _ := newTestCache(time.Minute)
	p.fail.Store(true)
	if _, err := c.Get(context.Background()); !errors.Is(err, errProvider) {
		t.Fatalf("got %v", err)
	}
	p.fail.Store(false)
	mustGet(t, c, "AKID2")
}

// TestCacheOneRefreshForManyWaiters: 1,000 goroutines waiting for an
// identity cause one Retrieve.
func TestCacheOneRefreshForManyWaiters(t *testing.T) {
	for _, first := range []bool{true, false} {
		c, p, clk := newTestCache(time.Minute)
		want := "AKID1"
		if !first {
			mustGet(t, c, "AKID1")
			clk.advance(55 * time.Second)
			want = "AKID2"
		}
		p.gate = make(chan struct{})
		var entered, done sync.WaitGroup
		var wrong atomic.Int32
		for range 1000 {
			entered.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				entered.Done()
				a, err := c.Get(context.Background())
				if err != nil || a.AccessKeyID != want {
					wrong.Add(1)
				}
			}()
		}
		entered.Wait()
		waitFor(t, "the refresh to start", func() bool { return p.calls.Load() >= 1 })
		close(p.gate)
		done.Wait()
		before := 0
		if !first {
			before = 1
		}
		if n := int(p.calls.Load()) - before; n != 1 {
			t.Errorf("first=%v: %d retrieves for 1,000 callers, want 1", first, n)
		}
		if n := wrong.Load(); n != 0 {
			t.Errorf("first=%v: %d callers got an error or the wrong identity", first, n)
		}
	}
}

// TestCacheWaiterCancel: a waiter's cancellation ends its wait only; the
// refresh goes on for the others.
func TestCacheWaiterCancel(t *testing.T) {
	c, p, _ := newTestCache(time.Minute)
	p.gate = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error, 1)
	go func() { _, err := c.Get(ctx); cancelled <- err }()
	other := getAsync(context.Background(), c)
	waitFor(t, "the refresh to start", func() bool { return p.calls.Load() == 1 })
	cancel()
	err := <-cancelled
	var ie *Error
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ie) || ie.Provider != "test provider" {
		t.Fatalf("cancelled waiter: got %v", err)
	}
	close(p.gate)
	if g := <-other; g != "AKID1" {
		t.Fatalf("the other waiter got %s", g)
	}
	if n := p.calls.Load(); n != 1 {
		t.Errorf("%d retrieves, want 1", n)
	}
}

// TestCacheShortLived: an identity living less than the windows is used
// for half its life before a refresh, not refreshed on every call.
func TestCacheShortLived(t *testing.T) {
	clk := &clock{}
	p := &counting{clk: clk, life: 2 * time.Second}
	c := NewCache[AWS](p, "short", WithClock(clk.now)) // default windows: minutes
	mustGet(t, c, "AKID1")
	clk.advance(900 * time.Millisecond)
	mustGet(t, c, "AKID1")
	if n := p.calls.Load(); n != 1 {
		t.Fatalf("%d retrieves, want 1", n)
	}
	clk.advance(700 * time.Millisecond) // 1.6 s: past three quarters
	mustGet(t, c, "AKID2")
}

// TestCacheExpiredIdentity: a provider handing out an expired identity
// fails the call.
func TestCacheExpiredIdentity(t *testing.T) {
	clk := &clock{}
	c := NewCache[Token](ProviderFunc[Token](func(context.Context) (Token, error) {
		return Token{Value: "TOKEN-VALUE", Expires: clk.now().Add(-time.Second)}, nil
	}), "stale", WithClock(clk.now))
	_, err := c.Get(context.Background())
	if err == nil || !strings.Contains(err.Error(), "stale: the identity it gave expired at") || strings.Contains(err.Error(), "TOKEN-VALUE") {
		t.Fatalf("got %v", err)
	}
}

// TestCachePanic: a provider's panic is an error, not a crash.
func TestCachePanic(t *testing.T) {
	c := NewCache[Token](ProviderFunc[Token](func(context.Context) (Token, error) { panic("boom") }), "panicky")
	if _, err := c.Get(context.Background()); err == nil || !strings.Contains(err.Error(), "panicky: the provider panicked: boom") {
		t.Fatalf("got %v", err)
	}
}

// TestCacheGetAllocs: a cached, fresh identity costs no allocation.
func TestCacheGetAllocs(t *testing.T) {
	c := NewCache[AWS](&counting{clk: &clock{}, life: time.Hour}, "p")
	mustGet(t, c, "AKID1")
	ctx := context.Background()
	if n := testing.AllocsPerRun(1000, func() { _, _ = c.Get(ctx) }); n != 0 {
		t.Errorf("%v allocations per Get", n)
	}
}

func BenchmarkCacheGet(b *testing.B) {
	clk := &clock{}
	clk.ns.Store(time.Since(epoch).Nanoseconds())
	c := NewCache[AWS](&counting{clk: clk, life: time.Hour}, "p")
	ctx := context.Background()
	if _, err := c.Get(ctx); err != nil {
		b.Fatal(err)
	}
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Get(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.Get(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
