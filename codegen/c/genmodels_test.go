package cgen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genModel generates the typed C client of codegen/testdata/gen/NAME.smithy
// into a temporary folder and returns the folder and the two files' text.
func genModel(t *testing.T, name string) (dir, h, c string) {
	t.Helper()
	dir = t.TempDir()
	generate(t, dir, name, "", filepath.Join("..", "testdata", "gen", name+".smithy"))
	hb, err := os.ReadFile(filepath.Join(dir, name+".h"))
	if err != nil {
		t.Fatal(err)
	}
	cb, err := os.ReadFile(filepath.Join(dir, name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(hb), string(cb)
}

// TestTimestampDefaultInit: _init sets every timestamp default, whatever
// form the model wrote it in (an http-date default was left at 0: 1970 was
// sent), and the client compiles.
func TestTimestampDefaultInit(t *testing.T) {
	needCC(t)
	dir, _, c := genModel(t, "defaults")
	for _, want := range []string{
		"v->http_date.seconds = 1716459630LL; v->http_date.nanos = 0;",
		"v->header_date.seconds = 1716459631LL; v->header_date.nanos = 0;",
		"v->iso.seconds = 1716459632LL; v->iso.nanos = 500000000;",
		"v->epoch.seconds = 1716459633LL; v->epoch.nanos = 0;",
		"v->epoch_fraction.seconds = 1716459634LL; v->epoch_fraction.nanos = 250000000;",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("defaults.c lacks %q", want)
		}
	}
	compileOnly(t, dir, "defaults", true)
}
