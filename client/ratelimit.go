package client

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// RetryMode is how a client retries: RetryStandard, or RetryAdaptive,
// which adds the AWS SDKs' client-side rate limiter.
type RetryMode string

// The retry modes, named as AWS_RETRY_MODE and the profile's retry_mode
// name them.
const (
	RetryStandard RetryMode = "standard"
	RetryAdaptive RetryMode = "adaptive"
)

// WithRetryMode chooses the retry mode (default: RetryStandard; AWS
// services: AWS_RETRY_MODE, the profile's retry_mode, where "legacy"
// reads as standard). RetryAdaptive is the standard mode plus a send rate
// limit that starts when the service throttles, as in the AWS SDKs'
// adaptive mode (botocore, aws-sdk-go-v2): each attempt of Call waits for
// a token of a bucket whose rate falls to 0.7 times the measured send
// rate on every throttling response and grows back along a CUBIC curve
// (0.4·(t−K)³ + Wmax, never above twice the measured rate) while none
// comes. The limiter is the client's, shared by its calls from all
// goroutines. Another mode makes New fail.
func WithRetryMode(mode RetryMode) Option {
	return optionFunc(func(o *options) { o.retryMode = mode })
}

// checkRetryMode checks a mode given to WithRetryMode.
func checkRetryMode(m RetryMode) error {
	switch m {
	case "", RetryStandard, RetryAdaptive:
		return nil
	}
	return fmt.Errorf("WithRetryMode(%q): retry_mode must be %q or %q", m, RetryStandard, RetryAdaptive)
}

// The adaptive mode's figures, those of botocore and aws-sdk-go-v2.
const (
	cubicBeta     = 0.7 // the rate kept on a throttle
	cubicScale    = 0.4 // the CUBIC scale constant
	rateSmoothing = 0.8 // weight of the newest measured send rate
	minFillRate   = 0.5 // tokens per second at the least
	rateBucket    = 0.5 // seconds: the send rate is measured per half second
)

// rateLimiter is the adaptive mode's client-side rate limiter: a token
// bucket (off until the first throttle), its fill rate set by CUBIC
// from the measured send rate. Safe for concurrent use.
type rateLimiter struct {
	mu    sync.Mutex
	now   func() time.Time                                 // the clock (tests give their own)
	sleep func(ctx context.Context, d time.Duration) error // waits for tokens

	enabled bool // a throttle was seen: sends take tokens

	// The token bucket.
	fillRate   float64 // tokens per second
	capacity   float64
	tokens     float64
	lastRefill time.Time // zero: never refilled

	// The measured send rate (attempts per second, smoothed).
	measured   float64
	lastBucket float64 // the half second last counted, in seconds
	count      int     // attempts since then

	// CUBIC: the rate at the last throttle, its time, and the time K the
	// curve takes to climb back to it.
	lastMaxRate  float64
	lastThrottle time.Time
	window       float64
	calculated   float64 // the rate CUBIC gives now
}

// newRateLimiter returns a limiter reading the time from clock.
func newRateLimiter(clock func() time.Time) *rateLimiter {
	now := clock()
	return &rateLimiter{now: clock, sleep: sleep, lastBucket: math.Floor(seconds(now)), lastThrottle: now}
}

// seconds is t in seconds since the Unix epoch.
func seconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// acquire waits until an attempt may be sent (at once until the first
// throttle), or ctx is done.
func (r *rateLimiter) acquire(ctx context.Context) error {
	for {
		r.mu.Lock()
		if !r.enabled {
			r.mu.Unlock()
			return nil
		}
		r.refill()
		if r.tokens >= 1 {
			r.tokens--
			r.mu.Unlock()
			return nil
		}
		wait := time.Duration((1 - r.tokens) / r.fillRate * float64(time.Second))
		r.mu.Unlock()
		if err := r.sleep(ctx, max(wait, time.Millisecond)); err != nil {
			return err
		}
	}
}

// update counts an attempt that got a response, throttled or not, and
// sets the bucket's rate from it.
func (r *rateLimiter) update(throttled bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	r.measure(now)
	if throttled {
		rate := r.measured
		if r.enabled {
			rate = min(r.measured, r.fillRate)
		}
		r.lastMaxRate = rate
		r.setWindow()
		r.lastThrottle = now
		r.calculated = cubicThrottle(rate)
		r.enabled = true
	} else {
		r.setWindow()
		r.calculated = r.cubicSuccess(now)
	}
	r.setRate(min(r.calculated, 2*r.measured))
}

// cubicThrottle is the rate after a throttle at rate.
func cubicThrottle(rate float64) float64 { return rate * cubicBeta }

// cubicSuccess is the rate CUBIC gives at t after the last throttle.
func (r *rateLimiter) cubicSuccess(t time.Time) float64 {
	dt := t.Sub(r.lastThrottle).Seconds()
	return cubicScale*math.Pow(dt-r.window, 3) + r.lastMaxRate
}

// setWindow computes K, the time the curve takes back to lastMaxRate.
func (r *rateLimiter) setWindow() {
	r.window = math.Cbrt(r.lastMaxRate * (1 - cubicBeta) / cubicScale)
}

// measure counts an attempt in the send rate, which is updated each
// half second.
func (r *rateLimiter) measure(now time.Time) {
	bucket := math.Floor(seconds(now)/rateBucket) * rateBucket
	r.count++
	if bucket > r.lastBucket {
		current := float64(r.count) / (bucket - r.lastBucket)
		r.measured = current*rateSmoothing + r.measured*(1-rateSmoothing)
		r.count = 0
		r.lastBucket = bucket
	}
}

// setRate sets the bucket's fill rate (at least minFillRate) and its
// capacity (one second's worth, at least one token).
func (r *rateLimiter) setRate(rate float64) {
	r.refill()
	r.fillRate = max(rate, minFillRate)
	r.capacity = max(rate, 1)
	r.tokens = min(r.tokens, r.capacity)
}

// refill adds the tokens earned since the last refill.
func (r *rateLimiter) refill() {
	now := r.now()
	if r.lastRefill.IsZero() {
		r.lastRefill = now
		return
	}
	r.tokens = min(r.capacity, r.tokens+now.Sub(r.lastRefill).Seconds()*r.fillRate)
	r.lastRefill = now
}
