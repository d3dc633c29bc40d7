// Package serve is a mock server for a Smithy service, in the service's
// protocol: what Prism is for OpenAPI. It routes each request to an
// operation, reads and validates its input by the model (types, @required,
// every constraint trait) and answers in the protocol's format:
//
//   - from an Answerer given with WithAnswerer, first;
//   - else from a recording (WithReplayFile, format in internal/mock/record.go);
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
	"log/slog"
	"net/http"

	"github.com/smithycurl/smithycurl/internal/mock"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// The server itself is package internal/mock, which has no net/http:
// the C library starts mocks through it (mock.Start, the same server as
// Start's) and links neither net/http nor crypto/tls. This package adds
// the http.Handler and the proxy, which are net/http's.

// DefaultMaxBody is the largest request body served unless WithMaxBody
// says otherwise: 16 MiB.
const DefaultMaxBody = mock.DefaultMaxBody

// Server is the mock server of one service, an http.Handler safe for
// concurrent use.
type Server struct {
	core *mock.Server
}

// Option configures a Server.
type Option = mock.Option

// Answer is how the server answers one request. Values are in the
// document form, as respond.Decode reads JSON. Its fields: Output, the
// operation's output (nil: none, or a modeled error); Error, a modeled
// error of the operation (its shape name or id) and Members, its members;
// Events, the events of an event-stream output, each a value of the
// stream's union ({"MemberName": {...}}), an exception event when the
// member targets an @error structure (nil: a few random ones); Status,
// the response's status instead of the protocol's (0 keeps it); Header,
// headers added to the response; Response, when set, sent as it is and
// the rest not looked at (a recorded response).
type Answer = mock.Answer

// Answerer answers the requests it knows: Answer returns nil for a request
// it leaves to the next answerer. input is the request's input in the
// document form, read and validated. An error is answered 500 and logged.
// An Answerer is called concurrently.
type Answerer = mock.Answerer

// AnswerFunc is an Answerer of a function.
type AnswerFunc = mock.AnswerFunc

// WithLogger logs one line per request to l (at Info; a request the
// server refuses or cannot answer at Warn, a panic at Error). Without it
// nothing is logged.
func WithLogger(l *slog.Logger) Option { return mock.WithLogger(l) }

// WithMaxBody bounds the request bodies read (DefaultMaxBody without it):
// a larger one is answered 413.
func WithMaxBody(n int64) Option { return mock.WithMaxBody(n) }

// WithSeed seeds the random outputs: a request gets the same output from
// servers with the same seed (0 without it).
func WithSeed(seed int64) Option { return mock.WithSeed(seed) }

// WithRequestIDs gives each request its request id: f is called once per
// request, concurrently. Without it a request gets a fresh random one.
// Every response carries it in the x-amzn-RequestId header (unless it has
// a request id header of its own: a recorded or proxied response), and
// in the body where the protocol puts one (ec2Query, awsQuery).
func WithRequestIDs(f func() string) Option { return mock.WithRequestIDs(f) }

// WithAnswerer makes a answer the requests it knows before the fixtures,
// the examples and the random outputs. Answerers are asked in the order
// they were given.
func WithAnswerer(a Answerer) Option { return mock.WithAnswerer(a) }

// WithFixturesFile answers from the fixtures in the JSON file at path (the
// format is in internal/mock/fixtures.go), checked against the model when
// New loads them. Several files are consulted in the order given.
func WithFixturesFile(path string) Option { return mock.WithFixturesFile(path) }

// WithFixtures is WithFixturesFile with the file's content.
func WithFixtures(data []byte) Option { return mock.WithFixtures(data) }

// WithProxy forwards every request to the endpoint at upstream
// (http(s)://host[:port][/path]) as it came: nothing is re-signed, the
// hop-by-hop headers are dropped as a proxy must, Host is the upstream's,
// TLS certificates are verified. The upstream's response goes back as
// received. A request signed for the server's own host fails the
// upstream's signature check: sign for the upstream's host. Fixtures,
// examples and replays are not consulted.
func WithProxy(upstream string) Option {
	return mock.WithForwarder(func() (mock.Forwarder, error) { return newProxy(upstream) })
}

// WithRecordFile writes each exchange through WithProxy to the file at
// path, emptied when New starts (the format, and what is never in it,
// is in internal/mock/record.go).
func WithRecordFile(path string) Option { return mock.WithRecordFile(path) }

// WithReplayFile answers from a recording WithRecordFile wrote, matching
// on the operation and its input (after the Answerers of WithAnswerer,
// before the fixtures). Repeats and misses are in internal/mock/record.go.
func WithReplayFile(path string) Option { return mock.WithReplayFile(path) }

// WithReplay is WithReplayFile with the file's content.
func WithReplay(data []byte) Option { return mock.WithReplay(data) }

// New returns the mock server of service svc of m.
func New(m *model.Model, svc *model.Service, opts ...Option) (*Server, error) {
	core, err := mock.New(m, svc, opts...)
	if err != nil {
		return nil, err
	}
	return &Server{core: core}, nil
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.core.Serve(r.Context(), &mock.Request{Method: r.Method, Target: r.URL.RequestURI(), Header: wire.Header(r.Header),
		ContentLength: r.ContentLength, Body: r.Body}, httpWriter{w})
}

// httpWriter is a mock.ResponseWriter of net/http's.
type httpWriter struct{ w http.ResponseWriter }

func (hw httpWriter) WriteResponse(status int, header wire.Header, body []byte) error {
	h := hw.w.Header()
	for k, vs := range header {
		h[k] = vs // net/http replaces the slices it changes, never changes them
	}
	hw.w.WriteHeader(status)
	_, err := hw.w.Write(body)
	return err
}
