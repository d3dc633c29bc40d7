package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestVersion: --version and version print SMITHYCURL_VERSION of the C
// header, where the version is defined.
func TestVersion(t *testing.T) {
	bin := smithycurl(t)
	h, err := os.ReadFile(filepath.Join("..", "..", "include", "smithycurl.h"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`#define SMITHYCURL_VERSION "([^"]+)"`).FindSubmatch(h)
	if m == nil {
		t.Fatal("no SMITHYCURL_VERSION in include/smithycurl.h")
	}
	for _, arg := range []string{"--version", "version"} {
		out, _, code := runCmd(t, bin, arg)
		if code != 0 || out != "smithycurl "+string(m[1])+"\n" {
			t.Errorf("%s: exit %d: %q, want version %s", arg, code, out, m[1])
		}
	}
}

// TestCallRefusals: bad set-up is refused before anything is sent, each
// message with one "smithycurl:" prefix and never a password.
func TestCallRefusals(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(httpbin.New().Handler())
	defer srv.Close()
	model := filepath.Join("..", "..", "examples", "httpbin")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--endpoint", srv.URL, "--timeout", "0"}, "--timeout 0s: give a positive duration"},
		{[]string{"--endpoint", srv.URL, "--timeout", "-5s"}, "--timeout -5s: give a positive duration"},
		{[]string{"--endpoint", "http://127.0.0.1:70000"}, "port 70000 is not in 1..65535"},
		{[]string{"--endpoint", "http://ann:SECRET-PW@127.0.0.1:8080"}, "must not hold a user or password"},
		{[]string{"--endpoint", srv.URL, "--bearer", "SECRET-TOKEN\x01"}, "bearer token contains a control character"},
		{[]string{"--endpoint", srv.URL, "--basic", "ann:SECRET-PW\r"}, "basic auth password contains a control character"},
		{[]string{"--endpoint", srv.URL, "--api-key", "SECRET-KEY\n\n"}, "API key contains a control character"},
	} {
		args := append([]string{"call", "--model", model, "GetIp"}, tc.args...)
		_, errOut, code := runCmd(t, bin, args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d: %s, want %q", tc.args, code, errOut, tc.want)
		}
		if strings.Count(errOut, "smithycurl") != 1 || !strings.HasPrefix(errOut, "smithycurl: ") || strings.Contains(errOut, "SECRET") {
			t.Errorf("%q: message %q: want one smithycurl: prefix and no secret", tc.args, errOut)
		}
	}
}

// TestCallSecrets: a token read from a file (with its newline) works, and
// no credential shows on stderr, trace on, whether the call succeeds, gets
// a service error or a transport error.
func TestCallSecrets(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(httpbin.New().Handler())
	defer srv.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	model := filepath.Join("..", "..", "examples", "httpbin")
	token := "SECRET-TOKEN-1"
	out, errOut, code := runCmd(t, bin, "call", "--model", model, "--endpoint", srv.URL, "--bearer", token+"\r\n", "--trace", "Bearer")
	if code != 0 || !strings.Contains(out, `"token":"`+token+`"`) {
		t.Errorf("bearer from a file: exit %d: %s %s", code, out, errOut)
	}
	texts := []string{errOut}
	for _, args := range [][]string{
		{"--endpoint", srv.URL, "--basic", "ann:SECRET-PW-2\n", "BasicAuth", "--input", `{"user": "bob", "passwd": "x"}`},
		{"--endpoint", closed.URL, "--bearer", token, "Bearer", "--retries", "0"},
		{"--endpoint", closed.URL, "--basic", "ann:SECRET-PW-2", "BasicAuth", "--input", `{"user": "ann", "passwd": "x"}`, "--retries", "0"},
		{"--endpoint", srv.URL, "-H", "Authorization: Bearer " + token, "GetIp"},
	} {
		_, errOut, _ := runCmd(t, bin, append([]string{"call", "--model", model, "--trace"}, args...)...)
		texts = append(texts, errOut)
	}
	for _, text := range texts {
		for _, secret := range []string{token, "SECRET-PW-2"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s shown on stderr:\n%s", secret, text)
			}
		}
	}
	if !strings.Contains(strings.Join(texts, ""), "transport error") {
		t.Errorf("no transport error among:\n%s", strings.Join(texts, "\n"))
	}
}

const streamingModel = `$version: "2"
namespace s
@aws.protocols#restJson1
service S { operations: [Upload, Watch, Talk] }

@http(method: "PUT", uri: "/upload")
operation Upload { input := { @httpPayload data: Data } }

@streaming
blob Data

@http(method: "GET", uri: "/watch")
operation Watch { output := { @httpPayload events: Events } }

@http(method: "POST", uri: "/talk")
operation Talk { input := { @httpPayload events: Events } }

@streaming
union Events { tick: Tick }

structure Tick { n: Integer }
`

// TestDescribe: --json is the C API's operation JSON (the describe
// package), and both forms mark @streaming members; the text says how
// call takes each (TestCallStreamingAndEmptyPayload and TestCallEventStream
// call them).
func TestDescribe(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.smithy")
	os.WriteFile(path, []byte(streamingModel), 0o644)

	out, _, code := runCmd(t, bin, "describe", "--model", path, "Upload")
	if code != 0 || !strings.Contains(out, "data: Data (blob)  [streaming blob, httpPayload]") ||
		!strings.Contains(out, "streaming blob (data): call sends it from --body-in FILE") {
		t.Errorf("describe Upload: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, bin, "describe", "--model", path, "Watch")
	if code != 0 || !strings.Contains(out, "events: Events (union)  [event stream, httpPayload]") ||
		!strings.Contains(out, "event stream (events): call prints the initial output, then one JSON line per event") {
		t.Errorf("describe Watch: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, bin, "describe", "--model", path, "Talk")
	if code != 0 || !strings.Contains(out, "input event stream (events): sent from Go only (client.CallDuplex)") {
		t.Errorf("describe Talk: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, bin, "describe", "--json", "--model", path, "Watch")
	var d struct {
		Service, Operation string
		Streaming          bool
		Output             string
		Shapes             map[string]struct {
			Type      string
			Streaming bool
			Members   []struct {
				Name, Streaming string
			}
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil {
		t.Fatalf("describe --json: exit %d: %s", code, out)
	}
	outShape := d.Shapes[d.Output]
	if d.Operation != "s#Watch" || !d.Streaming || len(outShape.Members) != 1 || outShape.Members[0].Streaming != "events" ||
		!d.Shapes["s#Events"].Streaming {
		t.Errorf("describe --json: %s", out)
	}
}

// TestOpsRoutes: ops shows the HTTP route of every protocol, AWS JSON's
// POST / with its X-Amz-Target.
func TestOpsRoutes(t *testing.T) {
	bin := smithycurl(t)
	path := filepath.Join(t.TempDir(), "j.smithy")
	os.WriteFile(path, []byte(`$version: "2"
namespace j
@aws.protocols#awsJson1_0
service DynamoDB_20120810 { operations: [GetItem] }
operation GetItem {}
`), 0o644)
	out, _, code := runCmd(t, bin, "ops", "--model", path)
	if code != 0 || !strings.Contains(out, "GetItem                      POST /  (X-Amz-Target: DynamoDB_20120810.GetItem)") {
		t.Errorf("ops: exit %d\n%s", code, out)
	}
	os.WriteFile(path, []byte(`$version: "2"
namespace j
@smithy.protocols#rpcv2Cbor
service Weather { operations: [GetForecast] }
operation GetForecast {}
`), 0o644)
	out, _, code = runCmd(t, bin, "ops", "--model", path)
	if code != 0 || !strings.Contains(out, "GetForecast                  POST /service/Weather/operation/GetForecast") {
		t.Errorf("ops rpcv2Cbor: exit %d\n%s", code, out)
	}
}

// TestExampleMeetsConstraints: map keys with a pattern or an enum, @length
// minimums and @range minimums are met, so the example passes as it is.
func TestExampleMeetsConstraints(t *testing.T) {
	bin := smithycurl(t)
	path := filepath.Join(t.TempDir(), "e.smithy")
	os.WriteFile(path, []byte(`$version: "2"
namespace e
@aws.protocols#awsJson1_0
service S { operations: [Op] }
operation Op { input := {
    tags: Tags
    @length(min: 3) name: String
    @range(min: 5, max: 9) size: Integer
    @pattern("^[0-9]{12}$") account: String
    kinds: Kinds
} }
map Tags { @pattern("^[a-z]{2}-[0-9]+$") key: String, value: String }
map Kinds { key: Kind, value: Integer }
enum Kind {
    RED = "red"
}
`), 0o644)
	out, errOut, code := runCmd(t, bin, "example", "--model", path, "Op")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("example: exit %d: %s%s", code, out, errOut)
	}
	got, _ := json.Marshal(v)
	want := `{"account":"000000000000","kinds":{"red":0},"name":"string","size":5,"tags":{"aa-0":"string"}}`
	if string(got) != want {
		t.Errorf("example %s\nwant    %s", got, want)
	}
}

// TestHostPrefixMidLabel calls StepFunctions' StartSyncExecution, whose
// host prefix "sync-" is not a whole label, on a loopback endpoint, with
// and without host prefixes.
func TestHostPrefixMidLabel(t *testing.T) {
	bin := smithycurl(t)
	path := shareddata.Path(t, "models", "aws", "stepfunctions.json")
	var mu sync.Mutex
	var hosts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts = append(hosts, r.Host)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Write([]byte(`{"executionArn": "a", "startDate": 0, "stopDate": 0, "status": "SUCCEEDED"}`))
	}))
	defer srv.Close()
	// libcurl resolves every *.localhost name to the loopback address.
	endpoint := strings.Replace(srv.URL, "127.0.0.1", "states.localhost", 1)
	port := endpoint[strings.LastIndex(endpoint, ":"):]
	base := []string{"call", "--model", path, "--endpoint", endpoint, "--aws-access-key-id", "AKID",
		"--aws-secret-access-key", "secret", "--region", "us-east-1", "StartSyncExecution",
		"--input", `{"stateMachineArn": "arn:aws:states:us-east-1:123456789012:stateMachine:m"}`}
	for _, extra := range [][]string{nil, {"--no-host-prefix"}} {
		if out, errOut, code := runCmd(t, bin, append(base, extra...)...); code != 0 {
			t.Errorf("%v: exit %d: %s%s", extra, code, out, errOut)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"sync-states.localhost" + port, "states.localhost" + port}; strings.Join(hosts, " ") != strings.Join(want, " ") {
		t.Errorf("hosts %v, want %v", hosts, want)
	}
}
