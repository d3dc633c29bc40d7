package endpoints_test

import (
	"context"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

var awsModels sync.Map // file -> *model.Model

// awsService loads an AWS model of the shared data (once per test binary)
// and compiles its rule set.
func awsService(tb testing.TB, file string) (*model.Service, *endpoints.Service) {
	tb.Helper()
	shared := shareddata.Path(tb)
	m, ok := awsModels.Load(file)
	if !ok {
		mm, err := model.LoadPaths(context.Background(), filepath.Join(shared, "models", file))
		if err != nil {
			tb.Fatal(err)
		}
		m, _ = awsModels.LoadOrStore(file, mm)
	}
	mod := m.(*model.Model)
	sid := mod.Services()[0]
	svc, err := mod.Service(sid)
	if err != nil {
		tb.Fatal(err)
	}
	es, err := endpoints.ForService(mod, svc)
	if err != nil || es == nil {
		tb.Fatalf("ForService: %v", err)
	}
	return svc, es
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds "cpu-ns/op": CPU time per resolution, which a machine
// busy with other work disturbs less than ns/op (wall time).
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkResolveDynamoDB(b *testing.B) {
	_, es := awsService(b, "aws/dynamodb.json")
	p := es.RuleSet.NewParams()
	if err := p.Set("Region", endpoints.String("us-east-1")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		ep, err := es.RuleSet.Resolve(p)
		if err != nil || ep.URL != "https://dynamodb.us-east-1.amazonaws.com" {
			b.Fatal(ep, err)
		}
	}
}

func BenchmarkResolveS3(b *testing.B) {
	_, es := awsService(b, "aws-large/s3.json")
	p := es.RuleSet.NewParams()
	for k, v := range map[string]endpoints.Value{
		"Region": endpoints.String("us-west-2"), "Bucket": endpoints.String("my-bucket"),
		"Key": endpoints.String("a/b.txt"),
	} {
		if err := p.Set(k, v); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		ep, err := es.RuleSet.Resolve(p)
		if err != nil || ep.URL != "https://my-bucket.s3.us-west-2.amazonaws.com" {
			b.Fatal(ep, err)
		}
	}
}

// BenchmarkCompileS3: what a client pays once, at New.
func BenchmarkCompileS3(b *testing.B) {
	svc, _ := awsService(b, "aws-large/s3.json")
	m, _ := awsModels.Load("aws-large/s3.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := endpoints.ForService(m.(*model.Model), svc); err != nil {
			b.Fatal(err)
		}
	}
}
