package awse2e

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

const s3Service = "com.amazonaws.s3#AmazonS3"

// S3 (restXml, path-style to the endpoint) against fauxqs: the operations
// without a streaming body (PutObject and GetObject: s3stream_test.go).
func TestS3(t *testing.T) {
	emu := Start(t)
	s3 := newClient(t, "../aws-large/s3.json", s3Service, emu.Fauxqs)
	bucket := fmt.Sprintf("smithycurl-e2e-%d", time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
	call(t, s3, "HeadBucket", `{"Bucket": "`+bucket+`"}`)
	found := false
	out := call(t, s3, "ListBuckets", `{}`)
	for i := 0; get(out, "Buckets", i) != nil; i++ {
		found = found || get(out, "Buckets", i, "Name") == bucket
	}
	if !found {
		t.Errorf("ListBuckets does not list %s: %v", bucket, out)
	}
	list := call(t, s3, "ListObjectsV2", `{"Bucket": "`+bucket+`", "Prefix": "a/"}`)
	if list["Name"] != bucket || list["KeyCount"] != float64(0) || list["IsTruncated"] != false {
		t.Errorf("ListObjectsV2: %v", list)
	}
	// An XML request body with Content-MD5 (httpChecksum requestChecksumRequired).
	del := call(t, s3, "DeleteObjects", `{"Bucket": "`+bucket+`", "Delete": {"Objects": [{"Key": "a&b <c>"}, {"Key": "../d"}]}}`)
	if get(del, "Deleted", 0, "Key") != "a&b <c>" || get(del, "Deleted", 1, "Key") != "../d" {
		t.Errorf("DeleteObjects: %v", del)
	}
	// HEAD errors have no body: NotFound by status.
	_, err := s3.Call(ctx, "HeadObject", []byte(`{"Bucket": "`+bucket+`", "Key": "missing"}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != "com.amazonaws.s3#NotFound" || e.Status != 404 {
		t.Errorf("HeadObject of a missing key: %#v", err)
	}
	// S3's unwrapped <Error> envelope: the code and message are read.
	_, err = s3.Call(ctx, "CopyObject", []byte(`{"Bucket": "`+bucket+`", "Key": "x", "CopySource": "`+bucket+`/missing"}`))
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Code != "NoSuchKey" || e.Status != 404 {
		t.Errorf("CopyObject of a missing key: %#v", err)
	}
	call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
}
