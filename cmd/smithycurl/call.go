package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/client"
	describepkg "github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

// parseInterspersed parses flags that may come before or after the
// positional arguments ("call GetIp --input {}"), returning the positionals.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

type callFlags struct {
	modelFlags
	endpoint, input                  string
	bodyIn, bodyOut                  string
	headers                          multiFlag
	bearer, basic, apiKey, digest    string
	awsKey, awsSecret, awsToken, reg string
	timeout                          time.Duration
	retries                          givenInt
	retryMode                        string
	endpointDiscovery                string
	noValidate, noHostPrefix         bool
	validate                         bool
	trace, raw                       bool
	endpointFlags
	pages paginateFlags
}

// endpointFlags select the endpoint from the service's endpoint rules.
type endpointFlags struct {
	fips, dualStack bool
	params          multiFlag
	profile         string // --profile, also read by the AWS settings
	// --request-checksum-calculation, --response-checksum-validation
	checksums [2]string
}

// profileOptions are the options of --profile.
func (e *endpointFlags) profileOptions() []client.Option {
	if e.profile == "" {
		return nil
	}
	return []client.Option{client.WithProfile(e.profile)}
}

func (e *endpointFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.profile, "profile", "", "AWS shared config profile to read the settings and credentials of (default: $AWS_DEFAULT_PROFILE, $AWS_PROFILE, default)")
	fs.BoolVar(&e.fips, "fips", false, "ask the endpoint rules for a FIPS endpoint")
	fs.BoolVar(&e.dualStack, "dual-stack", false, "ask the endpoint rules for a dual-stack endpoint")
	fs.Var(&e.params, "endpoint-param", "endpoint rule-set parameter NAME=VALUE (repeatable; e.g. AccountIdEndpointMode=preferred)")
	fs.StringVar(&e.checksums[0], "request-checksum-calculation", "", "when_supported (a CRC32 of the body whenever the operation supports one) or when_required (default: $AWS_REQUEST_CHECKSUM_CALCULATION, the profile's, when_supported)")
	fs.StringVar(&e.checksums[1], "response-checksum-validation", "", "when_supported (a response's checksum checked whenever the operation can ask for one) or when_required (default: $AWS_RESPONSE_CHECKSUM_VALIDATION, the profile's, when_supported)")
}

// haveRegion tells whether the service's endpoint rules get the region
// they need, and if not says on stderr which flags give it (the client's
// own message names its Go options).
func (e *endpointFlags) haveRegion(m *model.Model, svc *model.Service, endpoint, region string, stderr io.Writer) bool {
	if endpoint != "" || region != "" || !endpoints.HasRules(svc.Shape) {
		return true
	}
	// An AWS service's settings may give either; a malformed one is the
	// client's to report.
	if s, ok, err := client.AWSSettings(svc, e.profileOptions()...); ok && (err != nil || s.Region.IsSet() || s.EndpointURL.IsSet()) {
		return true
	}
	for _, kv := range e.params {
		if name, _, _ := strings.Cut(kv, "="); name == "Region" || name == "Endpoint" {
			return true
		}
	}
	es, err := endpoints.ForService(m, svc)
	if err != nil {
		return true // the client says what is wrong with the rules
	}
	if _, ok := es.RuleSet.ParamForBuiltIn("AWS::Region"); !ok {
		return true
	}
	fmt.Fprintf(stderr, "smithycurl: service %s needs a region: give --region REGION (or set AWS_REGION), or --endpoint URL\n", svc.Shape.ID)
	return false
}

func (e *endpointFlags) options() ([]client.Option, error) {
	opts := e.profileOptions()
	if e.fips {
		opts = append(opts, client.WithFIPS(true))
	}
	if e.dualStack {
		opts = append(opts, client.WithDualStack(true))
	}
	for i, flag := range []string{"request-checksum-calculation", "response-checksum-validation"} {
		w := client.ChecksumWhen(e.checksums[i])
		switch w {
		case "":
			continue
		case client.ChecksumWhenSupported, client.ChecksumWhenRequired:
		default:
			return nil, fmt.Errorf("--%s %q: want when_supported or when_required", flag, e.checksums[i])
		}
		if i == 0 {
			opts = append(opts, client.WithRequestChecksumCalculation(w))
		} else {
			opts = append(opts, client.WithResponseChecksumValidation(w))
		}
	}
	if len(e.params) > 0 {
		params := map[string]any{}
		for _, kv := range e.params {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("--endpoint-param %q: want NAME=VALUE", kv)
			}
			params[k] = v
		}
		opts = append(opts, client.WithEndpointParams(params))
	}
	return opts, nil
}

// register adds the flags that call and wait share: the model, the
// endpoint, credentials and the client's options.
func (f *callFlags) register(fs *flag.FlagSet) {
	f.modelFlags.register(fs)
	f.endpointFlags.register(fs)
	fs.StringVar(&f.endpoint, "endpoint", os.Getenv("SMITHYCURL_ENDPOINT"), "service URL, e.g. http://127.0.0.1:8080 (env SMITHYCURL_ENDPOINT)")
	fs.StringVar(&f.input, "input", "", "input JSON in the document form, or @FILE, or - for stdin")
	fs.StringVar(&f.bodyIn, "body-in", "", "send the streaming blob payload (S3 PutObject's Body) from FILE, or - for stdin, without holding it in memory")
	fs.StringVar(&f.bodyOut, "body-out", "", "write the streaming blob payload of the output (S3 GetObject's Body) to FILE, or - for stdout (the output JSON then goes to stderr)")
	fs.Var(&f.headers, "H", "extra header 'Name: value' (repeatable)")
	fs.StringVar(&f.bearer, "bearer", "", "bearer token (@httpBearerAuth)")
	fs.StringVar(&f.basic, "basic", "", "user:password (@httpBasicAuth)")
	fs.StringVar(&f.digest, "digest", "", "user:password (@httpDigestAuth: libcurl answers the digest challenge)")
	fs.StringVar(&f.apiKey, "api-key", "", "API key (@httpApiKeyAuth)")
	fs.StringVar(&f.awsKey, "aws-access-key-id", "", "AWS access key id (default: $AWS_ACCESS_KEY_ID)")
	fs.StringVar(&f.awsSecret, "aws-secret-access-key", "", "AWS secret access key (default: $AWS_SECRET_ACCESS_KEY)")
	fs.StringVar(&f.awsToken, "aws-session-token", "", "AWS session token (default: $AWS_SESSION_TOKEN)")
	fs.StringVar(&f.reg, "region", "", "AWS region: picks the endpoint from the service's endpoint rules and signs for it (default: $AWS_REGION, $AWS_DEFAULT_REGION, the profile's region)")
	fs.DurationVar(&f.timeout, "timeout", 0, "whole-call timeout, e.g. 5s (default 60s)")
	f.retries.n = client.DefaultRetryPolicy.MaxAttempts - 1
	fs.Var(&f.retries, "retries",
		"at most `N` retries after the first attempt (N+1 sends in all, within --timeout) of a failure that is retried: throttling, @retryable errors, failed connections; 5xx only for idempotent operations. 0 sends once")
	fs.StringVar(&f.endpointDiscovery, "endpoint-discovery", "", "auto (the operations that require it), true (every one that supports it) or false (none): aws.api#clientEndpointDiscovery's DescribeEndpoints; --endpoint turns it off (default: $AWS_ENABLE_ENDPOINT_DISCOVERY, the profile's endpoint_discovery_enabled, auto)")
	fs.StringVar(&f.retryMode, "retry-mode", "", "standard, or adaptive: the AWS SDKs' client-side rate limiter after a throttle (default: $AWS_RETRY_MODE, the profile's retry_mode, standard)")
	fs.BoolVar(&f.validate, "validate", false, "check the input against the model's constraints (@length, @range, @pattern, enum values, @uniqueItems) before sending; @required and value types are always checked")
	fs.BoolVar(&f.noValidate, "no-validate", false, "do not check the model's constraints (the default; overrides --validate)")
	fs.BoolVar(&f.noHostPrefix, "no-host-prefix", false, "ignore the endpoint trait's host prefix")
	fs.BoolVar(&f.trace, "trace", false, "print the wire trace on stderr (credentials and @sensitive values redacted)")
}

func call(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("call", "call --model PATH... [--service ID] (--endpoint URL | --region REGION) OPERATION [--input JSON|@FILE]\n(input from stdin when --input is absent and stdin is not a terminal; --region is enough for a service with endpoint rules, such as the AWS ones)", stderr)
	var f callFlags
	f.register(fs)
	fs.BoolVar(&f.raw, "raw", false, "print the raw HTTP response instead of the decoded output")
	f.pages.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "smithycurl: give exactly one OPERATION (see 'smithycurl ops')")
		return exitUsage
	}
	if isSet(fs, "timeout") && f.timeout <= 0 {
		fmt.Fprintf(stderr, "smithycurl: --timeout %v: give a positive duration, e.g. 30s\n", f.timeout)
		return exitUsage
	}
	var last *client.Attempt
	c, m, svc, ok := f.newClient(ctx, stderr, client.WithObserver(func(a client.Attempt) { last = &a }))
	if !ok {
		return exitUsage
	}
	defer c.Close()
	op, input, ok := f.operationInput(svc, pos[0], f.bodyIn == "-", stderr)
	if !ok {
		return exitUsage
	}
	if f.trace {
		fmt.Fprintf(stderr, "* input %s\n", client.RedactSensitive(m, op.Input, input))
	}
	if f.pages.mode != "" || f.pages.maxItems != 0 || f.pages.pageSize != 0 {
		return f.pages.run(ctx, c, op.Name, input, f.raw, stdout, stderr)
	}
	if c.HasEventStream(op.Name) {
		return callStream(ctx, c, op.Name, input, f.raw, stdout, stderr)
	}
	if err := f.checkBodies(m, op); err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	callOpts, closeBodies, err := f.bodies(stdout)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	out, err := c.Call(ctx, op.Name, input, callOpts...)
	if cerr := closeBodies(); cerr != nil && err == nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", cerr)
		return exitTransport
	}
	if f.bodyOut == "-" {
		stdout = stderr // the body went to stdout
	}
	if f.raw && last != nil && last.Response != nil {
		writeRaw(stdout, last.Response.Status, last.Response.Header, last.Response.Body)
	}
	if err == nil {
		if f.trace {
			fmt.Fprintf(stderr, "* output %s\n", client.RedactSensitive(m, op.Output, out))
		}
		if !f.raw {
			writeJSON(stdout, out)
		}
		return 0
	}
	return callFailed(err, f.raw, stdout, stderr)
}

// operationInput looks up operation name of svc and reads its input
// (--input); on failure it has said why on stderr. An operation without
// input members reads no stdin, nor one whose stdin is taken (--body-in
// -), so that a script with an open stdin does not wait for it.
func (f *callFlags) operationInput(svc *model.Service, name string, stdinTaken bool, stderr io.Writer) (*model.Operation, []byte, bool) {
	op, err := svc.Operation(name)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, nil, false
	}
	input, err := readInput(f.input, len(op.Input.Members) > 0 && !stdinTaken)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, nil, false
	}
	return op, input, true
}

// callFailed reports a failed call: the message on stderr, a service
// error's JSON on stdout (unless raw), and the exit status.
func callFailed(err error, raw bool, stdout, stderr io.Writer) int {
	var ce *client.Error
	if !errors.As(err, &ce) {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitTransport
	}
	fmt.Fprintf(stderr, "smithycurl: %v\n", ce)
	switch ce.Kind {
	case client.KindService:
		if !raw {
			writeJSON(stdout, serviceErrorJSON(ce))
		}
		return exitServiceError
	case client.KindUsage, client.KindValidation:
		return exitUsage
	case client.KindDecode:
		return exitDecode
	case client.KindWaiterFailure:
		return exitWaiterFailure
	case client.KindWaiterTimeout:
		return exitWaiterTimeout
	}
	return exitTransport // transport, timeout, cancelled
}

// newClient loads the model and makes the client the flags describe, with
// extra options after theirs; on failure it has said why on stderr.
func (f *callFlags) newClient(ctx context.Context, stderr io.Writer, extra ...client.Option) (*client.Client, *model.Model, *model.Service, bool) {
	m, svc, ok := f.load(ctx, stderr)
	if !ok {
		return nil, nil, nil, false
	}
	if f.endpoint == "" && !endpoints.HasRules(svc.Shape) {
		fmt.Fprintln(stderr, "smithycurl: --endpoint is required (the service has no endpoint rules to find it from a --region)")
		return nil, nil, nil, false
	}
	if !f.endpointFlags.haveRegion(m, svc, f.endpoint, f.reg, stderr) {
		return nil, nil, nil, false
	}
	opts, err := f.options(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, nil, nil, false
	}
	c, err := client.New(m, svc.Shape.ID, f.endpoint, append(opts, extra...)...)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, nil, nil, false
	}
	// A credential flag the service cannot use is a likely mistake: say so
	// (the call goes on without it).
	flags := map[string][2]string{"bearer token": {"--bearer", "a bearer token"}, "basic auth": {"--basic", "basic auth"},
		"digest auth": {"--digest", "digest auth"},
		"API key":     {"--api-key", "an API key"}}
	if f.awsKey != "" {
		flags["AWS credentials"] = [2]string{"--aws-access-key-id", "AWS credentials"}
	}
	for _, what := range c.UnusedCredentials() {
		if flag, ok := flags[what]; ok {
			fmt.Fprintf(stderr, "smithycurl: note: %s is not sent: no operation of %s accepts %s\n", flag[0], svc.Shape.ID, flag[1])
		}
	}
	return c, m, svc, true
}

// checkBodies refuses --body-in or --body-out for an operation without a
// streaming blob on that side, naming the flag (the client names its Go
// option), before --body-out's file is created.
func (f *callFlags) checkBodies(m *model.Model, op *model.Operation) error {
	for _, b := range []struct {
		flag, file, side string
		shape            *model.Shape
	}{{"--body-in", f.bodyIn, "input", op.Input}, {"--body-out", f.bodyOut, "output", op.Output}} {
		if b.file == "" {
			continue
		}
		if !slices.ContainsFunc(b.shape.Members, func(mem *model.Member) bool { return describepkg.Streaming(m, mem) == "blob" }) {
			return fmt.Errorf("%s: operation %s has no streaming blob %s payload", b.flag, op.Name, b.side)
		}
	}
	return nil
}

// bodies opens the files of --body-in and --body-out; the func closes them.
func (f *callFlags) bodies(stdout io.Writer) ([]client.CallOption, func() error, error) {
	var opts []client.CallOption
	var closers []io.Closer
	closeAll := func() error {
		var first error
		for _, c := range closers {
			if err := c.Close(); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	switch f.bodyIn {
	case "":
	case "-":
		opts = append(opts, client.WithBodyReader(os.Stdin, -1))
	default:
		in, err := os.Open(f.bodyIn)
		if err != nil {
			return nil, nil, fmt.Errorf("--body-in: %w", err)
		}
		closers = append(closers, in)
		st, err := in.Stat()
		if err != nil || !st.Mode().IsRegular() {
			opts = append(opts, client.WithBodyReader(in, -1))
		} else {
			opts = append(opts, client.WithBodyReader(in, st.Size()))
		}
	}
	switch f.bodyOut {
	case "":
	case "-":
		opts = append(opts, client.WithBodyWriter(stdout))
	default:
		out, err := os.Create(f.bodyOut)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--body-out: %w", err)
		}
		closers = append(closers, out)
		opts = append(opts, client.WithBodyWriter(out))
	}
	return opts, closeAll, nil
}

func (f *callFlags) options(stderr io.Writer) ([]client.Option, error) {
	var opts []client.Option
	for _, h := range f.headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("-H %q: want 'Name: value'", h)
		}
		opts = append(opts, client.WithHeader(strings.TrimSpace(name), strings.TrimSpace(value)))
	}
	if f.bearer != "" {
		opts = append(opts, client.WithBearerToken(f.bearer))
	}
	if f.basic != "" {
		user, pw, ok := strings.Cut(f.basic, ":")
		if !ok {
			return nil, errors.New("--basic: want user:password")
		}
		opts = append(opts, client.WithBasicAuth(user, pw))
	}
	if f.digest != "" {
		user, pw, ok := strings.Cut(f.digest, ":")
		if !ok {
			return nil, errors.New("--digest: want user:password")
		}
		opts = append(opts, client.WithDigestAuth(user, pw))
	}
	if f.apiKey != "" {
		opts = append(opts, client.WithAPIKey(f.apiKey))
	}
	// Without key flags the client's credential chain finds the keys (and
	// skips the AWS_* variables for --profile, as the AWS SDKs do).
	if f.awsKey != "" || f.awsSecret != "" || f.awsToken != "" {
		opts = append(opts, client.WithAWSCredentials(client.AWSCredentials{
			AccessKeyID: orEnv(f.awsKey, "AWS_ACCESS_KEY_ID"), SecretAccessKey: orEnv(f.awsSecret, "AWS_SECRET_ACCESS_KEY"),
			SessionToken: orEnv(f.awsToken, "AWS_SESSION_TOKEN"), Region: f.reg,
		}))
	}
	if f.reg != "" {
		opts = append(opts, client.WithRegion(f.reg))
	}
	eopts, err := f.endpointFlags.options()
	if err != nil {
		return nil, err
	}
	opts = append(opts, eopts...)
	if f.timeout > 0 {
		opts = append(opts, client.WithTimeout(f.timeout))
	}
	if f.retries.n < 0 {
		return nil, fmt.Errorf("--retries %d: give 0 or more (retries after the first attempt)", f.retries.n)
	}
	if f.retries.given { // else the client's default, or an AWS service's max attempts setting
		p := client.DefaultRetryPolicy
		p.MaxAttempts = f.retries.n + 1
		opts = append(opts, client.WithRetryPolicy(p))
	}
	switch m := client.RetryMode(f.retryMode); m {
	case "":
	case client.RetryStandard, client.RetryAdaptive:
		opts = append(opts, client.WithRetryMode(m))
	default:
		return nil, fmt.Errorf("--retry-mode %q: want %s or %s", f.retryMode, client.RetryStandard, client.RetryAdaptive)
	}
	switch d := client.EndpointDiscovery(f.endpointDiscovery); d {
	case "":
	case client.EndpointDiscoveryAuto, client.EndpointDiscoveryEnabled, client.EndpointDiscoveryDisabled:
		opts = append(opts, client.WithEndpointDiscovery(d))
	default:
		return nil, fmt.Errorf("--endpoint-discovery %q: want %s, %s or %s", f.endpointDiscovery, client.EndpointDiscoveryAuto, client.EndpointDiscoveryEnabled, client.EndpointDiscoveryDisabled)
	}
	if f.validate && !f.noValidate {
		opts = append(opts, client.WithValidation())
	}
	if f.noHostPrefix {
		opts = append(opts, client.WithoutHostPrefix())
	}
	if f.trace {
		opts = append(opts, client.WithTrace(func(ev transport.TraceEvent) { writeTrace(stderr, ev) }))
	}
	return opts, nil
}

// givenInt is an int flag that knows whether the command line gave it.
type givenInt struct {
	n     int
	given bool
}

func (g *givenInt) String() string { return strconv.Itoa(g.n) }

func (g *givenInt) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return errors.New("parse error")
	}
	g.n, g.given = int(n), true
	return nil
}

// isSet reports whether flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func orEnv(v, env string) string {
	if v != "" {
		return v
	}
	return os.Getenv(env)
}

// maxInput bounds the input read from a file or stdin: the same 64 MiB
// as the default limit of a response body.
const maxInput = transport.DefaultMaxResponseBytes

// readInput reads --input: JSON text, @FILE, "-" for stdin, or, when absent
// and the operation takes input, stdin if it is not a terminal. Input larger
// than maxInput is refused (and input that is not UTF-8 by the client).
func readInput(arg string, takesInput bool) ([]byte, error) {
	var data []byte
	switch {
	case strings.HasPrefix(arg, "@"):
		f, err := os.Open(arg[1:])
		if err != nil {
			return nil, fmt.Errorf("--input: %w", err)
		}
		defer f.Close()
		if data, err = readBounded(f); err != nil {
			return nil, fmt.Errorf("--input %s: %w", arg, err)
		}
	case arg == "-" || (arg == "" && takesInput && !isTerminal(os.Stdin)):
		var err error
		if data, err = readBounded(os.Stdin); err != nil {
			return nil, fmt.Errorf("reading the input from stdin: %w", err)
		}
	default:
		data = []byte(arg)
	}
	return data, nil
}

func readBounded(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxInput {
		return nil, fmt.Errorf("the input is larger than %d MiB", maxInput>>20)
	}
	return data, nil
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// writeJSON prints JSON indented on a terminal, compact otherwise.
func writeJSON(w io.Writer, data []byte) {
	var buf bytes.Buffer
	var err error
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		err = json.Indent(&buf, data, "", "  ")
	} else {
		err = json.Compact(&buf, data)
	}
	if err != nil || len(data) == 0 {
		buf.Reset()
		buf.Write(data)
		if len(data) == 0 {
			buf.WriteString("{}")
		}
	}
	buf.WriteByte('\n')
	w.Write(buf.Bytes())
}

// serviceErrorJSON is {"error": "<shape id>", "status": N, "data": {...}}.
func serviceErrorJSON(e *client.Error) []byte {
	name := string(e.Shape)
	if name == "" {
		name = e.Code
	}
	data := json.RawMessage(e.Members)
	if !json.Valid(data) || len(data) == 0 {
		text, _ := json.Marshal(string(e.Members))
		data = json.RawMessage(`{"body":` + string(text) + `}`)
	}
	out, _ := json.Marshal(struct {
		Error  string          `json:"error"`
		Status int             `json:"status"`
		Data   json.RawMessage `json:"data"`
	}{name, e.Status, data})
	return out
}

func writeRaw(w io.Writer, status int, header map[string][]string, body []byte) {
	fmt.Fprintf(w, "HTTP %d\n", status)
	writeHeaders(w, "", header)
	fmt.Fprintf(w, "\n%s\n", body)
}

func writeHeaders(w io.Writer, prefix string, header map[string][]string) {
	names := make([]string, 0, len(header))
	for k := range header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range header[k] {
			fmt.Fprintf(w, "%s%s: %s\n", prefix, k, v)
		}
	}
}

func writeTrace(w io.Writer, ev transport.TraceEvent) {
	if ev.Phase == transport.TraceRequest {
		fmt.Fprintf(w, "> %s %s\n", ev.Method, ev.URL)
		writeHeaders(w, "> ", ev.Header)
		if ev.Body != "" {
			fmt.Fprintf(w, "> body %s\n", ev.Body)
		}
		return
	}
	if ev.Err != nil {
		fmt.Fprintf(w, "< error after %s: %v\n", ev.Took.Round(time.Microsecond), ev.Err)
		return
	}
	fmt.Fprintf(w, "< HTTP %d (%s)\n", ev.Status, ev.Took.Round(time.Microsecond))
	writeHeaders(w, "< ", ev.Header)
	if ev.Body != "" {
		fmt.Fprintf(w, "< body %s\n", ev.Body)
	}
}
