// Package stub answers a client's calls from a queue of outputs and
// modeled errors, for the tests of code that uses a client, as botocore's
// Stubber does for Python. Every stub is checked against the model when it
// is added (a member the shape lacks, a value of the wrong type, a missing
// @required member: refused, naming the member path) and rendered as the
// service's protocol would send it (internal/respond), so the client's
// real codec decodes it: a stubbed output reads exactly as a real one, in
// the document form and in typed clients.
//
//	s, _ := stub.New(m, "example.weather#Weather")
//	s.Add("GetForecast", []byte(`{"chanceOfRain": 0.5}`), stub.ExpectInput([]byte(`{"city": "Paris"}`)))
//	c, _ := client.New(m, "example.weather#Weather", "https://weather.example.com", s.Option())
//	out, err := c.Call(ctx, "GetForecast", []byte(`{"city": "Paris"}`))
//	s.AssertDone(t)
//
// Calls take the stubs in the order they were added; a call to another
// operation than the next stub's, with another input than it expects, or
// with none left fails (client.KindUsage) and is kept for Done.
package stub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Stubber queues the answers of a client's calls. It is safe for
// concurrent use.
type Stubber struct {
	m   *model.Model
	svc *model.Service
	r   respond.Renderer

	mu       sync.Mutex
	queue    []*entry
	failures []string // calls that found no matching stub

	client *client.Client // For's (nil: New's)
}

type entry struct {
	op     *model.Operation
	resp   *wire.Response
	expect []byte // the canonical input expected; nil: any input
}

// New returns an empty Stubber for service serviceID of m.
func New(m *model.Model, serviceID model.ShapeID) (*Stubber, error) {
	svc, err := m.Service(serviceID)
	if err != nil {
		return nil, fmt.Errorf("stub: %w", err)
	}
	r := respond.For(svc)
	if r == nil {
		return nil, fmt.Errorf("stub: service %s: stubs render the responses of restJson1, simpleRestJson, awsJson1_0, awsJson1_1, rpcv2Json, rpcv2Cbor, restXml, awsQuery and ec2Query, and it has none of them", serviceID)
	}
	return &Stubber{m: m, svc: svc, r: r}, nil
}

// For returns a Stubber for the service of client c, inactive: Activate
// makes it answer c's calls (a typed client's: its Untyped()), as
// botocore's Stubber(client).activate().
func For(c *client.Client) (*Stubber, error) {
	s, err := New(c.Model(), c.Service().Shape.ID)
	if err != nil {
		return nil, err
	}
	s.client = c
	return s, nil
}

// Activate makes s answer the calls of the client of For until
// Deactivate. A Stubber made by New has no client: give it to one with
// Option.
func (s *Stubber) Activate() error {
	if s.client == nil {
		return errors.New("stub: Activate: the Stubber was not made by For (give it to a client with Option)")
	}
	s.client.SetResponder(s)
	return nil
}

// Deactivate gives the client of For back to its service.
func (s *Stubber) Deactivate() {
	if s.client != nil {
		s.client.SetResponder(nil)
	}
}

// Option makes a new client's calls answered by s.
func (s *Stubber) Option() client.Option { return client.WithResponder(s) }

// AddOption qualifies a stub.
type AddOption interface{ apply(*addOptions) }

type addOptions struct {
	expect []byte
	status int
}

type addOptionFunc func(*addOptions)

func (f addOptionFunc) apply(o *addOptions) { f(o) }

// ExpectInput makes the stub's call fail unless its input, as the caller
// gives it, is input: the same members with the same values (JSON values
// compared, object keys in any order, numbers as written).
func ExpectInput(input []byte) AddOption {
	return addOptionFunc(func(o *addOptions) { o.expect = input })
}

// Status replaces the HTTP status the stub's response has (an error's
// @httpError, else 400 or 500).
func Status(code int) AddOption {
	return addOptionFunc(func(o *addOptions) { o.status = code })
}

// Add queues output, in the document form ("" or "{}" for none), as the
// answer of the next call, which must be to operation (its name or shape
// id).
func (s *Stubber) Add(operation string, output []byte, opts ...AddOption) error {
	op, err := s.svc.Operation(operation)
	if err != nil {
		return fmt.Errorf("stub: %w", err)
	}
	out, err := s.checked(op.Output, output, "output of "+op.Name)
	if err != nil {
		return err
	}
	resp, err := s.r.RenderResponse(s.m, op, out)
	if err != nil {
		return fmt.Errorf("stub: output of %s: %w", op.Name, err)
	}
	return s.push(op, resp, opts)
}

// AddError queues the modeled error errorShape (its name or shape id: one
// of operation's errors or the service's) with members, in the document
// form, as the answer of the next call, which must be to operation.
func (s *Stubber) AddError(operation, errorShape string, members []byte, opts ...AddOption) error {
	op, err := s.svc.Operation(operation)
	if err != nil {
		return fmt.Errorf("stub: %w", err)
	}
	var e *model.Shape
	names := make([]string, 0, len(op.Errors))
	for _, x := range op.Errors {
		if x.ID.Name() == errorShape || string(x.ID) == errorShape {
			e = x
		}
		names = append(names, x.ID.Name())
	}
	if e == nil {
		return fmt.Errorf("stub: %q is not an error of operation %s (its errors: %s)", errorShape, op.Name, orNone(names))
	}
	val, err := s.checked(e, members, "error "+e.ID.Name())
	if err != nil {
		return err
	}
	resp, err := s.r.RenderError(s.m, op, e, val)
	if err != nil {
		return fmt.Errorf("stub: error %s: %w", e.ID.Name(), err)
	}
	respond.AddQueryErrorHeader(s.svc, e, resp)
	return s.push(op, resp, opts)
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// checked checks doc, a value of structure shape, against the model and
// reads it.
func (s *Stubber) checked(shape *model.Shape, doc []byte, what string) (map[string]any, error) {
	v, err := respond.Object(s.m, shape, doc, false)
	if err != nil {
		return nil, fmt.Errorf("stub: %s: %w", what, err)
	}
	return v, nil
}

func (s *Stubber) push(op *model.Operation, resp *wire.Response, opts []AddOption) error {
	var o addOptions
	for _, opt := range opts {
		opt.apply(&o)
	}
	if o.status != 0 {
		if o.status < 100 || o.status > 599 {
			return fmt.Errorf("stub: status %d is not an HTTP status", o.status)
		}
		resp.Status = o.status
	}
	en := &entry{op: op, resp: resp}
	if o.expect != nil {
		if _, err := s.checked(op.Input, o.expect, "expected input of "+op.Name); err != nil {
			return err
		}
		var err error
		if en.expect, err = canonical(o.expect); err != nil {
			return fmt.Errorf("stub: expected input of %s: %w", op.Name, err)
		}
	}
	s.mu.Lock()
	s.queue = append(s.queue, en)
	s.mu.Unlock()
	return nil
}

// Respond answers a call with the next stub (client.Responder).
func (s *Stubber) Respond(_ context.Context, op *model.Operation, input []byte) (*wire.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fail := func(format string, args ...any) (*wire.Response, error) {
		msg := fmt.Sprintf(format, args...)
		s.failures = append(s.failures, msg)
		return nil, fmt.Errorf("stub: %s", msg)
	}
	if len(s.queue) == 0 {
		return fail("unexpected call of %s: no stub is left (the call was not stubbed, or was made more times than stubbed)", op.Name)
	}
	en := s.queue[0]
	if en.op != op {
		return fail("operation mismatch: the call is to %s, the next stub answers %s", op.Name, en.op.Name)
	}
	if en.expect != nil {
		got, err := canonical(input)
		if err != nil || string(got) != string(en.expect) {
			return fail("%s: Expected parameters:\n%s,\nbut received:\n%s", op.Name, en.expect, orEmpty(got, input))
		}
	}
	s.queue = s.queue[1:]
	// A copy: the client may change the response it decodes.
	resp := *en.resp
	resp.Header = en.resp.Header.Clone()
	resp.Body = append([]byte(nil), en.resp.Body...)
	return &resp, nil
}

func orEmpty(canon, raw []byte) []byte {
	if canon != nil {
		return canon
	}
	return raw
}

// Pending is how many stubs no call has taken yet.
func (s *Stubber) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Done reports what went wrong: stubs no call took, and calls no stub
// matched (nil when neither).
func (s *Stubber) Done() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var problems []string
	if n := len(s.queue); n > 0 {
		ops := make([]string, n)
		for i, en := range s.queue {
			ops[i] = en.op.Name
		}
		problems = append(problems, fmt.Sprintf("%d stubs not used: %s", n, strings.Join(ops, ", ")))
	}
	problems = append(problems, s.failures...)
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("stub: %s", strings.Join(problems, "; "))
}

// TB is the part of testing.TB AssertDone uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// AssertDone fails the test when Done reports anything.
func (s *Stubber) AssertDone(t TB) {
	t.Helper()
	if err := s.Done(); err != nil {
		t.Errorf("%v", err)
	}
}
