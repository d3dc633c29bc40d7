package credentials

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// The operations of STS, SSO and SSO-OIDC the providers call, as their
// AWS models define them (models_test.go compares them).
//
//go:embed models/*.smithy
var models embed.FS

// awsService is one of the embedded services, loaded when first called.
type awsService struct {
	file, id string // the model file, the service shape
	sdkID    string // its aws.api#service sdkId, which names its endpoint settings
	name     string // for messages

	once  sync.Once
	svc   *model.Service
	codec protocol.Codec
	err   error
}

var (
	stsService  = &awsService{file: "models/sts.smithy", id: "com.amazonaws.sts#AWSSecurityTokenServiceV20110615", sdkID: "STS", name: "STS"}
	ssoService  = &awsService{file: "models/sso.smithy", id: "com.amazonaws.sso#SWBPortalService", sdkID: "SSO", name: "SSO"}
	oidcService = &awsService{file: "models/sso-oidc.smithy", id: "com.amazonaws.ssooidc#AWSSSOOIDCService", sdkID: "SSO OIDC", name: "SSO-OIDC"}
)

func (s *awsService) load() error {
	s.once.Do(func() {
		src, err := models.ReadFile(s.file)
		if err != nil {
			s.err = err
			return
		}
		l := model.NewLoader()
		l.AddSource(s.file, src)
		m, _, err := l.Load(context.Background())
		if err != nil {
			s.err = err
			return
		}
		if s.svc, err = m.Service(model.ShapeID(s.id)); err != nil {
			s.err = err
			return
		}
		s.codec, s.err = protocol.New(m, s.svc)
	})
	return s.err
}

var (
	curlMu sync.Mutex
	curls  = map[string]*transport.Curl{} // by CA bundle
)

// maxResponse bounds a response of STS, SSO or SSO-OIDC (they are a few
// kilobytes).
const maxResponse = 1 << 20

// httpClient is the transport of the calls to STS, SSO and SSO-OIDC
// that trust the CA bundle ca ("" for the system's).
func httpClient(ca string) (*transport.Curl, error) {
	curlMu.Lock()
	defer curlMu.Unlock()
	if c := curls[ca]; c != nil {
		return c, nil
	}
	c, err := transport.New(transport.Config{MaxResponseBytes: maxResponse, CAFile: ca})
	if err != nil {
		return nil, err
	}
	curls[ca] = c
	return c, nil
}

// target is where a service is called: its endpoint and the CA bundle
// (AWS_CA_BUNDLE, ca_bundle) it is trusted with.
type target struct{ url, ca string }

// defaultCallTimeout bounds a call to STS, SSO or SSO-OIDC when
// Options.Timeout is 0.
const defaultCallTimeout = 30 * time.Second

// callAttempts bounds the sends of one call to STS, SSO or SSO-OIDC.
const callAttempts = 3

// sendAgain is the rule of a call's attempts: a send that failed on the
// way (a reset, a refused connection, a reply that is not HTTP, a reused
// connection that died before any response) is sent again within the
// call's time, as the SDKs' standard retry mode does for every operation:
// these calls only issue credentials, so a second copy is harmless. Each
// send is an attempt: libcurl is not let to re-send on its own.
func sendAgain(ctx context.Context, err error) bool {
	var te *transport.Error
	return ctx.Err() == nil && errors.As(err, &te) && (te.Kind == transport.KindOther || te.Kind == transport.KindConnect)
}

// call sends operation op of s to ep with input, signed by signer
// when it is not nil, and decodes the output into out. secrets are
// removed from any error.
func (s *awsService) call(ctx context.Context, opts *Options, ep target, op string, input any, signer *sigv4.Signer, out any, secrets ...string) error {
	err := s.send(ctx, opts, ep, op, input, signer, out)
	if err != nil {
		return redact(fmt.Errorf("%s %s: %w", s.name, op, err), secrets...)
	}
	return nil
}

func (s *awsService) send(ctx context.Context, opts *Options, ep target, op string, input any, signer *sigv4.Signer, out any) error {
	if err := s.load(); err != nil {
		return fmt.Errorf("embedded model: %w", err)
	}
	o, err := s.svc.Operation(op)
	if err != nil {
		return err
	}
	doc, err := json.Marshal(input)
	if err != nil {
		return err
	}
	req, err := s.codec.EncodeRequest(ctx, o, doc)
	if err != nil {
		return err
	}
	c, err := httpClient(ep.ca)
	if err != nil {
		return err
	}
	timeout := defaultCallTimeout
	if opts != nil && opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Not Idempotent: libcurl's own re-send on a fresh connection is
	// refused, and a send again is an attempt of the loop below.
	treq := &transport.Request{Method: req.Method, URL: strings.TrimRight(ep.url, "/") + req.Path, Header: req.Header, Body: req.Body}
	if treq.Header == nil {
		treq.Header = wire.Header{}
	}
	if signer != nil {
		if _, err := signer.Sign(sigv4.Request{Method: treq.Method, URL: treq.URL, Header: treq.Header, PayloadHash: sigv4.PayloadHash(treq.Body)}, opts.now()); err != nil {
			return err
		}
	}
	var resp *wire.Response
	for attempt := 1; ; attempt++ {
		if resp, err = c.Do(ctx, treq); err == nil || attempt >= callAttempts || !sendAgain(ctx, err) {
			break
		}
	}
	if err != nil {
		return err
	}
	body, err := s.codec.DecodeResponse(ctx, o, resp)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("response: %w", err)
	}
	return nil
}

// redact replaces each secret in err's message, keeping errors.Is for
// ErrNotFound.
func redact(err error, secrets ...string) error {
	msg := err.Error()
	changed := false
	for _, s := range secrets {
		if len(s) >= 4 && strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, "REDACTED")
			changed = true
		}
	}
	if !changed {
		return err
	}
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%s: %w", msg, ErrNotFound)
	}
	return errors.New(msg)
}

// endpoint is a service's target for profile: the configured endpoint
// (AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL, the profile's services
// section and endpoint_url; awsconfig.Settings) or def, and the CA
// bundle.
func endpoint(cfg *awsconfig.Config, profile string, s *awsService, def string) (target, error) {
	st, err := cfg.Settings(profile, s.sdkID)
	if err != nil {
		return target{}, err
	}
	t := target{url: def, ca: cfg.Env.Path(st.CABundle.V)}
	if st.EndpointURL.V != "" {
		t.url = st.EndpointURL.V
	}
	return t, nil
}

// stsEndpoint is STS's endpoint and signing region for profile:
// Options.Region (the caller's), else the region of the environment or
// the profile (awsconfig.Settings); regional, or without a region the
// global endpoint signed for us-east-1, as botocore does
// (sts_regional_endpoints=regional, its default; the Go SDK fails
// without a region instead).
func stsEndpoint(cfg *awsconfig.Config, profile string, opts *Options) (ep target, signingRegion string, err error) {
	region := opts.Region
	if region == "" {
		st, err := cfg.Settings(profile, stsService.sdkID)
		if err != nil {
			return target{}, "", err
		}
		region = st.Region.V
	}
	def, signingRegion := "https://sts.amazonaws.com", "us-east-1"
	if region != "" {
		def, signingRegion = "https://sts."+region+".amazonaws.com", region
	}
	ep, err = endpoint(cfg, profile, stsService, def)
	return ep, signingRegion, err
}

// stsCredentials is the Credentials of an STS response.
type stsCredentials struct {
	AccessKeyID     string    `json:"AccessKeyId"`
	SecretAccessKey string    `json:"SecretAccessKey"`
	SessionToken    string    `json:"SessionToken"`
	Expiration      time.Time `json:"Expiration"`
}

type stsOutput struct {
	Credentials *stsCredentials `json:"Credentials"`
}

func (o *stsOutput) identity(op, source string) (identity.AWS, error) {
	c := o.Credentials
	if c == nil || c.AccessKeyID == "" || c.SecretAccessKey == "" || c.SessionToken == "" || c.Expiration.IsZero() {
		return identity.AWS{}, fmt.Errorf("STS %s: the response has no complete Credentials", op)
	}
	id := identity.AWS{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken, Expires: c.Expiration, Source: source}
	if err := checkCreds(id); err != nil {
		return identity.AWS{}, fmt.Errorf("STS %s: %w", op, err)
	}
	return id, nil
}

// assumeRole is an STS AssumeRole call's parameters.
type assumeRole struct {
	ep              target // STS
	region          string // the signing region
	roleARN         string
	sessionName     string
	externalID      string
	mfaSerial       string
	durationSeconds int
	source          identity.Provider[identity.AWS] // signs the call
	opts            Options
	where           string // for Source and messages
}

type assumeRoleInput struct {
	RoleArn         string
	RoleSessionName string
	ExternalId      string `json:",omitempty"`
	SerialNumber    string `json:",omitempty"`
	TokenCode       string `json:",omitempty"`
	DurationSeconds int    `json:",omitempty"`
}

// Retrieve calls AssumeRole signed with the source credentials. With an
// MFA device it asks Options.MFA for a code each time (botocore refuses
// to refresh such credentials; the Go SDK asks again, as here).
func (a *assumeRole) Retrieve(ctx context.Context) (identity.AWS, error) {
	src, err := a.source.Retrieve(ctx)
	if err != nil {
		return identity.AWS{}, fmt.Errorf("assume-role: %s: source credentials: %w", a.where, notFoundAsError(err))
	}
	in := assumeRoleInput{RoleArn: a.roleARN, RoleSessionName: a.sessionName, ExternalId: a.externalID, DurationSeconds: a.durationSeconds}
	if a.mfaSerial != "" {
		if a.opts.MFA == nil {
			return identity.AWS{}, fmt.Errorf("assume-role: %s: mfa_serial is set but no MFA code callback was given (Options.MFA)", a.where)
		}
		code, err := a.opts.MFA(a.mfaSerial)
		if err != nil {
			return identity.AWS{}, fmt.Errorf("assume-role: %s: MFA code for %s: %w", a.where, a.mfaSerial, err)
		}
		in.SerialNumber, in.TokenCode = a.mfaSerial, code
	}
	signer := &sigv4.Signer{Credentials: sigv4.Credentials{AccessKeyID: src.AccessKeyID, SecretAccessKey: src.SecretAccessKey, SessionToken: src.SessionToken}, Region: a.region, Service: "sts"}
	var out stsOutput
	if err := stsService.call(ctx, &a.opts, a.ep, "AssumeRole", in, signer, &out, src.SecretAccessKey, src.SessionToken, in.TokenCode); err != nil {
		return identity.AWS{}, fmt.Errorf("assume-role: %s: %w", a.where, err)
	}
	return out.identity("AssumeRole", "assume-role: "+a.where)
}

// notFoundAsError turns a source's "no credentials" into a plain error:
// a role's source must give credentials, the chain must not move on.
func notFoundAsError(err error) error {
	if errors.Is(err, ErrNotFound) {
		return errors.New(err.Error())
	}
	return err
}

// webIdentity is an STS AssumeRoleWithWebIdentity call's parameters.
type webIdentity struct {
	ep          target // STS
	tokenFile   string
	roleARN     string
	sessionName string
	opts        Options
	where       string
}

type webIdentityInput struct {
	RoleArn          string
	RoleSessionName  string
	WebIdentityToken string
}

// maxTokenFile bounds a web identity token file (STS takes 20,000 bytes).
const maxTokenFile = 64 << 10

// Retrieve reads the token file (again each time: it is rotated) and
// calls AssumeRoleWithWebIdentity unsigned.
func (w *webIdentity) Retrieve(ctx context.Context) (identity.AWS, error) {
	token, err := readCapped(w.tokenFile, maxTokenFile)
	if err != nil {
		return identity.AWS{}, fmt.Errorf("assume-role-with-web-identity: %s: token file: %w", w.where, err)
	}
	if len(token) == 0 {
		return identity.AWS{}, fmt.Errorf("assume-role-with-web-identity: %s: token file %s is empty", w.where, w.tokenFile)
	}
	in := webIdentityInput{RoleArn: w.roleARN, RoleSessionName: w.sessionName, WebIdentityToken: string(token)}
	var out stsOutput
	if err := stsService.call(ctx, &w.opts, w.ep, "AssumeRoleWithWebIdentity", in, nil, &out, in.WebIdentityToken); err != nil {
		return identity.AWS{}, fmt.Errorf("assume-role-with-web-identity: %s: %w", w.where, err)
	}
	return out.identity("AssumeRoleWithWebIdentity", "assume-role-with-web-identity: "+w.where)
}

// defaultSessionName is botocore's role session name when none is set.
func defaultSessionName(opts *Options) string {
	return fmt.Sprintf("botocore-session-%d", opts.now().Unix())
}
