package main

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/kvserver"
)

// Both RPC v2 protocols from the command line against the in-repo
// key-value store: every operation, a modeled error (exit 1, the error on
// stdout), an input error (exit 2, nothing sent), a transport error (exit 3).
func TestCallRPCv2(t *testing.T) {
	bin := smithycurl(t)
	kvModel := filepath.Join("..", "..", "testing", "servers", "kvserver", "kv.smithy")
	for _, svc := range []string{"KVCbor", "KVJson"} {
		t.Run(svc, func(t *testing.T) {
			srv := httptest.NewServer(kvserver.New().Handler())
			defer srv.Close()
			call := func(op, input string) (string, int) {
				args := []string{"call", "--model", kvModel, "--service", "smithycurl.kv#" + svc, "--endpoint", srv.URL, "--retries", "0", op}
				if input != "" {
					args = append(args, "--input", input)
				}
				out, _, code := runCmd(t, bin, args...)
				return out, code
			}
			if out, code := call("Ping", ""); code != 0 || strings.TrimSpace(out) != "{}" {
				t.Errorf("Ping: exit %d: %s", code, out)
			}
			if out, code := call("Put", `{"key": "a", "value": "AAE=", "size": 123456789012345678901234567890, "ratio": 0.001, "expires": 1764584430.5}`); code != 0 || !strings.Contains(out, `"version":1`) {
				t.Errorf("Put: exit %d: %s", code, out)
			}
			out, code := call("Get", `{"key": "a"}`)
			for _, want := range []string{`"value":"AAE="`, `"size":123456789012345678901234567890`, `"ratio":0.001`, `"expires":"2025-12-01T10:20:30.5Z"`} {
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("Get: exit %d: %s lacks %s", code, out, want)
				}
			}
			if out, code := call("List", `{}`); code != 0 || !strings.Contains(out, `"key":"a"`) {
				t.Errorf("List: exit %d: %s", code, out)
			}
			if out, code := call("Delete", `{"key": "a"}`); code != 0 {
				t.Errorf("Delete: exit %d: %s", code, out)
			}
			out, code = call("Get", `{"key": "a"}`)
			var e struct {
				Error  string
				Status int
				Data   struct{ Key, Message string }
			}
			if code != 1 || json.Unmarshal([]byte(out), &e) != nil || e.Error != "smithycurl.kv#NotFound" || e.Data.Key != "a" {
				t.Errorf("Get of a deleted key: exit %d: %s", code, out)
			}
			if out, code := call("Put", `{"key": "a", "ifVersion": "1"}`); code != 2 {
				t.Errorf("Put with a string for a Long: exit %d: %s", code, out)
			}
			srv.Close()
			if out, code := call("Ping", ""); code != 3 {
				t.Errorf("Ping of a closed server: exit %d: %s", code, out)
			}
		})
	}
}
