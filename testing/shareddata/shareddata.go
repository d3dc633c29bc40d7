// Package shareddata finds the project's root and the shared test data folder
// ($SMITHYCURL_SHARED, default ../shared next to the repository) for tests
// and the conformance runner. A test never skips when the data is missing:
// it fails, saying where it looked.
package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Module is the project's module path.
const Module = "github.com/smithycurl/smithycurl"

// Root is the repository root: the nearest directory above the working
// directory whose go.mod declares this module.
func Root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(line) == "module "+Module {
					return dir, nil
				}
			}
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no go.mod of %s above %s", Module, wd)
		}
	}
}

// Dir is the shared test data folder, as an absolute path: $SMITHYCURL_SHARED,
// or ../shared next to the repository root.
func Dir() (string, error) {
	d := os.Getenv("SMITHYCURL_SHARED")
	if d == "" {
		root, err := Root()
		if err != nil {
			return "", fmt.Errorf("%w; set SMITHYCURL_SHARED", err)
		}
		d = filepath.Join(root, "..", "shared")
	}
	if info, err := os.Stat(d); err != nil || !info.IsDir() {
		return "", fmt.Errorf("shared test data folder %s not found; set SMITHYCURL_SHARED", d)
	}
	return filepath.Abs(d)
}

// Path is filepath.Join(Dir(), elem...); the test fails when the folder or
// the path in it is missing.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(append([]string{d}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared test data: %v", err)
	}
	return p
}
