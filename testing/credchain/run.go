package credchain

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/sigv4"
	"github.com/smithycurl/smithycurl/testing/credchain/fakeaws"
	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

// Case is one set-up. Files (paths under HOME) and Env values may use
// {HOME}, {STS} (the STS/SSO/OIDC fake), {IMDS}, {CONTAINER} (the fake's
// base URL), {CONTAINERPORT}, {DOWN} (a closed port), {ID:name} and {SK:name} (a key of
// the keys table) and {SSO:expiry:access:refresh} (an SSO token cache
// file's JSON, expiry in minutes from now).
type Case struct {
	Group, Name string
	Files       map[string]string
	Env         map[string]string // "-" removes a default variable
	Profile     string            // given explicitly (botocore's Session(profile=), Options.Profile)
	Service     string            // sdkId whose endpoint is compared (default DynamoDB)
	// Needs names a botocore feature the case compares ("endpoint_url":
	// 1.31, "token_file": 1.32, "sso_source": 1.30); without it the case
	// is excluded.
	Needs string
	// Exclude is why the case differs on purpose (a documented SDK
	// difference); the case is run but not counted.
	Exclude string
	// Mentions: what smithycurl's credentials error must name.
	Mentions []string
	// Setup makes the fake IMDS or container misbehave.
	Setup func(*credserver.IMDS, *credserver.Container)
}

// keys are the static keys the cases use; the fake STS knows them all.
var keys = map[string]sigv4.Credentials{}

func init() {
	for _, n := range []string{"ENV", "ENV2", "DEFCRED", "DEFCONF", "DEVCRED", "DEVCONF", "SRC", "SRC2", "OTHER", "QUOTED", "CUSTOM", "PROC"} {
		keys[n] = sigv4.Credentials{AccessKeyID: fmt.Sprintf("AKIA%-16s", n+"EXAMPLE")[:20], SecretAccessKey: "sk-" + strings.ToLower(n) + "-9f3a7c1e5b2d8046"}
	}
	for n, k := range keys {
		k.AccessKeyID = strings.ReplaceAll(k.AccessKeyID, " ", "X")
		keys[n] = k
	}
	k := keys["PROC"]
	k.SessionToken = procToken
	keys["PROC"] = k
}

// The fakes' tokens; each is a secret no output may show.
const (
	webToken       = "webtoken-ok-8c1d2e3f4a5b6c7d"
	ssoAccess      = "ssoaccess-valid-2b3c4d5e6f7a"
	ssoRefresh     = "ssorefresh-valid-7a6b5c4d3e2f"
	expiredAccess  = "ssoaccess-expired-6f5e4d3c2b1a" // unknown to the fake SSO, as an expired token
	ssoClient      = "client-id"
	ssoSecret      = "client-secret-value"
	containerToken = "containertoken-5e4d3c2b1a09"
	containerPath  = "/v2/credentials/task"
	sessionToken   = "envsessiontoken-0a1b2c3d4e5f"
	procToken      = "proc-session-9d8c7b6a5f4e" // credential_process's session token
)

func fakeConfig() fakeaws.Config {
	cfg := fakeaws.Config{WebTokens: []string{webToken}, SSOTokens: []string{ssoAccess},
		RefreshTokens: []string{ssoRefresh}, ClientID: ssoClient, ClientSecret: ssoSecret}
	for _, k := range keys {
		cfg.Keys = append(cfg.Keys, k)
	}
	return cfg
}

// staticSecrets are the secrets the cases write.
func staticSecrets() []string {
	s := []string{webToken, ssoAccess, ssoRefresh, expiredAccess, procToken, ssoSecret, containerToken, sessionToken}
	for _, k := range keys {
		s = append(s, k.SecretAccessKey)
	}
	return s
}

// defaultEnv points every endpoint at the fakes, IMDS at nothing.
var defaultEnv = map[string]string{
	"PATH":                              "/usr/bin:/bin",
	"HOME":                              "{HOME}",
	"AWS_ENDPOINT_URL_STS":              "{STS}",
	"AWS_ENDPOINT_URL_SSO":              "{STS}",
	"AWS_ENDPOINT_URL_SSO_OIDC":         "{STS}",
	"AWS_EC2_METADATA_SERVICE_ENDPOINT": "{DOWN}",
}

// Runner runs the cases.
type Runner struct {
	Self   string // this program, run with -side for smithycurl's answer
	Python string // a Python with botocore
	Oracle string // oracle.py

	mu      sync.Mutex
	server  *exec.Cmd
	stdin   io.WriteCloser
	waiting map[string]chan struct{}
	n       int
}

// start starts oracle.py --serve, which forks a process per case.
func (r *Runner) start() error {
	r.server = exec.Command(r.Python, "-B", r.Oracle, "--serve")
	r.server.Env = []string{"PATH=/usr/bin:/bin"}
	r.server.Stderr = os.Stderr
	var err error
	if r.stdin, err = r.server.StdinPipe(); err != nil {
		return err
	}
	out, err := r.server.StdoutPipe()
	if err != nil {
		return err
	}
	r.waiting = map[string]chan struct{}{}
	if err := r.server.Start(); err != nil {
		return err
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			r.mu.Lock()
			if ch := r.waiting[sc.Text()]; ch != nil {
				close(ch)
				delete(r.waiting, sc.Text())
			}
			r.mu.Unlock()
		}
	}()
	return nil
}

func (r *Runner) stop() {
	r.stdin.Close()
	r.server.Wait()
}

// oracle runs one case in a process forked by oracle.py --serve.
func (r *Runner) oracle(ctx context.Context, dir string, environ []string, profile, client string) (stdout, stderr []byte, err error) {
	env := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	r.mu.Lock()
	r.n++
	id := fmt.Sprint(r.n)
	done := make(chan struct{})
	r.waiting[id] = done
	out, errf := filepath.Join(dir, "oracle.out"), filepath.Join(dir, "oracle.err")
	req, _ := json.Marshal(map[string]any{"id": id, "env": env, "cwd": env["HOME"], "profile": profile, "client": client, "out": out, "err": errf})
	_, err = r.stdin.Write(append(req, '\n'))
	r.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	select {
	case <-done:
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("botocore: no answer in time")
	}
	stdout, _ = os.ReadFile(out)
	stderr, _ = os.ReadFile(errf)
	return stdout, stderr, nil
}

// Outcome is a case's result.
type Outcome struct {
	Case     Case
	Go, Boto Result
	GoRaw    string
	BotoRaw  string
	Problems []string
	Excluded string // why, when not counted
	GoTime   time.Duration
	BotoTime time.Duration
}

// side is one side's run: its own HOME and fakes, so refreshes and
// counters of one never show in the other.
func (r *Runner) side(c Case, botocore bool) (Result, string, []string, error) {
	dir, err := os.MkdirTemp("", "credchain-")
	if err != nil {
		return Result{}, "", nil, err
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	imds := credserver.StartIMDS()
	defer imds.Close()
	imds.SetLifetime(time.Hour)
	ctr := credserver.StartContainer(containerPath, containerToken)
	defer ctr.Close()
	ctr.SetLifetime(time.Hour)
	if c.Setup != nil {
		c.Setup(imds, ctr)
	}
	fc := fakeConfig()
	fc.Lookup = fakeaws.IssuedBy(imds, ctr)
	fa := fakeaws.Start(fc)
	defer fa.Close()
	expand := func(s string) string {
		s = strings.NewReplacer("{HOME}", home, "{STS}", fa.URL, "{IMDS}", imds.URL, "{CONTAINER}", ctr.URL, "{CONTAINERPORT}", ctr.URL[strings.LastIndex(ctr.URL, ":")+1:],
			"{DOWN}", "http://127.0.0.1:1").Replace(s)
		for n, k := range keys {
			s = strings.ReplaceAll(s, "{ID:"+n+"}", k.AccessKeyID)
			s = strings.ReplaceAll(s, "{SK:"+n+"}", k.SecretAccessKey)
		}
		return expandSSO(s)
	}
	for rel, text := range c.Files {
		p := filepath.Join(home, expand(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return Result{}, "", nil, err
		}
		mode := os.FileMode(0o600)
		if strings.HasPrefix(rel, "bin/") {
			mode = 0o700
		}
		if err := os.WriteFile(p, []byte(expand(text)), mode); err != nil {
			return Result{}, "", nil, err
		}
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return Result{}, "", nil, err
	}
	env := map[string]string{}
	for k, v := range defaultEnv {
		env[k] = v
	}
	for k, v := range c.Env {
		env[k] = v
	}
	var environ []string
	for k, v := range env {
		if v != "-" {
			environ = append(environ, k+"="+expand(v))
		}
	}
	sort.Strings(environ)
	service := c.Service
	if service == "" {
		service = "DynamoDB"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	var stdout, stderr []byte
	var runErr error
	if botocore {
		stdout, stderr, runErr = r.oracle(ctx, dir, environ, c.Profile, clientName(service))
	} else {
		cmd := exec.CommandContext(ctx, r.Self, "-side", "-profile", c.Profile, "-service", service)
		cmd.Env, cmd.Dir = environ, home
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		runErr = cmd.Run()
		stdout, stderr = o.Bytes(), e.Bytes()
	}
	raw := string(stdout) + string(stderr)
	secrets := append(staticSecrets(), fa.Secrets()...)
	for _, is := range append(imds.Issued(), ctr.Issued()...) {
		secrets = append(secrets, is.Secrets()...)
	}
	var res Result
	if err := json.Unmarshal(stdout, &res); err != nil {
		return Result{}, raw, secrets, fmt.Errorf("no result (%v): %s", runErr, strings.TrimSpace(raw))
	}
	return res, raw, secrets, nil
}

// clientName is botocore's client name of an sdkId the cases use.
func clientName(sdkID string) string {
	switch sdkID {
	case "Cognito Identity Provider":
		return "cognito-idp"
	}
	return strings.ToLower(strings.ReplaceAll(sdkID, " ", "-"))
}

// expandSSO writes {SSO:minutes:access:refresh} as the token cache JSON
// `aws sso login` writes.
func expandSSO(s string) string {
	for {
		i := strings.Index(s, "{SSO:")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "}")
		parts := strings.Split(s[i+5:i+j], ":")
		var min int
		fmt.Sscan(parts[0], &min)
		doc := map[string]string{"startUrl": "https://example.awsapps.com/start", "region": "us-east-1",
			"accessToken": parts[1], "expiresAt": time.Now().Add(time.Duration(min) * time.Minute).UTC().Format(time.RFC3339)}
		if len(parts) > 2 && parts[2] != "" {
			doc["refreshToken"] = parts[2]
			doc["clientId"], doc["clientSecret"] = ssoClient, ssoSecret
			doc["registrationExpiresAt"] = time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
		}
		b, _ := json.Marshal(doc)
		s = s[:i] + string(b) + s[i+j+1:]
	}
}

// Run runs every case, workers at a time, both sides of each.
func (r *Runner) Run(cases []Case, workers int) ([]Outcome, error) {
	if err := r.start(); err != nil {
		return nil, err
	}
	defer r.stop()
	out := make([]Outcome, len(cases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for i, c := range cases {
		wg.Add(1)
		go func(i int, c Case) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = r.one(c)
		}(i, c)
	}
	wg.Wait()
	return out, nil
}

func (r *Runner) one(c Case) Outcome {
	o := Outcome{Case: c, Excluded: c.Exclude}
	var goSecrets, botoSecrets []string
	var goErr, botoErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		t := time.Now()
		o.Go, o.GoRaw, goSecrets, goErr = r.side(c, false)
		o.GoTime = time.Since(t)
	}()
	go func() {
		defer wg.Done()
		t := time.Now()
		o.Boto, o.BotoRaw, botoSecrets, botoErr = r.side(c, true)
		o.BotoTime = time.Since(t)
	}()
	wg.Wait()
	if goErr != nil {
		o.Problems = append(o.Problems, "smithycurl: "+goErr.Error())
	}
	if botoErr != nil {
		o.Problems = append(o.Problems, "botocore: "+botoErr.Error())
	}
	if goErr != nil || botoErr != nil {
		return o
	}
	if o.Excluded == "" && c.Needs != "" {
		o.Excluded = needs(c.Needs, o.Boto.Botocore)
	}
	o.Problems = append(o.Problems, compare(c, o.Go, o.Boto)...)
	if leaks(o.GoRaw, goSecrets) {
		o.Problems = append(o.Problems, "smithycurl's output shows a secret")
	}
	if leaks(o.BotoRaw, botoSecrets) {
		o.Problems = append(o.Problems, "botocore's output shows a secret")
	}
	return o
}

// leaks reports whether out shows one of secrets.
func leaks(out string, secrets []string) bool {
	for _, s := range secrets {
		if s != "" && strings.Contains(out, s) {
			return true
		}
	}
	return false
}

// needs says why a botocore version cannot be compared on a feature
// ("" when it can).
func needs(feature, version string) string {
	var major, minor int
	fmt.Sscanf(version, "%d.%d", &major, &minor)
	min, what := 0, ""
	switch feature {
	case "endpoint_url":
		min, what = 31, "configured endpoint URLs (AWS_ENDPOINT_URL*, endpoint_url, services sections)"
	case "token_file":
		min, what = 32, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"
	case "sso_source":
		min, what = 30, "boto/botocore#2851, an sso-session profile as source_profile (aws/aws-cli#7496: AttributeError)"
	}
	if major > 1 || minor >= min {
		return ""
	}
	return fmt.Sprintf("botocore %s predates %s (1.%d)", version, what, min)
}

// places are what an error may name to say where the problem is.
var places = []string{"profile", ".aws/", "AWS_", "credential_process", "container", "instance metadata", "sso", "STS"}

func namesPlace(msg string) bool {
	for _, p := range places {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// compare lists how smithycurl's result differs from botocore's.
func compare(c Case, g, b Result) []string {
	var p []string
	switch {
	case g.CredsError == "" && b.CredsError == "":
		if g.AKID != b.AKID || g.Token != b.Token {
			p = append(p, fmt.Sprintf("credentials: smithycurl %s (token %v), botocore %s (token %v)", g.AKID, g.Token, b.AKID, b.Token))
		}
	case g.CredsError == "":
		p = append(p, fmt.Sprintf("credentials: smithycurl %s, botocore fails", g.AKID))
	case b.CredsError == "":
		p = append(p, fmt.Sprintf("credentials: smithycurl fails, botocore %s", b.AKID))
	default:
		if g.NotFound != b.NotFound {
			p = append(p, fmt.Sprintf("credentials: both fail, but smithycurl's error is 'not found' %v, botocore's %v", g.NotFound, b.NotFound))
		}
		if !namesPlace(g.CredsError) {
			p = append(p, "credentials: smithycurl's error names no profile, file, variable or provider")
		}
		for _, m := range c.Mentions {
			if !strings.Contains(g.CredsError, m) {
				p = append(p, fmt.Sprintf("credentials: smithycurl's error does not name %q", m))
			}
		}
	}
	switch {
	case (g.RegionError == "") != (b.RegionError == ""):
		p = append(p, "settings: one side fails")
	case g.RegionError == "" && g.Region != b.Region:
		p = append(p, fmt.Sprintf("region: smithycurl %q, botocore %q", g.Region, b.Region))
	}
	if g.RegionError == "" && b.RegionError == "" {
		for _, k := range []string{"max_attempts", "retry_mode", "use_fips_endpoint", "use_dualstack_endpoint", "ca_bundle"} {
			if g.Settings[k] != b.Settings[k] {
				p = append(p, fmt.Sprintf("%s: smithycurl %q, botocore %q", k, g.Settings[k], b.Settings[k]))
			}
		}
	}
	// smithycurl reads the settings at once: when both fail on one, the
	// endpoint is not compared.
	if b.EndpointSupported && (g.RegionError == "" || b.RegionError == "") {
		switch {
		case (g.EndpointError == "") != (b.EndpointError == ""):
			p = append(p, "endpoint: one side fails")
		case g.EndpointError == "" && g.Endpoint != b.Endpoint:
			p = append(p, fmt.Sprintf("endpoint: smithycurl %q, botocore %q", g.Endpoint, b.Endpoint))
		}
	}
	return p
}
