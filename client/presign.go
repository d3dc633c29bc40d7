package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/wire"
)

// Presigned is a request signed in its URL (SigV4's query form): anyone
// holding it may send it, without credentials, until Expires.
type Presigned struct {
	URL    string
	Method string
	// SignedHeader are the headers signed besides Host: the request must
	// be sent with them, as they are (empty for most presigned URLs; an
	// S3 PutObject's ContentType, for one, is signed and must be sent).
	// A wire.Header, whose methods are http.Header's: http.Header(h)
	// converts it (the C library links no net/http).
	SignedHeader wire.Header
	Expires      time.Time
}

// WithSigningTime makes Presign sign as of t instead of now (a URL that
// is valid from t); calls ignore it.
func WithSigningTime(t time.Time) CallOption {
	return callOptionFunc(func(o *callOptions) { o.signedAt = t })
}

// Presign returns operation's request with input (the document form, as
// for Call, with the AWS customizations of a call) signed with SigV4 (SigV4a
// where the endpoint rules choose it) in its URL, valid for expires (1 s to 7
// days, whole seconds), as the AWS SDKs presign (botocore's
// generate_presigned_url, aws-sdk-go-v2's PresignClient): the endpoint is
// resolved as for a call (S3 virtual-host or path style), nothing is sent.
// X-Amz-Security-Token is in the URL when the credentials have a session
// token; where the rules choose sigv4-s3express (an S3 directory bucket),
// the URL is signed by the bucket's session, its token in
// X-Amz-S3session-Token.
//
// The body: S3's (a PutObject's, say) is left out of the signature
// (UNSIGNED-PAYLOAD), to be chosen by whoever sends the URL; an awsQuery
// or ec2Query form is moved into the URL's query, as botocore moves it;
// any other operation whose request has a body cannot be presigned. Only
// SigV4 presigns: an operation signed otherwise, or without credentials,
// fails with KindUsage. WithCallHeader adds signed headers;
// WithSigningTime signs as of another time.
func (c *Client) Presign(ctx context.Context, operation string, input []byte, expires time.Duration, opts ...CallOption) (*Presigned, error) {
	ctx, co, cancel := applyCallOptions(ctx, opts)
	defer cancel()
	op, err := c.svc.Operation(operation)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	return c.presign(ctx, op, input, expires, co, crossRegion{})
}

// crossRegion is where presign signs for instead of the client's region
// (the zero value: the client's): a request to region's endpoint, signed
// for region, sent as a GET without headers, its form with name=value
// added, as botocore presigns RDS's PreSignedUrl.
type crossRegion struct{ region, name, value string }

// presign is Presign of op, for another region with to.
func (c *Client) presign(ctx context.Context, op *model.Operation, input []byte, expires time.Duration, co callOptions, to crossRegion) (*Presigned, error) {
	plan := c.plan(op)
	if plan.eventStream || plan.inEvents != "" {
		return nil, usageError(op.Shape.ID, "presigning %s: an event stream cannot be presigned", op.Name)
	}
	if expires < time.Second || expires > sigv4.MaxExpires {
		return nil, usageError(op.Shape.ID, "presigning %s: the expiry %s is not between 1s and 168h0m0s (7 days)", op.Name, expires)
	}
	var err error
	if input, err = plan.custom.Input(input); err != nil {
		return nil, usageError(op.Shape.ID, "%v", err)
	}
	req, _, ep, e := c.encodeRequest(ctx, op, plan, input, nil, co.header, to.region, nil)
	if e != nil {
		return nil, e
	}
	if to.region != "" {
		req.Method = "GET"
		if len(req.Body) > 0 {
			req.Body = append(append(append(req.Body[:len(req.Body):len(req.Body)], '&'), url.QueryEscape(to.name)...), '=')
			req.Body = append(req.Body, url.QueryEscape(to.value)...)
		}
	}
	if err := plan.custom.Request(&awscustom.Request{Request: req, Input: input, HashBody: (&callBody{}).hashBody(req)}); err != nil {
		return nil, usageError(op.Shape.ID, "%v", err)
	}
	_, auth, e := c.authenticate(ctx, op, plan.auth, req, ep.signing)
	if e != nil {
		return nil, e
	}
	signer := auth.sigV4()
	if signer == nil {
		return nil, usageError(op.Shape.ID, "presigning %s: only aws.auth#sigv4 presigns, and no AWS credentials are given for it", op.Name)
	}
	creds, err := auth.aws.Retrieve(ctx)
	if err != nil {
		if auth.express {
			return nil, expressError(op.Shape.ID, err)
		}
		return nil, identityError(op.Shape.ID, err)
	}
	if auth.express { // an S3 Express session's token, signed in the query
		req.URL = appendQuery(req.URL, expressToken+"="+url.QueryEscape(creds.SessionToken))
		creds.SessionToken = ""
	}
	signer.setCredentials(creds)
	if to.region != "" {
		signer.Region = to.region
	}

	payload := sigv4.PayloadHash(nil)
	switch p := c.codec.Protocol(); {
	case signer.s3:
		payload = sigv4.UnsignedPayload
		if !headerGiven(op, input, "Content-Type") {
			req.Header.Del("Content-Type") // the codec's, for a body the sender chooses
		}
	case len(req.Body) == 0:
	case (p == protocol.AWSQuery || p == protocol.EC2Query) && strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded"):
		req.URL = appendQuery(req.URL, string(req.Body))
		req.Header.Del("Content-Type")
	default:
		return nil, usageError(op.Shape.ID, "presigning %s: its request has a body (%d bytes), which a presigned URL cannot carry", op.Name, len(req.Body))
	}
	for _, name := range []string{"Content-Length", sigv4.ContentSHA256Header} {
		req.Header.Del(name)
	}
	if to.region != "" {
		clear(req.Header)
	}
	at := co.signedAt
	if at.IsZero() {
		at = time.Now()
	}
	p, err := signer.Presign(sigv4.Request{Method: req.Method, URL: req.URL, Header: req.Header, PayloadHash: payload}, at, expires)
	if err != nil {
		return nil, usageError(op.Shape.ID, "presigning %s: %v", op.Name, err)
	}
	out := &Presigned{URL: p.URL, Method: req.Method, SignedHeader: wire.Header{}, Expires: at.Add(expires.Truncate(time.Second))}
	for _, name := range strings.Split(p.SignedHeaders, ";") {
		if name != "host" {
			out.SignedHeader[wire.CanonicalHeaderKey(name)] = req.Header.Values(name)
		}
	}
	return out, nil
}

// MarshalJSON is the form the C API and the command line give:
// {"url", "method", "headers": {name: values joined by ","}, "expires":
// RFC 3339 in UTC}, the URL's '&' unescaped (json.Marshal of a Presigned
// escapes it as \u0026).
func (p *Presigned) MarshalJSON() ([]byte, error) {
	headers := make(map[string]string, len(p.SignedHeader))
	for name, vs := range p.SignedHeader {
		headers[name] = strings.Join(vs, ",")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the URL's '&' as is
	err := enc.Encode(struct {
		URL     string            `json:"url"`
		Method  string            `json:"method"`
		Headers map[string]string `json:"headers"`
		Expires string            `json:"expires"`
	}{p.URL, p.Method, headers, p.Expires.UTC().Format(time.RFC3339)})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// headerGiven reports whether input sets op's input member bound to
// header (@httpHeader), as against a value the codec sets by itself.
func headerGiven(op *model.Operation, input []byte, header string) bool {
	for _, mem := range op.Input.Members {
		if h, ok := mem.Traits.Get(model.TraitHTTPHeader); ok && strings.EqualFold(h.Str(), header) {
			var doc map[string]json.RawMessage
			if json.Unmarshal(input, &doc) != nil {
				return true // the codec accepted it: keep what it made of it
			}
			v, ok := doc[mem.Name()]
			return ok && string(v) != "null"
		}
	}
	return false
}

// crossRegionPresigner presigns op for the customizations that send a
// presigned URL of it (awscustom.Presigner), valid for an hour as
// botocore's.
func (c *Client) crossRegionPresigner(op *model.Operation) awscustom.Presigner {
	return func(ctx context.Context, input []byte, region, name, value string) (string, error) {
		p, err := c.presign(ctx, op, input, time.Hour, callOptions{}, crossRegion{region: region, name: name, value: value})
		if err != nil {
			return "", err
		}
		return p.URL, nil
	}
}
