package credentials

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/testing/credchain/fakeaws"
)

// newFakeAWS starts testing/credchain/fakeaws (STS, SSO and SSO-OIDC on
// one URL) for t, issuing new credentials on every call; what it accepts
// is added with AddKey and Allow*.
func newFakeAWS(t *testing.T) *fakeaws.Server {
	f := fakeaws.Start(fakeaws.Config{Fresh: true})
	t.Cleanup(f.Close)
	return f
}

// home is a temporary HOME with the AWS CLI's files and an environment
// that points every endpoint at the fake.
type home struct {
	dir string
	env map[string]string
}

func newHome(t *testing.T, f *fakeaws.Server, config, credentials string) *home {
	h := &home{dir: t.TempDir(), env: map[string]string{}}
	if err := os.MkdirAll(filepath.Join(h.dir, ".aws"), 0o700); err != nil {
		t.Fatal(err)
	}
	h.write(t, ".aws/config", config)
	h.write(t, ".aws/credentials", credentials)
	if f != nil {
		h.env["AWS_ENDPOINT_URL"] = f.URL
	}
	return h
}

func (h *home) write(t *testing.T, rel, text string) string {
	t.Helper()
	p := filepath.Join(h.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (h *home) awsEnv() awsconfig.Env {
	return awsconfig.Env{Home: h.dir, Lookup: func(name string) (string, bool) { v, ok := h.env[name]; return v, ok }}
}

func (h *home) config(t *testing.T) *awsconfig.Config {
	t.Helper()
	cfg, err := awsconfig.Load(h.awsEnv())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
