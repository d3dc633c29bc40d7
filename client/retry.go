package client

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// RetryPolicy is the standard retry strategy: up to MaxAttempts sends, with
// exponential backoff and full jitter between them (a random wait in
// [0, min(Cap, Base·2^n)]), or the server's Retry-After when it sends one.
//
// What is retried: transport failures that certainly did not reach the
// server; HTTP 429 and throttling errors (the server refused the request;
// for AWS services, the AWS SDKs' throttling codes too);
// errors marked @retryable; and, only for operations that are @readonly,
// @idempotent, carry an idempotency token or are sent with a method HTTP
// defines as idempotent (GET, HEAD, PUT, DELETE, OPTIONS: S3's object
// calls, which the AWS models mark neither way), HTTP 500, 502, 503, 504,
// transport failures that may have reached the server and responses that
// do not match their checksum (DynamoDB's X-Amz-Crc32; its operations
// that only read are sent again too). A request that may
// have reached the server is never re-sent for other operations (libcurl's
// own re-send on a fresh connection included), and a response over the
// size limit is not retried. The client's timeout bounds the whole call,
// backoff and retries included.
//
// Retries also draw on the client's retry quota, as in the AWS SDKs'
// standard retry mode: each retry takes 5 tokens (10 after a timeout or a
// transport failure), a successful call gives back what its last retry took,
// or 1 token when it needed none, up to Quota. A retry the quota cannot pay
// for is not made: a failing service is not sent three times its load.
type RetryPolicy struct {
	MaxAttempts int           // total sends; 1 turns retries off
	Base        time.Duration // first backoff ceiling
	Cap         time.Duration // largest backoff, also caps Retry-After
	Quota       int           // retry quota in tokens: 0 for the default (500), < 0 for none
}

// DefaultRetryPolicy is used when no WithRetryPolicy option is given.
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 3, Base: 100 * time.Millisecond, Cap: 20 * time.Second}

// The retry quota's figures, those of the AWS SDKs' standard retry mode.
const (
	defaultRetryQuota = 500
	retryCost         = 5
	retryTimeoutCost  = 10
	noRetryRefund     = 1
)

// retryQuota is a client's retry budget; a nil one never runs out.
type retryQuota struct {
	mu               sync.Mutex
	tokens, capacity int
}

func newRetryQuota(p RetryPolicy) *retryQuota {
	switch {
	case p.Quota < 0 || p.MaxAttempts <= 1:
		return nil
	case p.Quota == 0:
		return &retryQuota{tokens: defaultRetryQuota, capacity: defaultRetryQuota}
	}
	return &retryQuota{tokens: p.Quota, capacity: p.Quota}
}

// take removes the cost of a retry after e, if the quota has it.
func (q *retryQuota) take(e *Error) (cost int, ok bool) {
	if q == nil {
		return 0, true
	}
	cost = retryCost
	if e.Kind == KindTimeout || e.Kind == KindTransport {
		cost = retryTimeoutCost
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.tokens < cost {
		return 0, false
	}
	q.tokens -= cost
	return cost, true
}

// succeeded gives back after a successful call: the cost of its last retry,
// or noRetryRefund when it had none.
func (q *retryQuota) succeeded(lastCost int) {
	if q == nil {
		return
	}
	if lastCost == 0 {
		lastCost = noRetryRefund
	}
	q.mu.Lock()
	q.tokens = min(q.tokens+lastCost, q.capacity)
	q.mu.Unlock()
}

// errQuotaSpent says why a retryable failure was not retried.
var errQuotaSpent = errors.New("not retried: the client's retry quota is spent (too many failures lately)")

// errNotIdempotent says why a failure that may have reached the server
// was not retried.
var errNotIdempotent = errors.New("not retried: the operation is not idempotent")

// idempotent reports whether op may be sent twice with the same effect.
func idempotent(m *model.Model, op *model.Shape, input *model.Shape) bool {
	if op.HasTrait(model.TraitReadonly) || op.HasTrait(model.TraitIdempotent) {
		return true
	}
	for _, mem := range input.Members {
		if _, ok := m.MemberTrait(mem, model.TraitIdempotencyToken); ok {
			return true
		}
	}
	return false
}

// idempotentMethod reports whether HTTP defines method as idempotent
// (RFC 9110 9.2.2), as Smithy's HttpMethodSemantics validation expects a
// model's @http methods to be used.
func idempotentMethod(method string) bool {
	switch method {
	case "GET", "HEAD", "PUT", "DELETE", "OPTIONS":
		return true
	}
	return false
}

// retryDecision says whether a failed attempt may be retried, whether
// only when the operation is idempotent (it may have acted on the
// request), and whether the server asked for a wait.
func (c *Client) retryDecision(e *Error, header wire.Header) (retry, onlyIdempotent bool, wait time.Duration) {
	var te *transport.Error
	switch e.Kind {
	case KindTransport, KindTimeout:
		if errors.As(e.err, &te) {
			if te.Kind == transport.KindTooLarge {
				return false, false, 0 // it would be as large again
			}
			return true, te.MayHaveReached, 0
		}
		return false, false, 0
	case KindService:
		wait := retryAfter(header)
		if c.throttled(e) {
			return true, false, wait
		}
		if s, ok := c.model.Shape(e.Shape); ok && s.HasTrait(model.TraitRetryable) {
			return true, false, wait
		}
		switch e.Status {
		case 500, 502, 503, 504:
			return true, true, wait
		}
		if c.isAWS && awsTransientCodes[errorName(e)] {
			return true, true, wait
		}
	case KindDecode:
		// A response damaged on the way (awscustom: DynamoDB's CRC-32),
		// like a 5xx: the request did reach the server.
		if ce := (*awscustom.CorruptError)(nil); errors.As(e, &ce) {
			return true, !ce.Resend, 0
		}
	}
	return false, false, 0
}

// throttled reports a service's refusal for load: HTTP 429 or a
// throttling error.
func (c *Client) throttled(e *Error) bool {
	return e.Kind == KindService && (e.Status == 429 || c.throttling(e))
}

// throttling reports a throttling error: @retryable(throttling: true); for
// an AWS service, one of the codes the AWS SDKs' standard retry mode treats
// as throttling, modeled or not (DynamoDB's modeled
// ProvisionedThroughputExceededException has no @retryable); or an
// unmodeled error type that says so.
func (c *Client) throttling(e *Error) bool {
	s, modeled := c.model.Shape(e.Shape)
	if modeled {
		v, _ := s.Trait(model.TraitRetryable)
		if t, _ := v.Get("throttling"); t.AsBool() {
			return true
		}
	}
	if c.isAWS && awsThrottlingCodes[errorName(e)] {
		return true
	}
	if modeled {
		return false
	}
	code := strings.ToLower(e.Code)
	return strings.Contains(code, "throttl") || strings.Contains(code, "toomanyrequests") || strings.Contains(code, "slowdown")
}

// awsThrottlingCodes and awsTransientCodes are the error codes the AWS SDKs'
// standard retry mode retries as throttling (always) and as transient (like
// a 5xx status: here, for idempotent operations only).
var (
	awsThrottlingCodes = map[string]bool{"Throttling": true, "ThrottlingException": true, "ThrottledException": true,
		"RequestThrottledException": true, "TooManyRequestsException": true, "ProvisionedThroughputExceededException": true,
		"TransactionInProgressException": true, "RequestLimitExceeded": true, "BandwidthLimitExceeded": true,
		"LimitExceededException": true, "RequestThrottled": true, "SlowDown": true, "PriorRequestNotComplete": true,
		"EC2ThrottledException": true}
	awsTransientCodes = map[string]bool{"RequestTimeout": true, "RequestTimeoutException": true}
)

// errorName is the error's code as the AWS SDKs match it: the modeled
// shape's name, else the code the response carried.
func errorName(e *Error) string {
	if e.Shape != "" {
		return e.Shape.Name()
	}
	return e.Code
}

// retryAfter parses a Retry-After header (seconds or HTTP date).
func retryAfter(h wire.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := parseHTTPTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// httpTimeFormats are the date forms HTTP/1.1 accepts (RFC 9110 5.6.7), as
// in net/http's ParseTime: IMF-fixdate, then the obsolete RFC 850 and
// asctime forms.
var httpTimeFormats = [...]string{
	"Mon, 02 Jan 2006 15:04:05 GMT",
	time.RFC850,
	time.ANSIC,
}

func parseHTTPTime(v string) (t time.Time, err error) {
	for _, f := range httpTimeFormats {
		if t, err = time.Parse(f, v); err == nil {
			return t, nil
		}
	}
	return t, err
}

// backoff returns the wait before attempt n+1 (n ≥ 1).
func (p RetryPolicy) backoff(n int, serverWait time.Duration) time.Duration {
	if serverWait > 0 {
		return min(serverWait, p.Cap)
	}
	ceiling := p.Cap
	if n < 32 {
		ceiling = min(p.Cap, p.Base<<(n-1))
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
