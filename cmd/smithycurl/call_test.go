package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func TestCall(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(httpbin.New().Handler())
	defer srv.Close()
	model := filepath.Join("..", "..", "examples", "httpbin")
	base := []string{"call", "--model", model, "--endpoint", srv.URL}
	run := func(args ...string) (string, string, int) {
		return runCmd(t, bin, append(append([]string{}, base...), args...)...)
	}

	// Input from the argument, flags after the operation.
	out, errOut, code := run("Anything", "--input", `{"id": 25, "test": "yo", "queryParam": "hello"}`)
	var v struct {
		JSON struct{ ID int }
		Args map[string][]string
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.JSON.ID != 25 || v.Args["query"][0] != "hello" {
		t.Errorf("call Anything: exit %d\n%s\n%s", code, out, errOut)
	}
	// Input from a file.
	in := filepath.Join(t.TempDir(), "in.json")
	os.WriteFile(in, []byte(`{"id": 7}`), 0o644)
	if out, _, code := run("--input", "@"+in, "Anything"); code != 0 || !strings.Contains(out, `"id":7`) {
		t.Errorf("--input @FILE: exit %d: %s", code, out)
	}
	// Input from stdin.
	cmd := exec.Command(bin, append(append([]string{}, base...), "Anything")...)
	cmd.Stdin = strings.NewReader(`{"id": 8}`)
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), `"id":8`) {
		t.Errorf("stdin input: %v: %s", err, out)
	}
	// Exit 1: a modeled service error, printed on stdout.
	out, _, code = run("Status", "--input", `{"code": 500}`, "--retries", "0")
	if code != 1 || strings.TrimSpace(out) != `{"error":"smithycurl.examples.httpbin#ServerFailure","status":500,"data":{}}` {
		t.Errorf("service error: exit %d: %s", code, out)
	}
	// Exit 2: input validation with --validate, with the member path.
	_, errOut, code = run("Status", "--input", `{"code": 42}`, "--validate")
	if code != 2 || !strings.Contains(errOut, "code: value 42 is below the minimum") {
		t.Errorf("validation: exit %d: %s", code, errOut)
	}
	// By default (and with --no-validate) it is sent: go-httpbin rejects status 42 itself.
	for _, flags := range [][]string{nil, {"--no-validate"}, {"--validate", "--no-validate"}} {
		if _, _, code = run(append([]string{"Status", "--input", `{"code": 42}`, "--retries", "0"}, flags...)...); code != 1 {
			t.Errorf("%v: exit %d", flags, code)
		}
	}
	// Exit 2 whatever the flags: a missing @required member, a value that
	// does not fit its type, input that is not UTF-8 or escapes a lone surrogate.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{\"id\": 1, \"test\": \"\xff\"}"), 0o644)
	for _, tc := range []struct{ input, want string }{
		{`{"test": "x"}`, "id: is required"},
		{`{"id": 1.5}`, "member id: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
		{`{"id": 2147483648}`, "member id: 2147483648 is out of range (integer:"},
		{`{"id": 01}`, "01 is not a JSON number"},
		{"@" + bad, "the input is not valid UTF-8 (at /test, byte 19)"},
		{`{"id": 1, "test": "\ud83d\ude00 \ud83d"}`, `the input is not Unicode text: \ud83d is a lone surrogate (at /test, byte 32)`},
	} {
		_, errOut, code = run("Anything", "--input", tc.input, "--no-validate")
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d: %s, want %q", tc.input, code, errOut, tc.want)
		}
	}
	// The input read is bounded.
	if _, errOut, code = run("Anything", "--input", "@/dev/zero"); code != 2 || !strings.Contains(errOut, "the input is larger than 64 MiB") {
		t.Errorf("--input @/dev/zero: exit %d: %s", code, errOut)
	}
	// Exit 2: unknown operation, with a suggestion.
	if _, errOut, code = run("Anythin"); code != 2 || !strings.Contains(errOut, "did you mean Anything") {
		t.Errorf("unknown op: exit %d: %s", code, errOut)
	}
	// Exit 3: timeout.
	if _, _, code = run("Delay", "--input", `{"seconds": 3}`, "--timeout", "300ms", "--retries", "0"); code != 3 {
		t.Errorf("timeout: exit %d", code)
	}
	// Exit 3: connection refused.
	if _, _, code = runCmd(t, bin, "call", "--model", model, "--endpoint", "http://127.0.0.1:1", "GetIp", "--retries", "0"); code != 3 {
		t.Errorf("refused: exit %d", code)
	}
	// Headers, auth and the redacted trace.
	out, errOut, code = run("Bearer", "--bearer", "s3cret-token", "--trace", "-H", "X-Extra: 1")
	if code != 0 || !strings.Contains(out, `"authenticated":true`) {
		t.Errorf("bearer: exit %d: %s", code, out)
	}
	if strings.Contains(errOut, "s3cret-token") || !strings.Contains(errOut, "> GET ") || !strings.Contains(errOut, "Authorization: REDACTED") ||
		!strings.Contains(errOut, "X-Extra: 1") || !strings.Contains(errOut, "* output") {
		t.Errorf("trace:\n%s", errOut)
	}
	if strings.Contains(errOut, "is not sent") {
		t.Errorf("a usable --bearer got a note:\n%s", errOut)
	}
	// A credential no operation of the service accepts: a note, the call goes on.
	if _, errOut, code := run("GetIp", "--api-key", "k3y-value"); code != 0 ||
		!strings.Contains(errOut, "--api-key is not sent: no operation of") || strings.Contains(errOut, "k3y-value") {
		t.Errorf("--api-key on a service without @httpApiKeyAuth: exit %d: %s", code, errOut)
	}
	// @sensitive members are redacted in the trace (the output's token).
	if !strings.Contains(errOut, `"token":"*** sensitive ***"`) {
		t.Errorf("trace does not redact @sensitive output:\n%s", errOut)
	}
	// --digest: libcurl answers go-httpbin's digest challenge.
	signed := []string{"call", "--model", filepath.Join("..", "..", "testing", "servers", "signedserver", "signed.smithy"),
		"--endpoint", srv.URL, "DigestAuth", "--input", `{"qop": "auth", "user": "ann", "passwd": "pw"}`}
	if out, errOut, code := runCmd(t, bin, append(signed, "--digest", "ann:pw")...); code != 0 || !strings.Contains(out, `"authenticated":true`) {
		t.Errorf("--digest: exit %d: %s %s", code, out, errOut)
	}
	if _, _, code := runCmd(t, bin, append(signed, "--digest", "ann:wrong", "--retries", "0")...); code != 1 {
		t.Errorf("--digest with a wrong password: exit %d, want 1 (the service's 401)", code)
	}
	// --basic and --raw.
	out, _, code = run("BasicAuth", "--basic", "ann:pw", "--input", `{"user": "ann", "passwd": "pw"}`, "--raw")
	if code != 0 || !strings.HasPrefix(out, "HTTP 200\n") || !strings.Contains(out, "Content-Type: application/json") {
		t.Errorf("--raw: exit %d: %s", code, out)
	}
}

func TestCompletionScripts(t *testing.T) {
	bin := smithycurl(t)
	for _, sh := range []string{"bash", "zsh"} {
		if out, _, code := runCmd(t, bin, "completion", sh); code != 0 || !strings.Contains(out, "ops --names") {
			t.Errorf("completion %s: exit %d", sh, code)
		}
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		out, _, _ := runCmd(t, bin, "completion", "bash")
		script := out + "\nPATH=" + filepath.Dir(bin) + ":$PATH\nCOMP_WORDS=(smithycurl describe --model ../../examples/httpbin Any); COMP_CWORD=4; _smithycurl; echo ${COMPREPLY[@]}\n"
		got, err := exec.Command(bash, "-c", script).Output()
		if err != nil || strings.TrimSpace(string(got)) != "Anything" {
			t.Errorf("bash completion of an operation = %q, %v", got, err)
		}
	}
	if _, _, code := runCmd(t, bin, "completion", "fish"); code != 2 {
		t.Errorf("completion fish: exit %d", code)
	}
}

func TestDescribeAndExample(t *testing.T) {
	bin := smithycurl(t)
	model := filepath.Join("..", "..", "examples", "httpbin")
	out, _, code := runCmd(t, bin, "describe", "--model", model, "Status")
	for _, want := range []string{"GET /status/{code}", "code: integer  [required, range {\"min\":100,\"max\":599}, httpLabel]", "ServerFailure HTTP 500"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("describe: exit %d, missing %q in\n%s", code, want, out)
		}
	}
	out, _, code = runCmd(t, bin, "example", "--model", model, "Anything")
	if code != 0 || strings.Join(strings.Fields(out), "") != `{"id":0,"test":"string","queryParam":"string"}` {
		t.Errorf("example: exit %d: %s", code, out)
	}
}

// An event stream that ends at once prints its initial output; a blob
// payload with an empty body is printed as an empty blob.
func TestCallStreamingAndEmptyPayload(t *testing.T) {
	lambda := shareddata.Path(t, "models", "aws", "lambda.json")
	bin := smithycurl(t)
	var mu sync.Mutex
	hits := 0
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		hits++
		got = body
		mu.Unlock()
		w.WriteHeader(200) // no body
	}))
	defer srv.Close()
	base := []string{"call", "--model", lambda, "--endpoint", srv.URL, "--retries", "0",
		"--aws-access-key-id", "AKIDEXAMPLE", "--aws-secret-access-key", "fake", "--region", "us-east-1"}
	// An event stream that ends at once: the initial output, no event.
	out, errOut, code := runCmd(t, bin, append(base, "InvokeWithResponseStream", "--input", `{"FunctionName": "f"}`)...)
	if code != 0 || strings.TrimSpace(out) != `{"StatusCode":200}` {
		t.Errorf("empty event stream: exit %d: %s %s", code, out, errOut)
	}
	out, errOut, code = runCmd(t, bin, append(base, "Invoke", "--input", `{"FunctionName": "f"}`)...)
	if code != 0 || strings.TrimSpace(out) != `{"StatusCode":200,"Payload":""}` {
		t.Errorf("Invoke with an empty body: exit %d: %s %s", code, out, errOut)
	}
	// --body-in: InvokeAsync's streaming InvokeArgs from a file.
	file := filepath.Join(t.TempDir(), "args.json")
	args := bytes.Repeat([]byte(`{"k": "streamed"}`), 10_000)
	os.WriteFile(file, args, 0o600)
	out, errOut, code = runCmd(t, bin, append(base, "InvokeAsync", "--input", `{"FunctionName": "f"}`, "--body-in", file)...)
	mu.Lock()
	if code != 0 || !bytes.Equal(got, args) {
		t.Errorf("InvokeAsync --body-in: exit %d, server got %d bytes (want %d): %s %s", code, len(got), len(args), out, errOut)
	}
	mu.Unlock()
	_, errOut, code = runCmd(t, bin, append(base, "Invoke", "--input", `{"FunctionName": "f"}`, "--body-in", file)...)
	if code != 2 || errOut != "smithycurl: --body-in: operation Invoke has no streaming blob input payload\n" {
		t.Errorf("Invoke --body-in: exit %d: %s", code, errOut)
	}
	// Refused before the file is touched.
	_, errOut, code = runCmd(t, bin, append(base, "Invoke", "--input", `{"FunctionName": "f"}`, "--body-out", file)...)
	if kept, _ := os.ReadFile(file); code != 2 || errOut != "smithycurl: --body-out: operation Invoke has no streaming blob output payload\n" || !bytes.Equal(kept, args) {
		t.Errorf("Invoke --body-out: exit %d: %s; the file has %d bytes of %d", code, errOut, len(kept), len(args))
	}
}

// An API Gateway service (by its shape id) on go-httpbin: its Accept header,
// type checks of timestamps, numbers and blobs, an empty blob payload.
const exactModel = `$version: "2"
namespace com.amazonaws.apigateway
@aws.protocols#restJson1
service BackplaneControlService { operations: [GetHeaders, GetEmpty, Put] }
@readonly @http(method: "GET", uri: "/headers")
operation GetHeaders { output := { headers: Document } }
@readonly @http(method: "GET", uri: "/status/200")
operation GetEmpty { output := { @httpPayload data: Blob } }
@http(method: "POST", uri: "/anything/{label}")
operation Put {
    input := { @required @httpLabel label: Timestamp, @httpHeader("X-B") hb: Byte, f: Float, t: Timestamp, blob: Blob }
    output := { json: Document }
}
`

func TestCallExact(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(httpbin.New().Handler())
	defer srv.Close()
	model := filepath.Join(t.TempDir(), "exact.smithy")
	os.WriteFile(model, []byte(exactModel), 0o644)
	run := func(args ...string) (string, string, int) {
		return runCmd(t, bin, append([]string{"call", "--model", model, "--endpoint", srv.URL, "--retries", "0"}, args...)...)
	}
	if out, errOut, code := run("GetHeaders"); code != 0 || !strings.Contains(out, `"Accept":["application/json"]`) {
		t.Errorf("API Gateway's Accept header: exit %d: %s %s", code, out, errOut)
	}
	if out, errOut, code := run("GetEmpty"); code != 0 || strings.TrimSpace(out) != `{"data":""}` {
		t.Errorf("empty blob payload: exit %d: %s %s", code, out, errOut)
	}
	if out, errOut, code := run("Put", "--input", `{"label": 0, "t": 253402300799, "blob": "aGk="}`); code != 0 || !strings.Contains(out, `"t":253402300799`) {
		t.Errorf("edge values: exit %d: %s %s", code, out, errOut)
	}
	for _, tc := range []struct{ input, want string }{
		{`{"label": 0, "t": 1e20}`, "member t: timestamp 1e20 is out of range: years 0001 to 9999"},
		{`{"label": 0, "t": -1e20}`, "member t: timestamp -1e20 is out of range"},
		{`{"label": 0, "t": 1e308}`, "member t: timestamp 1e308 is out of range"},
		{`{"label": 0, "t": "NaN"}`, `member t: invalid date-time "NaN"`},
		{`{"label": 0, "t": "Infinity"}`, `member t: invalid date-time "Infinity"`},
		{`{"label": 1e20}`, "member label: timestamp 1e20 is out of range"},
		{`{"label": 0, "hb": 128}`, "member hb: 128 is out of range (byte: -128 to 127)"},
		{`{"label": 0, "f": 1e39}`, "member f: 1e39 is out of range (float: "},
		{`{"label": 0, "blob": "!!!notbase64"}`, "member blob: invalid base64: illegal character '!' at offset 0"},
	} {
		for _, flags := range [][]string{nil, {"--validate"}, {"--no-validate"}} {
			if _, errOut, code := run(append([]string{"Put", "--input", tc.input}, flags...)...); code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("%s %v: exit %d: %s, want %q", tc.input, flags, code, errOut, tc.want)
			}
		}
	}
}

// TestCallBigIntegerLimit: a bigInteger has at most 10000 digits, however
// it is written; a longer one is an input error naming its member path,
// and nothing is sent.
func TestCallBigIntegerLimit(t *testing.T) {
	bin := smithycurl(t)
	url, sent := countingServer(t, http.StatusOK, `{}`)
	model := filepath.Join(t.TempDir(), "big.smithy")
	os.WriteFile(model, []byte(`$version: "2"
namespace big
@aws.protocols#restJson1
service Big { operations: [Put] }
@http(method: "POST", uri: "/put")
operation Put { input := { n: BigInteger, items: Items } }
list Items { member: Item }
structure Item { n: BigInteger }
`), 0o644)
	digits := func(n int) string { return "-" + strings.Repeat("9", n) }
	for _, tc := range []struct{ input, want string }{
		{`{"n": ` + digits(10000) + `}`, ""},
		{`{"n": ` + digits(10001) + `}`, "member n: -9999999999999999999... (10001 digits) has more than 10000 digits (bigInteger)"},
		{`{"items": [{"n": 1}, {"n": ` + digits(20001)[1:] + `}]}`, "member items[1].n: 99999999999999999999... (20001 digits) has more than 10000 digits (bigInteger)"},
		{`{"n": 1e10001}`, "member n: 1e10001 has more than 10000 digits (bigInteger)"},
	} {
		_, errOut, code := runCmd(t, bin, "call", "--model", model, "--endpoint", url, "Put", "--input", tc.input)
		n := sent()
		if tc.want == "" && (code != 0 || n != 1) {
			t.Errorf("%.40s: exit %d, %d requests: %s", tc.input, code, n, errOut)
		}
		if tc.want != "" && (code != 2 || n != 0 || !strings.Contains(errOut, tc.want) || len(errOut) > 200) {
			t.Errorf("%.40s: exit %d, %d requests: %.300s; want exit 2, nothing sent and %q", tc.input, code, n, errOut, tc.want)
		}
	}
}

// TestCallDecodeError: a response the client cannot decode exits 6, not
// 3 (transport error or timeout): the call may have taken effect.
func TestCallDecodeError(t *testing.T) {
	bin := smithycurl(t)
	url, _ := countingServer(t, http.StatusOK, `{"items": [{"id": 1`) // cut short
	model := filepath.Join("..", "..", "examples", "todo")
	out, errOut, code := runCmd(t, bin, "call", "--model", model, "--endpoint", url, "ListTodos", "--input", "{}", "--retries", "0")
	if code != 6 || out != "" || !strings.Contains(errOut, "decode error") {
		t.Errorf("exit %d: %s%s; want 6 and a decode error", code, out, errOut)
	}
}

// TestCallRetries: --retries N is how many retries follow the first
// attempt, as its help says (with one default).
func TestCallRetries(t *testing.T) {
	bin := smithycurl(t)
	url, sent := countingServer(t, http.StatusServiceUnavailable, `{}`)
	base := []string{"call", "--model", filepath.Join("..", "..", "examples", "todo"), "--endpoint", url,
		"GetTodo", "--input", `{"id": "00000000-0000-4000-8000-000000000000"}`} // @readonly: a 503 is retried
	for _, tc := range []struct {
		flags []string
		sends int
	}{{nil, 3}, {[]string{"--retries", "0"}, 1}, {[]string{"--retries", "1"}, 2}} {
		_, errOut, code := runCmd(t, bin, append(base, tc.flags...)...)
		if n := sent(); code != 1 || n != tc.sends {
			t.Errorf("%v: exit %d, %d sends, want %d: %s", tc.flags, code, n, tc.sends, errOut)
		}
	}
	if _, errOut, code := runCmd(t, bin, append(base, "--retries", "-1")...); code != 2 || !strings.Contains(errOut, "--retries -1: give 0 or more") {
		t.Errorf("--retries -1: exit %d: %s", code, errOut)
	}
	_, help, _ := runCmd(t, bin, "call", "--help")
	i := strings.Index(help, "-retries N\n")
	entry, _, _ := strings.Cut(help[max(i, 0):], "\n  -")
	if i < 0 || strings.Count(entry, "(default") != 1 || !strings.Contains(entry, "retries after the first attempt") || !strings.HasSuffix(entry, "(default 2)") {
		t.Errorf("call --help, --retries:\n%s", entry)
	}
}

// countingServer answers every request with status and body, and counts
// the requests: sent() gives how many came since the last call.
func countingServer(t *testing.T, status int, body string) (url string, sent func() int) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() int { return int(n.Swap(0)) }
}
