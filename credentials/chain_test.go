package credentials

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

// chainEnv is a changeable environment for a chain, with no IMDS unless
// vars name one (a closed port answers at once).
type chainEnv struct {
	mu   sync.Mutex
	vars map[string]string
	env  awsconfig.Env
}

func newChainEnv(t *testing.T, vars map[string]string) *chainEnv {
	t.Helper()
	c := &chainEnv{vars: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": closedURL(t)}}
	for k, v := range vars {
		c.vars[k] = v
	}
	c.env = awsconfig.Env{Home: t.TempDir(), Lookup: func(name string) (string, bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		v, ok := c.vars[name]
		return v, ok
	}}
	return c
}

func (c *chainEnv) set(name, value string) { c.mu.Lock(); c.vars[name] = value; c.mu.Unlock() }

// chain loads the shared files and returns DefaultChain over them.
func (c *chainEnv) chain(t *testing.T, profile string) identity.Provider[identity.AWS] {
	t.Helper()
	cfg, err := awsconfig.Load(c.env)
	if err != nil {
		t.Fatal(err)
	}
	return DefaultChain(Options{Config: cfg, Profile: profile})
}

// closedURL is an http URL nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "http://" + l.Addr().String()
}

const (
	envKeys     = "AWS_ACCESS_KEY_ID"
	profileKeys = "[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key = default-secret\n" +
		"[dev]\naws_access_key_id = AKDEV\naws_secret_access_key = dev-secret\n"
)

func TestChainEnvironmentFirst(t *testing.T) {
	e := newChainEnv(t, map[string]string{envKeys: "AKENV", "AWS_SECRET_ACCESS_KEY": "env-secret"})
	writeAWSFiles(t, e.env, "", profileKeys)
	c, err := e.chain(t, "").Retrieve(context.Background())
	if err != nil || c.AccessKeyID != "AKENV" || c.Source != "environment (AWS_ACCESS_KEY_ID)" {
		t.Fatal(c, err)
	}
	// AWS_PROFILE is no explicit profile: the environment still wins.
	e.set("AWS_PROFILE", "dev")
	if c, err := e.chain(t, "").Retrieve(context.Background()); err != nil || c.AccessKeyID != "AKENV" {
		t.Fatal(c, err)
	}
}

// An explicit profile skips the environment, as botocore's session with a
// profile given does.
func TestChainExplicitProfile(t *testing.T) {
	e := newChainEnv(t, map[string]string{envKeys: "AKENV", "AWS_SECRET_ACCESS_KEY": "env-secret"})
	writeAWSFiles(t, e.env, "", profileKeys)
	c, err := e.chain(t, "dev").Retrieve(context.Background())
	if err != nil || c.AccessKeyID != "AKDEV" {
		t.Fatal(c, err)
	}
	want := filepath.Join(e.env.Home, ".aws", "credentials")
	if !strings.Contains(c.Source, "profile dev") || !strings.Contains(c.Source, want) {
		t.Fatalf("Source %q names neither the profile nor %s", c.Source, want)
	}
	// Web identity's variables are skipped too.
	e.set("AWS_WEB_IDENTITY_TOKEN_FILE", filepath.Join(e.env.Home, "none"))
	if c, err := e.chain(t, "dev").Retrieve(context.Background()); err != nil || c.AccessKeyID != "AKDEV" {
		t.Fatal(c, err)
	}
}

// As botocore: a profile named but in neither file, or a malformed file,
// fails before the environment is looked at.
func TestChainConfigErrors(t *testing.T) {
	e := newChainEnv(t, map[string]string{envKeys: "AKENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_PROFILE": "nope"})
	_, err := e.chain(t, "").Retrieve(context.Background())
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "profile nope") {
		t.Fatalf("got %v", err)
	}
	if _, err := e.chain(t, "other").Retrieve(context.Background()); err == nil || !strings.Contains(err.Error(), "profile other") {
		t.Fatalf("got %v", err)
	}
	// "default" named but in no file: botocore's ProfileNotFound too.
	e.set("AWS_PROFILE", "default")
	if _, err := e.chain(t, "").Retrieve(context.Background()); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "profile default") {
		t.Fatalf("got %v", err)
	}
	if _, err := e.chain(t, "default").Retrieve(context.Background()); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
	e.set("AWS_PROFILE", "")
	e.set("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "ipv5")
	if _, err := e.chain(t, "").Retrieve(context.Background()); err == nil || !strings.Contains(err.Error(), "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE") {
		t.Fatalf("got %v", err)
	}

	// Config nil: the process's environment and files.
	bad := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(bad, []byte("[default\nregion = x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", bad)
	t.Setenv(envKeys, "AKENV")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret")
	if _, err := DefaultChain(Options{}).Retrieve(context.Background()); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("got %v", err)
	}
}

// A provider's error other than ErrNotFound stops the chain.
func TestChainStopsAtAnError(t *testing.T) {
	s := credserver.StartContainer(containerPath, "")
	defer s.Close()
	e := newChainEnv(t, map[string]string{envKeys: "AKENV", "AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath})
	_, err := e.chain(t, "").Retrieve(context.Background())
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "AWS_SECRET_ACCESS_KEY") {
		t.Fatalf("got %v", err)
	}
	if s.Hits("GET "+containerPath) != 0 {
		t.Fatal("the chain went on to the container")
	}

	// Web identity's variables without a role ARN: botocore's
	// InvalidConfigError, before the credentials file's keys.
	e = newChainEnv(t, map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "/nonexistent/token"})
	writeAWSFiles(t, e.env, "", profileKeys)
	if _, err := e.chain(t, "").Retrieve(context.Background()); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
}

// A profile's role (role_arn with source_profile) is botocore's
// AssumeRole provider: before web identity's variables.
func TestChainRoleBeforeWebIdentity(t *testing.T) {
	e := newChainEnv(t, map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "/nonexistent/token", "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/web"})
	writeAWSFiles(t, e.env, "[default]\nrole_arn = arn:aws:iam::123456789012:role/r\nsource_profile = missing\n", "")
	_, err := e.chain(t, "").Retrieve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("got %v, want the source_profile error", err)
	}
}

func TestChainContainer(t *testing.T) {
	s := credserver.StartContainer(containerPath, "tok")
	defer s.Close()
	m := credserver.StartIMDS()
	defer m.Close()
	e := newChainEnv(t, map[string]string{
		"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath, "AWS_CONTAINER_AUTHORIZATION_TOKEN": "tok",
		"AWS_EC2_METADATA_SERVICE_ENDPOINT": m.URL,
	})
	p := e.chain(t, "")
	c, err := p.Retrieve(context.Background())
	if err != nil || c.Source != "container (AWS_CONTAINER_CREDENTIALS_FULL_URI)" {
		t.Fatal(c, err)
	}
	// Kept: credentials in the environment now do not change the provider.
	e.set(envKeys, "AKENV")
	e.set("AWS_SECRET_ACCESS_KEY", "env-secret")
	c2, err := p.Retrieve(context.Background())
	if err != nil || c2.Source != c.Source || c2.AccessKeyID == c.AccessKeyID {
		t.Fatal(c2, err)
	}
	if m.Hits(tokenPath) != 0 {
		t.Fatal("IMDS was asked")
	}
}

func TestChainInstanceMetadata(t *testing.T) {
	m := credserver.StartIMDS()
	defer m.Close()
	e := newChainEnv(t, map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": m.URL})
	c, err := e.chain(t, "").Retrieve(context.Background())
	if err != nil || !strings.HasPrefix(c.Source, "instance metadata (") {
		t.Fatal(c, err)
	}
}

func TestChainNothing(t *testing.T) {
	e := newChainEnv(t, nil)
	_, err := e.chain(t, "").Retrieve(context.Background())
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v", err)
	}
	for _, tried := range []string{"environment", "profile default", "AWS_WEB_IDENTITY_TOKEN_FILE", "container", "instance metadata"} {
		if !strings.Contains(err.Error(), tried) {
			t.Errorf("%q does not list %s", err, tried)
		}
	}
	// Not locked in: credentials set later are found.
	e.set(envKeys, "AKENV")
	e.set("AWS_SECRET_ACCESS_KEY", "env-secret")
	p := e.chain(t, "")
	if _, err := p.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Many first calls at once: one resolution, every caller answered.
func TestChainConcurrent(t *testing.T) {
	s := credserver.StartContainer(containerPath, "")
	defer s.Close()
	e := newChainEnv(t, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath})
	p := e.chain(t, "")
	const n = 16
	errs := make(chan error, n)
	for range n {
		go func() {
			c, err := p.Retrieve(context.Background())
			if err == nil && !strings.HasPrefix(c.AccessKeyID, "ASIACONTAINER") {
				err = errors.New("wrong credentials " + c.AccessKeyID)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if h := s.Hits("GET " + containerPath); h != n {
		t.Fatalf("%d requests for %d calls", h, n)
	}
}

// A caller whose ctx ends while another resolves leaves at once.
func TestChainWaitCancelled(t *testing.T) {
	e := newChainEnv(t, nil)
	c := e.chain(t, "").(*chain)
	c.lock <- struct{}{} // another resolution in progress
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Retrieve(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// credential_process through the profile: FromProfile calls Process.
func TestChainCredentialProcess(t *testing.T) {
	s := script(t, `echo '{"Version": 1, "AccessKeyId": "AKPROC", "SecretAccessKey": "`+procSecret+`"}'`)
	e := newChainEnv(t, nil)
	writeAWSFiles(t, e.env, "[profile dev]\ncredential_process = "+s+"\n", "")
	c, err := e.chain(t, "dev").Retrieve(context.Background())
	if err != nil || c.AccessKeyID != "AKPROC" {
		t.Fatal(c, err)
	}
	want := "credential_process: profile dev (" + filepath.Join(e.env.Home, ".aws", "config") + ":2)"
	if c.Source != want {
		t.Fatalf("Source %q, want %q", c.Source, want)
	}
	// A failing process stops the chain with its error.
	writeAWSFiles(t, e.env, "[profile dev]\ncredential_process = "+script(t, "echo nope >&2; exit 2")+"\n", "")
	_, err = e.chain(t, "dev").Retrieve(context.Background())
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "exit status 2: nope") {
		t.Fatalf("got %v", err)
	}
}
