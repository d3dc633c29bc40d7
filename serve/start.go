package serve

import (
	"net"

	"github.com/smithycurl/smithycurl/internal/mock"
	"github.com/smithycurl/smithycurl/model"
)

// Running is a mock server listening on 127.0.0.1: what Start returns for
// a test (Go's, or C's and Python's through the library). Its URL is the
// base URL of the server, http://127.0.0.1:PORT; its Stop stops
// listening, closes the idle connections, waits up to 5 s for the
// requests under way, then closes every connection (call it once).
type Running = mock.Running

// Start serves the mock of service svc of m (New's options) on
// 127.0.0.1, on a port the system chooses, until Stop, with the HTTP/1.1
// server of internal/mock (the C library's):
//
//	mock, err := serve.Start(m, svc, serve.WithFixturesFile("fixtures.json"))
//	defer mock.Stop()
//	c, err := client.New(m, svc.Shape.ID, mock.URL)
func Start(m *model.Model, svc *model.Service, opts ...Option) (*Running, error) {
	return mock.Start(m, svc, opts...)
}

// Serve serves s on ln, with Start's HTTP/1.1 server, until Stop (which
// closes ln).
func (s *Server) Serve(ln net.Listener) *Running { return mock.Serve(s.core, ln) }
