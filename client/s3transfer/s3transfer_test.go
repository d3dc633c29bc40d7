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
	"github.com/smithycurl/smithycurl/testing/servers/s3partserver"
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
func newS3(t *testing.T) (*s3partserver.Server, *client.Client) {
	t.Helper()
	m, err := s3Model()
	if err != nil {
		t.Fatal(err)
	}
	f := s3partserver.New()
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
	return Options{PartSize: testPart, Threshold: testPart, Concurrency: 4, Progress: func(n, _ int64) { *done = n }}
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
	f.With(func() {
		if len(f.Uploads) != 0 || len(f.Aborted) != 0 {
			t.Errorf("uploads left %v, aborted %v", f.Uploads, f.Aborted)
		}
	})
}

// A part that fails once (500) is sent again by the client's retries.
func TestUploadPartRetried(t *testing.T) {
	f, c := newS3(t)
	f.With(func() { f.FailPart[2] = 1 })
	var done int64
	out, err := Upload(context.Background(), c, "b", "k", bytes.NewReader(make([]byte, 3*testPart)), testOptions(&done))
	if err != nil {
		t.Fatal(err)
	}
	f.With(func() {
		if out.Parts != 3 || f.Attempts[2] != 2 || f.Attempts[1] != 1 || len(f.Objects["/b/k"].Body) != 3*testPart {
			t.Errorf("%+v, attempts %v", out, f.Attempts)
		}
	})
}

// A cancel while a part is in flight aborts the upload.
func TestUploadCancelAborts(t *testing.T) {
	f, c := newS3(t)
	ctx, cancel := context.WithCancel(context.Background())
	f.With(func() {
		f.OnPart = func(r *http.Request, n int) {
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
	f.With(func() {
		if len(f.Uploads) != 0 || len(f.Aborted) != 1 || len(f.Objects) != 0 {
			t.Errorf("uploads left %v, aborted %v, objects %d", f.Uploads, f.Aborted, len(f.Objects))
		}
	})
}

// A server error on CompleteMultipartUpload (after the client's retries)
// aborts the upload.
func TestUploadCompleteErrorAborts(t *testing.T) {
	f, c := newS3(t)
	f.With(func() { f.FailComplete = true })
	var done int64
	_, err := Upload(context.Background(), c, "b", "k", bytes.NewReader(make([]byte, 2*testPart)), testOptions(&done))
	var e *client.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "CompleteMultipartUpload") || !strings.Contains(err.Error(), "aborted") {
		t.Fatalf("err = %v", err)
	}
	t.Log(err)
	f.With(func() {
		if len(f.Uploads) != 0 || len(f.Aborted) != 1 || len(f.Objects) != 0 {
			t.Errorf("uploads left %v, aborted %v, objects %d", f.Uploads, f.Aborted, len(f.Objects))
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
	f.With(func() {
		f.OnGet = func(*http.Request) {
			f.With(func() {
				f.Objects["/b/k"] = &s3partserver.Object{Body: []byte(strings.Repeat("y", 3*testPart)), ETag: `"other"`}
			})
		}
	})
	if _, err := Download(ctx, c, "b", "k", &memWriterAt{}, o); err == nil || !strings.Contains(err.Error(), "PreconditionFailed") {
		t.Errorf("replaced object: err = %v", err)
	}
	f.With(func() {
		f.OnGet = nil
		f.Objects["/b/k"] = &s3partserver.Object{Body: []byte("abc"), ETag: `"abc"`, CRC: s3partserver.CRC32([]byte("not it"))}
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
	f.With(func() { f.CutGet = 1 })
	var w memWriterAt
	var done int64
	got, err := Download(ctx, c, "b", "k", &w, testOptions(&done))
	if err != nil {
		t.Fatal(err)
	}
	f.With(func() {
		if !bytes.Equal(w.buf, data) || got.Checked != "CRC32" || f.Gets != 4 || done != int64(len(data)) {
			t.Errorf("%+v, equal %v, %d GETs, progress %d", got, bytes.Equal(w.buf, data), f.Gets, done)
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

// sizedReader is a stream (no ReadAt) that knows its size.
type sizedReader struct {
	plainReader
	n int64
}

func (s sizedReader) Size() int64 { return s.n }

// The progress's total is the size when it is known (a reader at offsets,
// a stream with a Size method, a download), -1 for a plain stream; a
// stream of known size is still read in order.
func TestProgressTotals(t *testing.T) {
	_, c := newS3(t)
	ctx := context.Background()
	data := make([]byte, 2*testPart+5)
	for _, tc := range []struct {
		name string
		r    io.Reader
		want int64
	}{
		{"reader at", bytes.NewReader(data), int64(len(data))},
		{"stream", plainReader{bytes.NewReader(data)}, -1},
		{"sized stream", sizedReader{plainReader{bytes.NewReader(data)}, int64(len(data))}, int64(len(data))},
	} {
		var done, total int64
		o := testOptions(&done)
		o.Progress = func(d, tot int64) { done, total = d, tot }
		if _, err := Upload(ctx, c, "b", "k", tc.r, o); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if done != int64(len(data)) || total != tc.want {
			t.Errorf("%s: progress %d of %d, want %d of %d", tc.name, done, total, len(data), tc.want)
		}
	}
	var done, total int64
	o := testOptions(&done)
	o.Progress = func(d, tot int64) { done, total = d, tot }
	if _, err := Download(ctx, c, "b", "k", &memWriterAt{}, o); err != nil || done != int64(len(data)) || total != int64(len(data)) {
		t.Errorf("download: progress %d of %d, %v", done, total, err)
	}
}

// DownloadStream writes the ranges in order though the first comes last:
// its GET is answered only once every range was asked for.
func TestDownloadStreamInOrder(t *testing.T) {
	f, c := newS3(t)
	ctx := context.Background()
	data := make([]byte, 3*testPart+1)
	rand.NewChaCha8([32]byte{4}).Read(data)
	if _, err := Upload(ctx, c, "b", "k", bytes.NewReader(data), Options{Threshold: 8 * testPart}); err != nil {
		t.Fatal(err)
	}
	f.With(func() {
		f.OnGet = func(r *http.Request) {
			if !strings.HasPrefix(r.Header.Get("Range"), "bytes=0-") {
				return
			}
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
				var gets int
				f.With(func() { gets = f.Gets })
				if gets == 4 {
					return
				}
				time.Sleep(time.Millisecond)
			}
		}
	})
	var w bytes.Buffer
	var done int64
	got, err := DownloadStream(ctx, c, "b", "k", &w, testOptions(&done))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), data) || got.Size != int64(len(data)) || got.Checked != "CRC32" || done != int64(len(data)) {
		t.Errorf("%+v, %d bytes (equal %v), progress %d", got, w.Len(), bytes.Equal(w.Bytes(), data), done)
	}
	f.With(func() {
		if f.Gets != 4 {
			t.Errorf("%d GETs", f.Gets)
		}
	})
}

// A writer that fails stops DownloadStream with its error.
func TestDownloadStreamWriteError(t *testing.T) {
	_, c := newS3(t)
	ctx := context.Background()
	if _, err := Upload(ctx, c, "b", "k", bytes.NewReader(make([]byte, 2*testPart)), Options{Threshold: 8 * testPart}); err != nil {
		t.Fatal(err)
	}
	var done int64
	_, err := DownloadStream(ctx, c, "b", "k", failWriter{}, testOptions(&done))
	if err == nil || !strings.Contains(err.Error(), "write: disk full") {
		t.Fatalf("err = %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// readAtRecorder is a reader at offsets that records its largest read.
type readAtRecorder struct {
	*bytes.Reader
	mu  sync.Mutex
	max int
}

func (r *readAtRecorder) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	r.max = max(r.max, len(p))
	r.mu.Unlock()
	return r.Reader.ReadAt(p, off)
}

// Parts of a reader at offsets are streamed from their sections, never
// read whole into a buffer of the part size (memory: not Concurrency ×
// PartSize), and still arrive intact with their CRC32s (the fake checks).
func TestUploadPartsStreamedFromSections(t *testing.T) {
	f, c := newS3(t)
	const part = 1 << 20
	data := make([]byte, 3*part+7)
	rand.NewChaCha8([32]byte{5}).Read(data)
	r := &readAtRecorder{Reader: bytes.NewReader(data)}
	out, err := Upload(context.Background(), c, "b", "k", r, Options{PartSize: part, Threshold: part, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	f.With(func() {
		if out.Parts != 4 || !bytes.Equal(f.Objects["/b/k"].Body, data) {
			t.Errorf("%+v, equal %v", out, bytes.Equal(f.Objects["/b/k"].Body, data))
		}
	})
	if r.max >= part {
		t.Errorf("a read of %d bytes: parts are read whole (part size %d)", r.max, part)
	}
}
