package readme

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// progC is the README's prog.c: the reader's program.
const progC = `#include <stdio.h>
#include <smithycurl.h>

int main(void) {
    printf("smithycurl %s\n", smithycurl_version());
    return 0;
}
`

// shellPrologue starts an sh block on the line before its first: bash's
// line numbers are the README's, and a failing command says where it is.
const shellPrologue = `set -eo pipefail; trap 'echo "README.md:$LINENO: exit code $?" >&2' ERR`

// harness is what the blocks run with.
type harness struct {
	root, scratch  string
	prefix         string // the installed prefix standing for /opt/sc
	httpbin, todo  string // the services' base URLs
	env            []string
	goCmd          string
	todoImport     string // the package `smithycurl gen go -o todo/` writes in the scratch folder
	subst, unsubst *strings.Replacer
}

// TestREADME runs the code blocks of README.md (see the package comment).
func TestREADME(t *testing.T) {
	if os.Getenv("SMITHYCURL_README") == "" {
		t.Skip("the README's blocks run with make readme (SMITHYCURL_README=1)")
	}
	root, blocks := readBlocks(t)
	h := setup(t, root)
	var prev block
	var prevOut string
	prevOK := false
	for _, b := range blocks {
		prevBlock, prevOutput, prevPassed := prev, prevOut, prevOK
		var out string
		ok := t.Run(b.name(), func(t *testing.T) {
			switch {
			case b.lang == "text" && b.marker == "output":
				if !prevPassed {
					t.Fatalf("README.md:%d failed: no output to compare", prevBlock.line)
				}
				h.compareOutput(t, b, prevBlock, prevOutput)
			case b.lang == "go" && b.marker != "no-run":
				t.Parallel()
				h.goBlock(t, b)
			case b.lang == "c" && b.marker != "no-run":
				t.Parallel()
				h.cBlock(t, b)
			case b.marker == "compile-only" && b.lang == "python":
				if err := pythonCompile(b); err != nil {
					t.Fatal(err)
				}
			case b.runs() && b.lang == "sh":
				out = h.run(t, "bash", "-c", shellPrologue+h.subst.Replace(padLines(b)))
			case b.runs() && b.lang == "python":
				script := filepath.Join(h.scratch, fmt.Sprintf("_readme_l%d.py", b.line))
				if err := os.WriteFile(script, []byte(h.subst.Replace(padLines(b))), 0o644); err != nil {
					t.Fatal(err)
				}
				out = h.run(t, python, "-B", script)
			default: // no-run and json
				if err := checkSyntax(b); err != nil {
					t.Fatal(err)
				}
				if b.marker == "no-run" {
					t.Logf("not run: %s", b.reason)
				}
			}
		})
		prev, prevOut, prevOK = b, out, ok
	}
}

// setup starts the services, fills the scratch folder and the prefix, and
// makes the environment of the blocks.
func setup(t *testing.T, root string) *harness {
	h := &harness{root: root, goCmd: os.Getenv("GO")}
	if h.goCmd == "" {
		h.goCmd = "go"
	}
	cli, lib := filepath.Join(root, "build", "smithycurl"), filepath.Join(root, "build", "libsmithycurl.so")
	for _, p := range []string{cli, lib} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%v: run make readme (it builds the CLI and the library first)", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Under build/ (inside the module: Go blocks import the generated
	// package), with a leading "_" so that ./... patterns skip it.
	scratch, err := os.MkdirTemp(filepath.Join(root, "build"), "_readme-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if os.Getenv("SMITHYCURL_README_KEEP") != "" {
			t.Logf("scratch folder kept: %s", scratch)
			return
		}
		os.RemoveAll(scratch)
	})
	h.scratch = scratch
	h.todoImport = shareddata.Module + "/build/" + filepath.Base(scratch) + "/todo"

	bin := filepath.Join(scratch, ".bin")
	h.prefix = filepath.Join(scratch, ".prefix")
	for _, dir := range []string{bin, filepath.Join(scratch, "more"), filepath.Join(scratch, "more-models")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(bin, "smithycurl"):     cli,
		filepath.Join(bin, "python3"):        python,
		filepath.Join(scratch, "examples"):   filepath.Join(root, "examples"),
		filepath.Join(scratch, "api.smithy"): filepath.Join(root, "examples", "todo", "todo.smithy"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(scratch, "prog.c"), []byte(progC), 0o644); err != nil {
		t.Fatal(err)
	}
	// /opt/sc: what make install puts there (-o lib: the library is built).
	install := exec.Command("make", "-s", "-o", "lib", "install", "PREFIX="+h.prefix)
	install.Dir = root
	install.Env = append(os.Environ(), "MAKEFLAGS=", "MAKELEVEL=")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("make install PREFIX=%s: %v\n%s", h.prefix, err, out)
	}

	hb := httptest.NewServer(httpbin.New().Handler())
	t.Cleanup(hb.Close)
	todo := httptest.NewServer(todoserver.New().Handler())
	t.Cleanup(todo.Close)
	h.httpbin, h.todo = hb.URL, todo.URL
	h.subst = strings.NewReplacer("http://127.0.0.1:8080", h.httpbin, "http://127.0.0.1:8081", h.todo, "/opt/sc", h.prefix)
	h.unsubst = strings.NewReplacer(h.httpbin, "http://127.0.0.1:8080", h.todo, "http://127.0.0.1:8081", h.prefix, "/opt/sc")

	h.env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"URL="+h.httpbin,
		"PYTHONPATH="+filepath.Join(root, "bindings", "python"),
		"SMITHYCURL_LIBRARY="+lib,
		"PYTHON="+python,
		"PKG_CONFIG_PATH="+filepath.Join(h.prefix, "lib", "pkgconfig"),
		"SMITHYCURL_SHARED="+filepath.Join(scratch, "no-shared-data"),
		"MAKEFLAGS=", "MAKELEVEL=",
	)
	return h
}

// run runs a command in the scratch folder and returns its output (stdout
// and stderr), failing the test when it fails.
func (h *harness) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := h.exec(name, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// exec runs a command in the scratch folder, its process group killed
// after 2 minutes.
func (h *harness) exec(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = h.scratch, h.env
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	return buf.String(), err
}

// compareOutput compares a text output block with what the block above
// printed, the services' URLs put back as the README writes them.
func (h *harness) compareOutput(t *testing.T, b, above block, got string) {
	norm := func(s string) string {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " \t")
		}
		return strings.Join(lines, "\n")
	}
	if want, got := norm(b.text), norm(h.unsubst.Replace(got)); want != got {
		t.Errorf("the output of README.md:%d differs from README.md:%d\n--- README\n%s\n--- printed\n%s", above.line, b.line, want, got)
	}
}

// goBlock builds a Go block in its own folder of the scratch folder, and
// runs it there unless it is compile-only.
func (h *harness) goBlock(t *testing.T, b block) {
	run := b.marker == ""
	src, err := goSource(b, goWrapOptions{run: run, todoImport: h.todoImport})
	if err != nil {
		t.Fatal(err)
	}
	src = h.subst.Replace(src)
	dir := filepath.Join(h.scratch, "_go", fmt.Sprintf("l%d", b.line))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"build"}
	if run {
		args = append(args, "-o", filepath.Join(dir, "prog"))
	}
	rel, _ := filepath.Rel(h.scratch, dir)
	if out, err := h.exec(h.goCmd, append(args, "./"+filepath.ToSlash(rel))...); err != nil {
		t.Fatalf("go %s: %v\n%s\n%s", strings.Join(args, " "), err, out, numbered(src))
	}
	if run {
		h.run(t, filepath.Join(dir, "prog"))
	}
}

// cBlock compiles a C block (with the generated Todos client when it uses
// it) and runs it unless it is compile-only.
func (h *harness) cBlock(t *testing.T, b block) {
	src, typed := cSource(b)
	dir := filepath.Join(h.scratch, "_c", fmt.Sprintf("l%d", b.line))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "main.c")
	if err := os.WriteFile(file, []byte(h.subst.Replace(src)), 0o644); err != nil {
		t.Fatal(err)
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	args := []string{"-Wall", "-Wextra", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable",
		"-Wno-unused-function", "-I" + filepath.Join(h.root, "include"), "-o", filepath.Join(dir, "prog"), file}
	if typed {
		gen := filepath.Join(h.scratch, "gen")
		args = append(args, "-I"+gen, filepath.Join(gen, "todo.c"))
	}
	build := filepath.Join(h.root, "build")
	args = append(args, "-L"+build, "-lsmithycurl", "-Wl,-rpath,"+build)
	if out, err := h.exec(cc, args...); err != nil {
		t.Fatalf("%s: %v\n%s\n%s", cc, err, out, numbered(src))
	}
	if b.marker == "" {
		h.run(t, filepath.Join(dir, "prog"))
	}
}

// numbered shows a generated source with its line numbers.
func numbered(src string) string {
	var s strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&s, "%4d  %s\n", i+1, l)
	}
	return s.String()
}
