package protocol

import (
	"strings"
	"testing"
)

func TestJoinHost(t *testing.T) {
	for _, tc := range []struct{ prefix, host, want string }{
		{"", "example.com:8080", "example.com:8080"},
		{"sync-", "states.us-east-1.amazonaws.com", "sync-states.us-east-1.amazonaws.com"},
		{"sync-", "states.localhost:443", "sync-states.localhost:443"},
		{"s1.data.", "example.com", "s1.data.example.com"},
		{"a.b", "c.example.com", "a.bc.example.com"},
	} {
		got, err := JoinHost(tc.prefix, tc.host)
		if err != nil || got != tc.want {
			t.Errorf("JoinHost(%q, %q) = %q, %v; want %q", tc.prefix, tc.host, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ prefix, host, why string }{
		{"-a.", "example.com", `"-a"`},
		{"a..", "example.com", `""`},
		{"evil.com/x.", "example.com", `"com/x"`},
		{"a:80.", "example.com", `"a:80"`},
		{strings.Repeat("x", 60) + "-", "abcd.com", "not a valid host name label"},
		{"sync-", "127.0.0.1:80", "IP address"},
		{"sync-", "[::1]:80", "IP address"},
	} {
		if got, err := JoinHost(tc.prefix, tc.host); err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("JoinHost(%q, %q) = %q, %v; want an error with %s", tc.prefix, tc.host, got, err, tc.why)
		}
	}
}
