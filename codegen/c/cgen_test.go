package cgen_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/codegen/c"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"TodoItem": "todo_item", "HTTPHeaders": "http_headers", "ec2InstanceId": "ec2_instance_id",
		"S3Bucket": "s3_bucket", "Foo_Bar": "foo_bar", "fooBar": "foo_bar", "A2B": "a2_b", "ID": "id",
		"getHTTPResponseCode": "get_http_response_code", "__x": "x", "X509Cert": "x509_cert",
	} {
		if got := cgen.Snake(in); got != want {
			t.Errorf("Snake(%q) = %q, want %q", in, got, want)
		}
	}
}

func loadService(t testing.TB, service model.ShapeID, paths ...string) (*model.Model, *model.Service) {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), paths...)
	if err != nil {
		t.Fatal(err)
	}
	if service == "" {
		service = m.Services()[0]
	}
	svc, err := m.Service(service)
	if err != nil {
		t.Fatal(err)
	}
	return m, svc
}

// compileOnly checks that the generated files compile with the strict flags.
func compileOnly(t testing.TB, dir, prefix string, syntaxOnly bool) {
	t.Helper()
	mode := []string{"-c", "-o", filepath.Join(dir, prefix+".o")}
	if syntaxOnly {
		mode = []string{"-fsyntax-only"}
	}
	args := append(append(append([]string{}, strictFlags...), "-I"+filepath.Join(root(t), "include"), "-I"+dir), mode...)
	cc(t, append(args, filepath.Join(dir, prefix+".c"))...)
}

// TestCollisions generates a client whose names collide in C in every way
// the generator resolves: it compiles, and the names are the documented
// deterministic ones.
func TestCollisions(t *testing.T) {
	needCC(t)
	m, svc := loadService(t, "", filepath.Join("testdata", "collide"))
	h, c, err := cgen.Generate(m, svc, cgen.Options{Prefix: "collide"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"struct collide_foo_bar {", "struct collide_foo_bar_2 {", "struct collide_foo_bar_3 {", // FooBar, Foo_Bar, other#FooBar
		"char *foo_bar;", "char *foo_bar_2;", // fooBar, foo_bar
		"int has_foo;", "int has_foo_2; /* whether foo is set */", // member hasFoo, flag of foo
		"int32_t int_;", "int32_t default_;", "char *new_;", "char *free;", "char *errors;", "char *type;",
		"collide_one_member *union_;",
		"COLLIDE_KIND_UNKNOWN = 0", "COLLIDE_KIND_UNKNOWN_2 = 1", "COLLIDE_KIND_A2_B = 2", "COLLIDE_KIND_A2_B_2 = 3",
		"COLLIDE_TRICKY_UNKNOWN = 0", "COLLIDE_TRICKY_UNKNOWN_2 = 3", "char *tag;",
		"collide_error collide_error_which(smithycurl_result *result);",
		"int collide_error_which_2(smithycurl_client *client, smithycurl_result **err);", // operation ErrorWhich
		"int collide_type(smithycurl_client *client, const collide_type_input *input, smithycurl_result **err);",
		"collide_tree *left;", "collide_tree *items;", // recursion: through a pointer, through a list
	} {
		if !bytes.Contains(h, []byte(want)) {
			t.Errorf("header lacks %q", want)
		}
	}
	// The same model gives the same bytes.
	h2, c2, err := cgen.Generate(m, svc, cgen.Options{Prefix: "collide"})
	if err != nil || !bytes.Equal(h, h2) || !bytes.Equal(c, c2) {
		t.Errorf("a second run differs (err %v)", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "collide.h"), h, 0o644)
	os.WriteFile(filepath.Join(dir, "collide.c"), c, 0o644)
	compileOnly(t, dir, "collide", false)
	// And from C++, as the header promises.
	if _, err := exec.LookPath("c++"); err == nil {
		src := filepath.Join(dir, "use.cpp")
		os.WriteFile(src, []byte("#include \"collide.h\"\nint main() { collide_get_thing_input in; collide_get_thing_input_init(&in); return in.has_foo; }\n"), 0o644)
		cmd := exec.Command("c++", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"+filepath.Join(root(t), "include"), "-I"+dir, src)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the header from C++: %v\n%s", err, out)
		}
	}
}

func TestBadPrefix(t *testing.T) {
	m, svc := loadService(t, "", filepath.Join("testdata", "collide"))
	for _, p := range []string{"Todo", "1x", "int", "a__b", "a-b", "smithycurl", "x_"} {
		if _, _, err := cgen.Generate(m, svc, cgen.Options{Prefix: p}); err == nil || !strings.Contains(err.Error(), "prefix") {
			t.Errorf("prefix %q: err %v, want one about the prefix", p, err)
		}
	}
}

// TestDeprecatedWarns: the generated code itself compiles without warnings,
// and a program using a deprecated operation or member is warned.
func TestDeprecatedWarns(t *testing.T) {
	needCC(t)
	dir := t.TempDir()
	generate(t, dir, "kinds", "", filepath.Join("testdata", "kinds"))
	compileOnly(t, dir, "kinds", true)
	src := filepath.Join(dir, "use.c")
	os.WriteFile(src, []byte("#include \"kinds.h\"\nint main(void) {\n    kinds_old_input in;\n    kinds_old_input_init(&in);\n    in.gone = 0;\n    return kinds_old(0, &in, 0);\n}\n"), 0o644)
	out, err := exec.Command("cc", "-std=c99", "-Wall", "-pedantic", "-fsyntax-only", "-I"+filepath.Join(root(t), "include"), "-I"+dir, src).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(string(out), "deprecated"); n < 2 {
		t.Errorf("want warnings for the deprecated member and operation, got:\n%s", out)
	}
}

// TestCompileAWSModels generates the C client of every model under
// models/aws and models/aws-large of the shared folder and compiles each
// with -std=c99 -Wall -Wextra -Werror -pedantic (syntax only, two at a
// time). It takes about half a minute of CPU: it runs with
// SMITHYCURL_GENTEST set (make gentest-c).
func TestCompileAWSModels(t *testing.T) {
	if os.Getenv("SMITHYCURL_GENTEST") == "" {
		t.Skip("set SMITHYCURL_GENTEST=1 (make gentest-c)")
	}
	needCC(t)
	shared := shareddata.Path(t)
	var files []string
	for _, d := range []string{"aws", "aws-large"} {
		fs, _ := filepath.Glob(filepath.Join(shared, "models", d, "*.json"))
		files = append(files, fs...)
	}
	if len(files) != 26 {
		t.Errorf("%d models, want 23 + 3", len(files))
	}
	dir := t.TempDir()
	start := time.Now()
	var genTime time.Duration
	var prefixes []string
	for _, f := range files {
		prefix := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(f), ".json"), "-", "_")
		m, err := model.LoadPaths(context.Background(), f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		svc, err := m.Service(m.Services()[0])
		if err != nil {
			t.Fatal(err)
		}
		g0 := time.Now()
		h, c, err := cgen.Generate(m, svc, cgen.Options{Prefix: prefix})
		d := time.Since(g0)
		genTime += d
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		// A guard against a blow-up (quadratic output, say), not the
		// target: it is ~0.5 s quiet, and CI's machine is loaded.
		if prefix == "sagemaker" && d > 10*time.Second {
			t.Errorf("gen c for sagemaker took %v, want <= 10 s", d)
		}
		os.WriteFile(filepath.Join(dir, prefix+".h"), h, 0o644)
		os.WriteFile(filepath.Join(dir, prefix+".c"), c, 0o644)
		prefixes = append(prefixes, prefix)
	}
	t.Logf("generated %d clients in %v (generation alone %v)", len(prefixes), time.Since(start), genTime)
	start = time.Now()
	work := make(chan string)
	var wg sync.WaitGroup
	for i := 0; i < min(2, runtime.NumCPU()); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				compileOnly(t, dir, p, true)
			}
		}()
	}
	for _, p := range prefixes {
		work <- p
	}
	close(work)
	wg.Wait()
	t.Logf("compiled %d clients in %v", len(prefixes), time.Since(start))
}
