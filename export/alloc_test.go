package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
)

func init() { benchserver.ServeIfChild() }

// echoCall is a call of the C API's Go side on the echo workload (the
// server in a child process): the checks, client.Call, the result in C
// memory, its handle, and its free.
func echoCall(tb testing.TB) func() {
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "client", "testdata", "bench.smithy"))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.test.bench#Bench", benchserver.Start(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	ctx := context.Background()
	return func() {
		r := call(ctx, c, "CreateOrder", benchserver.Request)
		if r == nil || r.code != codeOK || !bytes.HasPrefix(unsafe.Slice((*byte)(r.buf), r.outLen), []byte(`{"id":"a1b2c3d4"`)) {
			tb.Fatal("call failed")
		}
		h := register(typResult, r)
		v, _ := unregister(h, typResult)
		v.(*result).free()
	}
}

// maxExportAllocs bounds a C API call's Go allocations in the steady
// state: client.Call's (client's maxCallAllocs) and the result's. Before
// the client's pool it made 46.
const maxExportAllocs = 25

// TestCallSteadyAllocs: a steady stream of like C API calls allocates
// little on the Go side.
func TestCallSteadyAllocs(t *testing.T) {
	benchserver.CheckSteadyAllocs(t, "a C API call", maxExportAllocs, echoCall(t))
}

// BenchmarkCallEcho is a C API call's Go side on the echo workload.
func BenchmarkCallEcho(b *testing.B) { benchserver.BenchCalls(b, echoCall(b)) }
