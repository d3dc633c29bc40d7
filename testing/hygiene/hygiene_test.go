// Package hygiene checks what the repository tracks.
package hygiene

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxSize bounds a tracked file outside testdata/.
const maxSize = 1 << 20

// binaryMagic are the starts of executable and object files.
var binaryMagic = [][]byte{
	[]byte("\x7fELF"),        // ELF
	{0xcf, 0xfa, 0xed, 0xfe}, // Mach-O 64
	{0xce, 0xfa, 0xed, 0xfe}, // Mach-O 32
	{0xca, 0xfe, 0xba, 0xbe}, // Mach-O universal
	[]byte("MZ"),             // PE
	[]byte("!<arch>\n"),      // ar archive (.a)
	{0x00, 0x61, 0x73, 0x6d}, // WebAssembly
}

// TestTrackedFiles fails on a tracked executable binary, or a tracked file
// over 1 MiB outside a testdata/ folder: build outputs belong in build/.
func TestTrackedFiles(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", root, err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files: not the repository", len(files))
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		if st.Size() > maxSize && !inTestdata(f) {
			t.Errorf("%s: %d bytes tracked outside testdata/ (at most %d)", f, st.Size(), maxSize)
		}
		if isBinary(t, p) {
			t.Errorf("%s: an executable or object file is tracked (build outputs go in build/, ignored)", f)
		}
	}
}

func inTestdata(path string) bool {
	return strings.HasPrefix(path, "testdata/") || strings.Contains(path, "/testdata/")
}

func isBinary(t *testing.T, path string) bool {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := f.Read(head)
	head = head[:n]
	for _, m := range binaryMagic {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}

// TestDetects: the checks see an ELF file and a large one.
func TestDetects(t *testing.T) {
	dir := t.TempDir()
	elf := filepath.Join(dir, "prog")
	if err := os.WriteFile(elf, []byte("\x7fELF\x02\x01\x01\x00rest"), 0o755); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(text, []byte("#!/bin/sh\necho MZ\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !isBinary(t, elf) || isBinary(t, text) {
		t.Errorf("isBinary: ELF %v, script %v", isBinary(t, elf), isBinary(t, text))
	}
	if !inTestdata("model/testdata/big.json") || !inTestdata("testdata/x") || inTestdata("mytestdata/x") {
		t.Error("inTestdata")
	}
}
