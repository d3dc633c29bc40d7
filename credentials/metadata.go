package credentials

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// The container and instance metadata endpoints: their bounded fetches and
// their credentials document.

// metadataMaxBody bounds a container or instance metadata response.
const metadataMaxBody = 1 << 20

// metadataTransport is the transport of one Retrieve from a metadata
// endpoint: HTTP/1.1, a response bounded by metadataMaxBody; noProxy: no
// proxy whatever the environment says (botocore's container fetcher).
func metadataTransport(noProxy bool) (*transport.Curl, error) {
	cfg := transport.Config{MaxResponseBytes: metadataMaxBody, HTTPVersion: transport.HTTPVersion1}
	if noProxy {
		cfg.Proxy = "-"
	}
	return transport.New(cfg)
}

// metadataCall sends one request to a metadata endpoint within timeout.
// shown is the URL errors name (no query: it may hold a secret).
func metadataCall(ctx context.Context, t *transport.Curl, method, uri, shown string, header wire.Header, timeout time.Duration) (*wire.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Not Idempotent: libcurl's own re-send on a fresh connection is
	// refused, so every send is an attempt of the provider's own rule.
	resp, err := t.Do(ctx, &transport.Request{Method: method, URL: uri, DisplayURL: shown, Header: header})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// metadataFetch is one attempt at a metadata document: the body of a 200
// answer within timeout, not empty, and JSON when wantJSON; any other
// answer is an error naming the method, shown and what was wrong.
func metadataFetch(ctx context.Context, t *transport.Curl, method, uri, shown string, header wire.Header, timeout time.Duration, wantJSON bool) ([]byte, error) {
	resp, err := metadataCall(ctx, t, method, uri, shown, header, timeout)
	switch {
	case err != nil:
		return nil, err
	case resp.Status != 200:
		return nil, fmt.Errorf("%s %s: status %d", method, shown, resp.Status)
	case len(resp.Body) == 0:
		return nil, fmt.Errorf("%s %s: empty answer", method, shown)
	case wantJSON && !json.Valid(resp.Body):
		return nil, fmt.Errorf("%s %s: the answer is not JSON", method, shown)
	}
	return resp.Body, nil
}

// metadataCreds decodes the credentials of the container and instance
// metadata endpoints. missing names the first of botocore's four required
// fields absent (the Go SDK's container provider lets Token and Expiration
// go); code is an error document's Code.
func metadataCreds(body []byte) (c identity.AWS, missing, code string, err error) {
	var v struct {
		Code                               string
		AccessKeyID                        *string `json:"AccessKeyId"`
		SecretAccessKey, Token, Expiration *string
	}
	if json.Unmarshal(body, &v) != nil {
		return c, "", "", errors.New("the response is not JSON credentials")
	}
	if checkText("Code", v.Code) == nil && len(v.Code) <= 100 {
		code = v.Code
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"AccessKeyId", v.AccessKeyID}, {"SecretAccessKey", v.SecretAccessKey}, {"Token", v.Token}, {"Expiration", v.Expiration}} {
		if f.v == nil || *f.v == "" {
			return c, f.name, code, nil
		}
	}
	c = identity.AWS{AccessKeyID: *v.AccessKeyID, SecretAccessKey: *v.SecretAccessKey, SessionToken: *v.Token}
	if err := checkCreds(c); err != nil {
		return identity.AWS{}, "", code, err
	}
	if c.Expires, err = parseExpiry("Expiration", *v.Expiration); err != nil {
		return identity.AWS{}, "", code, err
	}
	return c, "", code, nil
}
