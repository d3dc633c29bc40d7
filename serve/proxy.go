package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// proxy forwards requests to an upstream (WithProxy) as they came: no
// header is added or re-signed; the hop-by-hop headers, which belong to
// one connection, are not forwarded either way, and Host is the
// upstream's.
type proxy struct {
	upstream *url.URL
	client   *http.Client
	rec      *recorder // nil: nothing is recorded
}

// newProxy checks the upstream's URL.
func newProxy(upstream string) (*proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil {
		return nil, fmt.Errorf("serve: proxy %q: %w", upstream, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("serve: proxy %q: not an http(s)://host[:port][/path] URL", upstream)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DisableCompression = true // the body goes back as the upstream sent it
	return &proxy{upstream: u, client: &http.Client{
		Transport: t, // TLS verified by the system's roots
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect is the caller's to follow
		},
	}}, nil
}

// hopByHop reports whether header name is one of RFC 9110's connection
// headers, which a proxy does not forward.
func hopByHop(name string) bool {
	switch textproto.CanonicalMIMEHeaderKey(name) {
	case "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade":
		return true
	}
	return false
}

// endToEnd copies h without its hop-by-hop headers and those its
// Connection header names.
func endToEnd(h http.Header) http.Header {
	out := h.Clone()
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				out.Del(name)
			}
		}
	}
	for k := range out {
		if hopByHop(k) {
			delete(out, k)
		}
	}
	return out
}

// forward sends the request to the upstream and returns its response,
// read whole (bounded by maxBody too).
func (p *proxy) forward(ctx context.Context, r *http.Request, body []byte, maxBody int64) (*wire.Response, error) {
	u := *p.upstream
	u.Path = strings.TrimSuffix(p.upstream.Path, "/") + r.URL.Path
	u.RawPath = ""
	if p.upstream.RawPath != "" || r.URL.RawPath != "" {
		u.RawPath = strings.TrimSuffix(p.upstream.EscapedPath(), "/") + r.URL.EscapedPath()
	}
	u.RawQuery = r.URL.RawQuery
	out, err := http.NewRequestWithContext(ctx, r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("proxy to %s: %w", p.upstream.Host, err)
	}
	out.Header = endToEnd(r.Header)
	out.ContentLength = int64(len(body))
	if len(body) == 0 && r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch {
		out.Body = http.NoBody
	}
	resp, err := p.client.Do(out)
	if err != nil {
		return nil, fmt.Errorf("proxy to %s: %w", p.upstream.Host, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("proxy to %s: reading the response: %w", p.upstream.Host, err)
	}
	if int64(len(data)) > maxBody {
		return nil, fmt.Errorf("proxy to %s: the response is over the bound of %d bytes", p.upstream.Host, maxBody)
	}
	h := endToEnd(resp.Header)
	h.Del("Content-Length") // writeResponse sets the length of the body read
	return &wire.Response{Status: resp.StatusCode, Header: wire.Header(h), Body: data}, nil
}

// proxied answers a request through the upstream and records the exchange
// when the server could read the request (route and input); a request it
// could not read goes to the upstream all the same, unrecorded.
func (s *Server) proxied(ctx context.Context, r *http.Request, req *wire.Request, ex *exchange) *wire.Response {
	var op *model.Operation
	var input []byte
	var readErr error
	if op, readErr = s.srv.Route(req); readErr == nil {
		ex.op = op
		input, readErr = s.srv.DecodeRequest(ctx, op, req)
	}
	resp, err := s.proxy.forward(ctx, r, req.Body, s.maxBody)
	if err != nil {
		ex.err = err
		return s.gatewayError(ex)
	}
	ex.source = "proxy"
	if s.proxy.rec == nil {
		return resp
	}
	if readErr != nil {
		// Logged as a refusal is: the member, and no message of a @sensitive one.
		ex.err, ex.member = fmt.Errorf("not recorded: %w", readErr), faultMember(readErr)
		return resp
	}
	if err := s.proxy.rec.write(s.m, op, input, resp); err != nil {
		ex.err = err
	}
	return resp
}

// gatewayError is the 502 of a request the upstream did not answer.
func (s *Server) gatewayError(ex *exchange) *wire.Response {
	resp := s.internal(ex)
	if resp.Status == http.StatusInternalServerError {
		resp.Status = http.StatusBadGateway
	}
	return resp
}

// configureProxy sets up WithProxy and WithRecordFile.
func (s *Server) configureProxy(c *config) error {
	switch {
	case c.proxy == "" && c.record != "":
		return errors.New("serve: WithRecordFile records what WithProxy forwards: give WithProxy too")
	case c.proxy == "":
		return nil
	case len(c.replays) > 0:
		return errors.New("serve: WithProxy and WithReplayFile: the server either forwards or replays")
	}
	p, err := newProxy(c.proxy)
	if err != nil {
		return err
	}
	if c.record != "" {
		if p.rec, err = newRecorder(c.record); err != nil {
			return err
		}
	}
	s.proxy = p
	return nil
}
