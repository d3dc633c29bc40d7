package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServe: `smithycurl serve` prints its URL first, answers `smithycurl
// call` from its fixtures, with random outputs reproducible by --seed and
// with the modeled validation error, logs a line per request, and stops
// cleanly on SIGTERM.
func TestServe(t *testing.T) {
	bin := smithycurl(t)
	model := filepath.Join("..", "..", "serve", "testdata", "shop.smithy")
	const service = "smithycurl.serve.shop#ShopJson"
	fixtures := filepath.Join(t.TempDir(), "fixtures.json")
	if err := os.WriteFile(fixtures, []byte(`{"GetItem": [{"match": {"id": "pen"}, "output": {"id": "pen", "name": "A pen"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	start := func(seed string) (url string, stop func() (int, string)) {
		return startServe(t, bin, "--model", model, "--service", service, "--fixtures", fixtures, "--seed", seed)
	}
	callIt := func(url, op, input string) (string, string, int) {
		return runCmd(t, bin, "call", "--model", model, "--service", service, "--endpoint", url, op, "--input", input)
	}

	url, stop := start("7")
	out, errOut, code := callIt(url, "GetItem", `{"id": "pen"}`)
	if code != 0 || !strings.Contains(out, `"A pen"`) {
		t.Errorf("GetItem pen: exit %d: %s%s", code, out, errOut)
	}
	random, errOut, code := callIt(url, "GetItem", `{"id": "other"}`)
	var item map[string]any
	if code != 0 || json.Unmarshal([]byte(random), &item) != nil || item["name"] == nil {
		t.Errorf("GetItem other: exit %d: %s%s", code, random, errOut)
	}
	out, errOut, code = callIt(url, "PutItem", `{"name": "a name longer than twenty"}`)
	if code != exitServiceError || !strings.Contains(out+errOut, "ValidationException") || !strings.Contains(out+errOut, "name") {
		t.Errorf("PutItem invalid: exit %d: %s%s", code, out, errOut)
	}
	code, logs := stop()
	if code != 0 || strings.Count(logs, "msg=request") != 3 || !strings.Contains(logs, "operation=PutItem status=400") {
		t.Errorf("serve: exit %d, log:\n%s", code, logs)
	}

	url, stop = start("7") // the same seed: the same random output
	again, _, _ := callIt(url, "GetItem", `{"id": "other"}`)
	stop()
	if again != random {
		t.Errorf("seed 7 twice: %s then %s", random, again)
	}
}

// startServe starts `smithycurl serve args...` and returns its URL, once
// it listens, and a function stopping it with SIGTERM that returns its
// exit code and its log.
func startServe(t *testing.T, bin string, args ...string) (url string, stop func() (int, string)) {
	t.Helper()
	var errOut bytes.Buffer
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Stderr = &errOut
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n') // the URL, once it listens
	if err != nil || !strings.HasPrefix(line, "http://127.0.0.1:") {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("first line %q, %v: %s", line, err, errOut.String())
	}
	return strings.TrimSpace(line), func() (int, string) {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("serve did not stop within 10 s of SIGTERM")
		}
		return cmd.ProcessState.ExitCode(), errOut.String()
	}
}

// TestServeRecordReplay: `serve --proxy --record` in front of another
// serve, then `serve --replay` with the upstream stopped gives `smithycurl
// call` the same output.
func TestServeRecordReplay(t *testing.T) {
	bin := smithycurl(t)
	model := filepath.Join("..", "..", "serve", "testdata", "shop.smithy")
	const service = "smithycurl.serve.shop#ShopJson"
	rec := filepath.Join(t.TempDir(), "exchanges.jsonl")
	callIt := func(url string) (string, string, int) {
		return runCmd(t, bin, "call", "--model", model, "--service", service, "--endpoint", url, "GetItem", "--input", `{"id": "other"}`)
	}
	upstream, stopUpstream := startServe(t, bin, "--model", model, "--service", service, "--seed", "3")
	proxy, stopProxy := startServe(t, bin, "--model", model, "--service", service, "--proxy", upstream, "--record", rec)
	want, errOut, code := callIt(proxy)
	if code != 0 {
		t.Fatalf("through the proxy: exit %d: %s%s", code, want, errOut)
	}
	stopProxy()
	stopUpstream()
	replay, stopReplay := startServe(t, bin, "--model", model, "--service", service, "--replay", rec)
	got, errOut, code := callIt(replay)
	code2, logs := stopReplay()
	if code != 0 || got != want || code2 != 0 || !strings.Contains(logs, "answer=replay") {
		t.Errorf("replayed: exit %d: %s%s, recorded %s; serve: exit %d, log:\n%s", code, got, errOut, want, code2, logs)
	}
}

// TestServeBadFixtures: fixtures that do not fit the model stop serve
// before it listens, with the file, the operation and the member.
func TestServeBadFixtures(t *testing.T) {
	bin := smithycurl(t)
	fixtures := filepath.Join(t.TempDir(), "fixtures.json")
	if err := os.WriteFile(fixtures, []byte(`{"GetItem": [{"output": {"id": "pen", "name": 7}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, bin, "serve", "--model", filepath.Join("..", "..", "serve", "testdata", "shop.smithy"),
		"--service", "smithycurl.serve.shop#ShopJson", "--fixtures", fixtures)
	if code != exitUsage || out != "" || !strings.Contains(errOut, fixtures) || !strings.Contains(errOut, "operation GetItem, entry 1: output: member name") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
}
