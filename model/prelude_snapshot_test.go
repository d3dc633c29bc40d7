package model

import (
	"flag"
	"os"
	"reflect"
	"testing"
)

var updatePrelude = flag.Bool("update-prelude", false, "rewrite prelude.scmodel from prelude.smithy")

// TestPreludeSnapshot: prelude.scmodel is the snapshot of prelude.smithy as
// this version assembles and writes it, and reads back to the same shapes
// (a change to either file or to the snapshot format needs
// `go test ./model -run TestPreludeSnapshot -update-prelude`).
func TestPreludeSnapshot(t *testing.T) {
	built := buildPrelude()
	if len(built.events) > 0 {
		t.Fatalf("the prelude has problems: %v", built.events)
	}
	want := (&Model{shapes: built.shapes, version: "2.0"}).MarshalSnapshot()
	if *updatePrelude {
		if err := os.WriteFile("prelude.scmodel", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(want) != preludeSnapshot {
		t.Fatal("prelude.scmodel is not the snapshot of prelude.smithy: run go test ./model -run TestPreludeSnapshot -update-prelude")
	}
	read := readPrelude()
	if read == nil || len(read.shapes) != len(built.shapes) || len(read.drafts) != len(built.drafts) {
		t.Fatal("the prelude snapshot does not read back")
	}
	for id, s := range built.shapes {
		c := *s
		clearShapePos(&c)
		if !reflect.DeepEqual(read.shapes[id], &c) {
			t.Fatalf("%s differs:\n got %+v\nwant %+v", id, read.shapes[id], c)
		}
		if d := read.drafts[id]; d.typ != built.drafts[id].typ || d.loc != built.drafts[id].loc {
			t.Fatalf("draft of %s differs", id)
		}
	}
}
