package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
)

// Kind and its values are in kind.go, rendered from internal/contract.

// Error is the error returned by Call. It wraps the cause, so errors.As
// also finds *protocol.ValidationError, *transport.Error and the like.
type Error struct {
	Kind      Kind
	Operation model.ShapeID // "" when the operation is unknown

	// For KindService: the error shape id (empty when the response matched
	// no error shape of the operation), the HTTP status, the error's members
	// in the document form (or the raw body when unmodeled), the error type
	// the service named, and the request id header when present.
	Shape     model.ShapeID
	Status    int
	Members   []byte
	Code      string
	RequestID string

	// Attempts is how many times the request was sent.
	Attempts int

	err        error
	notRetried error // why a retryable failure was not retried, if so
}

// Error reads "Operation: kind error: cause", or "kind error: cause" when
// the error is about no operation (e.g. from New); programs add their own
// prefix.
func (e *Error) Error() string {
	op := ""
	if e.Operation != "" {
		op = e.Operation.Name() + ": "
	}
	var cause any = e.err
	if ve, ok := e.err.(*protocol.ValidationError); ok && ve.Operation == e.Operation {
		cause = ve.List() // the operation is named once
	}
	if e.RequestID != "" {
		return fmt.Sprintf("%s%s error: %v (request id %s)", op, e.Kind, cause, e.RequestID)
	}
	return fmt.Sprintf("%s%s error: %v", op, e.Kind, cause)
}

func (e *Error) Unwrap() error { return e.err }

// Message is the error's message without the operation and kind prefix.
func (e *Error) Message() string {
	if e.Kind == KindWaiterFailure || e.Kind == KindWaiterTimeout {
		return e.err.Error() // which acceptor, or the time; the service's message is in it
	}
	var se *protocol.ServiceError
	if errors.As(e.err, &se) && se.Message != "" {
		if e.notRetried != nil {
			return se.Message + " (" + e.notRetried.Error() + ")"
		}
		return se.Message
	}
	return e.err.Error()
}

// MayHaveReached reports whether the server may have received the request
// (and acted on it): true when a response came back (service and decode
// errors, waiters) and after a transport failure, timeout or cancellation
// once libcurl began to send the request; false when the server certainly
// did not see it (validation and usage errors, DNS, connect and TLS
// failures, a call that timed out or was cancelled before it was sent).
// A failed call of an operation that is not idempotent may have taken
// effect only when it is true.
func (e *Error) MayHaveReached() bool {
	switch e.Kind {
	case KindService, KindDecode, KindWaiterFailure, KindWaiterTimeout:
		return true
	case KindTransport, KindTimeout, KindCancelled:
		var te *transport.Error
		return errors.As(e.err, &te) && te.MayHaveReached
	}
	return false
}

// Modeled reports whether a service error matched an error shape of the operation.
func (e *Error) Modeled() bool { return e.Kind == KindService && e.Shape != "" }

// classify wraps err, from the codec or the transport, in an *Error.
func classify(op model.ShapeID, err error) *Error {
	var ce *Error
	if errors.As(err, &ce) {
		return ce
	}
	e := &Error{Operation: op, err: err}
	var (
		se *protocol.ServiceError
		ve *protocol.ValidationError
		ie *protocol.InputError
		re *protocol.ResponseError
		te *transport.Error
	)
	switch {
	case errors.As(err, &se):
		e.Kind, e.Shape, e.Status, e.Members, e.Code = KindService, se.Shape, se.Status, se.Members, se.Code
	case errors.As(err, &ve):
		e.Kind = KindValidation
	case errors.As(err, &ie):
		e.Kind = KindUsage
	case errors.As(err, &re):
		e.Kind, e.Status = KindDecode, re.Status
	case errors.As(err, &te):
		switch te.Kind {
		case transport.KindTimeout:
			e.Kind = KindTimeout
		case transport.KindCancelled:
			e.Kind = KindCancelled
		default:
			e.Kind = KindTransport
		}
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind = KindTimeout
	case errors.Is(err, context.Canceled):
		e.Kind = KindCancelled
	default:
		e.Kind = KindUsage
	}
	return e
}

func usageError(op model.ShapeID, format string, args ...any) *Error {
	return &Error{Kind: KindUsage, Operation: op, err: fmt.Errorf(format, args...)}
}
