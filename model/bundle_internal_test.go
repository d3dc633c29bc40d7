package model

import (
	"context"
	"testing"
)

// TestBundledNamespacesAreClean assembles each bundled namespace alone (they
// refer only to themselves and the prelude) and validates it as a user model
// would be: no event of any kind.
func TestBundledNamespacesAreClean(t *testing.T) {
	want := []string{"alloy", "aws.api", "aws.auth", "aws.customizations", "aws.protocols",
		"smithy.framework", "smithy.protocols", "smithy.rules", "smithy.waiters"}
	got := BundledNamespaces()
	if len(got) != len(want) {
		t.Fatalf("bundled namespaces = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("bundled namespaces = %v, want %v", got, want)
		}
	}
	for _, ns := range got {
		b := bundled[ns].load()
		for _, e := range b.events {
			t.Errorf("%s: %s", ns, e)
		}
		if len(b.shapes) == 0 {
			t.Errorf("%s: no shapes", ns)
		}
		for id, s := range b.shapes {
			if id.Namespace() != ns || !s.bundled {
				t.Errorf("%s: shape %s (bundled %v)", ns, id, s.bundled)
			}
		}
		src, err := bundledFS.ReadFile("bundled/" + ns + ".smithy")
		if err != nil {
			t.Fatal(err)
		}
		l := NewLoader()
		l.AddSource(ns+".smithy", src)
		_, events, err := l.Load(context.Background())
		if err != nil {
			t.Errorf("%s as a user model: %v", ns, err)
		}
		for _, e := range events {
			if e.Severity > SeverityNote {
				t.Errorf("%s as a user model: %s", ns, e)
			}
		}
	}
}

// BenchmarkBundleBuild parses and assembles every bundled namespace, the
// fixed cost a process pays once for all of them (a load pays only for the
// namespaces its model refers to).
func BenchmarkBundleBuild(b *testing.B) {
	for b.Loop() {
		for ns := range bundled {
			fresh := &bundledNamespace{name: ns}
			fresh.load()
		}
	}
}
