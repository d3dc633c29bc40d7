package client

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/internal/lru"
	"github.com/smithycurl/smithycurl/model"
)

// S3 Express One Zone (directory buckets): when the endpoint rules choose
// the auth scheme sigv4-s3express, a call is signed with SigV4 by the
// credentials of a session that S3's CreateSession gave for its bucket,
// the session token sent in x-amz-s3session-token, as the AWS SDKs do.
// CreateSession itself is signed with the caller's credentials (its rules
// say sigv4, through DisableS3ExpressSessionAuth).

const (
	// expressToken carries a session's token instead of
	// X-Amz-Security-Token, as a header or (presigned) in the query.
	expressToken = "X-Amz-S3session-Token"
	// expressCacheSize bounds the sessions a client keeps, least recently
	// used first out (the AWS SDKs' 100).
	expressCacheSize = 100
	// Sessions live 5 minutes: refreshed in the background from a minute
	// before they expire, waited for from 30 seconds before (the SDKs
	// refresh a minute ahead).
	expressAdvisory  = time.Minute
	expressMandatory = 30 * time.Second
)

// expressSessions are a client's S3 Express sessions per bucket and
// caller's credentials, each behind an identity.Cache (one CreateSession
// at a time per key, refreshed before expiry); the least recently used
// goes when there are more than MaxEntries (New sets expressCacheSize).
type expressSessions struct {
	lru.Cache[string, *identity.Cache[identity.AWS]]
}

// get returns the session cache of key, made with newCache when missing.
func (s *expressSessions) get(key string, newCache func() *identity.Cache[identity.AWS]) *identity.Cache[identity.AWS] {
	return s.GetOrAdd(key, newCache)
}

// expressProvider gives the session credentials of one bucket for the
// caller's credentials of the moment.
type expressProvider struct {
	c      *Client
	bucket string
}

func (p *expressProvider) Retrieve(ctx context.Context) (identity.AWS, error) {
	base, err := p.c.creds.aws.Retrieve(ctx)
	if err != nil {
		return identity.AWS{}, err
	}
	// The key holds a hash of the credentials, not the secret itself.
	h := sha256.New()
	for _, s := range []string{base.AccessKeyID, base.SecretAccessKey, base.SessionToken} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	key := string(h.Sum([]byte(p.bucket + "\x00")))
	cache := p.c.express.get(key, func() *identity.Cache[identity.AWS] {
		return identity.NewCache[identity.AWS](identity.ProviderFunc[identity.AWS](p.createSession),
			"the S3 Express session of bucket "+p.bucket+" (CreateSession)", identity.WithWindows(expressAdvisory, expressMandatory))
	})
	return cache.Get(ctx)
}

// createSession calls CreateSession on the bucket.
func (p *expressProvider) createSession(ctx context.Context) (identity.AWS, error) {
	out, err := p.c.Call(ctx, "CreateSession", append(jsonstr.Append([]byte(`{"Bucket":`), p.bucket), '}'))
	if err != nil {
		return identity.AWS{}, err
	}
	var o struct {
		Credentials struct{ AccessKeyId, SecretAccessKey, SessionToken, Expiration string }
	}
	if err := json.Unmarshal(out, &o); err != nil {
		return identity.AWS{}, fmt.Errorf("reading CreateSession's output: %v", err)
	}
	cr := o.Credentials
	if cr.SessionToken == "" {
		return identity.AWS{}, errors.New("CreateSession's output has no session token")
	}
	exp, err := time.Parse(time.RFC3339Nano, cr.Expiration)
	if err != nil {
		return identity.AWS{}, fmt.Errorf("CreateSession's Expiration %q: %v", cr.Expiration, err)
	}
	return checkAWS(identity.AWS{AccessKeyID: cr.AccessKeyId, SecretAccessKey: cr.SecretAccessKey, SessionToken: cr.SessionToken,
		Expires: exp, Source: "CreateSession on bucket " + p.bucket})
}

// disableExpressParam is S3's endpoint parameter that signs directory
// buckets' calls with the caller's credentials.
const disableExpressParam = "DisableS3ExpressSessionAuth"

// applyS3Settings sets DisableS3ExpressSessionAuth from the AWS settings
// (AWS_S3_DISABLE_EXPRESS_SESSION_AUTH, s3_disable_express_session_auth)
// unless the caller gave it (WithEndpointParams).
func (o *options) applyS3Settings(s awsconfig.Settings) {
	if _, given := o.endpoint.params[disableExpressParam]; !given && s.DisableS3ExpressSessionAuth.IsSet() {
		WithEndpointParams(map[string]any{disableExpressParam: s.DisableS3ExpressSessionAuth.V}).apply(o)
	}
}

// expressError is a call's error when its session could not be had: of
// CreateSession's kind and status (an AccessDenied stays a service
// error), naming the bucket.
func expressError(op model.ShapeID, err error) *Error {
	e := identityError(op, err)
	var ce *Error
	if errors.As(err, &ce) {
		e.Kind, e.Status, e.Code, e.Shape, e.RequestID = ce.Kind, ce.Status, ce.Code, ce.Shape, ce.RequestID
	}
	return e
}
