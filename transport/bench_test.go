package transport

import (
	"context"
	"fmt"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
	"github.com/smithycurl/smithycurl/wire"
)

func benchCurl(b *testing.B, workers int) {
	url := benchserver.Start(b) + "/op"
	tr, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	hdr := wire.Header{"Content-Type": {"application/json"}}
	ctx := context.Background()
	benchserver.Measure(b, workers, func() error {
		r, err := tr.Do(ctx, &Request{Method: "POST", URL: url, Header: hdr, Body: benchserver.Request})
		if err != nil {
			return err
		}
		if r.Status != 200 || len(r.Body) != len(benchserver.Response) {
			return fmt.Errorf("status %d, %d bytes", r.Status, len(r.Body))
		}
		return nil
	})
}

func BenchmarkTransportSmallPOST(b *testing.B) { benchCurl(b, 1) }
func BenchmarkNetHTTPSmallPOST(b *testing.B) {
	benchserver.NetHTTPLoop(b, benchserver.Start(b)+"/op", 1)
}
func BenchmarkGoCurlPlainSmallPOST(b *testing.B) {
	benchserver.GoCurlLoop(b, benchserver.Start(b)+"/op", 1)
}
func BenchmarkTransportSmallPOST2(b *testing.B) { benchCurl(b, 2) }
func BenchmarkNetHTTPSmallPOST2(b *testing.B) {
	benchserver.NetHTTPLoop(b, benchserver.Start(b)+"/op", 2)
}
func BenchmarkGoCurlPlainSmallPOST2(b *testing.B) {
	benchserver.GoCurlLoop(b, benchserver.Start(b)+"/op", 2)
}
func BenchmarkTransportSmallPOST8(b *testing.B) { benchCurl(b, 8) }
func BenchmarkNetHTTPSmallPOST8(b *testing.B) {
	benchserver.NetHTTPLoop(b, benchserver.Start(b)+"/op", 8)
}
func BenchmarkGoCurlPlainSmallPOST8(b *testing.B) {
	benchserver.GoCurlLoop(b, benchserver.Start(b)+"/op", 8)
}

// The same POST through the engine, workers goroutines sharing it.
func benchEngine(b *testing.B, workers int) {
	url := benchserver.Start(b) + "/op"
	e, err := NewEngine(Config{}, EngineConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	hdr := wire.Header{"Content-Type": {"application/json"}}
	ctx := context.Background()
	benchserver.Measure(b, workers, func() error {
		r, err := e.Do(ctx, &Request{Method: "POST", URL: url, Header: hdr, Body: benchserver.Request})
		if err != nil {
			return err
		}
		if r.Status != 200 || len(r.Body) != len(benchserver.Response) {
			return fmt.Errorf("status %d, %d bytes", r.Status, len(r.Body))
		}
		return nil
	})
}

func BenchmarkEngineSmallPOST(b *testing.B)       { benchEngine(b, 1) }
func BenchmarkEngineSmallPOST8(b *testing.B)      { benchEngine(b, 8) }
func BenchmarkEngineSmallPOST100(b *testing.B)    { benchEngine(b, 100) }
func BenchmarkTransportSmallPOST100(b *testing.B) { benchCurl(b, 100) }
