package identity

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// The refresh windows of botocore: an identity is refreshed in the
// background from 15 minutes before it expires, and callers wait for the
// refresh from 10 minutes before.
const (
	DefaultAdvisory  = 15 * time.Minute
	DefaultMandatory = 10 * time.Minute
)

// Cache keeps the identity of a Provider and refreshes it before it
// expires. Within the advisory window one caller starts a refresh in the
// background and every caller keeps the current identity; a failed
// advisory refresh keeps it too and is tried again after a tenth of the
// window. Within the mandatory window, or with no identity yet, callers
// wait for the refresh; a failed one fails them with an *Error. There is
// one refresh at a time however many callers wait; a caller's ctx ends its
// own wait, not the refresh. An identity without expiry is fetched once.
// An identity that lives less than the windows is refreshed after half
// (advisory) and three quarters (mandatory) of its lifetime, not on every
// call. A Cache is a Provider, safe for concurrent use, and may be shared.
// The provider bounds its own time: no caller's cancellation ends a refresh.
type Cache[T Expiring] struct {
	p                   Provider[T]
	name                string
	advisory, mandatory time.Duration
	now                 func() time.Time

	cur atomic.Pointer[entry[T]] // nil until the first refresh succeeds

	mu      sync.Mutex
	flight  *flight[T] // the refresh under way; nil when none
	retryAt time.Time  // no advisory refresh before this, after a failed one
}

// entry is an identity and when to refresh it (zero times: never).
type entry[T Expiring] struct {
	v                       T
	advisoryAt, mandatoryAt time.Time
}

// flight is one refresh; done closes when v or err is set.
type flight[T Expiring] struct {
	done chan struct{}
	v    *entry[T]
	err  error
}

// CacheOption configures a Cache.
type CacheOption func(*cacheConfig)

type cacheConfig struct {
	advisory, mandatory time.Duration
	now                 func() time.Time
}

// WithWindows sets the advisory and mandatory refresh windows (defaults
// DefaultAdvisory and DefaultMandatory); an advisory window shorter than
// the mandatory one is the mandatory one.
func WithWindows(advisory, mandatory time.Duration) CacheOption {
	return func(c *cacheConfig) { c.advisory, c.mandatory = advisory, mandatory }
}

// WithClock replaces time.Now (tests).
func WithClock(now func() time.Time) CacheOption {
	return func(c *cacheConfig) { c.now = now }
}

// NewCache returns a cache in front of p; name names p in errors ("the
// AWS_* environment variables", "profile dev"), never a secret.
func NewCache[T Expiring](p Provider[T], name string, opts ...CacheOption) *Cache[T] {
	cfg := cacheConfig{advisory: DefaultAdvisory, mandatory: DefaultMandatory, now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.mandatory = max(cfg.mandatory, 0)
	cfg.advisory = max(cfg.advisory, cfg.mandatory)
	return &Cache[T]{p: p, name: name, advisory: cfg.advisory, mandatory: cfg.mandatory, now: cfg.now}
}

// Name is the provider's name given to NewCache.
func (c *Cache[T]) Name() string { return c.name }

// Error is a refresh that failed, or a wait for one that ended. It names
// the provider and wraps the cause.
type Error struct {
	Provider string
	Err      error
}

func (e *Error) Error() string { return e.Provider + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Retrieve implements Provider: it is Get.
func (c *Cache[T]) Retrieve(ctx context.Context) (T, error) { return c.Get(ctx) }

// Get returns the identity, refreshing it as the windows say. A cached
// identity outside the windows costs a clock read and no allocation.
func (c *Cache[T]) Get(ctx context.Context) (T, error) {
	if e := c.cur.Load(); e != nil {
		if e.advisoryAt.IsZero() {
			return e.v, nil
		}
		now := c.now()
		if now.Before(e.advisoryAt) {
			return e.v, nil
		}
		if now.Before(e.mandatoryAt) {
			c.refreshAdvisory(ctx, now)
			return e.v, nil
		}
	}
	return c.wait(ctx)
}

// refreshAdvisory starts a background refresh unless one is under way or
// a failed one is too recent.
func (c *Cache[T]) refreshAdvisory(ctx context.Context, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.flight == nil && !now.Before(c.retryAt) {
		c.start(ctx)
	}
}

// wait joins the refresh under way, or starts one, and waits for it or
// for ctx.
func (c *Cache[T]) wait(ctx context.Context) (T, error) {
	c.mu.Lock()
	f := c.flight
	if f == nil {
		// Another caller's refresh may have just succeeded.
		if e := c.cur.Load(); e != nil && (e.mandatoryAt.IsZero() || c.now().Before(e.mandatoryAt)) {
			c.mu.Unlock()
			return e.v, nil
		}
		f = c.start(ctx)
	}
	c.mu.Unlock()
	var zero T
	select {
	case <-f.done:
		if f.err != nil {
			return zero, f.err
		}
		return f.v.v, nil
	case <-ctx.Done():
		return zero, &Error{Provider: c.name, Err: fmt.Errorf("waiting for the refresh: %w", ctx.Err())}
	}
}

// start begins a refresh; c.mu is held. It runs apart from the caller, so
// that no caller's cancellation ends it for the others (ctx's values stay).
func (c *Cache[T]) start(ctx context.Context) *flight[T] {
	f := &flight[T]{done: make(chan struct{})}
	c.flight = f
	go func() {
		v, err := c.fetch(context.WithoutCancel(ctx))
		c.mu.Lock()
		if err == nil {
			c.cur.Store(v)
			c.retryAt = time.Time{}
		} else {
			c.retryAt = c.now().Add(max((c.advisory-c.mandatory)/10, time.Second/10))
		}
		c.flight = nil
		f.v, f.err = v, err
		c.mu.Unlock()
		close(f.done)
	}()
	return f
}

// fetch calls the provider and works out the entry's windows.
func (c *Cache[T]) fetch(ctx context.Context) (e *entry[T], err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, &Error{Provider: c.name, Err: fmt.Errorf("the provider panicked: %v", r)}
		}
	}()
	v, err := c.p.Retrieve(ctx)
	if err != nil {
		return nil, &Error{Provider: c.name, Err: err}
	}
	e = &entry[T]{v: v}
	exp := v.Expiry()
	if exp.IsZero() {
		return e, nil
	}
	now := c.now()
	life := exp.Sub(now)
	if life <= 0 {
		return nil, &Error{Provider: c.name, Err: fmt.Errorf("the identity it gave expired at %s", exp.UTC().Format(time.RFC3339))}
	}
	e.advisoryAt = latest(exp.Add(-c.advisory), now.Add(life/2))
	e.mandatoryAt = latest(exp.Add(-c.mandatory), now.Add(life*3/4))
	return e, nil
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
