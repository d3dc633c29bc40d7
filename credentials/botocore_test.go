package credentials

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

// botocoreOutcome runs botocore's default chain in a clean environment:
// "ok", "none" or "error ...".
func botocoreOutcome(t *testing.T, vars map[string]string) string {
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	cmd := exec.Command("python3", "-c", `
import botocore.session
try:
    c = botocore.session.Session().get_credentials()
    print("ok" if c and c.access_key else "none")
except Exception as e:
    print("error", type(e).__name__)
`)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func chainOutcome(t *testing.T, vars map[string]string) string {
	_, err := newChainEnv(t, vars).chain(t, "").Retrieve(context.Background())
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrNotFound):
		return "none"
	}
	return "error " + err.Error()
}

// The container and instance metadata rules against botocore's own
// resolver, pointed at the same fakes: both find credentials, both find
// none, or both fail.
func TestBotocoreAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("runs botocore")
	}
	if exec.Command("python3", "-c", "import botocore").Run() != nil {
		t.Skip("no python3 with botocore")
	}
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "x", code) }
	}
	body := func(b string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(b)) }
	}
	noToken := body(`{"AccessKeyId": "A", "SecretAccessKey": "s", "Expiration": "2030-01-01T00:00:00Z"}`)
	imds := []struct {
		name, path string
		h          http.HandlerFunc
		v1         bool
		vars       map[string]string
	}{
		{"IMDSv2", "", nil, false, nil},
		{"token 403, v1 served", tokenPath, status(403), true, nil},
		{"token 403, v1 refused", tokenPath, status(403), false, nil},
		{"token 404", tokenPath, status(404), true, nil},
		{"token 405", tokenPath, status(405), true, nil},
		{"token 400", tokenPath, status(400), true, nil},
		{"token 500", tokenPath, status(500), true, nil},
		{"token 404, v1 disabled", tokenPath, status(404), true, map[string]string{"AWS_EC2_METADATA_V1_DISABLED": "true"}},
		{"role 404", roleGET, status(404), false, nil},
		{"role empty", roleGET, body(""), false, nil},
		{"credentials garbage", credsGET, body("{x"), false, nil},
		{"credentials without Token", credsGET, noToken, false, nil},
		{"error document", credsGET, body(`{"Code": "X", "Message": "m"}`), false, nil},
		{"credentials redirect", credsGET, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/x", 302) }, false, nil},
		{"bad endpoint mode", "", nil, false, map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "ipv5"}},
		{"disabled", "", nil, false, map[string]string{"AWS_EC2_METADATA_DISABLED": "true"}},
	}
	for _, c := range imds {
		t.Run("IMDS "+c.name, func(t *testing.T) {
			t.Parallel()
			s := credserver.StartIMDS()
			defer s.Close()
			if c.h != nil {
				s.Override(c.path, c.h)
			}
			s.AllowV1(c.v1)
			vars := map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": s.URL}
			for k, v := range c.vars {
				vars[k] = v
			}
			agree(t, vars)
		})
	}
	container := []struct {
		name string
		h    http.HandlerFunc
		vars map[string]string
	}{
		{"served", nil, nil},
		{"500", status(500), nil},
		{"without Token", noToken, nil},
		{"garbage", body("x"), nil},
		{"host not allowed", nil, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://example.com/x"}},
		{"LF in the token", nil, map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN": "a\nb"}},
		{"token file missing", nil, map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "/nonexistent/token"}},
	}
	for _, c := range container {
		t.Run("container "+c.name, func(t *testing.T) {
			t.Parallel()
			s := credserver.StartContainer(containerPath, "")
			defer s.Close()
			if c.h != nil {
				s.Override("GET "+containerPath, c.h)
			}
			vars := map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath, "AWS_EC2_METADATA_DISABLED": "true"}
			for k, v := range c.vars {
				vars[k] = v
			}
			agree(t, vars)
		})
	}
}

func agree(t *testing.T, vars map[string]string) {
	b, o := botocoreOutcome(t, vars), chainOutcome(t, vars)
	if strings.Fields(b)[0] != strings.Fields(o)[0] {
		t.Fatalf("botocore: %s; smithycurl: %s", b, o)
	}
}
