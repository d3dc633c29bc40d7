package model

import (
	"math/rand"
	"os"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestASTReaderLoc: the reader's line cursor gives every node the location
// a binary search over the line index gives, in document order (how the
// reader asks), backwards and at random.
func TestASTReaderLoc(t *testing.T) {
	src, err := os.ReadFile(shareddata.Path(t, "models", "aws", "sqs.json"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := ParseJSONNode(string(src))
	if err != nil {
		t.Fatal(err)
	}
	var nodes []Node
	var walk func(n Node)
	walk = func(n Node) {
		nodes = append(nodes, n)
		for _, c := range n.list {
			walk(c)
		}
	}
	walk(root)
	r := astReader{f: &draftFile{path: "sqs.json"}, lines: newLineIndex(string(src))}
	check := func(n Node) {
		t.Helper()
		if got, want := r.loc(n), r.lines.loc("sqs.json", int(n.pos-1)); got != want {
			t.Fatalf("offset %d: %v, want %v", n.pos-1, got, want)
		}
	}
	for _, n := range nodes {
		check(n)
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		check(nodes[i])
	}
	rng := rand.New(rand.NewSource(1))
	for range 5000 {
		check(nodes[rng.Intn(len(nodes))])
	}
}
