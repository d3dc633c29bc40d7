package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompile: compile writes a snapshot that --model reads like the model
// it came from; an invalid model writes nothing; a damaged snapshot is an
// error naming the file (exit 2), never a crash.
func TestCompile(t *testing.T) {
	bin := smithycurl(t)
	dir := t.TempDir()
	snap := filepath.Join(dir, "todo.scmodel")
	todo := filepath.Join("..", "..", "examples", "todo")
	out, errOut, code := runCmd(t, bin, "compile", "-o", snap, todo)
	if code != 0 || !strings.HasPrefix(out, "ok: "+snap) {
		t.Fatalf("compile: exit %d: %s%s", code, out, errOut)
	}
	want, _, _ := runCmd(t, bin, "ops", "--model", todo)
	got, errOut, code := runCmd(t, bin, "ops", "--model", snap)
	if code != 0 || got != want {
		t.Fatalf("ops from the snapshot: exit %d: %q (%s), want %q", code, got, errOut, want)
	}
	wantAST, _, _ := runCmd(t, bin, "ast", todo)
	if gotAST, _, _ := runCmd(t, bin, "ast", snap); gotAST != wantAST {
		t.Fatal("ast of the snapshot differs from the model's")
	}

	bad := filepath.Join(dir, "bad.smithy")
	os.WriteFile(bad, []byte("$version: \"2\"\nnamespace a.b\nstructure S { x: Missing }\n"), 0o644)
	badSnap := filepath.Join(dir, "bad.scmodel")
	if _, errOut, code := runCmd(t, bin, "compile", "-o", badSnap, bad); code != 2 || !strings.Contains(errOut, "unresolved shape") {
		t.Fatalf("compile of an invalid model: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(badSnap); !os.IsNotExist(err) {
		t.Fatalf("an invalid model left a snapshot: %v", err)
	}

	data, _ := os.ReadFile(snap)
	data[len(data)/2] ^= 1
	os.WriteFile(snap, data, 0o644)
	_, errOut, code = runCmd(t, bin, "ops", "--model", snap)
	if code != 2 || !strings.Contains(errOut, snap+": error: Cannot read the model snapshot: checksum mismatch") {
		t.Fatalf("damaged snapshot: exit %d: %s", code, errOut)
	}
}
