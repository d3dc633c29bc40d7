package main

import "testing"

// TestRenderedFilesMatchTheTable: the C header's enums and version, the C
// tables, the Go constants, export's option numbers, the Python constants
// and option names and the README's options table are what the table
// renders; a hand edit or a table change without `make contract` fails.
func TestRenderedFilesMatchTheTable(t *testing.T) {
	stale, err := syncFiles("../..", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		t.Errorf("%s differs from internal/contract: run make contract", p)
	}
}
