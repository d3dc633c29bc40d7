package client_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
)

// A blob payload (S3 GetObject's Body) is data, not a document: an object
// stored with a Content-Encoding comes back as its stored bytes, whatever
// the encoding, as the AWS SDKs return it, with its Content-Encoding as the
// ContentEncoding member; its checksum is the stored bytes'. Documents (an
// XML listing) are still decoded. Found by the differential test of
// responses against botocore (testing/botocore/diff_botocore_responses.py): libcurl
// decoded every response it could, and refused an object stored with an
// encoding it does not know (curl error 61).
func TestBlobPayloadKeepsItsContentEncoding(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("hello, stored gzip object"))
	zw.Close()
	listing := `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name><KeyCount>1</KeyCount>` +
		`<Contents><Key>k</Key></Contents></ListBucketResult>`
	var zippedListing bytes.Buffer
	zw = gzip.NewWriter(&zippedListing)
	zw.Write([]byte(listing))
	zw.Close()

	objects := map[string]struct {
		encoding string
		body     []byte
	}{
		"gz":     {"gzip", zipped.Bytes()},
		"custom": {"x-custom", []byte{0, 1, 2, 'a', 'b', 'c', 0xff}},
	}
	var mu sync.Mutex
	acceptEncoding := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		acceptEncoding[r.URL.Path] = r.Header.Get("Accept-Encoding")
		mu.Unlock()
		if r.URL.Path == "/b" { // ListObjectsV2, answered gzip-encoded
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Type", "application/xml")
			w.Write(zippedListing.Bytes())
			return
		}
		o, ok := objects[r.URL.Path[len("/b/"):]]
		if !ok {
			w.WriteHeader(404)
			return
		}
		sum := binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(o.body))
		w.Header().Set("x-amz-checksum-crc32", base64.StdEncoding.EncodeToString(sum))
		w.Header().Set("Content-Encoding", o.encoding)
		w.Write(o.body)
	}))
	defer srv.Close()
	cl := newS3Client(t, srv.URL)
	ctx := context.Background()
	for key, o := range objects {
		in := []byte(`{"Bucket": "b", "Key": "` + key + `", "ChecksumMode": "ENABLED"}`)
		// the engine's path (asynchronous calls) too
		if out, err := cl.Call(ctx, "GetObject", in, client.ViaEngine()); err != nil ||
			!bytes.Contains(out, []byte(`"Body":"`+base64.StdEncoding.EncodeToString(o.body)+`"`)) {
			t.Errorf("GetObject %s through the engine: %s, %v", key, out, err)
		}
		out, err := cl.Call(ctx, "GetObject", in)
		if err != nil {
			t.Errorf("GetObject %s: %v", key, err)
			continue
		}
		var got struct {
			Body            []byte
			ContentEncoding string
			ChecksumCRC32   string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !bytes.Equal(got.Body, o.body) || got.ContentEncoding != o.encoding || got.ChecksumCRC32 == "" {
			t.Errorf("GetObject %s: body %q, ContentEncoding %q, checksum %q; want the stored %q, %q", key,
				got.Body, got.ContentEncoding, got.ChecksumCRC32, o.body, o.encoding)
		}
		// streamed to a writer: the same bytes
		var w bytes.Buffer
		if _, err := cl.Call(ctx, "GetObject", in, client.WithBodyWriter(&w)); err != nil || !bytes.Equal(w.Bytes(), o.body) {
			t.Errorf("GetObject %s to a writer: %q, %v; want %q", key, w.Bytes(), err, o.body)
		}
		mu.Lock()
		if ae := acceptEncoding["/b/"+key]; ae != "identity" {
			t.Errorf("GetObject %s asked for Accept-Encoding %q, want identity", key, ae)
		}
		mu.Unlock()
	}
	out, err := cl.Call(ctx, "ListObjectsV2", []byte(`{"Bucket": "b"}`))
	if err != nil || !bytes.Contains(out, []byte(`"Key":"k"`)) {
		t.Errorf("ListObjectsV2 (a gzip-encoded document): %s, %v", out, err)
	}
	mu.Lock()
	if ae := acceptEncoding["/b"]; ae == "" || ae == "identity" {
		t.Errorf("ListObjectsV2 asked for Accept-Encoding %q, want the encodings libcurl decodes", ae)
	}
	mu.Unlock()
}
