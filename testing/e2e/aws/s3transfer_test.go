package awse2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/s3transfer"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// The transfer manager against s3rver with S3's smallest part (5 MiB):
// 1 byte (one PutObject), exactly one part, two parts + 1 byte; each
// downloaded back in ranges. The failures are TestS3TransferFaults (and
// the fake of testing/servers/s3partserver, which also lists uploads:
// s3rver answers ListMultipartUploads 501). Not fauxqs: its
// CompleteMultipartUpload reads the parts with a regex that allows only
// PartNumber and ETag in a Part, so the parts' checksums (as the SDKs send
// them) make it see none.
func TestS3Transfer(t *testing.T) {
	emu := Start(t)
	const part = 5 << 20
	data := make([]byte, 2*part+1)
	rand.NewChaCha8([32]byte{7}).Read(data)
	s3 := newClient(t, "../aws-large/s3.json", s3Service, emu.S3rver)
	bucket := fmt.Sprintf("smithycurl-transfer-%d", time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
	defer call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
	opts := s3transfer.Options{PartSize: part, Threshold: part, Concurrency: 3}
	for _, tc := range []struct {
		size, parts int
	}{{1, 0}, {part, 1}, {2*part + 1, 3}} {
		key := fmt.Sprintf("obj-%d", tc.size)
		body := data[:tc.size]
		up, err := s3transfer.Upload(ctx, s3, bucket, key, bytes.NewReader(body), opts)
		if err != nil {
			t.Fatalf("upload %d bytes: %v", tc.size, err)
		}
		if up.Parts != tc.parts || up.Size != int64(tc.size) {
			t.Errorf("upload %d bytes: %+v", tc.size, up)
		}
		f, err := os.Create(filepath.Join(t.TempDir(), key))
		if err != nil {
			t.Fatal(err)
		}
		down, err := s3transfer.Download(ctx, s3, bucket, key, f, s3transfer.Options{PartSize: 4 << 20})
		f.Close()
		if err != nil {
			t.Fatalf("download %d bytes: %v", tc.size, err)
		}
		got, err := os.ReadFile(f.Name())
		if err != nil || !bytes.Equal(got, body) || down.Size != int64(tc.size) {
			t.Errorf("download %d bytes: %+v, %d bytes, equal %v, %v", tc.size, down, len(got), bytes.Equal(got, body), err)
		}
		t.Logf("%d bytes: upload %+v, download %+v", tc.size, up, down)
		call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "`+key+`"}`)
	}
}

// smithycurl s3 cp, up in three parts and back in three ranges, into a
// file and to stdout, against s3rver; a missing file is a usage error
// (exit 2).
func TestS3CpFromTheCommandLine(t *testing.T) {
	emu := Start(t)
	run := cliRun(t)
	s3 := newClient(t, "../aws-large/s3.json", s3Service, emu.S3rver)
	bucket := fmt.Sprintf("smithycurl-cp-%d", time.Now().UnixNano())
	call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
	defer call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
	defer call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "dir/big"}`)
	dir := t.TempDir()
	data := make([]byte, 2*(5<<20)+1)
	rand.NewChaCha8([32]byte{8}).Read(data)
	src, dst := filepath.Join(dir, "big"), filepath.Join(dir, "copy")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	common := []string{"--model", shareddata.Path(t, "models", "aws-large", "s3.json"), "--endpoint", emu.S3rver, "--part-size", "5242880", "--threshold", "5242880"}
	out, code := run(append([]string{"s3", "cp", src, "s3://" + bucket + "/dir/big"}, common...)...)
	if code != 0 || !strings.Contains(out, `"Parts":3`) || !strings.Contains(out, `"Size":10485761`) {
		t.Fatalf("s3 cp up: exit %d: %s", code, out)
	}
	out, code = run(append([]string{"s3", "cp", "s3://" + bucket + "/dir/big", dst}, common...)...)
	if got, err := os.ReadFile(dst); code != 0 || err != nil || !bytes.Equal(got, data) || !strings.Contains(out, `"Size":10485761`) {
		t.Fatalf("s3 cp down: exit %d: %s (%d bytes, %v)", code, out, len(got), err)
	}
	// To stdout, in order.
	out, code = run(append([]string{"s3", "cp", "s3://" + bucket + "/dir/big", "-"}, common...)...)
	if code != 0 || out != string(data) {
		t.Fatalf("s3 cp to stdout: exit %d, %d bytes, equal %v", code, len(out), out == string(data))
	}
	if out, code := run(append([]string{"s3", "cp", filepath.Join(dir, "missing"), "s3://" + bucket + "/x"}, common...)...); code != 2 {
		t.Errorf("a missing file: exit %d: %s", code, out)
	}
}

// faultProxy stands in front of an emulator and fails some requests of a
// multipart upload: the first attempt of part failPart (500), every
// CompleteMultipartUpload when failComplete, and holds part hangPart until
// the client gives up on it. It records the upload id the parts carry.
type faultProxy struct {
	next               http.Handler
	failPart, hangPart string
	failComplete       bool
	mu                 sync.Mutex
	failed             bool
	uploadID           string
	partAttempts       map[string]int
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if id := q.Get("uploadId"); id != "" {
		p.mu.Lock()
		p.uploadID = id
		part := q.Get("partNumber")
		p.partAttempts[part]++
		fail := part != "" && part == p.failPart && !p.failed
		if fail {
			p.failed = true
		}
		p.mu.Unlock()
		switch {
		case fail, r.Method == http.MethodPost && p.failComplete:
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, "<Error><Code>InternalError</Code><Message>fault proxy</Message></Error>")
			return
		case part != "" && part == p.hangPart:
			select {
			case <-r.Context().Done():
			case <-time.After(30 * time.Second):
			}
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
	}
	p.next.ServeHTTP(w, r)
}

func newFaultProxy(t *testing.T, target string) (*faultProxy, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ErrorLog = log.New(io.Discard, "", 0) // the requests the client gives up on
	p := &faultProxy{next: rp, partAttempts: map[string]int{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

// The failures of a multipart upload on the emulators, through a proxy
// that injects them: on s3rver a part that fails once is sent again and
// the object comes back whole; on fauxqs (which s3rver is not: it has no
// AbortMultipartUpload) a server error on CompleteMultipartUpload and a
// cancel while a part is in flight abort the upload, which a second
// AbortMultipartUpload of it then finds gone (NoSuchUpload): nothing left
// behind. (Neither emulator lists uploads; fauxqs cannot complete an
// upload whose parts carry checksums.)
func TestS3TransferFaults(t *testing.T) {
	emu := Start(t)
	const part = 5 << 20
	data := make([]byte, 2*part+1)
	rand.NewChaCha8([32]byte{9}).Read(data)
	opts := s3transfer.Options{PartSize: part, Threshold: part, Concurrency: 2}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	t.Run("s3rver part retried", func(t *testing.T) {
		p, proxied := newFaultProxy(t, emu.S3rver)
		p.failPart = "2"
		s3 := newClient(t, "../aws-large/s3.json", s3Service, proxied)
		bucket := fmt.Sprintf("smithycurl-faults-%d", time.Now().UnixNano())
		call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
		defer call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
		defer call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "k"}`)
		up, err := s3transfer.Upload(ctx, s3, bucket, "k", bytes.NewReader(data), opts)
		if err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		if _, err := s3transfer.DownloadStream(ctx, s3, bucket, "k", &w, opts); err != nil || !bytes.Equal(w.Bytes(), data) {
			t.Fatalf("download: %v (equal %v)", err, bytes.Equal(w.Bytes(), data))
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if up.Parts != 3 || p.partAttempts["2"] != 2 || p.partAttempts["1"] != 1 {
			t.Errorf("%+v, attempts %v", up, p.partAttempts)
		}
	})

	gone := func(t *testing.T, s3 *client.Client, bucket string, p *faultProxy) {
		t.Helper()
		p.mu.Lock()
		id := p.uploadID
		p.mu.Unlock()
		_, err := s3.Call(ctx, "AbortMultipartUpload", []byte(`{"Bucket": "`+bucket+`", "Key": "k", "UploadId": "`+id+`"}`))
		var ce *client.Error
		if id == "" || !errors.As(err, &ce) || ce.Code != "NoSuchUpload" {
			t.Errorf("upload %q: a second abort gives %v, want NoSuchUpload (the first removed it)", id, err)
		}
	}
	for _, tc := range []struct {
		name   string
		set    func(p *faultProxy)
		cancel bool
		want   string
	}{
		{"fauxqs error on Complete", func(p *faultProxy) { p.failComplete = true }, false, "InternalError"},
		{"fauxqs cancel mid-upload", func(p *faultProxy) { p.hangPart = "3" }, true, "context canceled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, proxied := newFaultProxy(t, emu.Fauxqs)
			tc.set(p)
			s3 := newClient(t, "../aws-large/s3.json", s3Service, proxied)
			bucket := fmt.Sprintf("smithycurl-faults-%d", time.Now().UnixNano())
			call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
			defer call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
			uctx, ucancel := context.WithCancel(ctx)
			defer ucancel()
			o := opts
			if tc.cancel {
				o.Progress = func(int64, int64) { ucancel() } // after the first part
			}
			_, err := s3transfer.Upload(uctx, s3, bucket, "k", bytes.NewReader(data), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "aborted)") {
				t.Fatalf("err = %v, want %q and the upload aborted", err, tc.want)
			}
			gone(t, s3, bucket, p)
		})
	}
}
