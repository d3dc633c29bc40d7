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

// TestBundledSnapshots: each bundled/NS.scmodel is the snapshot of
// bundled/NS.smithy as this version assembles it on the prelude, and reads
// back to the same shapes (-update-prelude rewrites them too).
func TestBundledSnapshots(t *testing.T) {
	for _, ns := range BundledNamespaces() {
		built := &bundledNamespace{name: ns}
		built.build()
		if len(built.events) > 0 {
			t.Fatalf("%s has problems: %v", ns, built.events)
		}
		want := (&Model{shapes: built.shapes, version: "2.0"}).MarshalSnapshot()
		path := "bundled/" + ns + ".scmodel"
		if *updatePrelude {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, _ := bundledFS.ReadFile(path); string(got) != string(want) {
			t.Fatalf("%s is not the snapshot of bundled/%s.smithy: run go test ./model -run 'TestPreludeSnapshot|TestBundledSnapshots' -update-prelude", path, ns)
		}
		read := &bundledNamespace{name: ns}
		if !read.read() || len(read.shapes) != len(built.shapes) || len(read.drafts) != len(built.drafts) {
			t.Fatalf("%s does not read back", path)
		}
		for id, s := range built.shapes {
			c := *s
			clearShapePos(&c)
			c.local = nil
			got := *read.shapes[id]
			got.local = nil
			if !reflect.DeepEqual(&got, &c) || !read.shapes[id].bundled {
				t.Fatalf("%s differs:\n got %+v\nwant %+v", id, got, c)
			}
			if d := read.drafts[id]; d.typ != built.drafts[id].typ || d.loc != built.drafts[id].loc {
				t.Fatalf("draft of %s differs", id)
			}
		}
	}
}
