package gogen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestGeneratedCompiles generates Go clients for the bad-names model
// (keywords, method and type collisions, recursion, a one-member union)
// and, unless -short, for every AWS model under $SMITHYCURL_SHARED/models
// (aws and aws-large), and runs go vet (which compiles) over all of them
// at once. They are written under build/ inside the module so that they
// can import its packages.
func TestGeneratedCompiles(t *testing.T) {
	root, err := shareddata.Root()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(filepath.Join(root, "build"), "_gogen-test-") // "_": not in ./...
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	models := map[string][]string{"bad": {filepath.Join("testdata", "badnames.smithy")}}
	if !testing.Short() {
		shared := shareddata.Path(t)
		for _, sub := range []string{"aws", "aws-large"} {
			files, _ := filepath.Glob(filepath.Join(shared, "models", sub, "*.json"))
			for _, f := range files {
				name := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(f), ".json"), "-", "")
				models[name] = []string{f}
			}
		}
		if len(models) < 27 {
			t.Errorf("found %d AWS models under %s/models, want 26", len(models)-1, shared)
		}
	}
	start := time.Now()
	for pkg, paths := range models {
		m, err := model.LoadPaths(context.Background(), paths...)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		sids := m.Services()
		if len(sids) != 1 {
			t.Fatalf("%s: %d services", pkg, len(sids))
		}
		svc, err := m.Service(sids[0])
		if err != nil {
			t.Fatal(err)
		}
		files, err := gogen.Generate(m, svc, pkg)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, pkg, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("generated %d packages in %s", len(models), time.Since(start).Round(time.Millisecond))
	start = time.Now()
	rel, _ := filepath.Rel(root, dir)
	args := []string{"vet"}
	for pkg := range models {
		args = append(args, "./"+filepath.ToSlash(filepath.Join(rel, pkg)))
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	t.Logf("go vet (compiles) in %s", time.Since(start).Round(time.Millisecond))
}
