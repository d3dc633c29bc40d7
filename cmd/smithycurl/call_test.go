package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mccutchen/go-httpbin/v2/httpbin"
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
	// Exit 2: input validation, with the member path.
	_, errOut, code = run("Status", "--input", `{"code": 42}`)
	if code != 2 || !strings.Contains(errOut, "code") {
		t.Errorf("validation: exit %d: %s", code, errOut)
	}
	// --no-validate sends it anyway: go-httpbin rejects status 42 itself.
	if _, _, code = run("Status", "--input", `{"code": 42}`, "--no-validate", "--retries", "0"); code != 1 {
		t.Errorf("--no-validate: exit %d", code)
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
	// @sensitive members are redacted in the trace (the output's token).
	if !strings.Contains(errOut, `"token":"*** sensitive ***"`) {
		t.Errorf("trace does not redact @sensitive output:\n%s", errOut)
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
