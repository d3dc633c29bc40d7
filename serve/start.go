package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// Running is a mock server listening on 127.0.0.1: what Start returns for
// a test (Go's, or C's and Python's through the library).
type Running struct {
	// URL is the base URL of the server, http://127.0.0.1:PORT.
	URL  string
	srv  *http.Server
	done chan error
}

// stopWait bounds how long Stop waits for the requests under way.
const stopWait = 5 * time.Second

// Start serves the mock of service svc of m (New's options) on
// 127.0.0.1, on a port the system chooses, until Stop:
//
//	mock, err := serve.Start(m, svc, serve.WithFixturesFile("fixtures.json"))
//	defer mock.Stop()
//	c, err := client.New(m, svc.Shape.ID, mock.URL)
func Start(m *model.Model, svc *model.Service, opts ...Option) (*Running, error) {
	h, err := New(m, svc, opts...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("serve: listening on 127.0.0.1: %w", err)
	}
	r := &Running{URL: "http://" + ln.Addr().String(), done: make(chan error, 1),
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}}
	go func() { r.done <- r.srv.Serve(ln) }()
	return r, nil
}

// Stop stops listening, waits up to 5 s for the requests under way, then
// closes every connection. Call it once.
func (r *Running) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	err := r.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = r.srv.Close()
	}
	if serr := <-r.done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("serve: stopping the server at %s: %w", r.URL, err)
	}
	return nil
}
