package client

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

// The providers' identities go through an identity.Cache: refreshed before
// they expire, one refresh at a time for all of the client's calls. A
// provider that is already an *identity.Cache is used as it is, so clients
// can share one. Each attempt takes the identity the cache holds then. A
// provider's failure fails the call: KindUsage (no usable credentials;
// nothing was sent), or KindTimeout or KindCancelled when the call's
// deadline or cancellation ended the wait; the message names the provider.
// A provider's String method, when it has one, names it in messages.

// WithAWSCredentialsProvider signs requests with aws.auth#sigv4 with the
// credentials p gives; it replaces WithAWSCredentials' keys.
func WithAWSCredentialsProvider(p identity.Provider[identity.AWS]) Option {
	return optionFunc(func(o *options) { o.creds.aws, o.creds.awsMissing = p, "" })
}

// WithBearerTokenProvider authenticates with @httpBearerAuth with the
// tokens p gives; it replaces WithBearerToken.
func WithBearerTokenProvider(p identity.Provider[identity.Token]) Option {
	return optionFunc(func(o *options) { o.creds.bearer = p })
}

// WithAPIKeyProvider authenticates with @httpApiKeyAuth with the keys p
// gives; it replaces WithAPIKey. A key sent in the query is taken once
// per call, in a header once per attempt.
func WithAPIKeyProvider(p identity.Provider[identity.Token]) Option {
	return optionFunc(func(o *options) { o.creds.apiKey = p })
}

// static is an identity given as a value (WithBearerToken and the like).
type static[T identity.Expiring] struct {
	v    T
	name string // the option or variables it came from
}

func (s *static[T]) Retrieve(context.Context) (T, error) { return s.v, nil }

func (s *static[T]) String() string { return s.name }

// staticToken is a token option's provider; nil for "".
func staticToken(v, option string) identity.Provider[identity.Token] {
	if v == "" {
		return nil
	}
	return &static[identity.Token]{v: identity.Token{Value: v, Source: option}, name: option}
}

// cached puts p (not nil) behind a cache named after what it gives and
// where from, unless it is a cache already.
func cached[T identity.Expiring](p identity.Provider[T], what, option string) identity.Provider[T] {
	if c, ok := p.(*identity.Cache[T]); ok {
		return c
	}
	from := option
	if s, ok := p.(fmt.Stringer); ok {
		from = s.String()
	}
	return identity.NewCache(p, what+" from "+from)
}

// cache puts each provider behind a cache and checks what it gives.
func (c *credentials) cache() {
	if c.bearer != nil {
		c.bearer = checkedToken(cached(c.bearer, "the bearer token", "WithBearerTokenProvider"), "bearer token")
	}
	if c.apiKey != nil {
		c.apiKey = checkedToken(cached(c.apiKey, "the API key", "WithAPIKeyProvider"), "API key")
	}
	if c.aws != nil {
		if c.awsDefault {
			c.aws = &searchOnce{p: c.aws}
		}
		c.aws = &checked[identity.AWS]{p: cached(c.aws, "the AWS credentials", "WithAWSCredentialsProvider"), check: checkAWS,
			same: func(a, b identity.AWS) bool {
				return a.AccessKeyID == b.AccessKeyID && a.SecretAccessKey == b.SecretAccessKey && a.SessionToken == b.SessionToken
			}}
	}
}

func checkedToken(p identity.Provider[identity.Token], what string) identity.Provider[identity.Token] {
	return &checked[identity.Token]{p: p, same: func(a, b identity.Token) bool { return a.Value == b.Value },
		check: func(t identity.Token) (identity.Token, error) {
			v, err := CheckCredential(what, t.Value)
			if err == nil && v == "" {
				err = fmt.Errorf("the %s is empty", what)
			}
			t.Value = v
			return t, err
		}}
}

// checked applies CheckCredential to what its cache gives, once per
// identity (the same strings compare equal at once), so that a cached
// identity costs no scan of a long session token.
type checked[T identity.Expiring] struct {
	p     identity.Provider[T] // an *identity.Cache
	check func(T) (T, error)
	same  func(a, b T) bool
	last  atomic.Pointer[[2]T] // the last identity given and its checked form
}

func (c *checked[T]) Retrieve(ctx context.Context) (T, error) {
	v, err := c.p.Retrieve(ctx)
	if err != nil {
		return v, err
	}
	if l := c.last.Load(); l != nil && c.same(l[0], v) {
		return l[1], nil
	}
	cv, err := c.check(v)
	if err != nil {
		return cv, fmt.Errorf("%s: %w", nameOf(c.p), err)
	}
	c.last.Store(&[2]T{v, cv})
	return cv, nil
}

// checkAWS applies CheckCredential to each part of a.
func checkAWS(a identity.AWS) (identity.AWS, error) {
	var err error
	if a.AccessKeyID, err = CheckCredential("AWS access key id", a.AccessKeyID); err != nil {
		return a, err
	}
	if a.SecretAccessKey, err = CheckCredential("AWS secret access key", a.SecretAccessKey); err != nil {
		return a, err
	}
	if a.SessionToken, err = CheckCredential("AWS session token", a.SessionToken); err != nil {
		return a, err
	}
	if a.AccessKeyID == "" || a.SecretAccessKey == "" {
		return a, errors.New("the access key id or the secret access key is empty")
	}
	return a, nil
}

// callAuth authenticates each attempt of a call with the identity its
// cache holds then, so that a retry after a refresh uses the new one.
type callAuth struct {
	signer *requestSigner // SigV4, with aws
	aws    identity.Provider[identity.AWS]
	// express: aws gives S3 Express sessions, whose token goes in
	// X-Amz-S3session-Token.
	express bool
	// A token (bearer, API key) sent in header as prefix+token.
	token          identity.Provider[identity.Token]
	header, prefix string
	custom         *customAuth // a scheme of WithAuthScheme
}

// apply authenticates req as of now.
func (a *callAuth) apply(ctx context.Context, op model.ShapeID, req *transport.Request, now time.Time) *Error {
	if a.custom != nil {
		return a.custom.apply(ctx, req, now)
	}
	if a.signer == nil {
		v, e := a.tokenValue(ctx, op)
		if e != nil {
			return e
		}
		req.Header.Set(a.header, a.prefix+v)
		return nil
	}
	creds, err := a.aws.Retrieve(ctx)
	if err != nil {
		if a.express {
			return expressError(op, err)
		}
		return identityError(op, err)
	}
	if a.express {
		req.Header.Set(expressToken, creds.SessionToken)
		creds.SessionToken = "" // not X-Amz-Security-Token
	}
	a.signer.setCredentials(creds)
	if _, err := a.signer.sign(req, now); err != nil {
		return usageError(op, "signing the request: %v", err)
	}
	return nil
}

// sigV4 is the call's SigV4 signer; nil when it is not signed.
func (a *callAuth) sigV4() *requestSigner {
	if a == nil {
		return nil
	}
	return a.signer
}

// tokenValue is the token the cache holds now.
func (a *callAuth) tokenValue(ctx context.Context, op model.ShapeID) (string, *Error) {
	t, err := a.token.Retrieve(ctx)
	if err != nil {
		return "", identityError(op, err)
	}
	return t.Value, nil
}

// nameOf is a cache's provider name.
func nameOf(p any) string {
	if c, ok := p.(interface{ Name() string }); ok {
		return c.Name()
	}
	return fmt.Sprintf("%T", p)
}

// identityError is a call's error when its identity could not be had.
func identityError(op model.ShapeID, err error) *Error {
	e := &Error{Kind: KindUsage, Operation: op, err: err}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind = KindTimeout
	case errors.Is(err, context.Canceled):
		e.Kind = KindCancelled
	}
	return e
}
