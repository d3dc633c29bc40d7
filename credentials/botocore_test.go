package credentials

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strconv"
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
	cmd := exec.Command(botocorePython(), "-c", `
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

// botocorePython is the Python with botocore the tests compare with:
// $CREDCHAIN_PYTHON, else Debian's python3-botocore (a test dependency).
func botocorePython() string {
	if p := os.Getenv("CREDCHAIN_PYTHON"); p != "" {
		return p
	}
	return "/usr/bin/python3"
}

// botocoreVersion is the version botocore reports, as numbers.
func botocoreVersion(t *testing.T) []int {
	out, err := exec.Command(botocorePython(), "-c", "import botocore; print(botocore.__version__)").Output()
	if err != nil {
		t.Fatalf("%s has no botocore: apt-get install python3-botocore (scripts/deps.sh installs it)", botocorePython())
	}
	var v []int
	for _, f := range strings.Split(strings.TrimSpace(string(out)), ".") {
		n, _ := strconv.Atoi(f)
		v = append(v, n)
	}
	return v
}

// atLeast compares versions.
func atLeast(v []int, min ...int) bool {
	for i, m := range min {
		if i >= len(v) || v[i] != m {
			return i < len(v) && v[i] > m
		}
	}
	return true
}

// The container and instance metadata rules against botocore's own
// resolver, pointed at the same fakes: both find credentials, both find
// none, or both fail. Rules botocore learnt late (IMDSv1 disabled, the
// EKS Pod Identity token file, 1.33) are compared with a botocore that
// has them.
func TestBotocoreAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("runs botocore")
	}
	version := botocoreVersion(t)
	recent := atLeast(version, 1, 33)
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
		recent     bool // needs botocore 1.33
	}{
		{"IMDSv2", "", nil, false, nil, false},
		{"token 403, v1 served", tokenPath, status(403), true, nil, false},
		{"token 403, v1 refused", tokenPath, status(403), false, nil, false},
		{"token 404", tokenPath, status(404), true, nil, false},
		{"token 405", tokenPath, status(405), true, nil, false},
		{"token 400", tokenPath, status(400), true, nil, false},
		{"token 500", tokenPath, status(500), true, nil, false},
		{"token 404, v1 disabled", tokenPath, status(404), true, map[string]string{"AWS_EC2_METADATA_V1_DISABLED": "true"}, true},
		{"role 404", roleGET, status(404), false, nil, false},
		{"role empty", roleGET, body(""), false, nil, false},
		{"credentials garbage", credsGET, body("{x"), false, nil, false},
		{"credentials without Token", credsGET, noToken, false, nil, false},
		{"error document", credsGET, body(`{"Code": "X", "Message": "m"}`), false, nil, false},
		{"credentials redirect", credsGET, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/x", 302) }, false, nil, false},
		{"bad endpoint mode", "", nil, false, map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "ipv5"}, false},
		{"disabled", "", nil, false, map[string]string{"AWS_EC2_METADATA_DISABLED": "true"}, false},
	}
	for _, c := range imds {
		t.Run("IMDS "+c.name, func(t *testing.T) {
			if c.recent && !recent {
				t.Skipf("botocore %v predates the rule", version)
			}
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
		name   string
		h      http.HandlerFunc
		vars   map[string]string
		recent bool
	}{
		{"served", nil, nil, false},
		{"500", status(500), nil, false},
		{"without Token", noToken, nil, false},
		{"garbage", body("x"), nil, false},
		{"host not allowed", nil, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://example.com/x"}, false},
		{"LF in the token", nil, map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN": "a\nb"}, false},
		{"token file missing", nil, map[string]string{"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "/nonexistent/token"}, true},
	}
	for _, c := range container {
		t.Run("container "+c.name, func(t *testing.T) {
			if c.recent && !recent {
				t.Skipf("botocore %v predates the rule", version)
			}
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
