package cgen_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// genModel generates the typed C client of codegen/testdata/gen/NAME.smithy
// into a temporary folder and returns the folder and the two files' text.
func genModel(t *testing.T, name string) (dir, h, c string) {
	t.Helper()
	dir = t.TempDir()
	generate(t, dir, name, "", filepath.Join("..", "testdata", "gen", name+".smithy"))
	hb, err := os.ReadFile(filepath.Join(dir, name+".h"))
	if err != nil {
		t.Fatal(err)
	}
	cb, err := os.ReadFile(filepath.Join(dir, name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(hb), string(cb)
}

// TestTimestampDefaultInit: _init sets every timestamp default, whatever
// form the model wrote it in (an http-date default was left at 0: 1970 was
// sent), and the client compiles.
func TestTimestampDefaultInit(t *testing.T) {
	needCC(t)
	dir, _, c := genModel(t, "defaults")
	for _, want := range []string{
		"v->http_date.seconds = 1716459630LL; v->http_date.nanos = 0;",
		"v->header_date.seconds = 1716459631LL; v->header_date.nanos = 0;",
		"v->iso.seconds = 1716459632LL; v->iso.nanos = 500000000;",
		"v->epoch.seconds = 1716459633LL; v->epoch.nanos = 0;",
		"v->epoch_fraction.seconds = 1716459634LL; v->epoch_fraction.nanos = 250000000;",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("defaults.c lacks %q", want)
		}
	}
	compileOnly(t, dir, "defaults", true)
}

// TestTypedCEnums1: IDL 1.0 @enum strings are C enums, as IDL 2.0 enums
// are (they were char *): constants named after the definitions, or after
// the value when a definition has no name, and values the model does not
// list kept in .unknown both ways (bindings/c/typed/enums1_typed.c against
// an echo that answers color "purple").
func TestTypedCEnums1(t *testing.T) {
	needCC(t)
	libDir(t)
	gen, h, _ := genModel(t, "enums1")
	for _, want := range []string{"ENUMS1_COLOR_DARK_GREEN = 2, /* dark-green */", "ENUMS1_UNNAMED_T2_MICRO = 1, /* t2.micro */",
		"    enums1_color_value color;\n", "enums1_color_value *values;"} {
		if !strings.Contains(h, want) {
			t.Errorf("enums1.h lacks %q", want)
		}
	}
	path, _ := filepath.Abs(filepath.Join("..", "testdata", "gen", "enums1.smithy"))
	runC(t, gen, "enums1", "enums1_typed", func(t *testing.T) []string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body map[string]any
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body["color"] = "purple"
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(body)
		}))
		t.Cleanup(srv.Close)
		return []string{"SMITHYCURL_ENUMS1_URL=" + srv.URL, "SMITHYCURL_ENUMS1_MODEL=" + path}
	})
}

// constUse fills an input with literals, as a user writes it: clean under
// -Wwrite-strings and in C++ only when input strings are const char * (they
// were char *: a warning, and an error in C++).
const constUse = `#include "todo.h"
int fill(void);
int fill(void) {
    const char *tags[2] = {"home", "shopping"};
    todo_create_todo_input in;
    todo_create_todo_input_init(&in);
    in.title = "buy milk";
    in.tags.items = tags;
    in.tags.count = 2;
    in.priority.value = TODO_PRIORITY_UNKNOWN;
    in.priority.unknown = "URGENT";
    return in.title[0] == 'b' && in.tags.count == 2;
}
`

// TestConstStrings: a generated client and a program assigning string
// literals to an input compile with -Wwrite-strings (and -Werror), and so
// does the header from C++ when a C++ compiler is installed.
func TestConstStrings(t *testing.T) {
	needCC(t)
	dir := t.TempDir()
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples", "todo"))
	generate(t, dir, "todo", "", examples)
	use := filepath.Join(dir, "use.c")
	if err := os.WriteFile(use, []byte(constUse), 0o644); err != nil {
		t.Fatal(err)
	}
	inc := []string{"-I" + filepath.Join(root(t), "include"), "-I" + dir}
	cc(t, append(append(append([]string{}, strictFlags...), "-Wwrite-strings", "-fsyntax-only"), append(inc, use, filepath.Join(dir, "todo.c"))...)...)
	for _, cxx := range []string{"g++", "c++"} {
		if _, err := exec.LookPath(cxx); err != nil {
			continue
		}
		src := filepath.Join(dir, "use.cpp")
		if err := os.WriteFile(src, []byte(strings.Replace(constUse, "int fill(void)", "int fill()", 2)), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-Wall", "-Wextra", "-Werror", "-pedantic", "-Wwrite-strings", "-fsyntax-only"}, append(inc, src)...)
		if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", cxx, err, out)
		}
		return
	}
	t.Log("no C++ compiler: the header was not compiled as C++")
}
