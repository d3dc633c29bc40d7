package client

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

// knownSchemes are the auth traits planAuth looks for on a service.
var knownSchemes = []model.ShapeID{model.TraitHTTPAPIKeyAuth, model.TraitHTTPBasicAuth, model.TraitHTTPBearerAuth,
	model.TraitHTTPDigestAuth, model.TraitSigV4}

// AWSCredentials sign requests with AWS Signature Version 4.
type AWSCredentials struct {
	AccessKeyID, SecretAccessKey, SessionToken string
	Region                                     string
}

// credentials are what the caller gave for each scheme; nil means none.
// New puts each provider behind an identity.Cache (see cache).
type credentials struct {
	bearer, apiKey identity.Provider[identity.Token]
	user, password string
	hasBasic       bool
	digest         *transport.Digest // WithDigestAuth
	aws            identity.Provider[identity.AWS]
	awsRegion      string // WithAWSCredentials' Region
	awsMissing     string // the key WithAWSCredentials lacks when it gave one only
	awsDefault     bool   // aws is defaultAWSProvider's: finding nothing is having none
}

// CheckCredential returns a credential as the client uses it: with one
// trailing newline ("\n" or "\r\n", how a token file read whole ends)
// removed. Any other control character is an error that says which
// credential (what, e.g. "bearer token") and where, never the value.
func CheckCredential(what, v string) (string, error) {
	if strings.HasSuffix(v, "\r\n") {
		v = v[:len(v)-2]
	} else if strings.HasSuffix(v, "\n") {
		v = v[:len(v)-1]
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c == 0x7f {
			return "", fmt.Errorf("the %s contains a control character (byte %d of %d; the value is not shown)", what, i+1, len(v))
		}
	}
	return v, nil
}

// clean applies CheckCredential to every credential given as a value;
// a provider's are checked as each call takes them.
func (c *credentials) clean() error {
	for _, t := range []*identity.Provider[identity.Token]{&c.bearer, &c.apiKey} {
		if s, ok := (*t).(*static[identity.Token]); ok {
			what := "bearer token"
			if t == &c.apiKey {
				what = "API key"
			}
			v, err := CheckCredential(what, s.v.Value)
			if err != nil {
				return err
			}
			cleaned := *s
			cleaned.v.Value = v
			*t = &cleaned
		}
	}
	if s, ok := c.aws.(*static[identity.AWS]); ok {
		v, err := checkAWS(s.v)
		if err != nil {
			return err
		}
		c.aws = &static[identity.AWS]{v: v, name: s.name}
	}
	var err error
	if c.awsRegion, err = CheckCredential("AWS region", c.awsRegion); err != nil {
		return err
	}
	if c.hasBasic {
		if c.user, err = CheckCredential("basic auth user", c.user); err != nil {
			return err
		}
		if c.password, err = CheckCredential("basic auth password", c.password); err != nil {
			return err
		}
	}
	if c.digest != nil {
		d := *c.digest
		if d.User, err = CheckCredential("digest auth user", d.User); err != nil {
			return err
		}
		if d.Password, err = CheckCredential("digest auth password", d.Password); err != nil {
			return err
		}
		c.digest = &d
	}
	if strings.Contains(c.user, ":") {
		return errors.New("the basic auth user must not contain ':'")
	}
	return nil
}

func (c *credentials) has(scheme model.ShapeID) bool {
	switch scheme {
	case model.TraitHTTPBearerAuth:
		return c.bearer != nil
	case model.TraitHTTPBasicAuth:
		return c.hasBasic
	case model.TraitHTTPAPIKeyAuth:
		return c.apiKey != nil
	case model.TraitSigV4:
		return c.aws != nil
	case model.TraitHTTPDigestAuth:
		return c.digest != nil
	}
	return false
}

// UnusedCredentials names the credentials given to the client (e.g.
// "bearer token") that no operation of its service can send: the service
// and its operations list no auth scheme that takes them. A front end can
// warn about them; the client itself ignores them, as the AWS SDKs do.
func (c *Client) UnusedCredentials() []string {
	given := []struct {
		scheme model.ShapeID
		what   string
	}{{model.TraitHTTPBearerAuth, "bearer token"}, {model.TraitHTTPBasicAuth, "basic auth"},
		{model.TraitHTTPAPIKeyAuth, "API key"}, {model.TraitSigV4, "AWS credentials"},
		{model.TraitHTTPDigestAuth, "digest auth"}}
	usable := map[model.ShapeID]bool{}
	for _, op := range c.svc.Operations {
		for _, s := range planAuth(c.svc.Shape, op.Shape, nil).schemes {
			usable[s] = true
		}
	}
	var unused []string
	for _, g := range given {
		if c.opts.creds.has(g.scheme) && !usable[g.scheme] { // opts: what the caller gave, not the environment
			unused = append(unused, g.what)
		}
	}
	return unused
}

// authPlan is the auth of one operation: the schemes in priority order and
// whether the operation may be called without any.
type authPlan struct {
	schemes  []model.ShapeID
	optional bool
}

// planAuth resolves the auth schemes of op: the operation's @auth, else the
// service's @auth, else every auth trait of the service in id order (the
// built-in ones and custom, those of WithAuthScheme it has).
func planAuth(svc, op *model.Shape, custom []model.ShapeID) authPlan {
	var schemes []model.ShapeID
	if v, ok := svc.Trait(model.TraitAuth); ok {
		for _, item := range v.Items() {
			schemes = append(schemes, model.ShapeID(item.Str()))
		}
	} else {
		for _, id := range knownSchemes {
			if svc.HasTrait(id) {
				schemes = append(schemes, id)
			}
		}
		for _, id := range custom {
			if !slices.Contains(schemes, id) {
				schemes = append(schemes, id)
			}
		}
		sort.Slice(schemes, func(i, j int) bool { return schemes[i] < schemes[j] })
	}
	if v, ok := op.Trait(model.TraitAuth); ok {
		schemes = schemes[:0:0]
		for _, item := range v.Items() {
			schemes = append(schemes, model.ShapeID(item.Str()))
		}
	}
	return authPlan{schemes: schemes, optional: len(schemes) == 0 || op.HasTrait(model.TraitOptionalAuth)}
}

// authenticate picks the first scheme of the plan the caller has
// credentials for and returns how to apply it to each attempt (nil when
// nothing is to be re-applied), and the query parameter value to redact,
// if any. sig is what the resolved endpoint's authSchemes say about SigV4.
func (c *Client) authenticate(ctx context.Context, op *model.Operation, plan authPlan, req *transport.Request, sig signingOverride) (secret string, auth *callAuth, err *Error) {
	var notFound error // the default AWS credentials' search, when it found none
	for _, scheme := range plan.schemes {
		if sign := c.opts.schemes[scheme]; sign != nil {
			trait, _ := c.svc.Shape.Trait(scheme)
			return "", &callAuth{custom: &customAuth{scheme: scheme, trait: trait, sign: sign, op: op}}, nil
		}
		if !c.creds.has(scheme) {
			continue
		}
		switch scheme {
		case model.TraitHTTPBearerAuth:
			return "", &callAuth{token: c.creds.bearer, header: "Authorization", prefix: "Bearer "}, nil
		case model.TraitHTTPDigestAuth:
			req.Digest = c.creds.digest
		case model.TraitHTTPBasicAuth:
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.creds.user+":"+c.creds.password)))
		case model.TraitHTTPAPIKeyAuth:
			return c.applyAPIKey(ctx, op, req)
		case model.TraitSigV4:
			if sig.unsupported != "" {
				return "", nil, usageError(op.Shape.ID, "the endpoint needs an auth scheme smithycurl cannot sign with (%s)", sig.unsupported)
			}
			signing, _ := c.svc.Shape.Trait(model.TraitSigV4)
			nameNode, _ := signing.Get("name")
			name := nameNode.Str()
			if sig.name != "" {
				name = sig.name
			}
			region := sig.region
			if region == "" {
				region = c.signingRegion()
			}
			regionSet := sig.regionSet
			switch {
			case regionSet == nil: // SigV4
			case c.opts.sigv4aRegionSet != nil:
				regionSet = c.opts.sigv4aRegionSet // the AWS settings' sigv4a_signing_region_set
			case len(regionSet) == 0 && region != "":
				regionSet = []string{region} // sigv4a without signingRegionSet
			}
			if region == "" && len(regionSet) == 0 {
				return "", nil, usageError(op.Shape.ID, "aws.auth#sigv4 needs a region: set AWS_REGION or give one with the credentials")
			}
			if c.creds.awsDefault {
				// As with no AWS credentials at all: the next scheme, or none.
				if _, err := c.creds.aws.Retrieve(ctx); foundNone(err) {
					notFound = err
					continue
				} else if err != nil {
					return "", nil, identityError(op.Shape.ID, err)
				}
			}
			signer := newRequestSigner(identity.AWS{}, region, name, &c.sigKeys)
			signer.RegionSet = regionSet
			if sig.express && sig.bucket != "" && op.Name != "CreateSession" { // CreateSession makes the sessions
				return "", &callAuth{aws: &expressProvider{c: c, bucket: sig.bucket}, signer: signer, express: true}, nil
			}
			return "", &callAuth{aws: c.creds.aws, signer: signer}, nil
		}
		return "", nil, nil
	}
	if plan.optional {
		return "", nil, nil
	}
	names := make([]string, len(plan.schemes))
	for i, s := range plan.schemes {
		names[i] = string(s)
	}
	if half := c.creds.awsMissing; half != "" {
		return "", nil, usageError(op.Shape.ID, "%s requires authentication with one of [%s]; the AWS credentials lack the %s",
			op.Name, strings.Join(names, ", "), half)
	}
	if notFound != nil {
		return "", nil, usageError(op.Shape.ID, "%s requires authentication with one of [%s]; no credentials were given for them (%v)",
			op.Name, strings.Join(names, ", "), notFound)
	}
	return "", nil, usageError(op.Shape.ID, "%s requires authentication with one of [%s]; no credentials were given for them",
		op.Name, strings.Join(names, ", "))
}

// signingRegion is the region SigV4 signs for when the endpoint rules
// name none: WithAWSCredentials' region, else the client's ("" for none).
func (c *Client) signingRegion() string {
	if c.creds.awsRegion != "" {
		return c.creds.awsRegion
	}
	return c.region
}

// applyAPIKey puts the API key in the query now, or returns how to put it
// in its header on each attempt.
func (c *Client) applyAPIKey(ctx context.Context, op *model.Operation, req *transport.Request) (string, *callAuth, *Error) {
	v, _ := c.svc.Shape.Trait(model.TraitHTTPAPIKeyAuth)
	name, _ := v.Get("name")
	in, _ := v.Get("in")
	a := &callAuth{token: c.creds.apiKey, header: name.Str()}
	if in.Str() != "query" {
		if scheme, ok := v.Get("scheme"); ok && scheme.Str() != "" {
			a.prefix = scheme.Str() + " "
		}
		return "", a, nil
	}
	key, e := a.tokenValue(ctx, op.Shape.ID)
	if e != nil {
		return "", nil, e
	}
	req.URL = appendQuery(req.URL, url.QueryEscape(name.Str())+"="+url.QueryEscape(key))
	return url.QueryEscape(key), nil, nil
}

// appendQuery adds an encoded query part ("name=value&...") to rawURL.
func appendQuery(rawURL, part string) string {
	if strings.Contains(rawURL, "?") {
		return rawURL + "&" + part
	}
	return rawURL + "?" + part
}
