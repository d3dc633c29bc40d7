package typed

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// marshalInput is the document form of a generated input (nil: none).
func marshalInput(operation string, in any) ([]byte, error) {
	if in == nil {
		return nil, nil
	}
	body, err := JSON.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("%s: input: %w", operation, err)
	}
	return body, nil
}

// Wait runs the waiter waiterName of operation (client.Client.Wait) with
// in and returns the output of the call that succeeded as a new O (its
// zero value when the success was an error, as for a "not exists"
// waiter). Errors are Wait's: a *client.Error of kind
// client.KindWaiterFailure or client.KindWaiterTimeout, or the error of a
// call no acceptor expected, typed as Invoke types it.
func Wait[O any](ctx context.Context, c *client.Client, operation, waiterName string, in any, maxWait time.Duration,
	errorFor func(model.ShapeID) ModeledError, opts ...client.WaitOption) (*O, error) {
	body, err := marshalInput(operation, in)
	if err != nil {
		return nil, err
	}
	raw, err := c.Wait(ctx, waiterName, body, maxWait, opts...)
	if err != nil {
		return nil, typedError(err, errorFor)
	}
	out := new(O)
	if len(raw) > 0 {
		if err := JSON.Unmarshal(raw, out); err != nil {
			return nil, outputError(operation, "output", err)
		}
	}
	return out, nil
}

// Presign presigns operation with in (client.Client.Presign).
func Presign(ctx context.Context, c *client.Client, operation string, in any, expires time.Duration, opts ...client.CallOption) (*client.Presigned, error) {
	body, err := marshalInput(operation, in)
	if err != nil {
		return nil, err
	}
	return c.Presign(ctx, operation, body, expires, opts...)
}

// EventStream is the typed response of an operation whose output is an
// event stream: its initial output O and its events, values of the
// stream's union E. Not safe for concurrent use; Close it when done.
type EventStream[O, E any] struct {
	s         *client.EventStream
	initial   *O
	operation string
	decode    func([]byte) (E, error)
	errorFor  func(model.ShapeID) ModeledError
}

// OpenEventStream calls operation with in (client.Client.CallStream) and
// returns its typed stream once the initial response is in. decode reads
// an event's document form into the union E.
func OpenEventStream[O, E any](ctx context.Context, c *client.Client, operation string, in any,
	decode func([]byte) (E, error), errorFor func(model.ShapeID) ModeledError, opts ...client.CallOption) (*EventStream[O, E], error) {
	body, err := marshalInput(operation, in)
	if err != nil {
		return nil, err
	}
	s, err := c.CallStream(ctx, operation, body, opts...)
	if err != nil {
		return nil, typedError(err, errorFor)
	}
	initial := new(O)
	if raw := s.Initial(); len(raw) > 0 {
		if err := JSON.Unmarshal(raw, initial); err != nil {
			s.Close()
			return nil, outputError(operation, "initial output", err)
		}
	}
	return &EventStream[O, E]{s: s, initial: initial, operation: operation, decode: decode, errorFor: errorFor}, nil
}

// Initial is the output without its event stream member.
func (s *EventStream[O, E]) Initial() *O { return s.initial }

// Events yields each event as it arrives. It stops after the last event or
// with one error (client.EventStream.Events): a modeled exception event is
// its generated error type. An event that does not decode ends the stream
// with that error. Ranging again continues where the last range stopped.
func (s *EventStream[O, E]) Events() iter.Seq2[E, error] {
	return func(yield func(E, error) bool) {
		var zero E
		for raw, err := range s.s.Events() {
			if err != nil {
				yield(zero, typedError(err, s.errorFor))
				return
			}
			ev, err := s.decode(raw)
			if err != nil {
				s.s.Close()
				yield(zero, fmt.Errorf("%s: event: %w", s.operation, err))
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// Close ends the transfer if events are left.
func (s *EventStream[O, E]) Close() error { return s.s.Close() }
