package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"
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
	// No test reaches the instance metadata service (169.254.169.254).
	os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
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

// runOnTerminal runs the command with stdout on a pseudo-terminal and
// returns what it printed there ("\r\n" read back as "\n").
func runOnTerminal(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var unlock int32
	var n uint32
	for _, req := range []struct {
		op  uintptr
		arg unsafe.Pointer
	}{{syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)}, {syscall.TIOCGPTN, unsafe.Pointer(&n)}} {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), req.op, uintptr(req.arg)); e != 0 {
			t.Fatal(e)
		}
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = tty, &errOut
	err = cmd.Start()
	tty.Close() // the command has its own copy
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	io.Copy(&out, ptmx) // until EIO: the command closed the terminal
	if err := cmd.Wait(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
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

// TestWarningsOnlyWithVerbose: model warnings are printed with -v or
// --verbose only; errors always.
func TestWarningsOnlyWithVerbose(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	warn := filepath.Join(dir, "warn.smithy")
	os.WriteFile(warn, []byte("$version: \"2\"\nnamespace a.b\n\nuse other.ns#Thing\n\nservice S {}\n"), 0o644)
	const msg = "warn.smithy:4:5: warning: Use statement refers to undefined shape: other.ns#Thing"
	for _, args := range [][]string{
		{"validate", warn}, {"ops", "--model", warn}, {"ast", warn},
	} {
		_, errOut, code := runCmd(t, bin, args...)
		if code != 0 || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, code, errOut)
		}
		for _, v := range []string{"-v", "--verbose"} {
			withV := append([]string{args[0], v}, args[1:]...)
			_, errOut, code = runCmd(t, bin, withV...)
			if code != 0 || !strings.Contains(errOut, msg) {
				t.Errorf("%v: exit %d, stderr %q; want the warning", withV, code, errOut)
			}
		}
	}
	bad := filepath.Join(dir, "bad.smithy")
	os.WriteFile(bad, []byte("$version: \"2\"\nnamespace a.b\n\nuse other.ns#Thing\n\nstructure S {\n    m: Nope\n}\n"), 0o644)
	_, errOut, code := runCmd(t, bin, "validate", bad)
	if code != 2 || !strings.Contains(errOut, "bad.smithy:7:5: error:") || strings.Contains(errOut, "warning") {
		t.Errorf("errors without -v: exit %d, stderr %q", code, errOut)
	}
}

// TestSmithyBuildJSON: a smithy-build.json, named or at the top of a
// directory, loads its sources and imports; files that are not models are
// skipped in directories.
func TestSmithyBuildJSON(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"smithy-build.json": `// the build
{
    "version": "1.0",
    "sources": ["model"], // the service
    "imports": ["shared/names.smithy"],
    "outputDirectory": "build/smithy"
}`,
		"model/main.smithy":   "$version: \"2\"\nnamespace a.b\n\nuse a.shared#Name\nuse aws.protocols#restJson1\n\n@restJson1\nservice S { operations: [Hello] }\n\n@http(method: \"GET\", uri: \"/hello\")\noperation Hello { input := { name: Name } }\n",
		"model/package.json":  `{"name": "my-model", "version": "1.0.0"}`,
		"model/tsconfig.json": "{\n  // comments are allowed here\n  \"compilerOptions\": {}\n}\n",
		"shared/names.smithy": "$version: \"2\"\nnamespace a.shared\nstring Name\n",
		// A build output the build file keeps out: loading it would redefine a.b#S.
		"build/smithy/source/model/model.json": `{"smithy": "2.0", "shapes": {"a.b#S": {"type": "string"}}}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{filepath.Join(dir, "smithy-build.json"), dir} {
		out, errOut, code := runCmd(t, bin, "ops", "--model", m)
		if code != 0 || !strings.Contains(out, "Hello") || errOut != "" {
			t.Errorf("ops --model %s: exit %d\n%s%s", m, code, out, errOut)
		}
	}
	// A directory without a build file skips what is not a model.
	out, errOut, code := runCmd(t, bin, "validate", filepath.Join(dir, "model"), filepath.Join(dir, "shared"))
	if code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("validate the model directory: exit %d\n%s%s", code, out, errOut)
	}
	// A file named explicitly is read as a model.
	_, errOut, code = runCmd(t, bin, "validate", filepath.Join(dir, "model", "package.json"))
	if code != 2 || !strings.Contains(errOut, "package.json") {
		t.Errorf("validate package.json: exit %d\n%s", code, errOut)
	}
}

// TestValidateEndlessFile: reading stops at the model file limit.
func TestValidateEndlessFile(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MiB")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	bin := smithycurl(t)
	_, errOut, code := runCmd(t, bin, "validate", "/dev/zero")
	if code != 2 || !strings.Contains(errOut, "/dev/zero") || !strings.Contains(errOut, "256 MiB") {
		t.Errorf("validate /dev/zero: exit %d: %s", code, errOut)
	}
}
