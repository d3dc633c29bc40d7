package credentials

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/wire"
)

// botocore's ContainerMetadataFetcher: 2 s a request, 3 attempts, 1 s
// apart, no proxy.
const (
	containerTimeout  = 2 * time.Second
	containerAttempts = 3
	containerDelay    = time.Second
	containerHost     = "169.254.170.2"
)

// Container returns the provider of the ECS and EKS Pod Identity
// credentials endpoint: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (on
// http://169.254.170.2) or else AWS_CONTAINER_CREDENTIALS_FULL_URI (https,
// or http to a loopback address, localhost, 169.254.170.2, 169.254.170.23
// or fd00:ec2::23), with AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (read at
// each Retrieve) or else AWS_CONTAINER_AUTHORIZATION_TOKEN as the
// Authorization header. ErrNotFound when neither URI variable is set.
// opts.Timeout bounds each attempt (default 2 s).
func Container(env awsconfig.Env, opts Options) identity.Provider[identity.AWS] {
	return &containerProvider{env: env, timeout: opts.Timeout, attempts: containerAttempts, delay: containerDelay}
}

type containerProvider struct {
	env      awsconfig.Env
	timeout  time.Duration
	attempts int
	delay    time.Duration
}

func (p *containerProvider) Retrieve(ctx context.Context) (identity.AWS, error) {
	variable := "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"
	rel, isRel := p.env.Var(variable)
	uri := "http://" + containerHost + rel
	if !isRel {
		variable = "AWS_CONTAINER_CREDENTIALS_FULL_URI"
		full, ok := p.env.Var(variable)
		if !ok {
			return identity.AWS{}, fmt.Errorf("container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI, AWS_CONTAINER_CREDENTIALS_FULL_URI not set: %w", ErrNotFound)
		}
		uri = full
	}
	name := "container (" + variable + ")"
	c, err := p.fetch(ctx, variable, uri)
	if err != nil {
		return identity.AWS{}, fmt.Errorf("%s: %w", name, err)
	}
	c.Source = name
	return c, nil
}

func (p *containerProvider) fetch(ctx context.Context, variable, uri string) (identity.AWS, error) {
	u, err := containerURL(variable, uri)
	if err != nil {
		return identity.AWS{}, err
	}
	shown := u.Scheme + "://" + u.Host + u.Path
	header := wire.Header{"Accept": {"application/json"}}
	t, err := metadataTransport(true)
	if err != nil {
		return identity.AWS{}, err
	}
	defer t.Close()
	timeout := p.timeout
	if timeout <= 0 {
		timeout = containerTimeout
	}
	var last error
	for attempt := 1; ; attempt++ {
		// The token is read at each attempt: it rotates.
		tok, err := containerToken(p.env)
		if err != nil {
			return identity.AWS{}, err
		}
		if tok != "" {
			header.Set("Authorization", tok)
		}
		var body []byte
		if body, last = metadataFetch(ctx, t, "GET", u.String(), shown, header, timeout, true); last == nil {
			// Past a JSON answer botocore does not try again.
			c, missing, _, err := metadataCreds(body)
			switch {
			case missing != "":
				return identity.AWS{}, fmt.Errorf("GET %s: %s missing from the response", shown, missing)
			case err != nil:
				return identity.AWS{}, fmt.Errorf("GET %s: %w", shown, err)
			}
			return c, nil
		}
		if attempt >= p.attempts {
			break
		}
		if err := sleepCtx(ctx, p.delay); err != nil {
			return identity.AWS{}, fmt.Errorf("%w (after: %v)", err, last)
		}
	}
	if p.attempts > 1 {
		return identity.AWS{}, fmt.Errorf("%d attempts: %w", p.attempts, last)
	}
	return identity.AWS{}, last
}

// containerURL checks a container credentials URL as botocore does: https
// to any host, http to a loopback address or one of the container hosts.
// Schemes other than http and https are refused.
func containerURL(variable, uri string) (*url.URL, error) {
	if err := checkText(variable, uri); err != nil {
		return nil, err
	}
	u, err := url.Parse(uri)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("%s is not an http or https URL", variable)
	}
	if u.Scheme == "https" {
		return u, nil
	}
	host := strings.ToLower(u.Hostname())
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return u, nil
	}
	switch host {
	case containerHost, "169.254.170.23", "fd00:ec2::23", "localhost":
		return u, nil
	}
	return nil, fmt.Errorf("%s: host %q is not allowed over http: only a loopback address, localhost, 169.254.170.2, 169.254.170.23 or fd00:ec2::23 (or https)", variable, host)
}

// containerToken is the Authorization value: the token file's content, or
// else the token variable's. CR or LF (or any control character) refused.
func containerToken(env awsconfig.Env) (string, error) {
	if path, ok := env.Var("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"); ok {
		b, err := readCapped(path, 64<<10)
		if err != nil {
			return "", fmt.Errorf("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: %w", err)
		}
		if err := checkText("the token of AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE ("+path+")", string(b)); err != nil {
			return "", err
		}
		return string(b), nil
	}
	tok, ok := env.Var("AWS_CONTAINER_AUTHORIZATION_TOKEN")
	if !ok {
		return "", nil
	}
	if err := checkText("AWS_CONTAINER_AUTHORIZATION_TOKEN", tok); err != nil {
		return "", err
	}
	return tok, nil
}

// readCapped reads a small file, refusing one larger than max bytes.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return b, nil
}

// sleepCtx waits d unless ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
