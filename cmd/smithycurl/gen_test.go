package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenC runs `smithycurl gen c` as a user would: it writes NAME.h and
// NAME.c, names them after --prefix or the service, and fails with exit 2 and
// a clear message on bad usage.
func TestGenC(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	model := filepath.Join("..", "..", "examples", "todo")
	out, errOut, code := runCmd(t, bin, "gen", "c", "--model", model, "-o", dir, "--prefix", "todo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"todo.h", "todo.c"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), "todo_create_todo") {
			t.Errorf("%s: %v", f, err)
		}
		if !strings.Contains(out, filepath.Join(dir, f)) {
			t.Errorf("stdout %q does not name %s", out, f)
		}
	}
	// The default prefix is the service name in snake_case.
	if _, errOut, code := runCmd(t, bin, "gen", "c", "--model", model, "-o", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "todos.h")); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gen"}, "smithycurl gen c      --model"},
		{[]string{"gen", "cobol"}, "smithycurl gen c      --model"},
		{[]string{"gen", "c", "--model", model}, "-o DIR is required"},
		{[]string{"gen", "c", "--model", model, "-o", dir, "--prefix", "Bad-Prefix"}, `prefix "Bad-Prefix"`},
		{[]string{"gen", "c", "--model", model, "-o", dir, "--service", "x#Nope"}, "not found"},
	} {
		_, errOut, code := runCmd(t, bin, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestGenPython: `smithycurl gen python` writes the same typed package as
// `python3 -m smithycurl gen` (it runs it), and says what it needs when the
// interpreter cannot be run.
func TestGenPython(t *testing.T) {
	bin := smithycurl(t)
	lib, err := filepath.Abs(filepath.Join("..", "..", "build", "libsmithycurl.so"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("%v: run make lib", err)
	}
	pkg, _ := filepath.Abs(filepath.Join("..", "..", "bindings", "python"))
	t.Setenv("PYTHONPATH", pkg)
	t.Setenv("SMITHYCURL_LIBRARY", lib)
	dir := filepath.Join(t.TempDir(), "httpbin_api")
	model := filepath.Join("..", "..", "examples", "httpbin")
	if _, errOut, code := runCmd(t, bin, "gen", "python", "--model", model, "-o", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "__init__.py"))
	if err != nil || !strings.Contains(string(b), "class HttpBinClient(") {
		t.Fatalf("__init__.py: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "py.typed")); err != nil {
		t.Error(err)
	}
	// --async: the asyncio client class too (smithycurl.aio).
	if _, errOut, code := runCmd(t, bin, "gen", "python", "--model", model, "--async", "-o", dir); code != 0 {
		t.Fatalf("--async: exit %d: %s", code, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "__init__.py")); err != nil || !strings.Contains(string(b), "class HttpBinAsyncClient(") {
		t.Fatalf("--async: __init__.py has no HttpBinAsyncClient: %v", err)
	}
	t.Setenv("PYTHON", "/nonexistent/python3")
	_, errOut, code := runCmd(t, bin, "gen", "python", "--model", model, "-o", dir)
	if code != 2 || !strings.Contains(errOut, "needs a Python 3.10+ with the smithycurl package") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// A Python that cannot import the package (isolated: no PYTHONPATH, no
	// site-packages): what to install or set, not only Python's message.
	python3, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	isolated := filepath.Join(t.TempDir(), "python3")
	os.WriteFile(isolated, []byte("#!/bin/sh\nexec "+python3+" -I -S \"$@\"\n"), 0o755)
	t.Setenv("PYTHON", isolated)
	_, errOut, code = runCmd(t, bin, "gen", "python", "--model", model, "-o", dir)
	for _, want := range []string{isolated + " cannot import smithycurl", "python3 -m pip install ./bindings/python", "PYTHONPATH=bindings/python"} {
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("without the package: exit %d, stderr %q; want %q", code, errOut, want)
		}
	}
}

// TestGenNeedsProtocol: gen refuses a service without a protocol trait
// smithycurl speaks, saying so, in every language (the client it wrote
// failed only when called).
func TestGenNeedsProtocol(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	model := filepath.Join(dir, "noproto.smithy")
	if err := os.WriteFile(model, []byte("$version: \"2\"\nnamespace np\nservice NoProto { operations: [Op] }\noperation Op { input := { a: String } }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, _ := filepath.Abs(filepath.Join("..", "..", "build", "libsmithycurl.so"))
	pkg, _ := filepath.Abs(filepath.Join("..", "..", "bindings", "python"))
	t.Setenv("PYTHONPATH", pkg)
	t.Setenv("SMITHYCURL_LIBRARY", lib)
	for _, args := range [][]string{
		{"gen", "c", "--model", model, "-o", filepath.Join(dir, "c")},
		{"gen", "go", "--model", model, "--package", "np", "-o", filepath.Join(dir, "go")},
		{"gen", "python", "--model", model, "-o", filepath.Join(dir, "np")},
	} {
		_, errOut, code := runCmd(t, bin, args...)
		if code != exitUsage || !strings.Contains(errOut, "np#NoProto has no") || !strings.Contains(errOut, "protocol trait") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and a message about the protocol", args[:2], code, errOut)
		}
		if _, err := os.Stat(args[len(args)-1]); err == nil {
			t.Errorf("%v: wrote %s", args[:2], args[len(args)-1])
		}
	}
}
