package model

import (
	"context"
	"testing"
)

// BenchmarkPreludeBuild parses and assembles the prelude, the fixed cost of a
// process's first model load.
func BenchmarkPreludeBuild(b *testing.B) {
	for b.Loop() {
		f := parseIDL("smithy.api/prelude.smithy", preludeSource)
		a := newAssembler(nil, []*draftFile{f})
		a.run([]*draftFile{f})
	}
}

// BenchmarkLoadHTTPBin loads examples/httpbin with the prelude already built.
func BenchmarkLoadHTTPBin(b *testing.B) {
	for b.Loop() {
		l := NewLoader()
		if err := l.AddPath("../examples/httpbin"); err != nil {
			b.Fatal(err)
		}
		if _, _, err := l.Load(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
