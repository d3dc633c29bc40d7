package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	svcIDL   = "$version: \"2\"\nnamespace a.b\n\nservice S { operations: [Op] }\noperation Op { input: In }\n"
	inputAST = `{"smithy": "2.0", "shapes": {"a.b#In": {"type": "structure", "members": {"n": {"target": "a.c#Name"}}}}}`
	nameIDL  = "$version: \"2\"\nnamespace a.c\nstring Name\n"
)

func loadPath(t *testing.T, path string) (*Model, []Event, error) {
	t.Helper()
	l := NewLoader()
	if err := l.AddPath(path); err != nil {
		return nil, nil, err
	}
	return l.Load(context.Background())
}

// TestDirectorySkipsNonModels: a directory adds .smithy files and JSON ASTs
// and skips other JSON files, FIFOs and sockets; a broken JSON AST is still
// an error, and so is a non-model file named explicitly.
func TestDirectorySkipsNonModels(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"svc.smithy":               svcIDL,
		"in.json":                  inputAST,
		"names/name.smithy":        nameIDL,
		"package.json":             `{"name": "models", "version": "1.0.0"}`,
		"tsconfig.json":            "{\n  // not JSON\n  \"compilerOptions\": {}\n}\n",
		"nested/smithy-build.json": `{"version": "1.0", "sources": ["nowhere"]}`,
		"list.json":                `[1, 2]`,
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.smithy"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, events, err := loadPath(t, dir)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if _, ok := m.Shape("a.b#In"); !ok {
		t.Errorf("the JSON AST was not loaded")
	}
	var skipped []string
	for _, e := range events {
		if strings.HasPrefix(e.Message, "Skipped") {
			skipped = append(skipped, filepath.Base(e.Loc.File))
		}
	}
	if got := strings.Join(skipped, ","); got != "list.json,smithy-build.json,package.json,pipe.smithy,tsconfig.json" {
		t.Errorf("skipped %s", got)
	}

	writeFiles(t, dir, map[string]string{"broken.json": `{"smithy": "2.0", "shapes": {`})
	if _, _, err := loadPath(t, dir); err == nil || !strings.Contains(err.Error(), "broken.json:") {
		t.Errorf("a broken JSON AST in a directory: %v", err)
	}
	if _, _, err := loadPath(t, filepath.Join(dir, "package.json")); err == nil || !strings.Contains(err.Error(), "package.json") {
		t.Errorf("package.json named explicitly: %v", err)
	}
}

// TestBuildFile: smithy-build.json, named or at the top of a directory, adds
// its sources and imports relative to its folder, and nothing else.
func TestBuildFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"smithy-build.json": `// sources and imports
{
    "version": "1.0",
    "sources": ["model", "extra/in.json"], // a folder and a file
    "imports": ["deps"],
    "outputDirectory": "build/smithy",
    "maven": {"dependencies": ["software.amazon.smithy:smithy-aws-traits:1.50.0", "com.example:private-traits:1.0"]},
    "plugins": {"x": {"url": "https://example.com//path"}}
}`,
		"model/svc.smithy": svcIDL,
		"extra/in.json":    inputAST,
		"deps/name.smithy": nameIDL,
		// Outside the sources: loading it would redefine a.b#S.
		"build/smithy/source/model/model.json": `{"smithy": "2.0", "shapes": {"a.b#S": {"type": "string"}}}`,
	})
	for _, p := range []string{filepath.Join(dir, "smithy-build.json"), dir} {
		m, events, err := loadPath(t, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if _, ok := m.Shape("a.c#Name"); !ok {
			t.Errorf("%s: the import was not loaded", p)
		}
		var warned bool
		for _, e := range events {
			if e.Severity == SeverityWarning && strings.Contains(e.Message, "com.example:private-traits:1.0") {
				warned = true
			}
			if strings.Contains(e.Message, "smithy-aws-traits") {
				t.Errorf("%s: a bundled artifact was reported: %s", p, e)
			}
		}
		if !warned {
			t.Errorf("%s: no warning for the Maven dependency: %v", p, events)
		}
	}

	// Without "sources", model/ beside the build file is the source.
	writeFiles(t, dir, map[string]string{"smithy-build.json": `{"version": "1.0", "imports": ["deps", "extra"]}`})
	if _, _, err := loadPath(t, dir); err != nil {
		t.Errorf("default sources: %v", err)
	}
	for text, want := range map[string]string{
		`{"sources": ["model"]}`:                     `no "version"`,
		`{"version": "2.0", "sources": ["model"]}`:   `unsupported version "2.0"`,
		`{"version": "1.0", "sources": ["missing"]}`: "missing",
		`{"version": "1.0", "sources": [1]}`:         "smithy-build.json",
	} {
		writeFiles(t, dir, map[string]string{"smithy-build.json": text})
		_, _, err := loadPath(t, dir)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "smithy-build.json") {
			t.Errorf("%s: %v; want an error naming the file and %q", text, err, want)
		}
	}
}

// TestReadLimit: files, endless devices, FIFOs and in-memory sources stop at
// the limit with an error naming them.
func TestReadLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.smithy")
	writeFiles(t, dir, map[string]string{"big.smithy": svcIDL + strings.Repeat("// padding\n", 200)})
	fifo := filepath.Join(dir, "endless.smithy")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		line := []byte(strings.Repeat("// endless\n", 100))
		for i := 0; i < 1000; i++ { // bounded: far beyond the test's limit
			if _, err := f.Write(line); err != nil {
				return
			}
		}
	}()
	paths := []string{big, fifo}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero")
	}
	for _, p := range paths {
		l := NewLoader()
		l.maxBytes = 1024
		err := l.AddPath(p)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v", p, err)
		}
	}
	l := NewLoader()
	l.maxBytes = 1024
	l.AddSource("huge.smithy", make([]byte, 2048))
	_, _, err := l.Load(context.Background())
	if err == nil || !strings.Contains(err.Error(), "huge.smithy") || !strings.Contains(err.Error(), "2048 bytes") {
		t.Errorf("AddSource over the limit: %v", err)
	}
	if NewLoader().maxBytes != MaxFileBytes || MaxFileBytes != 256<<20 {
		t.Errorf("the default limit is %d", NewLoader().maxBytes)
	}
}
