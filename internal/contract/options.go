package contract

// ClientOption is one option of a client and its name in each front end. A
// front end without it has "" there, and the table says why in a comment.
// Several rows may share a Go function or a C setter (WithTLS,
// smithycurl_options_set_tls): the row is per Python keyword.
type ClientOption struct {
	Name    string // the option, snake_case
	Type    string // its value, in words
	Default string // what applies without it
	Go      string // the function of package client that returns it
	C       string // the smithycurl_options_set_* or _add_* function that sets it
	Python  string // the keyword argument of Model.client
	PyValue string // that keyword's default, as Python source
	CLI     string // the flags of smithycurl call and wait, space-separated
	Doc     string // one line
}

// Callback is the Type of the options whose value is a function: C gives
// them their own scx_ entry point, not an SCX_OPT_* number.
const Callback = "callback"

// ClientOptions are every option of a client, in the order of export's
// SCX_OPT_* numbers (one per C setter) and of the README's table.
var ClientOptions = []ClientOption{
	{Name: "timeout", Type: "duration", Default: "60 s",
		Go: "WithTimeout", C: "smithycurl_options_set_timeout_ms", Python: "timeout", PyValue: "None", CLI: "--timeout",
		Doc: "bounds each call, retries included (C: milliseconds, Python: seconds)"},
	{Name: "connect_timeout", Type: "duration", Default: "10 s",
		Go: "WithConnectTimeout", C: "smithycurl_options_set_connect_timeout_ms", Python: "connect_timeout", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "bounds connection set-up"},
	{Name: "retries", Type: "attempts", Default: "3 attempts (AWS services: AWS_MAX_ATTEMPTS, max_attempts)",
		Go: "WithRetryPolicy", C: "smithycurl_options_set_retries", Python: "retries", PyValue: "True", CLI: "--retries",
		Doc: "sends of a call at most, when its failure is retried (the CLI counts retries: --retries 2 is 3 sends)"},
	{Name: "no_retries", Type: "switch", Default: "off",
		Go:     "WithoutRetries",
		C:      "", // smithycurl_options_set_retries(options, 0, 0)
		Python: "", // retries=False
		CLI:    "", // --retries 0
		Doc:    "sends each request once (C: set_retries(0, 0); Python: retries=False; CLI: --retries 0)"},
	{Name: "retry_mode", Type: "standard, adaptive", Default: "standard (AWS services: AWS_RETRY_MODE, retry_mode)",
		Go: "WithRetryMode", C: "smithycurl_options_set_retry_mode", Python: "retry_mode", PyValue: "None", CLI: "--retry-mode",
		Doc: "adaptive adds the AWS SDKs' client-side rate limiter: from the first throttle, sends wait for a token bucket whose rate follows CUBIC"},
	{Name: "validate", Type: "bool", Default: "off",
		Go: "WithValidation", C: "smithycurl_options_set_validation", Python: "validate", PyValue: "False", CLI: "--validate",
		Doc: "checks inputs against the model's constraint traits before sending (@required and value types always are)"},
	{Name: "no_validate", Type: "switch", Default: "on",
		Go:     "WithoutValidation",
		C:      "", // smithycurl_options_set_validation(options, 0)
		Python: "", // validate=False
		CLI:    "--no-validate",
		Doc:    "turns the constraint checks off again (C: set_validation(0); Python: validate=False)"},
	{Name: "max_response_bytes", Type: "bytes", Default: "64 MiB",
		Go: "WithMaxResponseBytes", C: "smithycurl_options_set_max_response_bytes", Python: "max_response_bytes", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "largest response body accepted (-1: no limit)"},
	{Name: "header", Type: "name, value (repeatable)", Default: "none",
		Go: "WithHeader", C: "smithycurl_options_add_header", Python: "headers", PyValue: "None", CLI: "-H",
		Doc: "a header for every request that does not set it itself"},
	{Name: "user_agent", Type: "string", Default: "smithycurl/VERSION",
		Go: "WithUserAgent", C: "smithycurl_options_set_user_agent", Python: "user_agent", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "replaces the User-Agent"},
	{Name: "bearer_token", Type: "string", Default: "none",
		Go: "WithBearerToken", C: "smithycurl_options_set_bearer_token", Python: "bearer_token", PyValue: "None", CLI: "--bearer",
		Doc: "credential of @httpBearerAuth"},
	{Name: "basic_auth", Type: "user, password", Default: "none",
		Go: "WithBasicAuth", C: "smithycurl_options_set_basic_auth", Python: "basic_auth", PyValue: "None", CLI: "--basic",
		Doc: "credentials of @httpBasicAuth (CLI: user:password)"},
	{Name: "api_key", Type: "string", Default: "none",
		Go: "WithAPIKey", C: "smithycurl_options_set_api_key", Python: "api_key", PyValue: "None", CLI: "--api-key",
		Doc: "credential of @httpApiKeyAuth"},
	{Name: "aws_credentials", Type: "access key id, secret, session token, region", Default: "the AWS_* variables",
		Go: "WithAWSCredentials", C: "smithycurl_options_set_aws_sigv4", Python: "aws_credentials", PyValue: "None",
		CLI: "--aws-access-key-id --aws-secret-access-key --aws-session-token",
		Doc: "signs with aws.auth#sigv4"},
	{Name: "aws_credentials_provider", Type: Callback, Default: "the default credential chain",
		Go: "WithAWSCredentialsProvider", C: "smithycurl_options_set_aws_credentials_fn", Python: "credentials", PyValue: "None",
		CLI: "", // --profile, or the chain
		Doc: "signs with aws.auth#sigv4 with the credentials a provider gives, cached and refreshed before they expire"},
	{Name: "bearer_token_provider", Type: Callback, Default: "none",
		Go: "WithBearerTokenProvider", C: "smithycurl_options_set_token_fn", Python: "token", PyValue: "None",
		CLI: "", // --bearer
		Doc: "@httpBearerAuth with the tokens a provider gives, cached and refreshed before they expire"},
	{Name: "api_key_provider", Type: Callback, Default: "none",
		Go:     "WithAPIKeyProvider",
		C:      "smithycurl_options_set_api_key_fn",
		Python: "", // api_key= takes a callable too
		CLI:    "", // --api-key
		Doc:    "@httpApiKeyAuth with the keys a provider gives, cached and refreshed before they expire (Python: api_key= a callable)"},
	{Name: "request_min_compression_size_bytes", Type: "bytes, 0 to 10485760", Default: "10240 (AWS services: AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES, request_min_compression_size_bytes)",
		Go: "WithRequestMinCompressionSize", C: "smithycurl_options_set_request_min_compression_size", Python: "request_min_compression_size_bytes", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "the smallest body @requestCompression compresses (a streaming payload never is)"},
	{Name: "disable_request_compression", Type: "switch", Default: "off (AWS services: AWS_DISABLE_REQUEST_COMPRESSION, disable_request_compression)",
		Go: "WithoutRequestCompression", C: "smithycurl_options_set_disable_request_compression", Python: "disable_request_compression", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "sends every body uncompressed, whatever @requestCompression says"},
	{Name: "app_id", Type: "string, at most 50 characters", Default: "AWS services: AWS_SDK_UA_APP_ID, sdk_ua_app_id",
		Go: "WithAppID", C: "smithycurl_options_set_app_id", Python: "app_id", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "names the application in an AWS service's User-Agent (app/ID)"},
	{Name: "front_end", Type: "name, version", Default: "go (C: c; Python: python and its version)",
		Go:     "WithFrontEnd",
		C:      "smithycurl_options_set_front_end",
		Python: "", // the package names itself
		CLI:    "", // the CLI is the Go front end
		Doc:    "names the language front end in an AWS service's User-Agent (lang/NAME#VERSION), for language bindings"},
	{Name: "ca_file", Type: "path", Default: "the system store (AWS services: AWS_CA_BUNDLE, ca_bundle)",
		Go: "WithTLS", C: "smithycurl_options_set_tls", Python: "ca_file", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "PEM bundle of trusted CAs (Go: TLSConfig.CAFile)"},
	{Name: "cert_file", Type: "path", Default: "none",
		Go: "WithTLS", C: "smithycurl_options_set_tls", Python: "cert_file", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "client certificate, PEM (Go: TLSConfig.CertFile)"},
	{Name: "key_file", Type: "path", Default: "none",
		Go: "WithTLS", C: "smithycurl_options_set_tls", Python: "key_file", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: "client certificate's key, PEM (Go: TLSConfig.KeyFile)"},
	{Name: "insecure", Type: "bool", Default: "off",
		Go: "WithTLS", C: "smithycurl_options_set_tls", Python: "insecure", PyValue: "False",
		CLI: "", // not yet a flag
		Doc: "turns TLS verification off: tests only (Go: TLSConfig.InsecureSkipVerify)"},
	{Name: "proxy", Type: "URL", Default: "libcurl's *_proxy variables",
		Go: "WithProxy", C: "smithycurl_options_set_proxy", Python: "proxy", PyValue: "None",
		CLI: "", // not yet a flag
		Doc: `sends requests through a proxy ("-": none, even with the variables set)`},
	{Name: "http_version", Type: "HTTP/1.1, auto, h2c", Default: "auto",
		Go:     "WithHTTPVersion",
		C:      "", // not in the C API yet
		Python: "", // goes through the C API
		CLI:    "", // not yet a flag
		Doc:    "HTTP/1.1 only, HTTP/2 by ALPN over TLS, or HTTP/2 over cleartext"},
	{Name: "host_prefix", Type: "bool", Default: "on",
		Go: "WithoutHostPrefix", C: "smithycurl_options_set_host_prefix", Python: "host_prefix", PyValue: "True", CLI: "--no-host-prefix",
		Doc: "off ignores the endpoint trait's hostPrefix and its host labels"},
	{Name: "region", Type: "string", Default: "AWS services: AWS_REGION, AWS_DEFAULT_REGION, the profile's region",
		Go: "WithRegion", C: "smithycurl_options_set_region", Python: "region", PyValue: "None", CLI: "--region",
		Doc: "the region the endpoint rules resolve for and SigV4 signs for"},
	{Name: "fips", Type: "bool", Default: "off (AWS services: AWS_USE_FIPS_ENDPOINT, use_fips_endpoint)",
		Go:     "WithFIPS",
		C:      "", // the endpoint parameter UseFIPS
		Python: "", // endpoint_params={"UseFIPS": True}
		CLI:    "--fips",
		Doc:    "asks the endpoint rules for a FIPS endpoint (C, Python: the UseFIPS endpoint parameter)"},
	{Name: "dual_stack", Type: "bool", Default: "off (AWS services: AWS_USE_DUALSTACK_ENDPOINT, use_dualstack_endpoint)",
		Go:     "WithDualStack",
		C:      "", // the endpoint parameter UseDualStack
		Python: "", // endpoint_params={"UseDualStack": True}
		CLI:    "--dual-stack",
		Doc:    "asks the endpoint rules for a dual-stack endpoint (C, Python: the UseDualStack endpoint parameter)"},
	{Name: "profile", Type: "string", Default: "AWS_DEFAULT_PROFILE, AWS_PROFILE, default",
		Go: "WithProfile", C: "smithycurl_options_set_profile", Python: "profile", PyValue: "None", CLI: "--profile",
		Doc: "the shared config profile an AWS service reads its settings and credentials from (it must exist)"},
	{Name: "request_checksum_calculation", Type: "when_supported, when_required", Default: "when_supported (AWS services: AWS_REQUEST_CHECKSUM_CALCULATION, request_checksum_calculation)",
		Go: "WithRequestChecksumCalculation", C: "smithycurl_options_set_request_checksum_calculation", Python: "request_checksum_calculation", PyValue: "None", CLI: "--request-checksum-calculation",
		Doc: "when requests carry a checksum of their body (aws.protocols#httpChecksum): a CRC32 whenever the operation supports one, or only when it requires one"},
	{Name: "response_checksum_validation", Type: "when_supported, when_required", Default: "when_supported (AWS services: AWS_RESPONSE_CHECKSUM_VALIDATION, response_checksum_validation)",
		Go: "WithResponseChecksumValidation", C: "smithycurl_options_set_response_checksum_validation", Python: "response_checksum_validation", PyValue: "None", CLI: "--response-checksum-validation",
		Doc: "when a response's checksum is checked: whenever the operation can ask for one, or only when the input sets its validation mode member to ENABLED"},
	{Name: "endpoint_discovery", Type: "auto, true, false", Default: "auto (AWS services: AWS_ENABLE_ENDPOINT_DISCOVERY, endpoint_discovery_enabled)",
		Go: "WithEndpointDiscovery", C: "smithycurl_options_set_endpoint_discovery", Python: "endpoint_discovery", PyValue: "None",
		CLI: "--endpoint-discovery",
		Doc: "which operations of a service with aws.api#clientEndpointDiscovery go to a discovered endpoint: those that require it, every one that supports it, or none (an endpoint given turns it off)"},
	{Name: "aws_config", Type: "*awsconfig.Config", Default: "the shared files and environment, read by New",
		Go:     "WithAWSConfig",
		C:      "", // Go only: a Go value
		Python: "", // goes through the C API
		CLI:    "", // Go only
		Doc:    "the AWS shared configuration, read once: for clients to share, tests to give"},
	{Name: "env", Type: "awsconfig.Env", Default: "the process's environment and home folder (the C library: the C environment when read)",
		Go:     "WithEnv",
		C:      "", // Go only: the C library reads the C environment (setenv)
		Python: "", // the C library's: os.environ as it is when read
		CLI:    "", // Go only
		Doc:    "where the AWS settings and credentials are read when WithAWSConfig is not given"},
	{Name: "endpoint_params", Type: "name, value (repeatable)", Default: "none",
		Go: "WithEndpointParams", C: "smithycurl_options_set_endpoint_param", Python: "endpoint_params", PyValue: "None",
		CLI: "--endpoint-param",
		Doc: "endpoint rule-set parameters by name"},
	{Name: "built_in", Type: "name, value", Default: "none",
		Go:     "WithBuiltIn",
		C:      "", // the rule-set parameter the built-in feeds, by name
		Python: "", // endpoint_params, as C
		CLI:    "", // --endpoint-param, as C
		Doc:    `sets an endpoint rules built-in ("AWS::S3::ForcePathStyle")`},
	{Name: "waiter_delays", Type: "min, max duration", Default: "the waiter's",
		Go: "WithWaiterDelays", C: "smithycurl_options_set_waiter_delays", Python: "waiter_delays", PyValue: "None",
		CLI: "--min-delay --max-delay", // of wait, per wait
		Doc: "replaces every waiter's minDelay and maxDelay (0 keeps the waiter's)"},
	{Name: "max_transfers", Type: "int", Default: "100",
		Go: "WithEngineLimits", C: "smithycurl_options_set_async_limits", Python: "max_transfers", PyValue: "None",
		CLI: "", // the CLI makes no asynchronous calls
		Doc: "requests on the wire at once in the engine of asynchronous calls"},
	{Name: "max_host_connections", Type: "int", Default: "no limit",
		Go: "WithEngineLimits", C: "smithycurl_options_set_async_limits", Python: "max_host_connections", PyValue: "None",
		CLI: "", // the CLI makes no asynchronous calls
		Doc: "connections to one host in the engine of asynchronous calls"},
	{Name: "engine", Type: "switch", Default: "off",
		Go:     "WithEngine",
		C:      "", // asynchronous calls go through the engine, others never
		Python: "", // as C: the calls of async_client go through it
		CLI:    "", // the CLI makes one call at a time
		Doc:    "sends every call, blocking ones too, through the engine"},
	{Name: "trace", Type: Callback, Default: "none",
		Go: "WithTrace", C: "smithycurl_options_set_trace", Python: "trace", PyValue: "None", CLI: "--trace",
		Doc: "each request and response, credentials redacted (Python: True logs them; CLI: to stderr)"},
	{Name: "observer", Type: Callback, Default: "none",
		Go:     "WithObserver",
		C:      "", // Go only: a Go function per attempt
		Python: "", // goes through the C API
		CLI:    "", // Go only
		Doc:    "called after every attempt (metrics, logging)"},
	{Name: "transport", Type: "transport.Transport", Default: "libcurl",
		Go:     "WithTransport",
		C:      "", // Go only: a Go interface
		Python: "", // goes through the C API
		CLI:    "", // Go only
		Doc:    "replaces the libcurl transport (tests, custom stacks)"},
	{Name: "responder", Type: "client.Responder", Default: "none",
		Go:     "WithResponder",
		C:      "", // smithycurl_stubber_new(client, &s) then smithycurl_stubber_activate(s)
		Python: "", // smithycurl.Stubber(client).activate()
		CLI:    "", // Go only
		Doc:    "answers the calls instead of the service: client/stub's checked stubs, for tests"},
	{Name: "codec_options", Type: "protocol.Option values", Default: "none",
		Go:     "WithCodecOptions",
		C:      "", // Go only: Go values
		Python: "", // goes through the C API
		CLI:    "", // Go only
		Doc:    "passes options to the protocol codec"},
	{Name: "interceptors", Type: Callback, Default: "none",
		Go: "WithInterceptors", C: "smithycurl_options_add_interceptor", Python: "interceptors", PyValue: "None",
		CLI: "", // code, not a flag
		Doc: "hooks at the Smithy client's reference points: read or change the input, the HTTP request and response, the output or error (Go: WithCallInterceptors per call)"},
	{Name: "auth_scheme", Type: Callback, Default: "none",
		Go: "WithAuthScheme", C: "smithycurl_options_add_auth_scheme", Python: "auth_schemes", PyValue: "None",
		CLI: "", // code, not a flag
		Doc: "a signer for an auth scheme of the model's (a trait with @authDefinition), chosen by @auth like the built-in ones (Python: a dict of shape id to callable)"},
	{Name: "tracer", Type: "Tracer (Go); bool", Default: "none",
		Go: "WithTracer", C: "smithycurl_options_set_trace_spans", Python: "trace_spans", PyValue: "False",
		CLI: "", // not yet a flag
		Doc: "a span per call and per attempt with the Smithy/AWS attribute names (Go: smithyotel adapts OpenTelemetry; C, Python: span events of the trace callback)"},
	{Name: "digest_auth", Type: "user, password", Default: "none",
		Go: "WithDigestAuth", C: "smithycurl_options_set_digest_auth", Python: "digest_auth", PyValue: "None", CLI: "--digest",
		Doc: "credentials of @httpDigestAuth (libcurl answers the digest challenge)"},
}
