package awse2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// plainReader hides Seek: a body that cannot be rewound.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// S3 PutObject and GetObject against fauxqs: bodies from the document and
// streamed (known and unknown length), with request checksums in headers
// and in an aws-chunked trailer; fauxqs sends no response checksums, so
// the ENABLED validation mode passes them through unchecked.
func TestS3Objects(t *testing.T) {
	emu := Start(t)
	s3 := newClient(t, "../aws-large/s3.json", s3Service, emu.Fauxqs)
	bucket := fmt.Sprintf("smithycurl-objects-%d", time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
	defer call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)

	small := []byte("binary \x00\x01\xff body")
	put := call(t, s3, "PutObject", `{"Bucket": "`+bucket+`", "Key": "doc/a b", "ChecksumAlgorithm": "CRC32",
		"ContentType": "application/x-test", "Metadata": {"colour": "blue"}, "Body": "`+base64.StdEncoding.EncodeToString(small)+`"}`)
	if put["ETag"] == nil {
		t.Errorf("PutObject: %v", put)
	}
	// The metadata key comes back as the service spelled it (x-amz-meta-colour).
	got := call(t, s3, "GetObject", `{"Bucket": "`+bucket+`", "Key": "doc/a b", "ChecksumMode": "ENABLED"}`)
	if got["Body"] != base64.StdEncoding.EncodeToString(small) || fmt.Sprint(got["Metadata"]) != "map[colour:blue]" || got["ContentType"] != "application/x-test" {
		t.Errorf("GetObject into the document: %v", got)
	}

	big := make([]byte, 3<<20+12345)
	rand.NewChaCha8([32]byte{3}).Read(big)
	for _, tc := range []struct {
		key, alg string
		r        io.Reader
		size     int64
	}{
		{"stream/known", "CRC32C", plainReader{bytes.NewReader(big)}, int64(len(big))}, // aws-chunked trailer
		{"stream/unknown", "SHA256", bytes.NewReader(big), -1},                         // header, from a seekable reader
		{"stream/chunked", "", plainReader{bytes.NewReader(big)}, -1},                  // chunked transfer encoding
		{"stream/trailer-chunked", "CRC32", plainReader{bytes.NewReader(big)}, -1},     // both
	} {
		in := `{"Bucket": "` + bucket + `", "Key": "` + tc.key + `"`
		if tc.alg != "" {
			in += `, "ChecksumAlgorithm": "` + tc.alg + `"`
		}
		if _, err := s3.Call(ctx, "PutObject", []byte(in+"}"), client.WithBodyReader(tc.r, tc.size)); err != nil {
			t.Fatalf("PutObject %s: %v", tc.key, err)
		}
		var buf bytes.Buffer
		out, err := s3.Call(ctx, "GetObject", []byte(`{"Bucket": "`+bucket+`", "Key": "`+tc.key+`", "ChecksumMode": "ENABLED"}`), client.WithBodyWriter(&buf))
		if err != nil {
			t.Fatalf("GetObject %s: %v", tc.key, err)
		}
		if !bytes.Equal(buf.Bytes(), big) || strings.Contains(string(out), `"Body"`) {
			t.Errorf("GetObject %s: %d bytes written (equal %v), output %s", tc.key, buf.Len(), bytes.Equal(buf.Bytes(), big), out)
		}
		call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "`+tc.key+`"}`)
	}
	// NoSuchKey, modeled, with a writer that receives nothing.
	var buf bytes.Buffer
	_, err := s3.Call(ctx, "GetObject", []byte(`{"Bucket": "`+bucket+`", "Key": "missing"}`), client.WithBodyWriter(&buf))
	var e *client.Error
	if !errors.As(err, &e) || e.Shape != "com.amazonaws.s3#NoSuchKey" || buf.Len() != 0 {
		t.Errorf("GetObject of a missing key: %v (writer got %d bytes)", err, buf.Len())
	}
	call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "doc/a b"}`)
}
