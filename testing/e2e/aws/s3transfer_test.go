package awse2e

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client/s3transfer"
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
