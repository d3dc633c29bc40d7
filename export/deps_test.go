package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestNoNetHTTP: the library links neither net/http nor crypto/tls (3 MB
// and 3 MiB of the cold start's RSS when the mock server's net/http one
// was in it): its HTTP is libcurl's, its mock server internal/mock's.
func TestNoNetHTTP(t *testing.T) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goCmd, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "net/http" || strings.HasPrefix(pkg, "net/http/") || pkg == "crypto/tls" {
			t.Errorf("the library depends on %s: go list -deps ./export", pkg)
		}
	}
}
