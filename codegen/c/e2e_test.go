package cgen_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/codegen/c"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/pizzaserver"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// The end-to-end tests build a C program of bindings/c/typed against the
// generated client and build/libsmithycurl.so (make lib), start its service
// on 127.0.0.1 in this process, and run it natively; with
// SMITHYCURL_GENTEST=full (make gentest-c) also built with
// -fsanitize=address,undefined and under valgrind memcheck.

func root(t testing.TB) string {
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func fullRun() bool { return os.Getenv("SMITHYCURL_GENTEST") == "full" }

// libDir is where libsmithycurl.so is (SMITHYCURL_LIB_DIR, default build/).
func libDir(t testing.TB) string {
	dir := os.Getenv("SMITHYCURL_LIB_DIR")
	if dir == "" {
		dir = filepath.Join(root(t), "build")
	}
	if _, err := os.Stat(filepath.Join(dir, "libsmithycurl.so")); err != nil {
		if fullRun() {
			t.Fatalf("%s/libsmithycurl.so missing (make lib)", dir)
		}
		t.Skipf("%s/libsmithycurl.so missing: run make lib (make gentest-c does)", dir)
	}
	return dir
}

func needCC(t testing.TB) {
	if _, err := exec.LookPath("cc"); err != nil {
		if fullRun() {
			t.Fatal("no C compiler")
		}
		t.Skip("no C compiler")
	}
}

// generate writes prefix.h and prefix.c of service (or the only service)
// of the models into dir.
func generate(t testing.TB, dir, prefix string, service model.ShapeID, paths ...string) {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), paths...)
	if err != nil {
		t.Fatal(err)
	}
	if service == "" {
		ids := m.Services()
		if len(ids) != 1 {
			t.Fatalf("%v: %d services", paths, len(ids))
		}
		service = ids[0]
	}
	svc, err := m.Service(service)
	if err != nil {
		t.Fatal(err)
	}
	h, c, err := cgen.Generate(m, svc, cgen.Options{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, prefix+".h"), h, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, prefix+".c"), c, 0o644); err != nil {
		t.Fatal(err)
	}
}

var strictFlags = []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"}

func cc(t testing.TB, args ...string) {
	t.Helper()
	cmd := exec.Command("cc", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

var summaryRE = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed$`)

// runC builds prog (bindings/c/typed/<prog>.c) with the generated client of
// prefix in gen and runs it with the environment envFor returns (it starts a
// fresh server for each run): natively, and in a full run with ASan+UBSan
// and under valgrind.
func runC(t *testing.T, gen, prefix, prog string, envFor func(t *testing.T) []string) {
	lib := libDir(t)
	r := root(t)
	src := []string{filepath.Join(r, "bindings", "c", "typed", prog+".c")}
	if prefix != "" {
		src = append(src, filepath.Join(gen, prefix+".c"))
	}
	inc := []string{"-I" + filepath.Join(r, "include"), "-I" + gen, "-I" + filepath.Join(r, "bindings", "c", "typed")}
	link := []string{"-L" + lib, "-lsmithycurl", "-lm", "-Wl,-rpath," + lib}
	variants := []struct {
		name    string
		cflags  []string
		wrapper []string
	}{{name: "native", cflags: []string{"-O2", "-g"}}}
	if fullRun() {
		variants = append(variants, struct {
			name    string
			cflags  []string
			wrapper []string
		}{"asan+ubsan", []string{"-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}, nil})
		if _, err := exec.LookPath("valgrind"); err == nil {
			variants = append(variants, struct {
				name    string
				cflags  []string
				wrapper []string
			}{"valgrind", []string{"-O0", "-g"}, []string{"valgrind"}})
		} else {
			t.Error("valgrind missing")
		}
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel() // each variant builds its own binary and gets its own server
			bin := filepath.Join(gen, prog+"-"+strings.ReplaceAll(v.name, "+", "-"))
			args := append(append(append(append(append([]string{}, strictFlags...), v.cflags...), inc...), "-o", bin), src...)
			cc(t, append(args, link...)...)
			if v.name == "valgrind" {
				runValgrind(t, bin, lib, envFor)
				return
			}
			out := runProgram(t, envFor(t), bin)
			checkSummary(t, out)
		})
	}
}

func runProgram(t *testing.T, env []string, argv ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s: %v\n%s", filepath.Base(argv[0]), err, out)
	}
	return string(out)
}

func checkSummary(t *testing.T, out string) {
	t.Helper()
	m := summaryRE.FindStringSubmatch(out)
	if m == nil || m[2] != "0" || m[1] == "0" {
		t.Errorf("want N passed, 0 failed; got:\n%s", out)
		return
	}
	t.Logf("%s passed", m[1])
}

// runValgrind runs bin twice under memcheck as bindings/c/run.sh does and
// for the same reasons: for errors with the library built with -tags
// valgrind (build/valgrind, made by make ctest and make gentest-c), and for
// definite leaks with the plain library.
func runValgrind(t *testing.T, bin, lib string, envFor func(t *testing.T) []string) {
	r := root(t)
	vlib := filepath.Join(lib, "valgrind")
	if _, err := os.Stat(filepath.Join(vlib, "libsmithycurl.so")); err != nil {
		t.Fatalf("%s/libsmithycurl.so missing (make gentest-c builds it)", vlib)
	}
	base := []string{"GODEBUG=cgocheck=1,asyncpreemptoff=1,cpu.rdtscp=off", "GOMAXPROCS=2"}
	supp := "--suppressions=" + filepath.Join(r, "bindings", "c", "valgrind.supp")
	// Threads take turns fairly: with valgrind's default lock a thread of
	// the Go runtime spinning for work kept the others waiting, and the
	// DynamoDB program (13 s as a rule) now and then took 100 to over 300 s.
	fair := "--fair-sched=yes"
	errLog := bin + ".valgrind.log"
	out := runProgram(t, append(append(envFor(t), base...), "LD_LIBRARY_PATH="+vlib),
		"valgrind", "--tool=memcheck", fair, supp, "--num-callers=30", "--leak-check=no", "--error-exitcode=99", "--log-file="+errLog, bin)
	checkSummary(t, out)
	if b, _ := os.ReadFile(errLog); !strings.Contains(string(b), "ERROR SUMMARY: 0 errors") {
		t.Errorf("valgrind errors:\n%s", b)
	}
	leakLog := bin + ".valgrind-leaks.log"
	runProgram(t, append(envFor(t), base...), "valgrind", "--tool=memcheck", fair, supp, "--num-callers=30", "--leak-check=full",
		"--show-leak-kinds=definite", "--log-file="+leakLog, bin)
	b, _ := os.ReadFile(leakLog)
	if !strings.Contains(string(b), "definitely lost: 0 bytes") && !strings.Contains(string(b), "no leaks are possible") {
		t.Errorf("valgrind leaks:\n%s", b)
	}
}

func TestTypedCTodo(t *testing.T) {
	needCC(t)
	libDir(t)
	gen := t.TempDir()
	dir := filepath.Join(root(t), "examples", "todo")
	generate(t, gen, "todo", "", dir)
	runC(t, gen, "todo", "todo_typed", func(t *testing.T) []string {
		srv := httptest.NewServer(todoserver.New().Handler())
		t.Cleanup(srv.Close)
		return []string{"SMITHYCURL_TODO_URL=" + srv.URL, "SMITHYCURL_TODO_MODEL=" + dir}
	})
	// The same client against the mock the program starts itself
	// (smithycurl_mock_start) with testing/fixtures/todo.json.
	fixtures := filepath.Join(root(t), "testing", "fixtures", "todo.json")
	runC(t, gen, "todo", "todo_mock_typed", func(t *testing.T) []string {
		return []string{"SMITHYCURL_TODO_MODEL=" + dir, "SMITHYCURL_TODO_FIXTURES=" + fixtures}
	})
}

// kindsServer echoes Echo (but answers the canned outputs of
// outOfTypeBodies, and union members the model does not know to the name
// "newer") and Ping, and answers Fail with KindsError.
func kindsServer() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if canned := outOfTypeBody(body); canned != nil {
			body = canned
		} else if bytes.Contains(body, []byte(`"name":"newer"`)) {
			body = []byte(`{"name":"newer","shape":{"NEWTYPE":{"k":[1,"v"]}},"shapes":[{"square":3},{"LATER":"x"}]}`)
		}
		w.Write(body)
	})
	mux.HandleFunc("POST /ping", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	mux.HandleFunc("POST /fail", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-Errortype", "KindsError")
		w.WriteHeader(400)
		// The input's members plus a list, as the error's members.
		fmt.Fprintf(w, `{%s, "details": ["a", "b"]}`, strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(body)), "{"), "}"))
	})
	return mux
}

func TestTypedCKinds(t *testing.T) {
	needCC(t)
	libDir(t)
	gen := t.TempDir()
	dir, _ := filepath.Abs(filepath.Join("testdata", "kinds"))
	generate(t, gen, "kinds", "", dir)
	runC(t, gen, "kinds", "kinds_typed", func(t *testing.T) []string {
		srv := httptest.NewServer(kindsServer())
		t.Cleanup(srv.Close)
		return []string{"SMITHYCURL_KINDS_URL=" + srv.URL, "SMITHYCURL_KINDS_MODEL=" + dir}
	})
}

// pizzaModel is alloy's PizzaAdminService in the shared conformance data
// (with alloy's trait definitions).
func pizzaModel(t *testing.T) []string {
	shared := shareddata.Path(t)
	alloy := filepath.Join(shared, "conformance", "disneystreaming-alloy", "modules")
	return []string{filepath.Join(alloy, "core", "resources", "META-INF", "smithy"),
		filepath.Join(alloy, "protocol-tests", "resources", "META-INF", "smithy"),
		filepath.Join(shared, "conformance", "smithy-lang-smithy", "smithy-protocol-test-traits",
			"src", "main", "resources", "META-INF", "smithy", "smithy.test.smithy")}
}

func TestTypedCPizza(t *testing.T) {
	needCC(t)
	libDir(t)
	paths := pizzaModel(t)
	gen := t.TempDir()
	generate(t, gen, "pizza", "alloy.test#PizzaAdminService", paths...)
	runC(t, gen, "pizza", "pizza_typed", func(t *testing.T) []string {
		srv := httptest.NewServer(pizzaserver.New().Handler())
		t.Cleanup(srv.Close)
		return []string{"SMITHYCURL_PIZZA_URL=" + srv.URL, "SMITHYCURL_PIZZA_MODEL=" + strings.Join(paths, ":")}
	})
}

// TestJSONRuntime runs bindings/c/typed/json_runtime.c: the smithycurl_json_*
// writer and reader on their own, edge cases and malformed text.
func TestJSONRuntime(t *testing.T) {
	needCC(t)
	libDir(t)
	runC(t, t.TempDir(), "", "json_runtime", func(t *testing.T) []string { return nil })
}
