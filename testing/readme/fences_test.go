// Package readme tests README.md as a contract, as Go's example tests do
// for doc comments: every fenced code block is checked or run according to
// its fence's info string, "LANG [MARKER [REASON]]".
//
// Languages:
//
//   - sh: run with bash (set -eo pipefail);
//   - python: run with /usr/bin/python3, PYTHONPATH=bindings/python and
//     SMITHYCURL_LIBRARY=build/libsmithycurl.so;
//   - go: a fragment (no package clause) is wrapped in a function, with the
//     imports and placeholder variables of the names it uses but does not
//     declare, then built and run, stopping at the first non-nil err it
//     assigns at its top level; a whole file is built as it is;
//   - c: a fragment is wrapped in main() after placeholder declarations,
//     compiled against include/smithycurl.h, linked with
//     build/libsmithycurl.so and run; a program with its own main() as it is;
//   - json: parsed;
//   - text: never run; it takes "output" or "no-run".
//
// Markers:
//
//   - "compile-only REASON": go and c are built, python byte-compiled, none
//     run;
//   - "no-run REASON": not run (sh, python and json are still checked for
//     syntax, go parsed);
//   - "output" (text): the exact output, stdout and stderr, of the sh or
//     python block just above.
//
// A block with no language, an unknown language or marker, or a marker
// without its reason fails the test. Go fragments may write "{ ... }" for
// a body left out and C fragments "...;" for a statement left out.
//
// Placeholders: in every block http://127.0.0.1:8080 (and $URL in sh) is
// go-httpbin and http://127.0.0.1:8081 the Todos service, both served by
// the test on free ports; /opt/sc is a prefix that make install filled;
// api.smithy, more/, more-models/ and prog.c are the reader's files (the
// Todos model, empty folders, a program printing the library's version).
// PKG_CONFIG_PATH names /opt/sc's pkgconfig folder, as after the README's
// install steps. In Go fragments ctx, token, m, out and c are declared when
// used undeclared (c: a generated client of the Todos service when the
// fragment names package todo, else a nil *client.Client). In C fragments
// the handles, inputs and done_fn the README's fragments use are zero
// globals, so C fragments are compile-only. SMITHYCURL_SHARED names no
// folder: the README's examples must not need the shared test data.
//
// sh and python blocks run in README order in one scratch folder under
// build/ (what one block writes, a later one reads; examples/ is linked in),
// as one reader would; go and c blocks are built afterwards, in parallel.
// Each block is a subtest named by its README line, e.g. TestREADME/L414_sh.
//
// TestFences checks the fences and the syntax of the blocks (in
// go test ./...); TestREADME runs them with SMITHYCURL_README=1 (make
// readme, which first builds build/smithycurl and build/libsmithycurl.so;
// SMITHYCURL_README_KEEP=1 keeps the scratch folder and the generated
// programs).
package readme

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// block is one fenced code block of the README.
type block struct {
	line   int    // README line of the opening fence
	lang   string // first word of the info string
	marker string // "", "compile-only", "no-run" or "output"
	reason string // after compile-only or no-run
	text   string // the content, the fence's indentation removed
}

func (b block) name() string { return fmt.Sprintf("L%d_%s", b.line, b.lang) }

// runs reports whether the block is executed (not only compiled or checked).
func (b block) runs() bool { return b.marker == "" && b.lang != "json" }

var fenceRE = regexp.MustCompile("^( *)(```+)(.*)$")

// parseFences returns the fenced blocks of a Markdown text.
func parseFences(md string) ([]block, error) {
	var blocks []block
	var cur *block
	var indent, fence string
	var body strings.Builder
	sc := bufio.NewScanner(strings.NewReader(md))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if cur == nil {
			m := fenceRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			indent, fence = m[1], m[2]
			cur = &block{line: n}
			words := strings.Fields(m[3])
			if len(words) > 0 {
				cur.lang = words[0]
			}
			if len(words) > 1 {
				cur.marker = words[1]
				cur.reason = strings.TrimSpace(strings.TrimPrefix(strings.Join(words[2:], " "), ":"))
				if r, ok := strings.CutPrefix(words[1], "no-run:"); ok {
					cur.marker, cur.reason = "no-run", strings.TrimSpace(r+" "+cur.reason)
				} else if r, ok := strings.CutPrefix(words[1], "compile-only:"); ok {
					cur.marker, cur.reason = "compile-only", strings.TrimSpace(r+" "+cur.reason)
				}
			}
			body.Reset()
			continue
		}
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
			cur.text = body.String()
			blocks = append(blocks, *cur)
			cur = nil
			continue
		}
		// The content loses up to the fence's indentation.
		for i := 0; i < len(indent) && strings.HasPrefix(line, " "); i++ {
			line = line[1:]
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	if cur != nil {
		return nil, fmt.Errorf("README.md:%d: the fence is never closed", cur.line)
	}
	return blocks, sc.Err()
}

// checkConvention reports what breaks the info-string convention.
func checkConvention(blocks []block) []error {
	var errs []error
	bad := func(b block, format string, args ...any) {
		errs = append(errs, fmt.Errorf("README.md:%d: ```%s: %s", b.line, b.lang, fmt.Sprintf(format, args...)))
	}
	for i, b := range blocks {
		switch b.lang {
		case "sh", "python", "go", "c", "json", "text":
		case "":
			bad(b, "no language (sh, python, go, c, json or text, with a marker where needed)")
			continue
		default:
			bad(b, "unknown language (sh, python, go, c, json, text)")
			continue
		}
		switch b.marker {
		case "":
			if b.lang == "text" {
				bad(b, `text needs "output" or "no-run REASON"`)
			}
		case "no-run", "compile-only":
			if b.reason == "" {
				bad(b, "%s needs a reason after it", b.marker)
			}
			if b.marker == "compile-only" && b.lang != "go" && b.lang != "c" && b.lang != "python" {
				bad(b, "compile-only is for go, c and python (no-run for the others)")
			}
		case "output":
			if b.lang != "text" || b.reason != "" {
				bad(b, "output is for text blocks, alone")
			} else if i == 0 || !blocks[i-1].runs() || (blocks[i-1].lang != "sh" && blocks[i-1].lang != "python") {
				bad(b, "output must follow an sh or python block that runs")
			}
		default:
			bad(b, "unknown marker %q (compile-only, no-run, output)", b.marker)
		}
	}
	return errs
}

// readBlocks parses README.md and fails the test on a broken convention.
func readBlocks(t *testing.T) (root string, blocks []block) {
	t.Helper()
	root, err := shareddata.Root()
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err = parseFences(string(md))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 10 {
		t.Fatalf("README.md: %d fenced blocks found: the parser is broken", len(blocks))
	}
	for _, err := range checkConvention(blocks) {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	return root, blocks
}

// padLines puts text at its README line: line numbers in a shell's,
// Python's or JSON's error messages are then the README's.
func padLines(b block) string { return strings.Repeat("\n", b.line) + b.text }

// checkSyntax checks a block without running it: JSON parses, shell and
// Python compile, Go fragments parse once wrapped. C is left to the
// compiler (it needs the generated headers).
func checkSyntax(b block) error {
	switch b.lang {
	case "json":
		var v any
		if err := json.Unmarshal([]byte(b.text), &v); err != nil {
			return fmt.Errorf("README.md:%d: %v", b.line, err)
		}
	case "sh":
		cmd := exec.Command("bash", "-n")
		cmd.Stdin = strings.NewReader(padLines(b))
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("bash -n: %v\n%s", err, out)
		}
	case "python":
		return pythonCompile(b)
	case "go":
		_, err := goSource(b, goWrapOptions{})
		return err
	}
	return nil
}

// pythonCompile byte-compiles a Python block (top-level await allowed, as
// in an asyncio REPL).
func pythonCompile(b block) error {
	cmd := exec.Command(python, "-B", "-c",
		"import ast, sys; compile(sys.stdin.read(), 'README.md', 'exec', flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)")
	cmd.Stdin = strings.NewReader(padLines(b))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", python, err, out)
	}
	return nil
}

// python is the interpreter the README's Python runs on.
const python = "/usr/bin/python3"

// TestFences checks that every block of README.md follows the convention
// and that its syntax is right.
func TestFences(t *testing.T) {
	_, blocks := readBlocks(t)
	for _, b := range blocks {
		if err := checkSyntax(b); err != nil {
			t.Errorf("%s: %v", b.name(), err)
		}
	}
}

// TestParseFences covers the parser and the convention on a small text.
func TestParseFences(t *testing.T) {
	md := "a\n```sh\necho hi\n```\n```text output\nhi\n```\n- item\n\n  ```python no-run: needs AWS\n  x = 1\n    y\n  ```\n" +
		"```go compile-only\n```\n```\nx\n```\n```ruby\n```\n```c frobnicate x\n```\n"
	blocks, err := parseFences(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 7 {
		t.Fatalf("%d blocks, want 7: %+v", len(blocks), blocks)
	}
	if b := blocks[2]; b.line != 10 || b.lang != "python" || b.marker != "no-run" || b.reason != "needs AWS" || b.text != "x = 1\n  y\n" {
		t.Errorf("indented block: %+v", b)
	}
	var got bytes.Buffer
	for _, err := range checkConvention(blocks) {
		fmt.Fprintln(&got, err)
	}
	for _, want := range []string{
		"README.md:14: ```go: compile-only needs a reason",
		"README.md:16: ```: no language",
		"README.md:19: ```ruby: unknown language",
		"README.md:21: ```c: unknown marker \"frobnicate\"",
	} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("convention errors lack %q:\n%s", want, got.String())
		}
	}
	if strings.Count(got.String(), "\n") != 4 {
		t.Errorf("want 4 convention errors:\n%s", got.String())
	}
}
