package contract_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/smithycurl/smithycurl/internal/contract"
)

// TestTableIsConsistent: values are unique and dense from 0, and every
// kind names a code.
func TestTableIsConsistent(t *testing.T) {
	codes := map[string]bool{}
	for i, c := range contract.Codes {
		if c.Value != i {
			t.Errorf("code %s = %d, want %d (codes are dense and never renumbered)", c.Name, c.Value, i)
		}
		codes[c.Name] = true
	}
	for i, k := range contract.Kinds {
		if k.Value != i {
			t.Errorf("kind %s = %d, want %d", k.Name, k.Value, i)
		}
		if !codes[k.Code] {
			t.Errorf("kind %s names code %s, which is not in the table", k.Name, k.Code)
		}
	}
}

// TestPythonVersion: the Python package's __version__ (read by its build
// backend, so kept as a literal there) is the table's version.
func TestPythonVersion(t *testing.T) {
	b, err := os.ReadFile("../../bindings/python/smithycurl/__init__.py")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^__version__ = "([^"]*)"$`).FindSubmatch(b)
	if m == nil || string(m[1]) != contract.VersionString() {
		t.Fatalf("bindings/python/smithycurl/__init__.py: __version__ %q, want %q (internal/contract)", m, contract.VersionString())
	}
}
