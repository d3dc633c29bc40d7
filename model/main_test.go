package model

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points the model cache's default folder at a temporary one: the
// tests never read or write the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "smithycurl-model-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
