package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestPackageInitsCheap keeps the project's package initialisers small: a
// process that makes one call pays for every package's start-up, so tables,
// regular expressions, curves and indexes are built at their first use
// (sync.OnceValue) or are constants. It runs the command with
// GODEBUG=inittrace=1 and checks what each of the project's packages
// allocates while it starts (the C library's packages are the same, less
// the stubs).
func TestPackageInitsCheap(t *testing.T) {
	const maxBytes, maxAllocs = 16 << 10, 100
	cmd := exec.Command(smithycurl(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("smithycurl --version: %v\n%s", err, out)
	}
	// init PKG @T ms, C ms clock, B bytes, N allocs
	line := regexp.MustCompile(`(?m)^init (github\.com/smithycurl/smithycurl/\S*) @.*, (\d+) bytes, (\d+) allocs$`)
	found := line.FindAllSubmatch(out, -1)
	if len(found) == 0 {
		t.Fatalf("no init lines of the project's packages in:\n%s", out)
	}
	for _, m := range found {
		bytes, _ := strconv.Atoi(string(m[2]))
		allocs, _ := strconv.Atoi(string(m[3]))
		if bytes > maxBytes || allocs > maxAllocs {
			t.Errorf("package %s allocates %d bytes in %d objects when it starts (at most %d bytes, %d objects): build its tables when first used",
				m[1], bytes, allocs, maxBytes, maxAllocs)
		}
	}
}
