// Package s3transfer uploads and downloads S3 objects of any size in
// parts sent in parallel, as boto3's s3transfer and aws-sdk-go-v2's
// feature/s3/manager do. It drives a client.Client of the S3 model
// through its ordinary calls (PutObject, CreateMultipartUpload,
// UploadPart, CompleteMultipartUpload, AbortMultipartUpload, HeadObject,
// GetObject), so the client's signing, retries, endpoint rules and AWS
// customizations apply to every part.
package s3transfer

import (
	"encoding/json"
	"fmt"
	"sync"
)

// The SDKs' defaults (s3transfer's TransferConfig, manager's Uploader).
const (
	DefaultPartSize    = 8 << 20
	DefaultThreshold   = 8 << 20
	DefaultConcurrency = 10
	// MaxParts is S3's limit on the parts of one multipart upload; the
	// part size grows so that an object of known size fits in it.
	MaxParts = 10000
)

// Options configure one Upload or Download; the zero value takes the
// defaults.
type Options struct {
	// PartSize is the bytes of each part (each ranged GET) but the last;
	// DefaultPartSize when 0. S3 refuses parts under 5 MiB but the last.
	PartSize int64
	// Threshold: an upload of fewer bytes is one PutObject;
	// DefaultThreshold when 0. Download ignores it.
	Threshold int64
	// Concurrency is the parts in flight at once; DefaultConcurrency
	// when 0. Memory held is about Concurrency × PartSize.
	Concurrency int
	// Progress, when set, is called with the bytes done so far and the
	// transfer's size (-1 when unknown: an upload from a stream) after
	// each part (object, range) completes; calls are serialized, from the
	// transfer's goroutines. To stop a transfer from it, cancel ctx.
	Progress func(done, total int64)
	// Input adds members to the input of PutObject or
	// CreateMultipartUpload (ContentType, Metadata, ...) for Upload, and
	// of HeadObject and each GetObject (SSECustomerKey, ...) for Download.
	Input map[string]any
}

func (o Options) withDefaults() Options {
	if o.PartSize <= 0 {
		o.PartSize = DefaultPartSize
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	return o
}

// input is the JSON input of one call: opts.Input, then the members the
// transfer sets itself.
func input(extra map[string]any, kv ...any) ([]byte, error) {
	m := make(map[string]any, len(extra)+len(kv)/2)
	for k, v := range extra {
		m[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("s3transfer: input: %w", err)
	}
	return b, nil
}

// progress adds done bytes and reports the sum, serialized.
type progress struct {
	mu    sync.Mutex
	done  int64
	total int64
	f     func(done, total int64)
}

func (p *progress) add(n int64) {
	if p.f == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.f(p.done, p.total)
}
