package client

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"

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

// credentials are what the caller gave for each scheme; "" means none.
type credentials struct {
	bearer         string
	user, password string
	hasBasic       bool
	apiKey         string
	aws            *AWSCredentials
}

// awsFromEnv reads the standard AWS environment variables.
func awsFromEnv() *AWSCredentials {
	c := &AWSCredentials{
		AccessKeyID:     os.Getenv("AWS_ACCESS_KEY_ID"),
		SecretAccessKey: os.Getenv("AWS_SECRET_ACCESS_KEY"),
		SessionToken:    os.Getenv("AWS_SESSION_TOKEN"),
		Region:          os.Getenv("AWS_REGION"),
	}
	if c.Region == "" {
		c.Region = os.Getenv("AWS_DEFAULT_REGION")
	}
	if c.AccessKeyID == "" || c.SecretAccessKey == "" {
		return nil
	}
	return c
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

// clean applies CheckCredential to every credential given.
func (c *credentials) clean() error {
	type field struct {
		what string
		v    *string
	}
	fields := []field{{"bearer token", &c.bearer}, {"API key", &c.apiKey}}
	if c.hasBasic {
		fields = append(fields, field{"basic auth user", &c.user}, field{"basic auth password", &c.password})
	}
	if c.aws != nil {
		aws := *c.aws // the caller's copy stays as it was
		c.aws = &aws
		fields = append(fields, field{"AWS access key id", &aws.AccessKeyID}, field{"AWS secret access key", &aws.SecretAccessKey},
			field{"AWS session token", &aws.SessionToken}, field{"AWS region", &aws.Region})
	}
	for _, f := range fields {
		v, err := CheckCredential(f.what, *f.v)
		if err != nil {
			return err
		}
		*f.v = v
	}
	if strings.Contains(c.user, ":") {
		return errors.New("the basic auth user must not contain ':'")
	}
	return nil
}

func (c *credentials) has(scheme model.ShapeID) bool {
	switch scheme {
	case model.TraitHTTPBearerAuth:
		return c.bearer != ""
	case model.TraitHTTPBasicAuth:
		return c.hasBasic
	case model.TraitHTTPAPIKeyAuth:
		return c.apiKey != ""
	case model.TraitSigV4:
		return c.aws != nil && c.aws.AccessKeyID != "" && c.aws.SecretAccessKey != ""
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
		{model.TraitHTTPAPIKeyAuth, "API key"}, {model.TraitSigV4, "AWS credentials"}}
	usable := map[model.ShapeID]bool{}
	for _, op := range c.svc.Operations {
		for _, s := range planAuth(c.svc.Shape, op.Shape).schemes {
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

// missingAWS says which half of the AWS credentials is missing when only
// one was given ("" when both or neither were).
func (c *credentials) missingAWS() string {
	switch {
	case c.aws == nil || (c.aws.AccessKeyID == "") == (c.aws.SecretAccessKey == ""):
		return ""
	case c.aws.AccessKeyID == "":
		return "access key id"
	}
	return "secret access key"
}

// authPlan is the auth of one operation: the schemes in priority order and
// whether the operation may be called without any.
type authPlan struct {
	schemes  []model.ShapeID
	optional bool
}

// planAuth resolves the auth schemes of op: the operation's @auth, else the
// service's @auth, else every auth trait of the service in id order.
func planAuth(svc, op *model.Shape) authPlan {
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

// authenticate applies the first scheme of the plan the caller has
// credentials for. It returns the query parameter value to redact, if any,
// and for SigV4 the signer the request must be signed with once it is
// complete (and again before each retry). sig is what the resolved
// endpoint's authSchemes say about SigV4.
func (c *Client) authenticate(op *model.Operation, plan authPlan, req *transport.Request, sig signingOverride) (secret string, signer *requestSigner, err error) {
	for _, scheme := range plan.schemes {
		if !c.creds.has(scheme) {
			continue
		}
		switch scheme {
		case model.TraitHTTPBearerAuth:
			req.Header.Set("Authorization", "Bearer "+c.creds.bearer)
		case model.TraitHTTPBasicAuth:
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.creds.user+":"+c.creds.password)))
		case model.TraitHTTPAPIKeyAuth:
			secret, err := c.applyAPIKey(req)
			return secret, nil, err
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
				region = c.creds.aws.Region
			}
			if region == "" {
				region = c.region
			}
			if region == "" {
				return "", nil, usageError(op.Shape.ID, "aws.auth#sigv4 needs a region: set AWS_REGION or give one with the credentials")
			}
			signer = newRequestSigner(c.creds.aws, region, name, &c.sigKeys)
		}
		return "", signer, nil
	}
	if plan.optional {
		return "", nil, nil
	}
	names := make([]string, len(plan.schemes))
	for i, s := range plan.schemes {
		names[i] = string(s)
	}
	if half := c.creds.missingAWS(); half != "" {
		return "", nil, usageError(op.Shape.ID, "%s requires authentication with one of [%s]; the AWS credentials lack the %s",
			op.Name, strings.Join(names, ", "), half)
	}
	return "", nil, usageError(op.Shape.ID, "%s requires authentication with one of [%s]; no credentials were given for them",
		op.Name, strings.Join(names, ", "))
}

func (c *Client) applyAPIKey(req *transport.Request) (string, error) {
	v, _ := c.svc.Shape.Trait(model.TraitHTTPAPIKeyAuth)
	name, _ := v.Get("name")
	in, _ := v.Get("in")
	if in.Str() == "query" {
		sep := "?"
		if strings.Contains(req.URL, "?") {
			sep = "&"
		}
		req.URL += sep + url.QueryEscape(name.Str()) + "=" + url.QueryEscape(c.creds.apiKey)
		return url.QueryEscape(c.creds.apiKey), nil
	}
	value := c.creds.apiKey
	if scheme, ok := v.Get("scheme"); ok && scheme.Str() != "" {
		value = scheme.Str() + " " + value
	}
	req.Header.Set(name.Str(), value)
	return "", nil
}
