package credchain

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	ok := Result{AKID: "AKIA1", Region: "r", EndpointSupported: true}
	for _, tc := range []struct {
		name    string
		g, b    Result
		problem string // "" when they agree
	}{
		{"same", ok, ok, ""},
		{"other key", ok, Result{AKID: "AKIA2", Region: "r"}, "credentials: smithycurl AKIA1"},
		{"token", ok, Result{AKID: "AKIA1", Token: true, Region: "r"}, "token"},
		{"one fails", ok, Result{CredsError: "x", Region: "r"}, "botocore fails"},
		{"both fail", Result{CredsError: "profile p: bad"}, Result{CredsError: "boom"}, ""},
		{"not found vs error", Result{CredsError: "profile p", NotFound: true}, Result{CredsError: "boom"}, "'not found'"},
		{"nameless error", Result{CredsError: "bad"}, Result{CredsError: "boom"}, "names no profile"},
		{"region", ok, Result{AKID: "AKIA1", Region: "q"}, "region"},
		{"endpoint", Result{AKID: "AKIA1", Endpoint: "http://a"}, Result{AKID: "AKIA1", EndpointSupported: true}, "endpoint"},
		{"endpoint unsupported", Result{AKID: "AKIA1", Endpoint: "http://a"}, Result{AKID: "AKIA1"}, ""},
	} {
		got := strings.Join(compare(Case{}, tc.g, tc.b), "; ")
		if (tc.problem == "") != (got == "") || !strings.Contains(got, tc.problem) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.problem)
		}
	}
}

func TestLeaks(t *testing.T) {
	secrets := append(staticSecrets(), "")
	if leaks(`{"akid":"AKIA1","creds_error":"profile p: bad"}`, secrets) {
		t.Error("a clean output leaks")
	}
	for _, s := range staticSecrets() {
		if !leaks(`{"creds_error":"x `+s+`"}`, secrets) {
			t.Errorf("%.8s... not found", s)
		}
	}
}

func TestNeeds(t *testing.T) {
	if needs("endpoint_url", "1.29.27") == "" || needs("endpoint_url", "1.31.0") != "" || needs("token_file", "1.31.9") == "" {
		t.Error("needs: wrong version gate")
	}
}

func TestCaseNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Cases() {
		n := c.Group + "/" + c.Name
		if seen[n] {
			t.Errorf("two cases %s", n)
		}
		seen[n] = true
	}
	if len(seen) < 60 {
		t.Errorf("%d cases, want at least 60", len(seen))
	}
}
