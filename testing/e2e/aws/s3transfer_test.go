package awse2e

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client/s3transfer"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// The transfer manager against s3rver with S3's smallest part (5 MiB):
// 1 byte (one PutObject), exactly one part, two parts + 1 byte; each
// downloaded back in ranges. The failures (a part retried, a cancel, an
// error on Complete, nothing left behind) are tested on the fake of
// client/s3transfer, which can fail on demand: s3rver answers
// ListMultipartUploads 501. Not fauxqs: its CompleteMultipartUpload reads
// the parts with a regex that allows only PartNumber and ETag in a Part,
// so the parts' checksums (as the SDKs send them) make it see none.
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

// smithycurl s3 cp, up in three parts and back in three ranges, against
// s3rver; a missing file is a usage error (exit 2).
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
	if out, code := run(append([]string{"s3", "cp", filepath.Join(dir, "missing"), "s3://" + bucket + "/x"}, common...)...); code != 2 {
		t.Errorf("a missing file: exit %d: %s", code, out)
	}
}
