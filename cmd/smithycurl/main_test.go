package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// smithycurl builds the command once per test run, to run it as a user would.
func smithycurl(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "smithycurl-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "smithycurl")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func runCmd(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestCommands(t *testing.T) {
	bin := smithycurl(t)
	example := filepath.Join("..", "..", "examples", "httpbin")
	bad := filepath.Join(t.TempDir(), "bad.smithy")
	os.WriteFile(bad, []byte("$version: \"2\"\nnamespace a.b\n\nstructure S {\n    m: Nope\n}\n"), 0o644)

	out, _, code := runCmd(t, bin, "ops", "--model", example)
	if code != 0 || !strings.Contains(out, "Anything                     POST /anything") {
		t.Errorf("ops: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, bin, "validate", example)
	if code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("validate: exit %d: %s", code, out)
	}
	_, errOut, code := runCmd(t, bin, "validate", bad)
	if code != 2 || !strings.Contains(errOut, "bad.smithy:5:5: error: a.b#S$m:") {
		t.Errorf("validate bad model: exit %d\n%s", code, errOut)
	}
	out, _, code = runCmd(t, bin, "ast", example)
	var ast map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &ast) != nil || ast["smithy"] != "2.0" {
		t.Errorf("ast: exit %d, %.200s", code, out)
	}
	_, errOut, code = runCmd(t, bin, "frobnicate")
	if code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d: %s", code, errOut)
	}
	_, _, code = runCmd(t, bin, "ops", "--model", "missing-dir")
	if code != 2 {
		t.Errorf("missing model: exit %d", code)
	}
	if _, errOut, code = runCmd(t, bin, "--help"); code != 0 || !strings.Contains(errOut, "Usage:") {
		t.Errorf("--help: exit %d", code)
	}
}
