package awse2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// The S3 flow of a first S3 program, path-style to an explicit endpoint on
// 127.0.0.1 (the endpoint rules keep a bucket in the path for an IP
// endpoint), from Go, the command line and C: a bucket, an object with
// every byte value, metadata and a checksum, read back with its metadata
// as the service spelled it, listed, NoSuchKey for a missing key, deleted.
// The same flow from Python is test_s3_flow in bindings/python/tests/test_aws.py.

// allBytes is a body with each of the 256 byte values once.
func allBytes() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// s3Servers are the S3 emulators the flows run against: s3rver, and fauxqs.
func s3Servers(emu Emulators) []struct{ name, url string } {
	return []struct{ name, url string }{{"s3rver", emu.S3rver}, {"fauxqs", emu.Fauxqs}}
}

func TestS3Flow(t *testing.T) {
	emu := Start(t)
	for _, srv := range s3Servers(emu) {
		t.Run(srv.name, func(t *testing.T) {
			s3 := newClient(t, "../aws-large/s3.json", s3Service, srv.url)
			bucket := fmt.Sprintf("smithycurl-flow-%d", time.Now().UnixNano())
			body := base64.StdEncoding.EncodeToString(allBytes())
			meta := map[string]any{"colour": "blue", "owner-id": "a b&c"}
			call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
			put := call(t, s3, "PutObject", `{"Bucket": "`+bucket+`", "Key": "dir/all bytes.bin", "ChecksumAlgorithm": "SHA256",
				"ContentType": "application/octet-stream", "Metadata": {"colour": "blue", "owner-id": "a b&c"}, "Body": "`+body+`"}`)
			etag, _ := put["ETag"].(string)
			if etag == "" {
				t.Errorf("PutObject: %v", put)
			}
			head := call(t, s3, "HeadObject", `{"Bucket": "`+bucket+`", "Key": "dir/all bytes.bin"}`)
			if head["ContentLength"] != float64(256) || head["ETag"] != etag || !reflect.DeepEqual(head["Metadata"], meta) {
				t.Errorf("HeadObject: %v", head)
			}
			got := call(t, s3, "GetObject", `{"Bucket": "`+bucket+`", "Key": "dir/all bytes.bin", "ChecksumMode": "ENABLED"}`)
			if got["Body"] != body || got["ETag"] != etag || !reflect.DeepEqual(got["Metadata"], meta) {
				t.Errorf("GetObject: %v", got)
			}
			list := call(t, s3, "ListObjectsV2", `{"Bucket": "`+bucket+`", "Prefix": "dir/"}`)
			if list["KeyCount"] != float64(1) || get(list, "Contents", 0, "Key") != "dir/all bytes.bin" ||
				get(list, "Contents", 0, "Size") != float64(256) || get(list, "Contents", 0, "ETag") != etag {
				t.Errorf("ListObjectsV2: %v", list)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := s3.Call(ctx, "GetObject", []byte(`{"Bucket": "`+bucket+`", "Key": "dir/missing"}`))
			var e *client.Error
			if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != "com.amazonaws.s3#NoSuchKey" ||
				e.Status != 404 || e.Code != "NoSuchKey" {
				t.Errorf("GetObject of a missing key: %#v", err)
			} else if !strings.Contains(e.Message(), "does not exist") {
				t.Errorf("NoSuchKey's message is not the service's: %q", e.Message()) // NoSuchKey has no message member
			}
			call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "dir/all bytes.bin"}`)
			if list := call(t, s3, "ListObjectsV2", `{"Bucket": "`+bucket+`"}`); list["KeyCount"] != float64(0) {
				t.Errorf("ListObjectsV2 after DeleteObject: %v", list)
			}
			call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
		})
	}
}

// The S3 flow from the command line: bodies in the document and to a file
// (--body-out), NoSuchKey on stdout with exit code 1.
func TestS3FlowFromTheCommandLine(t *testing.T) {
	emu := Start(t)
	for _, srv := range s3Servers(emu) {
		t.Run(srv.name, func(t *testing.T) {
			run := cli(t, shareddata.Path(t, "models", "aws-large", "s3.json"), srv.url)
			bucket := fmt.Sprintf("smithycurl-cli-%d", time.Now().UnixNano())
			body := base64.StdEncoding.EncodeToString(allBytes())
			if out, code := run("CreateBucket", `{"Bucket": "`+bucket+`"}`); code != 0 {
				t.Fatalf("CreateBucket: exit %d: %s", code, out)
			}
			out, code := run("PutObject", `{"Bucket": "`+bucket+`", "Key": "k", "ChecksumAlgorithm": "CRC32",
				"Metadata": {"colour": "blue"}, "Body": "`+body+`"}`)
			var put struct{ ETag string }
			if code != 0 || json.Unmarshal([]byte(out), &put) != nil || put.ETag == "" {
				t.Fatalf("PutObject: exit %d: %s", code, out)
			}
			type object struct {
				ContentLength int
				ETag, Body    string
				Metadata      map[string]string
			}
			var head object
			out, code = run("HeadObject", `{"Bucket": "`+bucket+`", "Key": "k"}`)
			if code != 0 || json.Unmarshal([]byte(out), &head) != nil || head.ContentLength != 256 || head.ETag != put.ETag ||
				!reflect.DeepEqual(head.Metadata, map[string]string{"colour": "blue"}) {
				t.Errorf("HeadObject: exit %d: %s", code, out)
			}
			var got object
			out, code = run("GetObject", `{"Bucket": "`+bucket+`", "Key": "k"}`)
			if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Body != body || got.Metadata["colour"] != "blue" {
				t.Errorf("GetObject: exit %d: %s", code, out)
			}
			file := filepath.Join(t.TempDir(), "object")
			out, code = run("GetObject", `{"Bucket": "`+bucket+`", "Key": "k", "ChecksumMode": "ENABLED"}`, "--body-out", file)
			if data, err := os.ReadFile(file); code != 0 || err != nil || string(data) != string(allBytes()) || strings.Contains(out, `"Body"`) {
				t.Errorf("GetObject --body-out: exit %d: %s (file: %d bytes, %v)", code, out, len(data), err)
			}
			out, code = run("ListObjectsV2", `{"Bucket": "`+bucket+`"}`)
			var list struct {
				KeyCount int
				Contents []struct {
					Key  string
					Size int
				}
			}
			if code != 0 || json.Unmarshal([]byte(out), &list) != nil || list.KeyCount != 1 || list.Contents[0].Key != "k" || list.Contents[0].Size != 256 {
				t.Errorf("ListObjectsV2: exit %d: %s", code, out)
			}
			out, code = run("GetObject", `{"Bucket": "`+bucket+`", "Key": "missing"}`)
			var e struct {
				Error  string
				Status int
			}
			if code != 1 || json.Unmarshal([]byte(out), &e) != nil || e.Error != "com.amazonaws.s3#NoSuchKey" || e.Status != 404 {
				t.Errorf("GetObject of a missing key: exit %d: %s", code, out)
			}
			for _, op := range []struct{ name, in string }{{"DeleteObject", `{"Bucket": "` + bucket + `", "Key": "k"}`},
				{"DeleteBucket", `{"Bucket": "` + bucket + `"}`}} {
				if out, code := run(op.name, op.in); code != 0 {
					t.Errorf("%s: exit %d: %s", op.name, code, out)
				}
			}
		})
	}
}

// The S3 flow from C: examples/c/s3.c, built by make examples.
func TestS3FlowFromC(t *testing.T) {
	emu := Start(t)
	bin := artifact(t, filepath.Join("build", "examples", "s3"))
	for _, srv := range s3Servers(emu) {
		t.Run(srv.name, func(t *testing.T) {
			bucket := fmt.Sprintf("smithycurl-c-%d", time.Now().UnixNano())
			cmd := exec.Command(bin, srv.url, shareddata.Path(t, "models", "aws-large", "s3.json"), bucket)
			cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+Credentials.AccessKeyID,
				"AWS_SECRET_ACCESS_KEY="+Credentials.SecretAccessKey, "AWS_REGION="+Credentials.Region)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("examples/c/s3: %v\n%s", err, out)
			}
			for _, want := range []string{"CreateBucket: {", `PutObject: {"ETag":"`, `"Metadata":{"colour":"blue"}`,
				"GetObject: 256 bytes, every byte value in order", `"Contents":[{"Key":"dir/all bytes.bin",`, `"Size":256`,
				"GetObject dir/missing: service error, HTTP 404, com.amazonaws.s3#NoSuchKey (code NoSuchKey)",
				"DeleteObject: {}", "DeleteBucket: {}"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// An endpoint with a host name (localhost) gets virtual-host URLs from the
// rules (bucket.localhost); ForcePathStyle keeps the bucket in the path,
// which s3rver (no virtual hosts) needs.
func TestS3ForcePathStyle(t *testing.T) {
	emu := Start(t)
	endpoint := strings.Replace(emu.S3rver, "127.0.0.1", "localhost", 1)
	s3, err := client.New(loadModel(t, "../aws-large/s3.json"), s3Service, endpoint, client.WithAWSCredentials(Credentials),
		client.WithTimeout(20*time.Second), client.WithEndpointParams(map[string]any{"ForcePathStyle": true}))
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	bucket := fmt.Sprintf("smithycurl-path-%d", time.Now().UnixNano())
	call(t, s3, "CreateBucket", `{"Bucket": "`+bucket+`"}`)
	call(t, s3, "PutObject", `{"Bucket": "`+bucket+`", "Key": "k", "Body": "aGk="}`)
	if got := call(t, s3, "GetObject", `{"Bucket": "`+bucket+`", "Key": "k"}`); got["Body"] != "aGk=" {
		t.Errorf("GetObject: %v", got)
	}
	if list := call(t, s3, "ListObjectsV2", `{"Bucket": "`+bucket+`"}`); list["Name"] != bucket || list["KeyCount"] != float64(1) {
		t.Errorf("ListObjectsV2: %v", list)
	}
	call(t, s3, "DeleteObject", `{"Bucket": "`+bucket+`", "Key": "k"}`)
	call(t, s3, "DeleteBucket", `{"Bucket": "`+bucket+`"}`)
}
