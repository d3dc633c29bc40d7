package awse2e

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/transport"
)

// TestS3DefaultChecksums: against s3rver, PutObject carries the CRC32 of its
// body by default (issue 26, item 5) and none under when_required, the
// caller's checksum is sent as given, and GetObject asks for the response's
// checksum (x-amz-checksum-mode: ENABLED; s3rver sends none, so the object
// comes back unchecked and whole). The headers are those the transport sent
// (WithTrace).
func TestS3DefaultChecksums(t *testing.T) {
	emu := Start(t)
	body := []byte("checksummed by default")
	want := base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(body)))
	bucket := fmt.Sprintf("smithycurl-checksums-%d", time.Now().UnixNano())
	for _, tc := range []struct {
		name        string
		opts        []client.Option
		input       string
		crc, alg    string // sent
		mode        string // GetObject's x-amz-checksum-mode
		createFirst bool
	}{
		{"when_supported", nil, `"Body": "` + base64.StdEncoding.EncodeToString(body) + `"`, want, "CRC32", "ENABLED", true},
		{"when_required", []client.Option{client.WithRequestChecksumCalculation(client.ChecksumWhenRequired),
			client.WithResponseChecksumValidation(client.ChecksumWhenRequired)},
			`"Body": "` + base64.StdEncoding.EncodeToString(body) + `"`, "", "", "", false},
		{"caller's value", nil, `"ChecksumCRC32": "` + want + `", "Body": "` + base64.StdEncoding.EncodeToString(body) + `"`, want, "", "ENABLED", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var sent []transport.TraceEvent
			trace := client.WithTrace(func(e transport.TraceEvent) {
				if e.Phase == transport.TraceRequest {
					mu.Lock()
					sent = append(sent, e)
					mu.Unlock()
				}
			})
			opts := append([]client.Option{client.WithAWSCredentials(Credentials), client.WithTimeout(20 * time.Second), trace}, tc.opts...)
			s3, err := client.New(loadModel(t, "../aws-large/s3.json"), s3Service, emu.S3rver, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer s3.Close()
			if tc.createFirst {
				call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
			}
			call(t, s3, "PutObject", `{"Bucket": "`+bucket+`", "Key": "k", `+tc.input+`}`)
			got := call(t, s3, "GetObject", `{"Bucket": "`+bucket+`", "Key": "k"}`)
			if got["Body"] != base64.StdEncoding.EncodeToString(body) {
				t.Errorf("GetObject: %v", got)
			}
			mu.Lock()
			defer mu.Unlock()
			put, get := sent[len(sent)-2].Header, sent[len(sent)-1].Header
			if g := [2]string{put.Get("X-Amz-Checksum-Crc32"), put.Get("X-Amz-Sdk-Checksum-Algorithm")}; g != [2]string{tc.crc, tc.alg} {
				t.Errorf("PutObject sent x-amz-checksum-crc32, x-amz-sdk-checksum-algorithm %q, want %q", g, [2]string{tc.crc, tc.alg})
			}
			if g := get.Get("X-Amz-Checksum-Mode"); g != tc.mode {
				t.Errorf("GetObject sent x-amz-checksum-mode %q, want %q", g, tc.mode)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s3 := newClient(t, "../aws-large/s3.json", s3Service, emu.S3rver)
	s3.Call(ctx, "DeleteObject", []byte(`{"Bucket": "`+bucket+`", "Key": "k"}`))
	s3.Call(ctx, "DeleteBucket", []byte(`{"Bucket": "`+bucket+`"}`))
}
