package protocol

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// ServiceError is an error response from the service. When the response
// matches an error shape of the operation, Shape is that shape's id and
// Members holds its members in the document form; otherwise Shape is empty,
// Code is the error type the response named (if any) and Members is the raw
// body.
type ServiceError struct {
	Shape   model.ShapeID
	Code    string // error type as sent, sanitised ("" when none was sent)
	Status  int
	Members []byte // document form JSON object (modeled) or the body as received
	Message string // the "message" or "Message" member when there is one
}

// Modeled reports whether the error matched an error shape of the operation.
func (e *ServiceError) Modeled() bool { return e.Shape != "" }

func (e *ServiceError) Error() string {
	name := string(e.Shape)
	if name == "" {
		name = e.Code
	}
	if name == "" {
		name = "unmodeled error"
	}
	if e.Message != "" {
		return fmt.Sprintf("%s (HTTP %d): %s", name, e.Status, e.Message)
	}
	return fmt.Sprintf("%s (HTTP %d)", name, e.Status)
}

// Violation is one input value that breaks a constraint of the model.
type Violation struct {
	Path    string // member path from the input, e.g. "items[3].name"
	Message string
}

func (v Violation) String() string {
	if v.Path == "" {
		return v.Message
	}
	return v.Path + ": " + v.Message
}

// ValidationError lists every constraint the input breaks. It is returned
// before anything is sent.
type ValidationError struct {
	Operation  model.ShapeID
	Violations []Violation
}

func (e *ValidationError) Error() string {
	return "invalid input for " + e.Operation.Name() + ": " + e.List()
}

// List is the violations alone, "a: why; b[2].c: why".
func (e *ValidationError) List() string {
	var b strings.Builder
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	return b.String()
}

// InputError is an input value the codec cannot encode (malformed JSON, a
// value of the wrong type, an unknown member).
type InputError struct {
	Operation model.ShapeID
	Err       error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("input for %s: %v", e.Operation.Name(), e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// ResponseError is a response the codec cannot decode.
type ResponseError struct {
	Operation model.ShapeID
	Status    int
	Err       error
}

func (e *ResponseError) Error() string {
	return fmt.Sprintf("response of %s (HTTP %d): %v", e.Operation.Name(), e.Status, e.Err)
}

func (e *ResponseError) Unwrap() error { return e.Err }

// outputFailure is the error of an output (structure sc) that cannot be
// decoded: a value that does not fit its type is named by its member path
// from the structure, "member ScanOutput.Count: 1.5 is not a whole number
// (integer: ...)".
func outputFailure(op *model.Operation, status int, sc *shapeCodec, err error) *ResponseError {
	if sc != nil && sc.shape != nil {
		err = within(err, sc.shape.ID.Name())
	}
	return &ResponseError{Operation: op.Shape.ID, Status: status, Err: err}
}

// ErrorTypeName is the shape name of an error type as a response names it
// (see sanitizeErrorType).
func ErrorTypeName(s string) string { return sanitizeErrorType(s) }

// sanitizeErrorType reduces an error type as sent to its shape name: what
// follows the last '#' of what precedes the first ':'
// ("aws.protocoltests.restjson#FooError:http://internal.amazon.com/" is FooError).
func sanitizeErrorType(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// errorStatus is the HTTP status of an error shape: httpError, else 400 for
// client errors and 500 for server errors.
func errorStatus(s *model.Shape) int {
	if v, ok := s.Trait(model.TraitHTTPError); ok {
		if n, ok := v.Int64(); ok {
			return int(n)
		}
	}
	if v, ok := s.Trait(model.TraitError); ok && v.Str() == "server" {
		return 500
	}
	return 400
}
