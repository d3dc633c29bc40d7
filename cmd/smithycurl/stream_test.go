package main

import (
	"bufio"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
)

// call on an event-stream operation prints the initial output, then one
// JSON line per event as each arrives.
func TestCallEventStream(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(eventserver.Service{}.Handler())
	defer srv.Close()
	model := filepath.Join(t.TempDir(), "ticker.smithy")
	if err := os.WriteFile(model, []byte(eventserver.Model), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"call", "--model", model, "--endpoint", srv.URL, "Tick", "--input"}

	cmd := exec.Command(bin, append(base, `{"count":3,"intervalMs":400}`)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var lines []string
	var when []time.Duration
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(lines) < 10 {
		lines = append(lines, sc.Text())
		when = append(when, time.Since(start))
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	want := []string{
		`{"session":"s-1"}`,
		`{"tick":{"seq":0,"at":"2024-10-31T14:15:14Z","message":"tick 0"}}`,
		`{"tick":{"seq":1,"at":"2024-10-31T14:15:15Z","message":"tick 1"}}`,
		`{"tick":{"seq":2,"at":"2024-10-31T14:15:16Z","message":"tick 2"}}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("output:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Printed as they arrive: the first event 800 ms before the last.
	if when[3]-when[1] < 600*time.Millisecond {
		t.Errorf("lines at %v: not printed as they arrived", when)
	}

	// An exception event: the events before it, then the error line, exit 1.
	stdout, stderr, code := runCmd(t, bin, append(base, `{"count":1,"fail":"exception"}`)...)
	wantOut := `{"session":"s-1"}` + "\n" + want[1] + "\n" +
		`{"error":"smithycurl.test.events#TooFast","status":200,"data":{"message":"slow down"}}`
	if code != 1 || strings.TrimSpace(stdout) != wantOut || !strings.Contains(stderr, "slow down") {
		t.Errorf("exception: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// A cut stream: exit 3 with the cause.
	if _, stderr, code := runCmd(t, bin, append(base, `{"count":1,"fail":"truncate"}`)...); code != 3 || !strings.Contains(stderr, "transfer closed") {
		t.Errorf("truncated: exit %d: %s", code, stderr)
	}
}

// The same from an RPC protocol (rpcv2Cbor), where the initial output is
// the stream's first message and the events are CBOR.
func TestCallEventStreamRPC(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(eventserver.Service{}.Handler())
	defer srv.Close()
	model := filepath.Join(t.TempDir(), "rpcticker.smithy")
	if err := os.WriteFile(model, []byte(eventserver.RPCModel), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"call", "--model", model, "--service", "smithycurl.test.events.rpc#TickerCbor", "--endpoint", srv.URL, "Tick", "--input"}
	stdout, stderr, code := runCmd(t, bin, append(base, `{"count":2,"fail":"exception"}`)...)
	want := `{"session":"s-1"}` + "\n" +
		`{"tick":{"seq":0,"at":"2024-10-31T14:15:14Z","message":"tick 0"}}` + "\n" +
		`{"tick":{"seq":1,"at":"2024-10-31T14:15:15Z","message":"tick 1"}}` + "\n" +
		`{"error":"smithycurl.test.events.rpc#TooFast","status":200,"data":{"message":"slow down"}}`
	if code != 1 || strings.TrimSpace(stdout) != want || !strings.Contains(stderr, "slow down") {
		t.Errorf("exit %d\n%s\nwant\n%s\nstderr: %s", code, stdout, want, stderr)
	}
}
