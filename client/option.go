package client

import (
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Option configures a Client.
type Option interface{ apply(*options) }

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

type options struct {
	transport    transport.Config
	custom       transport.Transport
	retry        RetryPolicy
	codec        []protocol.Option
	creds        credentials
	noHostPrefix bool
	observer     func(Attempt)
	interceptors []Interceptor                // WithInterceptors
	tracer       Tracer                       // WithTracer
	schemes      map[model.ShapeID]AuthSigner // WithAuthScheme
	trace        func(transport.TraceEvent)
	endpoint     endpointOptions
	waitDelays   [2]time.Duration // WithWaiterDelays: minDelay, maxDelay (0: the waiter's)
	engine       engineOptions
	retrySet     bool              // WithRetryPolicy, WithoutRetries: the AWS settings' max attempts do not apply
	retryMode    RetryMode         // WithRetryMode ("" until New: the AWS settings', else standard)
	appID        string            // WithAppID, else the AWS settings'
	appIDFrom    string            // where appID is set, for its error ("": nowhere)
	frontEnd     [2]string         // WithFrontEnd: name, version ("": go)
	profile      string            // WithProfile
	awsConfig    *awsconfig.Config // WithAWSConfig
	env          awsconfig.Env     // WithEnv
	// sigv4aRegionSet, from the AWS settings, replaces the endpoint
	// rules' signingRegionSet.
	sigv4aRegionSet []string
	// checksums: WithRequestChecksumCalculation, WithResponseChecksumValidation
	// ("" until New: the AWS settings', else ChecksumWhenSupported).
	checksums checksumOptions
	// compression: WithoutRequestCompression, WithRequestMinCompressionSize.
	compression compressionOptions
	responder   Responder         // WithResponder
	discovery   EndpointDiscovery // WithEndpointDiscovery ("" until New)
}

// engineOptions configure the client's asynchronous engine.
type engineOptions struct {
	all                bool // WithEngine: every call goes through it
	maxTransfers       int  // 0: the default
	maxHostConnections int  // 0: the default
}

// WithEngine sends every call of the client through its asynchronous
// engine (see ViaEngine): calls from many goroutines share one libcurl
// multi loop, so 10,000 calls in flight do not need 10,000 OS threads.
// Paginators and waiters, which make their calls with Call, use it too;
// event streams (CallStream) keep the blocking path.
func WithEngine() Option { return optionFunc(func(o *options) { o.engine.all = true }) }

// WithEngineLimits bounds the asynchronous engine: at most maxTransfers
// requests in flight at once (the others wait their turn in order, holding
// no connection; default 100, transport.DefaultMaxTransfers) and at most
// maxHostConnections connections to one host (HTTP/2 multiplexes streams
// on them; default: no bound beyond maxTransfers). 0 keeps a default;
// negative values make New fail.
func WithEngineLimits(maxTransfers, maxHostConnections int) Option {
	return optionFunc(func(o *options) {
		o.engine.maxTransfers, o.engine.maxHostConnections = maxTransfers, maxHostConnections
	})
}

// WithTimeout bounds each call, retries included (default 60 s). A ctx
// deadline that comes first wins.
func WithTimeout(d time.Duration) Option {
	return optionFunc(func(o *options) { o.transport.Timeout = d })
}

// WithConnectTimeout bounds connection set-up (default 10 s).
func WithConnectTimeout(d time.Duration) Option {
	return optionFunc(func(o *options) { o.transport.ConnectTimeout = d })
}

// WithMaxResponseBytes bounds the response body (default 64 MiB).
func WithMaxResponseBytes(n int64) Option {
	return optionFunc(func(o *options) { o.transport.MaxResponseBytes = n })
}

// WithWaiterDelays replaces the minDelay and maxDelay of every waiter Wait
// runs (0 keeps the waiter's own); WithWaitDelays overrides it per wait.
func WithWaiterDelays(minDelay, maxDelay time.Duration) Option {
	return optionFunc(func(o *options) { o.waitDelays = [2]time.Duration{minDelay, maxDelay} })
}

// WithRetryPolicy replaces DefaultRetryPolicy. Without it (or
// WithoutRetries), an AWS service takes its max attempts from
// AWS_MAX_ATTEMPTS or the profile's max_attempts.
func WithRetryPolicy(p RetryPolicy) Option {
	return optionFunc(func(o *options) { o.retry, o.retrySet = p, true })
}

// WithoutRetries sends each request once.
func WithoutRetries() Option {
	return optionFunc(func(o *options) { o.retry.MaxAttempts, o.retrySet = 1, true })
}

// WithHeader adds a header to every request that does not set it itself.
func WithHeader(name, value string) Option {
	return optionFunc(func(o *options) {
		if o.transport.DefaultHeader == nil {
			o.transport.DefaultHeader = wire.Header{}
		}
		o.transport.DefaultHeader.Add(name, value)
	})
}

// WithUserAgent replaces the default "smithycurl/<version>" User-Agent.
func WithUserAgent(ua string) Option {
	return optionFunc(func(o *options) { o.transport.UserAgent = ua })
}

// Credentials (WithBearerToken, WithBasicAuth, WithAPIKey,
// WithAWSCredentials and the AWS_* variables) lose one trailing newline
// ("\n" or "\r\n", how a token file read whole ends); any other control
// character makes New fail with an error that names the credential and
// never shows it (see CheckCredential).

// WithBearerToken authenticates with @httpBearerAuth.
func WithBearerToken(token string) Option {
	return optionFunc(func(o *options) { o.creds.bearer = staticToken(token, "WithBearerToken") })
}

// WithBasicAuth authenticates with @httpBasicAuth.
func WithBasicAuth(user, password string) Option {
	return optionFunc(func(o *options) { o.creds.user, o.creds.password, o.creds.hasBasic = user, password, true })
}

// WithAPIKey authenticates with @httpApiKeyAuth (header or query, as the model says).
func WithAPIKey(key string) Option {
	return optionFunc(func(o *options) { o.creds.apiKey = staticToken(key, "WithAPIKey") })
}

// WithAWSCredentials signs requests with aws.auth#sigv4. Without its keys,
// the standard AWS_* environment variables are used when the service needs
// them. Its Region is the region when no other option gives one.
func WithAWSCredentials(c AWSCredentials) Option {
	return optionFunc(func(o *options) {
		o.creds.aws, o.creds.awsRegion, o.creds.awsMissing = nil, c.Region, ""
		switch {
		case c.AccessKeyID != "" && c.SecretAccessKey != "":
			o.creds.aws = &static[identity.AWS]{name: "WithAWSCredentials", v: identity.AWS{AccessKeyID: c.AccessKeyID,
				SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken, Source: "WithAWSCredentials"}}
		case c.AccessKeyID != "":
			o.creds.awsMissing = "secret access key"
		case c.SecretAccessKey != "":
			o.creds.awsMissing = "access key id"
		}
	})
}

// TLSConfig holds the TLS options. Verification is on unless InsecureSkipVerify.
type TLSConfig struct {
	CAFile             string // PEM bundle of trusted CAs; empty: the system store
	CertFile, KeyFile  string // client certificate and key (PEM)
	InsecureSkipVerify bool   // DANGEROUS: turns off peer and host verification; tests only
}

// WithTLS sets the TLS options.
func WithTLS(c TLSConfig) Option {
	return optionFunc(func(o *options) {
		o.transport.CAFile, o.transport.ClientCertFile, o.transport.ClientKeyFile = c.CAFile, c.CertFile, c.KeyFile
		o.transport.InsecureSkipVerify = c.InsecureSkipVerify
	})
}

// WithProxy sends requests through a proxy ("-" disables libcurl's
// *_proxy environment variables, which apply otherwise).
func WithProxy(proxyURL string) Option {
	return optionFunc(func(o *options) { o.transport.Proxy = proxyURL })
}

// WithHTTPVersion selects HTTP/1.1, automatic HTTP/2 over TLS, or h2c.
func WithHTTPVersion(v transport.HTTPVersion) Option {
	return optionFunc(func(o *options) { o.transport.HTTPVersion = v })
}

// WithValidation checks inputs against the model's constraint traits
// (@length, @range, @pattern, enum and intEnum values, @uniqueItems) before
// sending; a violation is a KindValidation error listing each one with its
// member path. Off by default, as the Smithy specification says for
// clients. @required members and the types of values (numbers in their
// type's range, base64 blobs, timestamps in years 0001 to 9999) are
// always checked.
func WithValidation() Option {
	return optionFunc(func(o *options) { o.codec = append(o.codec, protocol.WithValidation()) })
}

// WithoutValidation turns the constraint checks of WithValidation off (the
// default); @required and the type checks stay on.
func WithoutValidation() Option {
	return optionFunc(func(o *options) { o.codec = append(o.codec, protocol.WithoutValidation()) })
}

// WithoutHostPrefix ignores the endpoint trait's hostPrefix: neither the
// prefix nor its host labels are looked at.
func WithoutHostPrefix() Option {
	return optionFunc(func(o *options) {
		o.noHostPrefix = true
		o.codec = append(o.codec, protocol.WithoutHostPrefix())
	})
}

// WithCodecOptions passes options to the protocol codec.
func WithCodecOptions(opts ...protocol.Option) Option {
	return optionFunc(func(o *options) { o.codec = append(o.codec, opts...) })
}

// WithTrace receives each request and response (headers only) as sent and
// received, with Authorization and other credential headers redacted.
func WithTrace(f func(transport.TraceEvent)) Option {
	return optionFunc(func(o *options) { o.trace = f })
}

// Attempt describes one send of a call, for logging and metrics.
type Attempt struct {
	Operation string
	Number    int // 1 for the first send
	Status    int // 0 when no response arrived
	Took      time.Duration
	Err       error // nil on success
	// Response is the raw HTTP response (nil when none arrived). Its body
	// may hold @sensitive values: redact before logging.
	Response *wire.Response
}

// WithObserver calls f after every attempt.
func WithObserver(f func(Attempt)) Option { return optionFunc(func(o *options) { o.observer = f }) }

// WithTransport replaces the libcurl transport (tests, custom stacks); the
// transport options above then do not apply.
func WithTransport(t transport.Transport) Option {
	return optionFunc(func(o *options) { o.custom = t })
}
