package client_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// Blob payloads given and taken as bytes beside the document
// (WithPayload, WithPayloadOutput), streaming members or not, against the
// document form's base64.

const payloadModel = `$version: "2"
namespace t
use aws.protocols#restJson1
use aws.protocols#httpChecksum

@restJson1
service P { operations: [PutData, GetData, PutStream, GetStream, Ping] }

@streaming
blob Stream

enum Mode { ENABLED }

@idempotent
@http(method: "PUT", uri: "/d/{Key}")
operation PutData {
    input := {
        @required @httpLabel Key: String
        @httpPayload Data: Blob
    }
    output := { @httpHeader("x-size") Size: Long, @httpHeader("x-type") Type: String }
}

@readonly
@http(method: "GET", uri: "/d/{Key}")
@httpChecksum(requestValidationModeMember: "Mode", responseAlgorithms: ["CRC32"])
operation GetData {
    input := { @required @httpLabel Key: String, @httpHeader("x-amz-checksum-mode") Mode: Mode }
    output := { @httpHeader("x-size") Size: Long, @httpPayload Data: Blob }
}

@idempotent
@http(method: "PUT", uri: "/s/{Key}")
operation PutStream {
    input := {
        @required @httpLabel Key: String
        @httpPayload Body: Stream
    }
    output := { @httpHeader("x-size") Size: Long, @httpHeader("x-type") Type: String }
}

@readonly
@http(method: "GET", uri: "/s/{Key}")
operation GetStream {
    input := { @required @httpLabel Key: String }
    output := { @httpHeader("x-size") Size: Long, @httpPayload Body: Stream }
}

@readonly
@http(method: "GET", uri: "/ping")
operation Ping {}
`

// slotServer keeps the last body PUT in one buffer allocated once, so
// that the allocations of a call are the client's. GET answers it with its
// CRC32; GET of key "missing" is a 404; the first PUT of a key starting
// with "503" is a 503.
type slotServer struct {
	mu     sync.Mutex
	slot   []byte
	n      int
	puts   int
	failed map[string]bool
}

func (s *slotServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case "PUT":
		s.puts++
		n, err := io.ReadFull(r.Body, s.slot[:r.ContentLength])
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		if strings.HasPrefix(key, "503") && !s.failed[key] {
			s.failed[key] = true
			w.WriteHeader(503)
			return
		}
		s.n = n
		w.Header().Set("x-size", strconv.Itoa(n))
		w.Header().Set("x-type", r.Header.Get("Content-Type"))
	case "GET":
		if key == "missing" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			io.WriteString(w, `{"message": "no such key"}`)
			return
		}
		body := s.slot[:s.n]
		w.Header().Set("x-size", strconv.Itoa(s.n))
		w.Header().Set("x-amz-checksum-crc32", base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(body))))
		w.Header().Set("Content-Length", strconv.Itoa(s.n))
		w.Write(body)
	}
}

func newPayloadClient(t *testing.T, size int) (*slotServer, *client.Client) {
	t.Helper()
	s := &slotServer{slot: make([]byte, size), failed: map[string]bool{}}
	mux := http.NewServeMux()
	mux.Handle("/d/{key}", s)
	mux.Handle("/s/{key}", s)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := client.New(loadIDL(t, payloadModel), "t#P", srv.URL,
		client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 5 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, c
}

// arbitrary is n bytes of every value, then random ones.
func arbitrary(n int) []byte {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{7}).Read(b)
	for i := 0; i < 256 && i < n; i++ {
		b[i] = byte(i)
	}
	return b
}

// TestPayloadBytesRoundTrip: 1 MiB of arbitrary bytes goes up and comes
// back byte for byte, as bytes beside the document and as base64 in it,
// through a blob payload and a streaming one; the documents leave the
// member out when it is given as bytes.
func TestPayloadBytesRoundTrip(t *testing.T) {
	const size = 1 << 20
	_, c := newPayloadClient(t, size)
	ctx := context.Background()
	data := arbitrary(size)
	for _, ops := range [][3]string{{"PutData", "GetData", "Data"}, {"PutStream", "GetStream", "Body"}} {
		put, get, member := ops[0], ops[1], ops[2]
		t.Run(put+"/bytes", func(t *testing.T) {
			out, err := c.Call(ctx, put, []byte(`{"Key": "k"}`), client.WithPayload(data))
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"Size":1048576,"Type":"application/octet-stream"}`; string(out) != want {
				t.Fatalf("%s: %s, want %s", put, out, want)
			}
			var body []byte
			out, err = c.Call(ctx, get, []byte(`{"Key": "k"}`), client.WithPayloadOutput(&body))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != `{"Size":1048576}` || !bytes.Equal(body, data) {
				t.Fatalf("%s: %s and %d bytes (equal: %v)", get, out, len(body), bytes.Equal(body, data))
			}
		})
		t.Run(put+"/document", func(t *testing.T) {
			in := `{"Key": "k", "` + member + `": "` + base64.StdEncoding.EncodeToString(data) + `"}`
			if _, err := c.Call(ctx, put, []byte(in)); err != nil {
				t.Fatal(err)
			}
			out, err := c.Call(ctx, get, []byte(`{"Key": "k"}`))
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			got, err := base64.StdEncoding.DecodeString(doc[member].(string))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%s: %d bytes back (%v), equal: %v", get, len(got), err, bytes.Equal(got, data))
			}
		})
	}
	t.Run("empty", func(t *testing.T) {
		if _, err := c.Call(ctx, "PutData", []byte(`{"Key": "k"}`), client.WithPayload(nil)); err != nil {
			t.Fatal(err)
		}
		var body []byte
		if _, err := c.Call(ctx, "GetData", []byte(`{"Key": "k"}`), client.WithPayloadOutput(&body)); err != nil || body == nil || len(body) != 0 {
			t.Fatalf("GetData: %v, %d bytes (nil: %v)", err, len(body), body == nil)
		}
	})
}

// TestPayloadBytesRetried: a retry sends the same bytes again.
func TestPayloadBytesRetried(t *testing.T) {
	s, c := newPayloadClient(t, 1<<16)
	data := arbitrary(1 << 16)
	if _, err := c.Call(context.Background(), "PutData", []byte(`{"Key": "503-once"}`), client.WithPayload(data)); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.puts != 2 || !bytes.Equal(s.slot[:s.n], data) {
		t.Fatalf("%d attempts, %d bytes stored (equal: %v)", s.puts, s.n, bytes.Equal(s.slot[:s.n], data))
	}
}

// TestPayloadBytesUsage: bytes for an operation without a blob payload, or
// given twice, are usage errors, nothing sent; an error response leaves
// the caller's slice alone.
func TestPayloadBytesUsage(t *testing.T) {
	_, c := newPayloadClient(t, 16)
	ctx := context.Background()
	for _, tc := range []struct {
		op, input string
		opts      []client.CallOption
		want      string
	}{
		{"Ping", `{}`, []client.CallOption{client.WithPayload([]byte("x"))}, "operation Ping has no blob input payload"},
		{"Ping", `{}`, []client.CallOption{client.WithPayloadOutput(new([]byte))}, "operation Ping has no blob output payload"},
		{"PutData", `{"Key": "k", "Data": "eA=="}`, []client.CallOption{client.WithPayload([]byte("x"))}, "given both in the input and as payload bytes"},
		{"PutStream", `{"Key": "k"}`, []client.CallOption{client.WithPayload([]byte("x")), client.WithBodyReader(strings.NewReader("x"), 1)}, "WithPayload and WithBodyReader both"},
		{"GetStream", `{"Key": "k"}`, []client.CallOption{client.WithPayloadOutput(new([]byte)), client.WithBodyWriter(io.Discard)}, "WithPayloadOutput and WithBodyWriter both"},
	} {
		_, err := c.Call(ctx, tc.op, []byte(tc.input), tc.opts...)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want a usage error saying %q", tc.op, tc.input, err, tc.want)
		}
	}
	body := []byte("kept")
	if _, err := c.Call(ctx, "GetData", []byte(`{"Key": "missing"}`), client.WithPayloadOutput(&body)); err == nil || string(body) != "kept" {
		t.Fatalf("GetData of a missing key: %v, body %q", err, body)
	}
}

// TestPayloadAllocations bounds the bytes a 1 MiB call allocates (the
// whole process: the server keeps its body in one buffer): bytes beside
// the document are sent without a copy and the response body is the one
// copy out of libcurl's buffer; base64 in the document is decoded straight
// into the body, and the output document is the response's one encoding.
// Each copy more of the megabyte fails it.
func TestPayloadAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocations")
	}
	const size = 1 << 20
	_, c := newPayloadClient(t, size)
	ctx := context.Background()
	data := arbitrary(size)
	doc := []byte(`{"Key": "k", "Data": "` + base64.StdEncoding.EncodeToString(data) + `"}`)
	key := []byte(`{"Key": "k"}`)
	var body []byte
	const slack = 96 << 10 // headers, the plan, net/http's per-request buffers
	for _, tc := range []struct {
		name string
		max  int
		call func() error
	}{
		{"PutData bytes", slack, func() error {
			_, err := c.Call(ctx, "PutData", key, client.WithPayload(data))
			return err
		}},
		{"GetData bytes", size + slack, func() error {
			_, err := c.Call(ctx, "GetData", key, client.WithPayloadOutput(&body))
			return err
		}},
		{"PutData document", size + slack, func() error {
			_, err := c.Call(ctx, "PutData", doc)
			return err
		}},
		{"GetData document", size + base64.StdEncoding.EncodedLen(size) + slack, func() error {
			_, err := c.Call(ctx, "GetData", key)
			return err
		}},
	} {
		if err := tc.call(); err != nil { // warm: connection, plans
			t.Fatalf("%s: %v", tc.name, err)
		}
		const n = 4
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < n; i++ {
			if err := tc.call(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		runtime.ReadMemStats(&after)
		if got := int(after.TotalAlloc-before.TotalAlloc) / n; got > tc.max {
			t.Errorf("%s: %d bytes allocated per call, more than %d", tc.name, got, tc.max)
		} else {
			t.Logf("%s: %d bytes allocated per call (bound %d)", tc.name, got, tc.max)
		}
	}
}
