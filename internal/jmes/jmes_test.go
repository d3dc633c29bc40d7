package jmes

import (
	"errors"
	"testing"
)

// Raw string literals keep the specification's meaning: only \' is an
// escape (the library alone reads '\\' as one backslash).
func TestRawStrings(t *testing.T) {
	data := map[string]any{"a": `x"y`}
	for _, c := range []struct{ expr, want string }{
		{`'\\'`, `\\`},
		{`'\z'`, `\z`},
		{`'foo\'bar'`, `foo'bar`},
		{`'\\\''`, `\\'`},
		{`'a' || "a"`, `a`},
		{"`\"\\\\\"`", `\`},
		{`"\\" || 'b\\c'`, `b\\c`},
	} {
		e, err := Compile(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got, err := e.Search(data)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got != c.want {
			t.Errorf("%s = %#v, want %#v", c.expr, got, c.want)
		}
	}
}

func TestErrors(t *testing.T) {
	_, err := Compile("foo.[")
	var syn *SyntaxError
	if !errors.As(err, &syn) || syn.Expr != "foo.[" {
		t.Fatalf("want a SyntaxError naming the expression, got %v", err)
	}
	e, err := Compile("abs(`\"x\"`)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Search(nil); err == nil {
		t.Fatal("abs of a string: want an error")
	}
}
