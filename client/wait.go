package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// WaitOption changes one Wait.
type WaitOption interface{ applyWait(*waitOptions) }

type waitOptionFunc func(*waitOptions)

func (f waitOptionFunc) applyWait(o *waitOptions) { f(o) }

type waitOptions struct {
	minDelay, maxDelay time.Duration
	call               []CallOption
	observer           func(WaitAttempt)
}

// WithWaitDelays replaces the waiter's minDelay and maxDelay (tests, or a
// caller that knows better than the model); zero keeps the model's value.
// The delays need not be whole seconds here: jitter is then drawn in
// milliseconds instead of seconds.
func WithWaitDelays(minDelay, maxDelay time.Duration) WaitOption {
	return waitOptionFunc(func(o *waitOptions) {
		if minDelay > 0 {
			o.minDelay = minDelay
		}
		if maxDelay > 0 {
			o.maxDelay = maxDelay
		}
	})
}

// WithWaitCallOptions applies opts to every call the waiter makes.
func WithWaitCallOptions(opts ...CallOption) WaitOption {
	return waitOptionFunc(func(o *waitOptions) { o.call = append(o.call, opts...) })
}

// WithWaitObserver calls f after every attempt, before the waiter sleeps.
func WithWaitObserver(f func(WaitAttempt)) WaitOption {
	return waitOptionFunc(func(o *waitOptions) { o.observer = f })
}

// WaitAttempt describes one attempt of a waiter, for WithWaitObserver.
type WaitAttempt struct {
	Number int
	// State is "success", "failure" or "retry": the matched acceptor's
	// state, or what the specification does when none matched.
	State string
	// Acceptor is the index (from 0) of the acceptor that matched; -1 when
	// none did.
	Acceptor int
	Err      error         // the call's error, nil when it succeeded
	Delay    time.Duration // the delay before the next attempt (retry only)
}

// WaitError is the cause of an *Error of kind KindWaiterFailure or
// KindWaiterTimeout (errors.As finds it).
type WaitError struct {
	Waiter    string
	Operation string
	Attempts  int
	Elapsed   time.Duration
	// Acceptor is the index (from 0) of the failure acceptor that matched
	// and Matcher describes it; -1 and "" for a timeout.
	Acceptor int
	Matcher  string
	// Message is the failure acceptor's message expression evaluated on
	// the output ("" when it has none).
	Message string
	// Last is the last attempt's error (nil when it succeeded).
	Last error
}

func (e *WaitError) Error() string {
	if e.Acceptor < 0 {
		s := fmt.Sprintf("waiter %s timed out after %s and %d attempts of %s", e.Waiter, e.Elapsed.Round(time.Millisecond), e.Attempts, e.Operation)
		if e.Last != nil {
			s += " (last error: " + e.Last.Error() + ")"
		}
		return s
	}
	s := fmt.Sprintf("waiter %s reached its failure state: acceptor %d (%s) matched on attempt %d", e.Waiter, e.Acceptor+1, e.Matcher, e.Attempts)
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Last != nil {
		s += " (" + e.Last.Error() + ")"
	}
	return s
}

func (e *WaitError) Unwrap() error { return e.Last }

// Wait runs the waiter called waiterName (from a smithy.waiters#waitable
// trait of the service): it calls the waiter's operation with input (JSON
// in the document form) until an acceptor reaches the success state, and
// returns that call's output (nil when the success was an error, as for a
// "not exists" waiter). maxWait bounds the whole wait; it must be positive.
//
// Matchers see values as the specification's JMESPath data model says:
// member names, timestamps as epoch seconds, blobs as base64 strings.
// Between attempts the waiter sleeps as the specification says
// (exponential backoff with jitter between the waiter's minDelay and
// maxDelay, never past maxWait); ctx cancels it at any time.
//
// Every error is an *Error: KindWaiterFailure when a failure acceptor
// matched, KindWaiterTimeout when maxWait ran out (both wrap a *WaitError);
// KindUsage for an unknown waiter (the message lists the known ones); and an
// error of a call that no acceptor matched is returned as it is (the
// specification's failure state for unexpected errors). A cancelled ctx
// gives KindCancelled or KindTimeout.
func (c *Client) Wait(ctx context.Context, waiterName string, input []byte, maxWait time.Duration, opts ...WaitOption) ([]byte, error) {
	w, err := c.Waiter(waiterName)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	opID := w.Operation.Shape.ID
	if maxWait <= 0 {
		return nil, usageError(opID, "waiter %s: the maximum wait time must be positive, not %s", w.Name, maxWait)
	}
	o := waitOptions{minDelay: c.opts.waitDelays[0], maxDelay: c.opts.waitDelays[1]}
	for _, opt := range opts {
		if opt != nil {
			opt.applyWait(&o)
		}
	}
	b := backoff{min: w.MinDelay, max: w.MaxDelay}
	if o.minDelay > 0 {
		b.min = o.minDelay
	}
	if o.maxDelay > 0 {
		b.max = o.maxDelay
	}
	if b.max < b.min {
		return nil, usageError(opID, "waiter %s: maxDelay %s is below minDelay %s", w.Name, b.max, b.min)
	}
	if len(input) == 0 {
		input = []byte("{}")
	}
	inData, err := jmesData(c.model, w.Operation.Input, input)
	if err != nil {
		return nil, usageError(opID, "waiter %s: %v", w.Name, err)
	}
	start := time.Now()
	deadline := start.Add(maxWait)
	for attempt := 1; ; attempt++ {
		out, cut, callErr := c.waitAttempt(ctx, w, input, deadline, b.min, o.call)
		if ctx.Err() != nil {
			return nil, classify(opID, ctx.Err())
		}
		r := attemptResult{input: inData}
		if callErr != nil {
			if !errors.As(callErr, &r.err) {
				r.err = classify(opID, callErr)
			}
			if cut {
				// maxWait ran out during the attempt: the wait timed out
				// (not the call, whose own timeout did not pass).
				we := &WaitError{Waiter: w.Name, Operation: w.Operation.Name, Attempts: attempt, Elapsed: time.Since(start), Acceptor: -1, Last: r.err}
				if o.observer != nil {
					o.observer(WaitAttempt{Number: attempt, State: stateRetry, Acceptor: -1, Err: r.err})
				}
				return nil, &Error{Kind: KindWaiterTimeout, Operation: opID, Attempts: attempt, err: we}
			}
		} else if r.output, err = jmesData(c.model, w.Operation.Output, out); err != nil {
			return nil, &Error{Kind: KindDecode, Operation: opID, Attempts: attempt,
				err: fmt.Errorf("waiter %s: output: %w", w.Name, err)}
		}
		i, acc := w.match(r)
		state := stateRetry
		switch {
		case acc != nil:
			state = acc.state
		case r.err != nil:
			state = stateFailure
		}
		report := func(delay time.Duration) {
			if o.observer != nil {
				a := WaitAttempt{Number: attempt, State: state, Acceptor: i, Delay: delay}
				if r.err != nil {
					a.Err = r.err
				}
				o.observer(a)
			}
		}
		switch {
		case state == stateSuccess:
			report(0)
			return out, nil
		case state == stateFailure && acc == nil:
			report(0)
			return nil, r.err // an error no acceptor expected
		case state == stateFailure:
			report(0)
			we := &WaitError{Waiter: w.Name, Operation: w.Operation.Name, Attempts: attempt,
				Elapsed: time.Since(start), Acceptor: i, Matcher: acc.matcher.String(), Message: acc.failureMessage(r)}
			e := &Error{Kind: KindWaiterFailure, Operation: opID, Attempts: attempt, err: we}
			if r.err != nil {
				we.Last = r.err
				e.Shape, e.Status, e.Members, e.Code, e.RequestID = r.err.Shape, r.err.Status, r.err.Members, r.err.Code, r.err.RequestID
			}
			return nil, e
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			report(0)
			we := &WaitError{Waiter: w.Name, Operation: w.Operation.Name, Attempts: attempt, Elapsed: time.Since(start), Acceptor: -1}
			if r.err != nil {
				we.Last = r.err
			}
			return nil, &Error{Kind: KindWaiterTimeout, Operation: opID, Attempts: attempt, err: we}
		}
		delay := b.delay(attempt, remaining)
		report(delay)
		if err := sleep(ctx, delay); err != nil {
			return nil, classify(opID, err)
		}
	}
}

// waitAttempt makes one call of the waiter's operation. A call still in
// flight when maxWait passes is cancelled, except that every attempt gets
// at least minDelay (the specification's last attempt starts at maxWait).
// cut reports that the call failed because that deadline passed.
func (c *Client) waitAttempt(ctx context.Context, w *Waiter, input []byte, deadline time.Time, minDelay time.Duration, opts []CallOption) (out []byte, cut bool, err error) {
	if floor := time.Now().Add(minDelay); deadline.Before(floor) {
		deadline = floor
	}
	actx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	start := time.Now()
	out, err = c.Call(actx, w.Operation.Name, input, opts...)
	if err == nil || ctx.Err() != nil {
		return out, false, err
	}
	// libcurl's own timer, set from the deadline in whole milliseconds,
	// may fire just before actx's: a timeout when the attempt's deadline
	// came before the client's timeout is the wait's.
	var e *Error
	timedOut := errors.As(err, &e) && e.Kind == KindTimeout
	return out, actx.Err() != nil || timedOut && deadline.Before(start.Add(c.callTimeout())), err
}

// backoff is the specification's delay between waiter attempts.
type backoff struct{ min, max time.Duration }

// delay is the wait before the retry that follows attempt (from 1), given
// the time left before maxWait:
//
//	attemptCeiling = log(maxDelay / minDelay) / log(2) + 1
//	delay = attempt > attemptCeiling ? maxDelay : minDelay * 2^(attempt-1)
//	delay = random(minDelay, delay)            (inclusive)
//	if remaining - delay <= minDelay: delay = remaining   (one last attempt)
//
// random draws whole seconds when both delays are whole seconds (the
// specification's integers), else whole milliseconds.
func (b backoff) delay(attempt int, remaining time.Duration) time.Duration {
	unit := time.Second
	if b.min%time.Second != 0 || b.max%time.Second != 0 {
		unit = time.Millisecond
	}
	lo, hi := int64(b.min/unit), int64(b.max/unit)
	ceiling := math.Log(float64(hi)/float64(lo))/math.Log(2) + 1
	d := hi
	if float64(attempt) <= ceiling {
		d = lo << (attempt - 1) // attempt <= ceiling keeps this at most 2*max
		d = min(d, hi)
	}
	delay := time.Duration(lo+rand.Int64N(d-lo+1)) * unit
	if remaining-delay <= b.min {
		delay = remaining
	}
	return delay
}

// jmesData decodes doc, JSON in the document form of shape, into the
// JMESPath data model of waiters: the same, except timestamps, which are
// epoch seconds (numbers) instead of RFC 3339 strings.
func jmesData(m *model.Model, shape *model.Shape, doc []byte) (any, error) {
	var v any
	if len(doc) == 0 {
		return map[string]any{}, nil
	}
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return epochTimestamps(m, shape, v, 0), nil
}

// epochTimestamps replaces the RFC 3339 strings of timestamp shapes in v
// (shape's document form) by epoch seconds.
func epochTimestamps(m *model.Model, shape *model.Shape, v any, depth int) any {
	if shape == nil || v == nil || depth > 200 {
		return v
	}
	target := func(mem *model.Member) *model.Shape {
		t, _ := m.Target(mem)
		return t
	}
	switch shape.Type {
	case model.TimestampType:
		if s, ok := v.(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return float64(t.Unix()) + float64(t.Nanosecond())/1e9
			}
		}
	case model.StructureType, model.UnionType:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for k, item := range obj {
			if mem, ok := shape.Member(k); ok {
				obj[k] = epochTimestamps(m, target(mem), item, depth+1)
			}
		}
	case model.ListType, model.SetType:
		items, ok := v.([]any)
		mem, ok2 := shape.Member("member")
		if !ok || !ok2 {
			return v
		}
		t := target(mem)
		for i, item := range items {
			items[i] = epochTimestamps(m, t, item, depth+1)
		}
	case model.MapType:
		obj, ok := v.(map[string]any)
		mem, ok2 := shape.Member("value")
		if !ok || !ok2 {
			return v
		}
		t := target(mem)
		for k, item := range obj {
			obj[k] = epochTimestamps(m, t, item, depth+1)
		}
	}
	return v
}
