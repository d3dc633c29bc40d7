package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
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

// stubOK answers every request at once with 200 and an empty object.
type stubOK struct{}

func (stubOK) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	return &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}, nil
}

// TestCallReadsInputOnce: the codec's scan is the only check of a call's
// input text (the C API's Go side also read it whole with
// jsonstr.CheckText and json.Valid before client.Call). A call of a 1 MiB
// input through the C API's Go side, answered at once, costs less than
// the same client.Call plus half a json.Valid of the input: it holds no
// pass of its own over it. Best of 5, alternating (load only adds time).
func TestCallReadsInputOnce(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", "http://127.0.0.1:1", client.WithTransport(stubOK{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	input := []byte(`{"id": 7, "test": "` + strings.Repeat("abcdefgh", 1<<17) + `"}`)
	ctx := context.Background()
	best := func(d *time.Duration, f func()) {
		start := time.Now()
		f()
		if took := time.Since(start); *d == 0 || took < *d {
			*d = took
		}
	}
	var tExport, tCall, tValid time.Duration
	for range 5 {
		best(&tExport, func() {
			r := call(ctx, c, "Anything", input)
			if r.code != codeOK {
				t.Fatalf("code %d: %s", r.code, unsafe.String((*byte)(unsafe.Add(r.buf, r.off[fMessage])), r.len[fMessage]))
			}
			r.free()
		})
		best(&tCall, func() {
			if _, err := c.Call(ctx, "Anything", input); err != nil {
				t.Fatal(err)
			}
		})
		best(&tValid, func() { json.Valid(input) })
	}
	if tExport-tCall >= tValid/2 {
		t.Errorf("a call of a 1 MiB input took %s through the C API's Go side, %s through client.Call; json.Valid of it %s: the C API reads the input again", tExport, tCall, tValid)
	}
	t.Logf("C API's Go side %s, client.Call %s, json.Valid %s", tExport, tCall, tValid)
}

// bigOutput answers every request with a 1 MiB JSON document.
type bigOutput struct{ body []byte }

func (t bigOutput) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	return &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/json"}}, Body: t.body}, nil
}

// TestCallOutputDecodedIntoResult: a call's output is decoded straight
// into the C buffer of its result (client.WithOutputBuffer), not into a
// Go buffer copied into C memory after: a call with a 1 MiB output
// allocates far less than 1 MiB of Go memory, and its result holds the
// whole output.
func TestCallOutputDecodedIntoResult(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("abcdefgh", 1<<17)
	body := []byte(`{"method": "POST", "json": {"big": "` + big + `"}}`)
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", "http://127.0.0.1:1", client.WithTransport(bigOutput{body}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, input := context.Background(), []byte(`{"id": 7}`)
	var r *result
	one := func() {
		if r = call(ctx, c, "Anything", input); r.code != codeOK {
			t.Fatalf("code %d", r.code)
		}
	}
	one()
	r.free()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	one()
	runtime.ReadMemStats(&after)
	defer r.free()
	out := unsafe.Slice((*byte)(r.buf), r.outLen+1)
	if !bytes.Contains(out, []byte(big)) || !bytes.HasSuffix(out, []byte("}}\x00")) {
		t.Fatalf("output %.100s...", out)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("a call with a 1 MiB output allocated %d bytes of Go memory: the output went through a Go buffer", n)
	}
}
