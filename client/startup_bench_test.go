package client_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Start-up cost of a DynamoDB client (1.1 MB JSON AST): the model load
// (without the model cache, and from the process's cache), the client's
// creation and its first GetItem, whose request is built, signed
// and answered by a transport in this process (no network: the start-up
// cost alone). cpu-ns/op is the process's CPU time per client (getrusage:
// every thread, the GC's included), less disturbed than ns/op by other
// work on the machine.
//
//	go test ./client -run '^$' -bench Startup -benchtime 20x

const startupService = "com.amazonaws.dynamodb#DynamoDB_20120810"

type cannedTransport struct{ body []byte }

func (t cannedTransport) Do(ctx context.Context, req *transport.Request) (*wire.Response, error) {
	return &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/x-amz-json-1.0"}}, Body: t.body}, nil
}

func startupCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startupClient makes a client of m and calls GetItem once.
func startupClient(ctx context.Context, m *model.Model) error {
	c, err := client.New(m, startupService, "", client.WithRegion("us-east-1"),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"}),
		client.WithTransport(cannedTransport{body: []byte(`{"Item": {"pk": {"S": "item-1"}}}`)}))
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Call(ctx, "GetItem", []byte(`{"TableName": "t", "Key": {"pk": {"S": "item-1"}}}`))
	return err
}

func startupMeasure(b *testing.B, step func() error) {
	if err := step(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := startupCPU()
	for i := 0; i < b.N; i++ {
		if err := step(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(startupCPU()-start)/float64(b.N), "cpu-ns/op")
}

// loadUncached loads path without the model cache.
func loadUncached(ctx context.Context, path string) (*model.Model, error) {
	l := model.NewLoader()
	l.SetCache(model.CacheOff)
	if err := l.AddPath(path); err != nil {
		return nil, err
	}
	m, _, err := l.Load(ctx)
	return m, err
}

func BenchmarkStartupDynamoDB(b *testing.B) {
	ctx := context.Background()
	path := shareddata.Path(b, "models", "aws", "dynamodb.json")
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	b.Run("load", func(b *testing.B) {
		startupMeasure(b, func() error { _, err := loadUncached(ctx, path); return err })
	})
	m, err := model.LoadPaths(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("client+GetItem", func(b *testing.B) {
		startupMeasure(b, func() error { return startupClient(ctx, m) })
	})
	b.Run("load+client+GetItem", func(b *testing.B) {
		startupMeasure(b, func() error {
			m, err := loadUncached(ctx, path)
			if err != nil {
				return err
			}
			return startupClient(ctx, m)
		})
	})
	// The next client of a process: the model cache holds the model.
	b.Run("cached-load+client+GetItem", func(b *testing.B) {
		startupMeasure(b, func() error {
			m, err := model.LoadPaths(ctx, path)
			if err != nil {
				return err
			}
			return startupClient(ctx, m)
		})
	})
	// The same from the model's snapshot (smithycurl compile), read from
	// its file.
	snap := filepath.Join(b.TempDir(), "dynamodb.scmodel")
	if err := os.WriteFile(snap, m.MarshalSnapshot(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("snapshot-load", func(b *testing.B) {
		startupMeasure(b, func() error { _, err := loadUncached(ctx, snap); return err })
	})
	b.Run("snapshot-load+client+GetItem", func(b *testing.B) {
		startupMeasure(b, func() error {
			m, err := loadUncached(ctx, snap)
			if err != nil {
				return err
			}
			return startupClient(ctx, m)
		})
	})
}
