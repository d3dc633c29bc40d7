package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const waitTestModel = `$version: "2"
namespace t
use aws.protocols#awsJson1_0
use smithy.waiters#waitable

@awsJson1_0
service Things { version: "1", operations: [GetThing] }

@waitable(
    ThingReady: {
        acceptors: [
            { state: "failure", matcher: { output: { path: "status", comparator: "stringEquals", expected: "failed" } } }
            { state: "success", matcher: { output: { path: "status", comparator: "stringEquals", expected: "ready" } } }
        ]
    }
)
operation GetThing {
    input := { @required name: String }
    output := { status: String }
}
`

// thingServer answers GetThing by name: "slow" is pending twice then
// ready, "bad" failed, "never" pending forever.
func thingServer(t *testing.T) string {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Name string }
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &in)
		mu.Lock()
		seen[in.Name]++
		n := seen[in.Name]
		mu.Unlock()
		status := "pending"
		switch {
		case in.Name == "slow" && n > 2:
			status = "ready"
		case in.Name == "bad":
			status = "failed"
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		io.WriteString(w, `{"status": "`+status+`"}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestWait(t *testing.T) {
	bin := smithycurl(t)
	model := filepath.Join(t.TempDir(), "things.smithy")
	if err := os.WriteFile(model, []byte(waitTestModel), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"wait", "--model", model, "--endpoint", thingServer(t), "--min-delay", "10ms", "--max-delay", "40ms"}
	run := func(args ...string) (string, string, int) {
		return runCmd(t, bin, append(append([]string{}, base...), args...)...)
	}

	out, errOut, code := run("ThingReady", "--input", `{"name": "slow"}`, "--trace")
	if code != 0 || strings.TrimSpace(out) != `{"status":"ready"}` {
		t.Errorf("slow: exit %d: %s\n%s", code, out, errOut)
	}
	for _, want := range []string{"* waiter ThingReady: attempt 1: retry (no acceptor matched), next attempt in",
		"* waiter ThingReady: attempt 3: success (acceptor 2 matched)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("--trace lacks %q:\n%s", want, errOut)
		}
	}
	_, errOut, code = run("ThingReady", "--input", `{"name": "bad"}`)
	if code != exitWaiterFailure || !strings.Contains(errOut, `waiter ThingReady reached its failure state: acceptor 1 (output status stringEquals "failed") matched on attempt 1`) {
		t.Errorf("bad: exit %d: %s", code, errOut)
	}
	start := time.Now()
	_, errOut, code = run("ThingReady", "--input", `{"name": "never"}`, "--max-wait", "300ms")
	if code != exitWaiterTimeout || !strings.Contains(errOut, "waiter ThingReady timed out after") {
		t.Errorf("never: exit %d: %s", code, errOut)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a 300ms wait took %s", took)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ThingGone", "--input", "{}"}, `unknown waiter "ThingGone"; the waiters of Things are: ThingReady`},
		{nil, "give exactly one WAITER: ThingReady"},
		{[]string{"ThingReady", "--input", `{"name": "x"}`, "--max-wait", "0s"}, "--max-wait 0s: give a positive duration"},
		{[]string{"ThingReady", "--input", `{}`}, "name: is required"},
	} {
		if _, errOut, code := run(tc.args...); code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d: %s, want %q", tc.args, code, errOut, tc.want)
		}
	}
}
