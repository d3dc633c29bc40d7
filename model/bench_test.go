package model_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

func readShared(b *testing.B, parts ...string) []byte {
	data, err := os.ReadFile(filepath.Join(append([]string{sharedDir(b)}, parts...)...))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkLoadSagemakerAST loads the 3.3 MB sagemaker JSON AST from its
// file, as LoadPaths does without the model cache: reading, assembly and
// validation included.
// MB/s is per wall time; cpu-MB/s per CPU time of the process (every
// thread, the GC's included), which other work on the machine disturbs less.
func BenchmarkLoadSagemakerAST(b *testing.B) {
	path := filepath.Join(sharedDir(b), "models", "aws-large", "sagemaker.json")
	size := len(readShared(b, "models", "aws-large", "sagemaker.json"))
	b.SetBytes(int64(size))
	start := cpuTime()
	for b.Loop() {
		l := model.NewLoader()
		l.SetCache(model.CacheOff)
		if err := l.AddPath(path); err != nil {
			b.Fatal(err)
		}
		if _, _, err := l.Load(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkServiceIndex builds the client query index of sagemaker.
func BenchmarkServiceIndex(b *testing.B) {
	src := readShared(b, "models", "aws-large", "sagemaker.json")
	for b.Loop() {
		b.StopTimer()
		l := model.NewLoader()
		l.SetCache(model.CacheOff)
		l.AddSource("sagemaker.json", src)
		m, _, err := l.Load(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := m.Service("com.amazonaws.sagemaker#SageMaker"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSagemakerHeap reports the heap a loaded sagemaker model holds, as
// bytes and as a multiple of its file size.
func BenchmarkSagemakerHeap(b *testing.B) {
	src := readShared(b, "models", "aws-large", "sagemaker.json")
	var held, ratio float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		l := model.NewLoader()
		l.SetCache(model.CacheOff)
		l.AddSource("sagemaker.json", src)
		m, _, err := l.Load(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Service("com.amazonaws.sagemaker#SageMaker"); err != nil {
			b.Fatal(err)
		}
		l = nil
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		ratio = held / float64(len(src))
		runtime.KeepAlive(m)
	}
	b.ReportMetric(held/(1<<20), "MiB-held")
	b.ReportMetric(ratio, "x-file-size")
}
