// Package mock is the mock server of package serve without its network:
// it routes a request to an operation, reads and validates its input by
// the model and answers it (Server.Serve). Package serve documents what
// it does and adapts it to net/http; this package's HTTP/1.1 server
// (Start) serves it over net alone, so the C library, which starts mocks
// through it, links neither net/http nor crypto/tls.
package mock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// DefaultMaxBody is the largest request body served unless WithMaxBody
// says otherwise: 16 MiB.
const DefaultMaxBody = 16 << 20

// The HTTP statuses the server answers itself.
const (
	statusOK                 = 200
	statusBadRequest         = 400
	statusTooLarge           = 413
	statusHeaderTooLarge     = 431
	statusInternal           = 500
	statusNotImplemented     = 501
	statusBadGateway         = 502
	statusVersionUnsupported = 505
)

// Server is the mock server of one service, safe for concurrent use.
type Server struct {
	m        *model.Model
	svc      *model.Service
	srv      protocol.Server
	r        respond.Renderer
	log      *slog.Logger
	maxBody  int64
	seed     int64
	answers  []Answerer // WithAnswerer's, then the fixtures
	examples map[*model.Operation][]entry
	events   protocol.ResponseEvents // nil: the protocol has no event streams
	patterns valuegen.Patterns       // the random outputs' compiled @pattern regexps
	forward  Forwarder               // nil: the server answers itself
	rec      *recorder               // nil: nothing is recorded
	newID    func() string           // each request's request id
	// inStreams are the operations whose input is an event stream, which
	// the server does not serve: refused before the body is read, as a
	// duplex client waits for the answer before it sends its events.
	inStreams map[*model.Operation]bool
}

// Forwarder sends a request to a real endpoint and returns its response
// (serve.WithProxy's, over net/http). req is the request as it came:
// Path is its request-target.
type Forwarder interface {
	Forward(ctx context.Context, req *wire.Request, maxBody int64) (*wire.Response, error)
}

// Option configures a Server.
type Option func(*config) error

type config struct {
	log        *slog.Logger
	maxBody    int64
	seed       int64
	answerers  []Answerer
	fixtures   []fixtureSource
	replays    []fixtureSource
	newForward func() (Forwarder, error)
	record     string
	newID      func() string
}

type fixtureSource struct {
	name string // the file's path, or "fixtures"
	data []byte // nil: read name
}

// The options are documented in package serve, whose options they are.

// WithLogger is serve.WithLogger.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error { c.log = l; return nil }
}

// WithMaxBody is serve.WithMaxBody.
func WithMaxBody(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("serve: WithMaxBody(%d): the bound must be positive", n)
		}
		c.maxBody = n
		return nil
	}
}

// WithSeed is serve.WithSeed.
func WithSeed(seed int64) Option {
	return func(c *config) error { c.seed = seed; return nil }
}

// WithRequestIDs is serve.WithRequestIDs.
func WithRequestIDs(f func() string) Option {
	return func(c *config) error {
		if f == nil {
			return errors.New("serve: WithRequestIDs(nil): a function is needed")
		}
		c.newID = f
		return nil
	}
}

// WithAnswerer is serve.WithAnswerer.
func WithAnswerer(a Answerer) Option {
	return func(c *config) error { c.answerers = append(c.answerers, a); return nil }
}

// WithFixturesFile is serve.WithFixturesFile.
func WithFixturesFile(path string) Option {
	return func(c *config) error { c.fixtures = append(c.fixtures, fixtureSource{name: path}); return nil }
}

// WithFixtures is serve.WithFixtures.
func WithFixtures(data []byte) Option {
	return func(c *config) error {
		c.fixtures = append(c.fixtures, fixtureSource{name: "fixtures", data: data})
		return nil
	}
}

// WithForwarder forwards every request with the Forwarder newF returns
// when New runs (serve.WithProxy).
func WithForwarder(newF func() (Forwarder, error)) Option {
	return func(c *config) error { c.newForward = newF; return nil }
}

// WithRecordFile is serve.WithRecordFile.
func WithRecordFile(path string) Option {
	return func(c *config) error { c.record = path; return nil }
}

// WithReplayFile is serve.WithReplayFile.
func WithReplayFile(path string) Option {
	return func(c *config) error { c.replays = append(c.replays, fixtureSource{name: path}); return nil }
}

// WithReplay is serve.WithReplay.
func WithReplay(data []byte) Option {
	return func(c *config) error {
		c.replays = append(c.replays, fixtureSource{name: "replay", data: data})
		return nil
	}
}

// New returns the mock server of service svc of m.
func New(m *model.Model, svc *model.Service, opts ...Option) (*Server, error) {
	c := config{maxBody: DefaultMaxBody, newID: randomID}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	srv, err := protocol.NewServer(m, svc, protocol.WithValidation())
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	r := respond.For(svc)
	if r == nil {
		return nil, fmt.Errorf("serve: service %s: no response renderer for its protocol", svc.Shape.ID)
	}
	s := &Server{m: m, svc: svc, srv: srv, r: r, log: c.log, maxBody: c.maxBody, seed: c.seed, answers: c.answerers, newID: c.newID}
	if codec, err := protocol.New(m, svc); err == nil {
		s.events, _ = codec.(protocol.ResponseEvents)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.inStreams = inputEventStreams(m, svc)
	if err := s.configureForward(&c); err != nil {
		return nil, err
	}
	for _, src := range c.replays {
		r, err := s.loadReplay(src)
		if err != nil {
			return nil, err
		}
		s.answers = append(s.answers, r)
	}
	for _, src := range c.fixtures {
		f, err := s.loadFixtures(src)
		if err != nil {
			return nil, err
		}
		s.answers = append(s.answers, f)
	}
	if s.examples, err = s.loadExamples(); err != nil {
		return nil, err
	}
	return s, nil
}

// Request is what the server reads of an HTTP request.
type Request struct {
	Method string
	// Target is the request-target: the percent-encoded path and query.
	Target string
	Header wire.Header
	// ContentLength is the body's declared length, -1 when unknown (a
	// chunked body).
	ContentLength int64
	Body          io.Reader
}

// ResponseWriter writes a response: its status, its header (only read: it
// may share slices with a response other requests get) and its body, of
// the length the header's Content-Length says.
type ResponseWriter interface {
	WriteResponse(status int, header wire.Header, body []byte) error
}

// Serve answers one request: every failure, a panic included, is a
// response; one log line says what happened.
func (s *Server) Serve(ctx context.Context, r *Request, w ResponseWriter) {
	start := time.Now()
	ex := &exchange{id: s.newID()}
	status := statusInternal
	defer func() {
		if v := recover(); v != nil {
			// The request's fault or not, the server answers and stays up.
			ex.err = errors.Join(ex.err, fmt.Errorf("panic: %v", v))
			if !ex.wrote {
				ex.wrote = true
				status = statusInternal
				_ = w.WriteResponse(status, wire.Header{"Content-Type": {"text/plain"}, "Content-Length": {strconv.Itoa(len(internalText))}}, []byte(internalText))
			}
			s.log.Error("request", "operation", ex.opName(), "status", status, "error", ex.err.Error())
			return
		}
		s.logExchange(ex, status, time.Since(start))
	}()
	resp := s.handle(ctx, r, ex)
	status = resp.Status
	ex.wrote = true
	if err := w.WriteResponse(resp.Status, responseHeader(resp, ex.id), resp.Body); err != nil {
		ex.err = errors.Join(ex.err, fmt.Errorf("writing the response: %w", err))
	}
}

// internalText is the body of a 500 the protocol cannot render.
const internalText = "internal error of the mock server\n"

// exchange is what the log line of a request says.
type exchange struct {
	id     string // the request id
	op     *model.Operation
	member string // the member at fault
	source string // what answered: "answerer", "fixture", "example", "random", "" for a refusal
	err    error
	wrote  bool
}

func (ex *exchange) opName() string {
	if ex.op == nil {
		return ""
	}
	return ex.op.Name
}

// handle reads, routes and answers a request; every failure is a response.
func (s *Server) handle(ctx context.Context, r *Request, ex *exchange) *wire.Response {
	var op *model.Operation // routed from the head, when that is enough
	if len(s.inStreams) > 0 && s.forward == nil {
		// The protocols with event streams route by the head alone.
		head := &wire.Request{Method: r.Method, Path: r.Target, Header: r.Header}
		if o, err := s.srv.Route(head); err == nil {
			op = o
		}
		if s.inStreams[op] {
			ex.op = op
			resp := s.refuse(ex, &protocol.RequestError{Operation: op.Shape.ID, Status: statusNotImplemented, Code: "NotImplemented",
				Err: fmt.Errorf("operation %s streams events in its input, which the mock server does not serve", op.Name)})
			// Closing the connection keeps the server from reading the
			// unread body, which the client sends only after this answer.
			return withClose(resp)
		}
	}
	if r.ContentLength > s.maxBody {
		// Refused before a byte of it is read (nor a 100 Continue sent).
		return withClose(s.tooLarge(ex))
	}
	body, err := readBody(r, s.maxBody)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return withClose(s.tooLarge(ex))
		}
		return s.refuse(ex, &protocol.RequestError{Status: statusBadRequest, Code: "SerializationException",
			Err: fmt.Errorf("reading the body: %w", err)})
	}
	req := &wire.Request{Method: r.Method, Path: r.Target, Header: r.Header, Body: body}
	if s.forward != nil {
		return s.forwarded(ctx, req, ex)
	}
	if op == nil {
		if op, err = s.srv.Route(req); err != nil {
			return s.refuse(ex, err)
		}
	}
	ex.op = op
	input, err := s.srv.DecodeRequest(ctx, op, req)
	if err != nil {
		return s.refuse(ex, err)
	}
	a, source, err := s.answer(ctx, op, input)
	if err != nil {
		ex.err = err
		return s.internal(ex)
	}
	ex.source = source
	resp, err := s.render(ctx, op, input, a, ex.id)
	if err != nil {
		ex.err = fmt.Errorf("the %s answer: %w", source, err)
		return s.internal(ex)
	}
	return resp
}

// tooLarge is the 413 of a body over the bound.
func (s *Server) tooLarge(ex *exchange) *wire.Response {
	return s.refuse(ex, &protocol.RequestError{Status: statusTooLarge, Code: "RequestEntityTooLarge",
		Err: fmt.Errorf("the body is over the server's bound of %d bytes", s.maxBody)})
}

// withClose marks resp as the last of its connection (a response not
// shared: refusals are rendered per request).
func withClose(resp *wire.Response) *wire.Response {
	if resp.Header == nil {
		resp.Header = wire.Header{}
	}
	resp.Header.Set("Connection", "close")
	return resp
}

// answer asks the answerers, the examples, then makes a random output.
func (s *Server) answer(ctx context.Context, op *model.Operation, input []byte) (*Answer, string, error) {
	for _, a := range s.answers {
		ans, err := a.Answer(ctx, op, input)
		if err != nil {
			return nil, "", err
		}
		if ans != nil {
			switch a.(type) {
			case *fixtures:
				return ans, "fixture", nil
			case *replay:
				return ans, "replay", nil
			}
			return ans, "answerer", nil
		}
	}
	if len(s.examples[op]) > 0 {
		in, err := decodeObject(input)
		if err != nil {
			return nil, "", fmt.Errorf("the decoded input: %w", err)
		}
		for i := range s.examples[op] {
			if e := &s.examples[op][i]; e.matches(in) {
				return &e.answer, "example", nil
			}
		}
	}
	return s.random(op, input), "random", nil
}

// requestSeed is the seed of a request's random output: the server's seed
// with the operation and its input, so a request gets the same output
// whatever came before it.
func (s *Server) requestSeed(op *model.Operation, input []byte) int64 {
	h := fnv.New64a()
	h.Write([]byte(strconv.FormatInt(s.seed, 10)))
	h.Write([]byte{0})
	h.Write([]byte(op.Shape.ID))
	h.Write([]byte{0})
	h.Write(input)
	return int64(h.Sum64())
}

// refuse answers a request the protocol refused with the protocol's error.
func (s *Server) refuse(ex *exchange, err error) *wire.Response {
	ex.err = err
	ex.member = faultMember(err)
	resp, rerr := respond.RequestFailure(respond.WithRequestID(s.r, ex.id), s.m, s.svc, ex.op, err)
	if rerr != nil {
		ex.err = errors.Join(err, rerr)
		return s.internal(ex)
	}
	return resp
}

// faultMember is the member a refusal names ("" when none).
func faultMember(err error) string {
	var re *protocol.RequestError
	var ve *protocol.ValidationError
	switch {
	case errors.As(err, &re):
		return re.Member
	case errors.As(err, &ve) && len(ve.Violations) > 0:
		return ve.Violations[0].Path
	}
	return ""
}

// internal is the 500 of a request the server could not answer (an
// Answerer's error, an answer the renderer refused).
func (s *Server) internal(ex *exchange) *wire.Response {
	resp, rerr := respond.RequestFailure(respond.WithRequestID(s.r, ex.id), s.m, s.svc, ex.op, &protocol.RequestError{
		Status: statusInternal, Code: "InternalFailure", Err: errors.New("the mock server could not answer"),
	})
	if rerr != nil {
		return &wire.Response{Status: statusInternal, Header: wire.Header{"Content-Type": {"text/plain"}},
			Body: []byte(internalText)}
	}
	return resp
}

// logExchange writes the request's log line.
func (s *Server) logExchange(ex *exchange, status int, took time.Duration) {
	level := slog.LevelInfo
	if ex.err != nil {
		level = slog.LevelWarn
	}
	if !s.log.Enabled(context.Background(), level) {
		return
	}
	attrs := []any{"operation", ex.opName(), "status", status}
	if ex.source != "" {
		attrs = append(attrs, "answer", ex.source)
	}
	if ex.member != "" {
		attrs = append(attrs, "member", ex.member)
	}
	if ex.err != nil {
		msg := ex.err.Error()
		if ex.op != nil && sensitivePath(s.m, ex.op.Input, ex.member) {
			msg = "(the message is left out: the member is @sensitive)"
		}
		attrs = append(attrs, "error", msg)
	}
	attrs = append(attrs, "took", took.Round(time.Microsecond))
	s.log.Log(context.Background(), level, "request", attrs...)
}

// errTooLarge is readBody's error of a body over the bound.
var errTooLarge = errors.New("the body is over the bound")

// readBody reads r's body, bounded by max: in one read of the declared
// length when there is one (r.Body holds it to that length).
func readBody(r *Request, max int64) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	if r.ContentLength > max {
		return nil, errTooLarge
	}
	if r.ContentLength <= 0 {
		body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
		if err == nil && int64(len(body)) > max {
			err = errTooLarge
		}
		return body, err
	}
	buf := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(r.Body, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// responseHeader is resp's header with request id id (when resp has none)
// and the body's length. resp is only read (a fixture's is shared by the
// requests it answers): the header returned is a new map holding resp's
// slices.
func responseHeader(resp *wire.Response, id string) wire.Header {
	h := make(wire.Header, len(resp.Header)+2)
	for k, vs := range resp.Header {
		h[k] = vs
	}
	if h.Get(respond.RequestIDHeader) == "" && h.Get("X-Amz-Request-Id") == "" {
		h[respond.RequestIDHeader] = []string{id}
	}
	if n, err := strconv.Atoi(h.Get("Content-Length")); err != nil || resp.Body != nil && n != len(resp.Body) {
		h["Content-Length"] = []string{strconv.Itoa(len(resp.Body))}
	}
	return h
}

// randomID is a fresh random request id, in the UUID form AWS services
// send.
func randomID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	var out [36]byte
	hex.Encode(out[:8], b[:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// inputEventStreams are svc's operations with an event stream (a
// @streaming union) in their input.
func inputEventStreams(m *model.Model, svc *model.Service) map[*model.Operation]bool {
	out := map[*model.Operation]bool{}
	for _, op := range svc.Operations {
		for _, mem := range op.Input.Members {
			if _, ok := m.MemberTrait(mem, model.TraitStreaming); !ok {
				continue
			}
			if t, ok := m.Shape(mem.Target); ok && t.Type == model.UnionType {
				out[op] = true
			}
		}
	}
	return out
}
