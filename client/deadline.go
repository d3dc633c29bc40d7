package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/transport"
)

// deadlineError is the one place a call's failure its deadline caused, in
// whatever phase (waiting in a queue or for a transfer slot, resolving the
// endpoint, retrieving credentials, a hook, the transfer, a retry's
// backoff), gets its message: how long the call ran and which time ran
// out, the caller's ctx deadline or the call's timeout (the client's or
// WithCallTimeout, counted from QueuedSince when given), never Go's raw
// "context deadline exceeded". Its Kind is KindTimeout; the cause stays
// reachable (errors.Is context.DeadlineExceeded, errors.As
// *transport.Error). Other failures are returned as they are.
//
// start is when Call began, callerDL the deadline of the caller's ctx
// (zero for none).
func (c *Client) deadlineError(e *Error, co callOptions, start, callerDL time.Time) *Error {
	if e == nil || e.Kind == KindWaiterTimeout || e.Kind == KindWaiterFailure || !errors.Is(e.err, context.DeadlineExceeded) {
		return e
	}
	from := start
	if !co.since.IsZero() {
		from = co.since
	}
	budget := c.timeoutOf(co)
	which := fmt.Sprintf("the call's timeout, %s", budget)
	if !callerDL.IsZero() && callerDL.Before(from.Add(budget)) {
		which = "the caller's deadline"
	}
	t := &timedOut{msg: fmt.Sprintf("timed out after %d ms (%s)", time.Since(from).Milliseconds(), which), cause: e.err}
	if phase := deadlinePhase(e.err); phase != "" {
		t.msg += ": " + phase
	}
	m := *e
	m.Kind, m.err = KindTimeout, t
	if m.MayHaveReached() {
		t.msg += transport.MayHaveReachedNote
	}
	return &m
}

// deadlinePhase is what the call was doing when its time ran out, from the
// cause's message without Go's "context deadline exceeded" (e.g. "the AWS
// credentials from X: waiting for the refresh"); "" for the transfer,
// whose libcurl message ("aborted by an application callback") would
// mislead, and for a bare context error.
func deadlinePhase(err error) string {
	var te *transport.Error
	if errors.As(err, &te) {
		return ""
	}
	msg := strings.TrimSuffix(err.Error(), context.DeadlineExceeded.Error())
	return strings.TrimRight(msg, ": ")
}

// timedOut is the cause of a call its deadline ended: its message, and
// what failed underneath.
type timedOut struct {
	msg   string
	cause error
}

func (t *timedOut) Error() string { return t.msg }
func (t *timedOut) Unwrap() error { return t.cause }
