package client

import (
	"context"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

// AuthSigner authenticates one attempt of a call with an auth scheme of
// the caller's (WithAuthScheme): it sets the headers (or query) the
// scheme needs on r.Request. It runs on the calling goroutine, once per
// attempt, after the ModifyBeforeSigning hooks; for the calls of many
// goroutines at once on a shared client. Its error fails the call
// (KindUsage; nothing is sent), its message naming the scheme: it must not
// hold a secret.
type AuthSigner func(ctx context.Context, r *AuthRequest) error

// AuthRequest is what an AuthSigner signs.
type AuthRequest struct {
	Scheme    model.ShapeID // the scheme's trait, e.g. "com.example#hmacAuth"
	Trait     model.Node    // the trait's value on the service (its properties)
	Operation *model.Operation
	Request   *transport.Request // to sign: its method, URL, headers and body
	// Time is the attempt's signing time (corrected for a clock skew the
	// client learned).
	Time time.Time
}

// WithAuthScheme registers sign for the auth scheme whose trait is scheme
// (a shape with @authDefinition, e.g. "com.example#hmacAuth"). The scheme
// is chosen by the model's @auth order like the built-in ones (a service
// without @auth: its auth traits in shape id order); registering a
// built-in scheme's id replaces it.
func WithAuthScheme(scheme model.ShapeID, sign AuthSigner) Option {
	return optionFunc(func(o *options) {
		if o.schemes == nil {
			o.schemes = map[model.ShapeID]AuthSigner{}
		}
		o.schemes[scheme] = sign
	})
}

// WithDigestAuth authenticates with @httpDigestAuth: libcurl answers the
// service's digest challenge (RFC 7616) with user and password.
func WithDigestAuth(user, password string) Option {
	return optionFunc(func(o *options) {
		o.creds.digest = &transport.Digest{User: user, Password: password}
	})
}

// customAuth is a scheme of WithAuthScheme, applied to each attempt.
type customAuth struct {
	scheme model.ShapeID
	trait  model.Node
	sign   AuthSigner
	op     *model.Operation
}

func (a *customAuth) apply(ctx context.Context, req *transport.Request, now time.Time) *Error {
	op := a.op
	if err := a.sign(ctx, &AuthRequest{Scheme: a.scheme, Trait: a.trait, Operation: op, Request: req, Time: now}); err != nil {
		e := classify(op.Shape.ID, err)
		if e.Kind != KindCancelled && e.Kind != KindTimeout {
			e = usageError(op.Shape.ID, "auth scheme %s: %v", a.scheme, err)
		}
		return e
	}
	return nil
}

// customSchemes are the registered schemes applied to svc (none: nil),
// which planAuth adds to the built-in ones when the service has no @auth.
func customSchemes(svc *model.Shape, schemes map[model.ShapeID]AuthSigner) []model.ShapeID {
	var ids []model.ShapeID
	for id := range schemes {
		if svc.HasTrait(id) {
			ids = append(ids, id)
		}
	}
	return ids
}
