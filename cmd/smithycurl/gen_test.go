package main

import (
	"os"
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
		{[]string{"gen"}, "Usage: smithycurl gen c"},
		{[]string{"gen", "cobol"}, "Usage: smithycurl gen c"},
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
