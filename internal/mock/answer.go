package mock

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Answer is how the server answers one request. Values are in the
// document form, as respond.Decode reads JSON.
type Answer struct {
	// Output is the operation's output (nil: none, or a modeled error).
	Output map[string]any
	// Error names a modeled error of the operation (its shape name or id);
	// Members are its members.
	Error   string
	Members map[string]any
	// Events are the events of an event-stream output, each a value of the
	// stream's union ({"MemberName": {...}}); a member targeting an @error
	// structure is an exception event. Nil makes a few random ones.
	Events []map[string]any
	// Status replaces the response's status, 0 keeps the protocol's.
	Status int
	// Header is added to the response's headers.
	// (http.Header and wire.Header values are both assignable.)
	Header map[string][]string
	// Response, when set, is sent as it is and the rest is not looked at
	// (a recorded response).
	Response *wire.Response
}

// Answerer answers the requests it knows: Answer returns nil for a request
// it leaves to the next answerer. input is the request's input in the
// document form, read and validated. An error is answered 500 and logged.
// An Answerer is called concurrently.
type Answerer interface {
	Answer(ctx context.Context, op *model.Operation, input []byte) (*Answer, error)
}

// AnswerFunc is an Answerer of a function.
type AnswerFunc func(ctx context.Context, op *model.Operation, input []byte) (*Answer, error)

// Answer calls f.
func (f AnswerFunc) Answer(ctx context.Context, op *model.Operation, input []byte) (*Answer, error) {
	return f(ctx, op, input)
}

// prerender renders e's answer once, when it is loaded: a fixture's or
// an example's answer does not depend on the request (an event stream's
// random events do, and the body of a protocol that holds the request id:
// those are rendered per request, checked here), so every request it
// answers gets the same response.
func (s *Server) prerender(op *model.Operation, e *entry) error {
	if s.outputStream(op) != nil {
		return nil
	}
	resp, err := s.render(context.Background(), op, nil, &e.answer, "")
	if err != nil || respond.IDInBody(s.r) {
		return err
	}
	resp.Header.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	e.answer.Response = resp
	return nil
}

// render renders a's response to op with request id id. A response of
// a.Response is returned as it is, shared: writeResponse only reads it.
func (s *Server) render(ctx context.Context, op *model.Operation, input []byte, a *Answer, id string) (*wire.Response, error) {
	if a.Response != nil {
		return a.Response, nil
	}
	r := respond.WithRequestID(s.r, id)
	var resp *wire.Response
	var err error
	if a.Error != "" {
		e, ferr := errorShape(op, a.Error)
		if ferr != nil {
			return nil, ferr
		}
		if resp, err = r.RenderError(s.m, op, e, orEmpty(a.Members)); err != nil {
			return nil, fmt.Errorf("error %s: %w", e.ID.Name(), err)
		}
		respond.AddQueryErrorHeader(s.svc, e, resp)
	} else if stream := s.outputStream(op); stream != nil {
		if resp, err = s.renderStream(ctx, r, op, input, stream, a); err != nil {
			return nil, err
		}
	} else if resp, err = r.RenderResponse(s.m, op, orEmpty(a.Output)); err != nil {
		return nil, fmt.Errorf("output of %s: %w", op.Name, err)
	}
	if a.Status != 0 {
		resp.Status = a.Status
	}
	for k, vs := range a.Header {
		for _, v := range vs {
			resp.Header.Add(k, v)
		}
	}
	return resp, nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// errorShape finds error name (a shape name or id) among op's errors.
func errorShape(op *model.Operation, name string) (*model.Shape, error) {
	names := make([]string, 0, len(op.Errors))
	for _, e := range op.Errors {
		if e.ID.Name() == name || string(e.ID) == name {
			return e, nil
		}
		names = append(names, e.ID.Name())
	}
	if len(names) == 0 {
		names = append(names, "none")
	}
	return nil, fmt.Errorf("%q is not an error of operation %s (its errors: %s)", name, op.Name, strings.Join(names, ", "))
}

// random is a random output of op, valid by the model and the same for
// the same seed and request.
func (s *Server) random(op *model.Operation, input []byte) *Answer {
	g := s.gen(s.requestSeed(op, input))
	out := g.Output(op)
	if stream := s.outputStream(op); stream != nil {
		delete(out, stream.Name())
	}
	// The last page: a paginator following random tokens would not stop.
	if p, ok, err := s.m.Pagination(s.svc, op); ok && err == nil {
		removePath(out, p.OutputToken)
	}
	return &Answer{Output: out}
}

// removePath removes the member at path ("a.b.token") from v.
func removePath(v map[string]any, path string) {
	names := strings.Split(path, ".")
	for _, name := range names[:len(names)-1] {
		if v, _ = v[name].(map[string]any); v == nil {
			return
		}
	}
	delete(v, names[len(names)-1])
}

// gen is a generator of plain values valid by the model.
func (s *Server) gen(seed int64) *valuegen.Gen {
	g := valuegen.NewLight(s.m, seed)
	g.Constrained, g.Plain, g.Patterns = true, true, &s.patterns
	g.StatusMin, g.StatusMax = 200, 200
	if _, rest := s.r.(respond.Rest); rest { // members travel in headers too
		g.Locate = respond.LocateHTTP
	}
	return g
}

// decodeObject reads a JSON object in the document form.
func decodeObject(doc []byte) (map[string]any, error) {
	v, err := respond.Decode(doc)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}

// matchAll reports whether input holds every member of match with an
// equal value.
func matchAll(match, input map[string]any) bool {
	for k, want := range match {
		if !equal(want, input[k]) {
			return false
		}
	}
	return true
}

// equal compares two values of the document form: numbers by value, and a
// number and a string as the same timestamp when both read as one (an
// epoch in a fixture, the date-time the server decodes).
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case fmt.Stringer: // json.Number
		if y, ok := b.(fmt.Stringer); ok {
			p, okp := new(big.Rat).SetString(x.String())
			q, okq := new(big.Rat).SetString(y.String())
			return okp && okq && p.Cmp(q) == 0 || x.String() == y.String()
		}
		return sameInstant(a, b)
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
		return sameInstant(a, b)
	}
	return a == b
}

func sameInstant(a, b any) bool {
	p, err := respond.DocInstant(a)
	if err != nil {
		return false
	}
	q, err := respond.DocInstant(b)
	return err == nil && p == q
}

// sensitivePath reports whether the member at path in a value of shape s
// ("items[2].name" or "/items/2/name"), or one it is in, is @sensitive.
func sensitivePath(m *model.Model, s *model.Shape, path string) bool {
	parts := strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '/' || r == '[' || r == ']' })
	for _, p := range parts {
		if s == nil {
			return false
		}
		if s.HasTrait(model.TraitSensitive) {
			return true
		}
		var mem *model.Member
		switch s.Type {
		case model.ListType, model.SetType:
			mem, _ = s.Member("member")
		case model.MapType:
			mem, _ = s.Member("value")
		default:
			mem, _ = s.Member(p)
		}
		if mem == nil {
			return false
		}
		if mem.Traits.Has(model.TraitSensitive) {
			return true
		}
		s, _ = m.Target(mem)
	}
	return s != nil && s.HasTrait(model.TraitSensitive)
}
