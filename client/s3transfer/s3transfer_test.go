package s3transfer

import (
	"bytes"
	"context"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

var s3Model = sync.OnceValues(func() (*model.Model, error) {
	d, err := shareddata.Dir()
	if err != nil {
		return nil, err
	}
	return model.LoadPaths(context.Background(), d+"/models/aws-large/s3.json")
})

// newS3 starts a fake S3 on 127.0.0.1 and a client of the S3 model for it.
func newS3(t *testing.T) (*fakeS3, *client.Client) {
	t.Helper()
	m, err := s3Model()
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeS3()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := client.New(m, "com.amazonaws.s3#AmazonS3", srv.URL, client.WithAWSCredentials(client.AWSCredentials{
		AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret", Region: "us-east-1"}),
		client.WithTimeout(20*time.Second), client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 10 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return f, c
}

// memWriterAt is an io.WriterAt into memory.
type memWriterAt struct {
	mu  sync.Mutex
	buf []byte
}

func (m *memWriterAt) WriteAt(p []byte, off int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if end := int(off) + len(p); end > len(m.buf) {
		m.buf = append(m.buf, make([]byte, end-len(m.buf))...)
	}
	return copy(m.buf[off:], p), nil
}

// plainReader hides ReadAt: a stream of unknown size.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

const testPart = 64 << 10

func testOptions(done *int64) Options {
	return Options{PartSize: testPart, Threshold: testPart, Concurrency: 4, Progress: func(n int64) { *done = n }}
}

// Upload and Download of 1 byte (PutObject), exactly one part, and parts
// + 1 byte, from a reader of known size (parts read in parallel) and a
// stream (read in order): the bytes come back, the progress reaches the
// size, no upload is left.
func TestUploadDownload(t *testing.T) {
	f, c := newS3(t)
	ctx := context.Background()
	data := make([]byte, 3*testPart+1)
	rand.NewChaCha8([32]byte{1}).Read(data)
	for _, tc := range []struct {
		name  string
		size  int
		parts int
	}{{"1 byte", 1, 0}, {"one part", testPart, 1}, {"parts+1", 3*testPart + 1, 4}} {
		for _, stream := range []bool{false, true} {
			body := data[:tc.size]
			var r io.Reader = bytes.NewReader(body)
			if stream {
				r = plainReader{r}
			}
			var up, down int64
			out, err := Upload(ctx, c, "b", "k", r, testOptions(&up))
			if err != nil {
				t.Fatalf("%s (stream %v): %v", tc.name, stream, err)
			}
			if out.Parts != tc.parts || out.Size != int64(tc.size) || up != int64(tc.size) || out.ETag == "" || out.ChecksumCRC32 == "" {
				t.Errorf("%s (stream %v): %+v, progress %d", tc.name, stream, out, up)
			}
			var w memWriterAt
			got, err := Download(ctx, c, "b", "k", &w, testOptions(&down))
			if err != nil {
				t.Fatalf("%s download: %v", tc.name, err)
			}
			wantChecked := "CRC32" // the object's own CRC32 after a PutObject, composite after multipart
			if tc.parts > 0 {
				wantChecked = ""
			}
			if !bytes.Equal(w.buf, body) || got.Size != int64(tc.size) || got.ETag != out.ETag || got.Checked != wantChecked || down != int64(tc.size) {
				t.Errorf("%s download: %+v, %d bytes (equal %v), progress %d", tc.name, got, len(w.buf), bytes.Equal(w.buf, body), down)
			}
		}
	}
	f.with(func() {
		if len(f.uploads) != 0 || len(f.aborted) != 0 {
			t.Errorf("uploads left %v, aborted %v", f.uploads, f.aborted)
		}
	})
}

// A part that fails once (500) is sent again by the client's retries.
func TestUploadPartRetried(t *testing.T) {
	f, c := newS3(t)
	f.with(func() { f.failPart[2] = 1 })
	var done int64
	out, err := Upload(context.Background(), c, "b", "k", bytes.NewReader(make([]byte, 3*testPart)), testOptions(&done))
	if err != nil {
		t.Fatal(err)
	}
	f.with(func() {
		if out.Parts != 3 || f.attempts[2] != 2 || f.attempts[1] != 1 || len(f.objects["/b/k"].body) != 3*testPart {
			t.Errorf("%+v, attempts %v", out, f.attempts)
		}
	})
}

// A cancel while a part is in flight aborts the upload.
func TestUploadCancelAborts(t *testing.T) {
	f, c := newS3(t)
	ctx, cancel := context.WithCancel(context.Background())
	f.with(func() {
		f.onPart = func(r *http.Request, n int) {
			if n == 2 {
				cancel()
				<-r.Context().Done() // the client gives up on the part
			}
		}
	})
	_, err := Upload(ctx, c, "b", "k", plainReader{bytes.NewReader(make([]byte, 8*testPart))}, Options{PartSize: testPart, Threshold: testPart, Concurrency: 2})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "aborted") {
		t.Fatalf("err = %v", err)
	}
	t.Log(err)
	f.with(func() {
		if len(f.uploads) != 0 || len(f.aborted) != 1 || len(f.objects) != 0 {
			t.Errorf("uploads left %v, aborted %v, objects %d", f.uploads, f.aborted, len(f.objects))
		}
	})
}

// A server error on CompleteMultipartUpload (after the client's retries)
// aborts the upload.
func TestUploadCompleteErrorAborts(t *testing.T) {
	f, c := newS3(t)
	f.with(func() { f.failComplete = true })
	var done int64
	_, err := Upload(context.Background(), c, "b", "k", bytes.NewReader(make([]byte, 2*testPart)), testOptions(&done))
	var e *client.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "CompleteMultipartUpload") || !strings.Contains(err.Error(), "aborted") {
		t.Fatalf("err = %v", err)
	}
	t.Log(err)
	f.with(func() {
		if len(f.uploads) != 0 || len(f.aborted) != 1 || len(f.objects) != 0 {
			t.Errorf("uploads left %v, aborted %v, objects %d", f.uploads, f.aborted, len(f.objects))
		}
	})
}

// An object replaced during a download fails it (If-Match: 412), and
// bytes that do not match the object's CRC32 fail it too.
func TestDownloadChecks(t *testing.T) {
	f, c := newS3(t)
	ctx := context.Background()
	if _, err := Upload(ctx, c, "b", "k", bytes.NewReader([]byte(strings.Repeat("x", 3*testPart))), Options{Threshold: 4 * testPart}); err != nil {
		t.Fatal(err)
	}
	var done int64
	o := testOptions(&done)
	o.Concurrency = 1
	f.with(func() {
		f.onGet = func(*http.Request) {
			f.with(func() {
				f.objects["/b/k"] = &fakeObject{body: []byte(strings.Repeat("y", 3*testPart)), etag: `"other"`}
			})
		}
	})
	if _, err := Download(ctx, c, "b", "k", &memWriterAt{}, o); err == nil || !strings.Contains(err.Error(), "PreconditionFailed") {
		t.Errorf("replaced object: err = %v", err)
	}
	f.with(func() {
		f.onGet = nil
		f.objects["/b/k"] = &fakeObject{body: []byte("abc"), etag: `"abc"`, crc: crc32b64([]byte("not it"))}
	})
	if _, err := Download(ctx, c, "b", "k", &memWriterAt{}, o); err == nil || !strings.Contains(err.Error(), "the bytes read give") {
		t.Errorf("wrong checksum: err = %v", err)
	}
}

// A range cut off mid-body (the client does not retry once it wrote
// bytes) is fetched again, and the object's CRC32 still matches.
func TestDownloadRangeRefetched(t *testing.T) {
	f, c := newS3(t)
	ctx := context.Background()
	data := make([]byte, 3*testPart)
	rand.NewChaCha8([32]byte{3}).Read(data)
	if _, err := Upload(ctx, c, "b", "k", bytes.NewReader(data), Options{Threshold: 4 * testPart}); err != nil {
		t.Fatal(err)
	}
	f.with(func() { f.cutGet = 1 })
	var w memWriterAt
	var done int64
	got, err := Download(ctx, c, "b", "k", &w, testOptions(&done))
	if err != nil {
		t.Fatal(err)
	}
	f.with(func() {
		if !bytes.Equal(w.buf, data) || got.Checked != "CRC32" || f.gets != 4 || done != int64(len(data)) {
			t.Errorf("%+v, equal %v, %d GETs, progress %d", got, bytes.Equal(w.buf, data), f.gets, done)
		}
	})
}

// Combining the CRCs of pieces gives the CRC of the whole.
func TestCRC32Combine(t *testing.T) {
	data := make([]byte, 10_003)
	rand.NewChaCha8([32]byte{2}).Read(data)
	for _, poly := range []uint32{crc32.IEEE, crc32.Castagnoli} {
		tab := crc32.MakeTable(poly)
		for _, piece := range []int{1, 7, 4096, 10_003} {
			var sum uint32
			for off := 0; off < len(data); off += piece {
				p := data[off:min(off+piece, len(data))]
				sum = crc32Combine(poly, sum, crc32.Checksum(p, tab), int64(len(p)))
			}
			if want := crc32.Checksum(data, tab); sum != want {
				t.Errorf("poly %x, pieces of %d: %x, want %x", poly, piece, sum, want)
			}
		}
	}
}

// The part size grows so that a large object fits in MaxParts.
func TestFitParts(t *testing.T) {
	for _, tc := range []struct{ size, part, want int64 }{
		{MaxParts * DefaultPartSize, DefaultPartSize, DefaultPartSize},
		{MaxParts*DefaultPartSize + 1, DefaultPartSize, DefaultPartSize + 1},
		{5 << 40, DefaultPartSize, (5<<40 + MaxParts - 1) / MaxParts}, // S3's largest object
	} {
		got := fitParts(tc.size, tc.part)
		if got != tc.want || (tc.size+got-1)/got > MaxParts {
			t.Errorf("fitParts(%d, %d) = %d, want %d", tc.size, tc.part, got, tc.want)
		}
	}
}
