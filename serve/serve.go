// Package serve is a mock server for a Smithy service, in the service's
// protocol: what Prism is for OpenAPI. It routes each request to an
// operation, reads and validates its input by the model (types, @required,
// every constraint trait) and answers in the protocol's format:
//
//   - from an Answerer given with WithAnswerer, first;
//   - else from a recording (WithReplayFile, format in record.go);
//   - else from fixtures (WithFixturesFile): per operation, the first entry
//     whose match the input meets;
//   - else from the operation's @examples whose input the request's meets;
//   - else with a random output valid by the model, the same for the same
//     request and seed (WithSeed).
//
// With WithProxy it forwards every request to a real endpoint instead,
// as it came, and answers with the endpoint's response; WithRecordFile
// writes each exchange to a recording for WithReplayFile.
//
// A request the protocol refuses (an unknown operation, a body not in its
// format, an invalid input) gets the protocol's error response, a
// smithy.framework#ValidationException where the service has it; a body
// over the bound (WithMaxBody) gets 413. Each request is one log line
// (WithLogger): operation, status and the member at fault, never a value
// of a @sensitive member nor a header.
//
//	h, err := serve.New(m, svc, serve.WithFixturesFile("fixtures.json"))
//	srv := httptest.NewServer(h)
package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net/http"
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

// Server is the mock server of one service, an http.Handler safe for
// concurrent use.
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
	proxy    *proxy                  // nil: the server answers itself
	newID    func() string           // each request's request id
	// inStreams are the operations whose input is an event stream, which
	// the server does not serve: refused before the body is read, as a
	// duplex client waits for the answer before it sends its events.
	inStreams map[*model.Operation]bool
}

// Option configures a Server.
type Option func(*config) error

type config struct {
	log       *slog.Logger
	maxBody   int64
	seed      int64
	answerers []Answerer
	fixtures  []fixtureSource
	replays   []fixtureSource
	proxy     string
	record    string
	newID     func() string
}

type fixtureSource struct {
	name string // the file's path, or "fixtures"
	data []byte // nil: read name
}

// WithLogger logs one line per request to l (at Info; a request the
// server refuses or cannot answer at Warn, a panic at Error). Without it
// nothing is logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error { c.log = l; return nil }
}

// WithMaxBody bounds the request bodies read (DefaultMaxBody without it):
// a larger one is answered 413.
func WithMaxBody(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("serve: WithMaxBody(%d): the bound must be positive", n)
		}
		c.maxBody = n
		return nil
	}
}

// WithSeed seeds the random outputs: a request gets the same output from
// servers with the same seed (0 without it).
func WithSeed(seed int64) Option {
	return func(c *config) error { c.seed = seed; return nil }
}

// WithRequestIDs gives each request its request id: f is called once per
// request, concurrently. Without it a request gets a fresh random one.
// Every response carries it in the x-amzn-RequestId header (unless it has
// a request id header of its own: a recorded or proxied response), and
// in the body where the protocol puts one (ec2Query, awsQuery).
func WithRequestIDs(f func() string) Option {
	return func(c *config) error {
		if f == nil {
			return errors.New("serve: WithRequestIDs(nil): a function is needed")
		}
		c.newID = f
		return nil
	}
}

// WithAnswerer makes a answer the requests it knows before the fixtures,
// the examples and the random outputs. Answerers are asked in the order
// they were given.
func WithAnswerer(a Answerer) Option {
	return func(c *config) error { c.answerers = append(c.answerers, a); return nil }
}

// WithFixturesFile answers from the fixtures in the JSON file at path (the
// format is in fixtures.go), checked against the model when New loads
// them. Several files are consulted in the order given.
func WithFixturesFile(path string) Option {
	return func(c *config) error { c.fixtures = append(c.fixtures, fixtureSource{name: path}); return nil }
}

// WithFixtures is WithFixturesFile with the file's content.
func WithFixtures(data []byte) Option {
	return func(c *config) error {
		c.fixtures = append(c.fixtures, fixtureSource{name: "fixtures", data: data})
		return nil
	}
}

// WithProxy forwards every request to the endpoint at upstream
// (http(s)://host[:port][/path]) as it came: nothing is re-signed, the
// hop-by-hop headers are dropped as a proxy must, Host is the upstream's,
// TLS certificates are verified. The upstream's response goes back as
// received. A request signed for the server's own host fails the
// upstream's signature check: sign for the upstream's host. Fixtures,
// examples and replays are not consulted.
func WithProxy(upstream string) Option {
	return func(c *config) error { c.proxy = upstream; return nil }
}

// WithRecordFile writes each exchange through WithProxy to the file at
// path, emptied when New starts (the format, and what is never in it,
// is in record.go).
func WithRecordFile(path string) Option {
	return func(c *config) error { c.record = path; return nil }
}

// WithReplayFile answers from a recording WithRecordFile wrote, matching
// on the operation and its input (after the Answerers of WithAnswerer,
// before the fixtures). Repeats and misses are in record.go.
func WithReplayFile(path string) Option {
	return func(c *config) error { c.replays = append(c.replays, fixtureSource{name: path}); return nil }
}

// WithReplay is WithReplayFile with the file's content.
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
	if err := s.configureProxy(&c); err != nil {
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

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ex := &exchange{id: s.newID()}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler { // net/http's own: it aborts the response
				panic(v)
			}
			// The request's fault or not, the server answers and stays up.
			s.log.Error("request", "operation", ex.opName(), "status", http.StatusInternalServerError,
				"error", fmt.Sprintf("panic: %v", v))
			if !ex.wrote {
				http.Error(w, "internal error of the mock server", http.StatusInternalServerError)
			}
		}
	}()
	resp := s.handle(r.Context(), w, r, ex)
	ex.wrote = true
	if err := writeResponse(w, resp, ex.id); err != nil {
		ex.err = errors.Join(ex.err, fmt.Errorf("writing the response: %w", err))
	}
	s.logExchange(ex, resp.Status, time.Since(start))
}

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
func (s *Server) handle(ctx context.Context, w http.ResponseWriter, r *http.Request, ex *exchange) *wire.Response {
	var op *model.Operation // routed from the head, when that is enough
	if len(s.inStreams) > 0 && s.proxy == nil {
		// The protocols with event streams route by the head alone.
		head := &wire.Request{Method: r.Method, Path: r.URL.RequestURI(), Header: wire.Header(r.Header)}
		if o, err := s.srv.Route(head); err == nil {
			op = o
		}
		if s.inStreams[op] {
			ex.op = op
			resp := s.refuse(ex, &protocol.RequestError{Operation: op.Shape.ID, Status: http.StatusNotImplemented, Code: "NotImplemented",
				Err: fmt.Errorf("operation %s streams events in its input, which the mock server does not serve", op.Name)})
			// Closing the connection keeps net/http from reading the
			// unread body, which the client sends only after this answer.
			if resp.Header == nil {
				resp.Header = wire.Header{}
			}
			resp.Header.Set("Connection", "close")
			return resp
		}
	}
	body, err := readBody(w, r, s.maxBody)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return s.refuse(ex, &protocol.RequestError{Status: http.StatusRequestEntityTooLarge, Code: "RequestEntityTooLarge",
				Err: fmt.Errorf("the body is over the server's bound of %d bytes", s.maxBody)})
		}
		return s.refuse(ex, &protocol.RequestError{Status: http.StatusBadRequest, Code: "SerializationException",
			Err: fmt.Errorf("reading the body: %w", err)})
	}
	req := &wire.Request{Method: r.Method, Path: r.URL.RequestURI(), Header: wire.Header(r.Header), Body: body}
	if s.proxy != nil {
		return s.proxied(ctx, r, req, ex)
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
		Status: http.StatusInternalServerError, Code: "InternalFailure", Err: errors.New("the mock server could not answer"),
	})
	if rerr != nil {
		return &wire.Response{Status: http.StatusInternalServerError, Header: wire.Header{"Content-Type": {"text/plain"}},
			Body: []byte("internal error of the mock server\n")}
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

// readBody reads r's body, bounded by max: in one read of the declared
// length when there is one.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, max)
	if r.ContentLength <= 0 || r.ContentLength > max {
		return io.ReadAll(body)
	}
	buf := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(body, buf); err != nil {
		return nil, err
	}
	// The declared length is all the body (net/http holds it to that).
	return buf, nil
}

// writeResponse writes resp to w with request id id in its header (when
// resp has none). resp is only read (a fixture's is shared by the requests
// it answers): w's header holds resp's slices, which net/http replaces,
// never changes.
func writeResponse(w http.ResponseWriter, resp *wire.Response, id string) error {
	h := w.Header()
	for k, vs := range resp.Header {
		h[k] = vs
	}
	if h.Get(respond.RequestIDHeader) == "" && h.Get("X-Amz-Request-Id") == "" {
		h[respond.RequestIDHeader] = []string{id}
	}
	if n, err := strconv.Atoi(h.Get("Content-Length")); err != nil || resp.Body != nil && n != len(resp.Body) {
		h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	}
	w.WriteHeader(resp.Status)
	_, err := w.Write(resp.Body)
	return err
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
