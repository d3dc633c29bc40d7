package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/smithycurl/smithycurl/internal/mock"
	"github.com/smithycurl/smithycurl/wire"
)

// proxy forwards requests to an upstream (WithProxy) as they came: no
// header is added or re-signed; the hop-by-hop headers, which belong to
// one connection, are not forwarded either way, and Host is the
// upstream's.
type proxy struct {
	upstream *url.URL
	client   *http.Client
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
		if mock.HopByHop(k) {
			delete(out, k)
		}
	}
	return out
}

// Forward sends the request to the upstream and returns its response,
// read whole (bounded by maxBody too).
func (p *proxy) Forward(ctx context.Context, req *wire.Request, maxBody int64) (*wire.Response, error) {
	in, err := url.ParseRequestURI(req.Path)
	if err != nil {
		return nil, fmt.Errorf("proxy to %s: the request-target: %w", p.upstream.Host, err)
	}
	u := *p.upstream
	u.Path = strings.TrimSuffix(p.upstream.Path, "/") + in.Path
	u.RawPath = ""
	if p.upstream.RawPath != "" || in.RawPath != "" {
		u.RawPath = strings.TrimSuffix(p.upstream.EscapedPath(), "/") + in.EscapedPath()
	}
	u.RawQuery = in.RawQuery
	out, err := http.NewRequestWithContext(ctx, req.Method, u.String(), bytes.NewReader(req.Body))
	if err != nil {
		return nil, fmt.Errorf("proxy to %s: %w", p.upstream.Host, err)
	}
	out.Header = endToEnd(http.Header(req.Header))
	out.ContentLength = int64(len(req.Body))
	if len(req.Body) == 0 && req.Method != http.MethodPost && req.Method != http.MethodPut && req.Method != http.MethodPatch {
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
