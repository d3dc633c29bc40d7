// Package typed is the run-time support of the Go clients that
// `smithycurl gen go` writes: the value types the document form needs that
// Go lacks (Document, Decimal, Float32, Float64), the error metadata every
// generated error type carries, and Invoke, which runs one typed call on a
// client.Client.
//
// Generated code marshals and unmarshals typed values with
// github.com/bytedance/sonic, keyed by Smithy member names, exactly in the
// document form of the client package.
package typed

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"

	"github.com/bytedance/sonic"
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// JSON is the sonic configuration of generated code: member names match
// exactly (Smithy names are case-sensitive), strings are checked as the
// codec already checked them, the JSON that the types of this package
// write is not validated a second time, and map keys are written sorted
// (Go maps have no order: sorted keys make the same input give the same
// request bytes, which matters for XML and query bodies, signatures and
// caches).
var JSON = sonic.Config{CaseSensitive: true, NoValidateJSONMarshaler: true, SortMapKeys: true}.Froze()

// ModeledError is implemented by every generated error type.
type ModeledError interface {
	error
	Meta() *ErrorMeta
}

// ErrorMeta is what a service error carries besides its members. Generated
// error types embed it.
type ErrorMeta struct {
	// Shape is the error shape's id, e.g. "example.todo#TodoNotFound".
	Shape model.ShapeID
	// Status is the HTTP status of the response.
	Status int
	// Code is the error code the service named ("" when none).
	Code string
	// Message is the error's message ("" when none).
	Message string
	// RequestID is the request id header of the response, when present.
	RequestID string
	// Err is the client's error, which the generated type unwraps to.
	Err *client.Error
}

// Meta returns m; it makes ErrorMeta's embedders ModeledErrors.
func (m *ErrorMeta) Meta() *ErrorMeta { return m }

// Unwrap returns the *client.Error, so errors.As finds it too.
func (m *ErrorMeta) Unwrap() error {
	if m.Err == nil {
		return nil
	}
	return m.Err
}

// ErrorString is the text of a generated error: "Shape (status N): message".
func (m *ErrorMeta) ErrorString() string {
	s := fmt.Sprintf("%s (status %d)", m.Shape.Name(), m.Status)
	if m.Message != "" {
		s += ": " + m.Message
	}
	if m.RequestID != "" {
		s += " (request id " + m.RequestID + ")"
	}
	return s
}

// NewModel returns a function that loads the JSON AST ast once, on first
// use, and then returns the same model: generated packages embed their
// model and load it lazily with it.
func NewModel(ast []byte) func() (*model.Model, error) {
	return sync.OnceValues(func() (*model.Model, error) {
		l := model.NewLoader()
		l.AddSource("model.json", ast)
		m, _, err := l.Load(context.Background())
		if err != nil {
			return nil, fmt.Errorf("embedded model: %w", err)
		}
		return m, nil
	})
}

// Invoke marshals in (a pointer to a generated input structure; nil for
// none) to the document form, calls operation on c, and unmarshals the
// output into out (nil when the operation has no output). A modeled error
// comes back as the type errorFor returns for its shape id, with its
// members and ErrorMeta filled in; any other error is the *client.Error.
func Invoke(ctx context.Context, c *client.Client, operation string, in, out any,
	errorFor func(model.ShapeID) ModeledError, opts ...client.CallOption) error {
	body, err := marshalInput(operation, in)
	if err != nil {
		return err
	}
	raw, err := c.Call(ctx, operation, body, opts...)
	if err != nil {
		return typedError(err, errorFor)
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := JSON.Unmarshal(raw, out); err != nil {
		return outputError(operation, "output", err)
	}
	return nil
}

// outputError is a document-form output that does not fit the generated
// type (the library checks outputs against the model first, so this is a
// mismatch between the two): one line, without the JSON library's
// multi-line excerpt of the document; it unwraps to the library's error.
func outputError(operation, what string, err error) error {
	return &mismatchError{operation: operation, what: what, err: err}
}

type mismatchError struct {
	operation, what string
	err             error
}

func (e *mismatchError) Error() string {
	return e.operation + ": " + e.what + " does not fit the generated type: " + strings.Join(strings.Fields(e.err.Error()), " ")
}

func (e *mismatchError) Unwrap() error { return e.err }

// Paginate is Invoke for the pages of a @paginated operation
// (client.Client.Paginate): each page's output is unmarshalled into a new
// O and yielded; a failure is yielded as Invoke returns it, and ends the
// pages.
func Paginate[O any](ctx context.Context, c *client.Client, operation string, in any,
	errorFor func(model.ShapeID) ModeledError, opts ...client.PaginateOption) iter.Seq2[*O, error] {
	return func(yield func(*O, error) bool) {
		body, err := marshalInput(operation, in)
		if err != nil {
			yield(nil, err)
			return
		}
		for raw, err := range c.Paginate(ctx, operation, body, opts...) {
			if err != nil {
				yield(nil, typedError(err, errorFor))
				return
			}
			out := new(O)
			if err := JSON.Unmarshal(raw, out); err != nil {
				yield(nil, outputError(operation, "output", err))
				return
			}
			if !yield(out, nil) {
				return
			}
		}
	}
}

func typedError(err error, errorFor func(model.ShapeID) ModeledError) error {
	var ce *client.Error
	if !errors.As(err, &ce) || !ce.Modeled() || errorFor == nil {
		return err
	}
	me := errorFor(ce.Shape)
	if me == nil {
		return err
	}
	if len(ce.Members) > 0 {
		if uerr := JSON.Unmarshal(ce.Members, me); uerr != nil {
			return fmt.Errorf("%w (its members do not fit %T: %v)", err, me, uerr)
		}
	}
	*me.Meta() = ErrorMeta{Shape: ce.Shape, Status: ce.Status, Code: ce.Code, Message: ce.Message(),
		RequestID: ce.RequestID, Err: ce}
	return me
}
