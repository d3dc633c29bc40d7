package main

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// BenchmarkCallLayer compares a call through the C API's Go side (input
// checks, result in C memory, registry) with the same client.Call, to show
// what the export layer adds per call (the C boundary itself is measured by
// bench/c).
func BenchmarkCallLayer(b *testing.B) {
	srv := httptest.NewServer(httpbin.New().Handler())
	defer srv.Close()
	m, err := model.LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		b.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	input := []byte(`{"id": 7, "test": "x", "queryParam": "q"}`)
	ctx := context.Background()
	b.Run("client.Call", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Call(ctx, "Anything", input); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("export", func(b *testing.B) {
		for b.Loop() {
			r := call(ctx, c, "Anything", input)
			if r == nil || r.code != codeOK {
				b.Fatal("call failed")
			}
			h := register(typResult, r)
			v, _ := unregister(h, typResult)
			v.(*result).free()
		}
	})
}

// TestCallErrors checks the result of failures made before anything is sent.
func TestCallErrors(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		op, input string
		code      int
	}{
		{"GetIP", "", codeNotFound},
		{"Anything", `{"id": 1,`, codeInvalidJSON},
		{"Anything", "{\"test\": \"\xff\"}", codeInvalidUTF8},
		{"Anything", `{"test": "\ud800"}`, codeInvalidUTF8},
		{"Anything", `{"id": "x"}`, codeUsage},
		{"Anything", `{"id": 1.5}`, codeUsage},
		{"Anything", `{"test": "no id"}`, codeUsage + int(client.KindValidation) - 1},
	} {
		r := call(context.Background(), c, tc.op, []byte(tc.input))
		if r.code != tc.code || r.kind != int(client.KindUsage) && r.kind != int(client.KindValidation) {
			t.Errorf("%s(%s): code %d kind %d, want code %d", tc.op, tc.input, r.code, r.kind, tc.code)
		}
		r.free()
	}
}
