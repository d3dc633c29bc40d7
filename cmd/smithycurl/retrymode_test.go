package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallRetryModeFlag: --retry-mode reaches the client (an AWS service's
// User-Agent names the mode) and a mode it does not know is refused.
func TestCallRetryModeFlag(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"agent": "` + r.Header.Get("X-Amz-User-Agent") + `"}`))
	}))
	defer srv.Close()
	model := filepath.Join(t.TempDir(), "echo.smithy")
	src := `$version: "2"
namespace t
use aws.protocols#restJson1
@restJson1
@aws.api#service(sdkId: "Echo")
service S { operations: [Ping] }
@http(method: "POST", uri: "/ping")
operation Ping { input := {}, output := { agent: String } }
`
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"call", "--model", model, "--endpoint", srv.URL}
	out, errOut, code := runCmd(t, bin, append(base, "--retry-mode", "adaptive", "Ping")...)
	if code != 0 || !strings.Contains(out, "cfg/retry-mode#adaptive") {
		t.Errorf("--retry-mode adaptive: exit %d, %s %s", code, out, errOut)
	}
	if _, errOut, code := runCmd(t, bin, append(base, "--retry-mode", "fast", "Ping")...); code == 0 || !strings.Contains(errOut, `--retry-mode "fast": want standard or adaptive`) {
		t.Errorf("--retry-mode fast: exit %d, %s", code, errOut)
	}
}
