package credentials

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// script writes an executable shell script into a temporary folder.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "creds.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

const procSecret = "PROCESS-SECRET-abcdefgh"

func TestProcess(t *testing.T) {
	s := script(t, `cat <<'EOF'
{"Version": 1, "AccessKeyId": "AKPROC", "SecretAccessKey": "`+procSecret+`", "SessionToken": "PROCTOKEN", "Expiration": "2030-01-02T03:04:05Z"}
EOF`)
	c, err := Process(s, "profile dev (/x/config:3)", Options{}).Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if c.AccessKeyID != "AKPROC" || c.SecretAccessKey != procSecret || c.SessionToken != "PROCTOKEN" || !c.Expires.Equal(want) {
		t.Fatalf("got %+v", c)
	}
	if c.Source != "credential_process: profile dev (/x/config:3)" {
		t.Fatalf("Source %q", c.Source)
	}
}

func TestProcessNoExpiration(t *testing.T) {
	s := script(t, `echo '{"Version": 1.0, "AccessKeyId": "AKPROC", "SecretAccessKey": "x"}'`)
	c, err := Process(s, "", Options{}).Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !c.Expires.IsZero() || c.SessionToken != "" || c.Source != "credential_process" {
		t.Fatalf("got %+v", c)
	}
}

// Arguments are split as shlex.split, with no shell between.
func TestProcessArguments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "creds")
	body := `[ "$1" = "a b" ] && [ "$2" = '$HOME' ] && [ "$3" = 'x"y' ] && [ $# = 3 ] || { echo "bad args: $#" >&2; exit 9; }
echo '{"Version": 1, "AccessKeyId": "AKARGS", "SecretAccessKey": "x"}'`
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := `"` + path + `" 'a b' $HOME "x\"y"`
	c, err := Process(cmd, "", Options{}).Retrieve(context.Background())
	if err != nil || c.AccessKeyID != "AKARGS" {
		t.Fatal(c, err)
	}
}

func TestShellSplit(t *testing.T) {
	// Expected values are Python's shlex.split of the same input.
	cases := []struct {
		in   string
		want []string
	}{
		{`a b  c`, []string{"a", "b", "c"}},
		{`a "b\x\"c" 'd\e' f\ g '' h#i`, []string{"a", `b\x"c`, `d\e`, "f g", "", "h#i"}},
		{`"a"'b'c`, []string{"abc"}},
		{"\ta\nb\r", []string{"a", "b"}},
		{`"a\\b"`, []string{`a\b`}},
		{``, nil},
		{`a\`, nil},
		{`'a`, nil},
		{`"a`, nil},
	}
	for _, c := range cases {
		got, err := shellSplit(c.in)
		if c.want == nil && c.in != "" {
			if err == nil {
				t.Errorf("%q: got %q, want an error", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, %v, want %q", c.in, got, err, c.want)
		}
	}
}

func TestProcessFailures(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string // in the message
		not        []string // never in the message
	}{
		{"exit code and first line of stderr", `echo "first line" >&2; echo "second line" >&2; exit 3`, []string{"exit status 3", "first line"}, []string{"second line"}},
		{"huge stderr", `head -c 3000000 /dev/zero | tr '\0' 'e' >&2; exit 4`, []string{"exit status 4"}, []string{strings.Repeat("e", 300)}},
		{"garbage", `echo 'not json ` + procSecret + `'`, []string{"not the JSON"}, nil},
		{"empty", `true`, []string{"not the JSON"}, nil},
		{"trailing garbage", `echo '{"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "` + procSecret + `"} x'`, []string{"not the JSON"}, nil},
		{"version 2", `echo '{"Version": 2, "AccessKeyId": "AK", "SecretAccessKey": "` + procSecret + `"}'`, []string{"Version"}, nil},
		{"version string", `echo '{"Version": "1", "AccessKeyId": "AK", "SecretAccessKey": "` + procSecret + `"}'`, []string{"Version"}, nil},
		{"no version", `echo '{"AccessKeyId": "AK", "SecretAccessKey": "` + procSecret + `"}'`, []string{"Version"}, nil},
		{"no secret", `echo '{"Version": 1, "AccessKeyId": "AK"}'`, []string{"SecretAccessKey missing"}, nil},
		{"no key id", `echo '{"Version": 1, "SecretAccessKey": "` + procSecret + `"}'`, []string{"AccessKeyId missing"}, nil},
		{"wrong type", `echo '{"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "` + procSecret + `", "SessionToken": 5}'`, []string{"not the JSON"}, nil},
		{"bad expiration", `echo '{"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "x", "Expiration": "` + procSecret + `"}'`, []string{"Expiration is not an RFC 3339 time"}, nil},
		{"LF in the secret", `printf '{"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "%s\\n"}' ` + procSecret, []string{"SecretAccessKey has a control character"}, nil},
		{"killed by a signal", `kill -9 $$`, []string{"signal: killed"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Process(script(t, c.body), "profile p", Options{}).Retrieve(context.Background())
			if err == nil || errors.Is(err, ErrNotFound) {
				t.Fatalf("got %v, want an error", err)
			}
			noSecret(t, err, procSecret)
			msg := err.Error()
			if !strings.HasPrefix(msg, "credential_process: profile p: ") {
				t.Errorf("message %q does not name the provider", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(msg, w) {
					t.Errorf("message %q has %q", msg, w)
				}
			}
		})
	}
}

func TestProcessCommandErrors(t *testing.T) {
	for _, cmd := range []string{"", "   ", "/nonexistent/credential-helper", "no-such-credential-helper-xyz", `"unterminated`} {
		_, err := Process(cmd, "", Options{}).Retrieve(context.Background())
		if err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("%q: got %v, want an error", cmd, err)
		}
	}
}

// A process that hangs is killed at the bound; so is one whose caller's
// ctx ends first.
func TestProcessHangs(t *testing.T) {
	s := script(t, `exec sleep 60`)
	p := &processProvider{command: s, timeout: 200 * time.Millisecond, max: ProcessMaxOutput}
	start := time.Now()
	_, err := p.Retrieve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "killed") || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Process(s, "", Options{}).Retrieve(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
}

// A child that keeps the output open after its parent is killed does not
// hold Retrieve past the bound and WaitDelay.
func TestProcessHangsWithChild(t *testing.T) {
	s := script(t, `sleep 60; echo`)
	p := &processProvider{command: s, timeout: 200 * time.Millisecond, max: ProcessMaxOutput}
	start := time.Now()
	if _, err := p.Retrieve(context.Background()); err == nil {
		t.Fatal("no error")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
}

// Endless output is cut at the bound: the process is killed, not read
// whole.
func TestProcessHugeOutput(t *testing.T) {
	s := script(t, `exec yes '{"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "`+procSecret+`"}'`)
	_, err := Process(s, "", Options{}).Retrieve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Fatalf("got %v", err)
	}
	noSecret(t, err, procSecret)

	// Exactly the bound is accepted.
	json := `{"Version": 1, "AccessKeyId": "AK", "SecretAccessKey": "x"}`
	p := &processProvider{command: script(t, `printf '%s' '`+json+`'`), timeout: ProcessTimeout, max: len(json)}
	if _, err := p.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.max--
	if _, err := p.Retrieve(context.Background()); err == nil {
		t.Fatal("one byte over the bound was accepted")
	}
}
