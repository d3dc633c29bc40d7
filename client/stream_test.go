package client_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

const streamModel = `$version: "2"
namespace t
use aws.protocols#restJson1
use aws.protocols#httpChecksum

@restJson1
service S { operations: [Put, PutRequired, Get, PutMD5, Ping] }

@streaming
blob Stream

enum Alg { CRC32, CRC32C, SHA1, SHA256, CRC64NVME, MD4 }
enum Mode { ENABLED }

@idempotent
@http(method: "PUT", uri: "/o/{Key}")
@httpChecksum(requestAlgorithmMember: "Alg")
operation Put {
    input := {
        @required @httpLabel Key: String
        @httpHeader("x-amz-sdk-checksum-algorithm") Alg: Alg
        @httpHeader("x-amz-checksum-crc32") Crc32: String
        @httpHeader("Content-Length") Length: Long
        @httpPayload Body: Stream
    }
    output := { @httpHeader("x-got") Got: String }
}

@idempotent
@http(method: "PUT", uri: "/required/{Key}")
@httpChecksum(requestChecksumRequired: true, requestAlgorithmMember: "Alg")
operation PutRequired {
    input := {
        @required @httpLabel Key: String
        @httpHeader("x-amz-sdk-checksum-algorithm") Alg: Alg
        @httpPayload Body: Stream
    }
    output := { @httpHeader("x-got") Got: String }
}

@readonly
@http(method: "GET", uri: "/o/{Key}")
@httpChecksum(requestValidationModeMember: "Mode", responseAlgorithms: ["CRC32C", "CRC32", "SHA256"])
operation Get {
    input := {
        @required @httpLabel Key: String
        @httpHeader("x-amz-checksum-mode") Mode: Mode
    }
    output := {
        @httpHeader("x-size") Size: Long
        @httpPayload Body: Stream
    }
}

@http(method: "POST", uri: "/md5")
@httpChecksum(requestChecksumRequired: true)
operation PutMD5 {
    input := {
        @httpHeader("Content-MD5") MD5: String
        @httpPayload Body: Stream
    }
    output := { @httpHeader("x-got") Got: String }
}

@readonly
@http(method: "GET", uri: "/ping")
operation Ping {}
`

// objectServer keeps objects in memory. PUT stores the body (aws-chunked
// decoded, its trailer checksum checked) and answers x-got with what it
// read: "<length> <sha256> te=<Transfer-Encoding> <header>=<value>…" for
// the checksum headers. GET answers the object with its CRC32 and CRC32C
// (a wrong CRC32C for keys starting with "bad"). Keys starting with "503"
// fail the first PUT with 503.
type objectServer struct {
	mu      sync.Mutex
	objects map[string][]byte
	failed  map[string]bool
	puts    int
}

func newObjectServer(t *testing.T, opts ...client.Option) (*objectServer, *client.Client) {
	t.Helper()
	s := &objectServer{objects: map[string][]byte{}, failed: map[string]bool{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := client.New(loadIDL(t, streamModel), "t#S", srv.URL,
		append([]client.Option{client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 5 * time.Millisecond})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, c
}

// putCount is the number of PUTs served so far (the handler runs on the
// server's goroutines).
func (s *objectServer) putCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.puts
}

func (s *objectServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.URL.Path, "/o/")
	switch r.Method {
	case "GET":
		s.mu.Lock()
		body, ok := s.objects[key]
		s.mu.Unlock()
		if !ok {
			w.WriteHeader(404)
			io.WriteString(w, `{"message":"no such key"}`)
			return
		}
		c32 := crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli))
		if strings.HasPrefix(key, "bad") {
			c32++
		}
		w.Header().Set("x-amz-checksum-crc32c", b64u32(c32))
		w.Header().Set("x-amz-checksum-crc32", b64u32(crc32.ChecksumIEEE(body)))
		w.Header().Set("x-size", strconv.Itoa(len(body)))
		w.Write(body)
	default:
		s.mu.Lock()
		s.puts++
		fail := strings.HasPrefix(key, "503") && !s.failed[key]
		s.failed[key] = true
		s.mu.Unlock()
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		if fail {
			w.WriteHeader(503)
			io.WriteString(w, `{"message":"slow down"}`)
			return
		}
		got := []string{}
		if strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") {
			var trailer string
			if body, trailer, err = decodeAWSChunked(body); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			got = append(got, "trailer="+trailer)
			if n := r.Header.Get("X-Amz-Decoded-Content-Length"); n != "" && n != strconv.Itoa(len(body)) {
				http.Error(w, "decoded length "+n, 400)
				return
			}
		}
		for _, h := range []string{"Content-Md5", "X-Amz-Checksum-Crc32", "X-Amz-Checksum-Crc32c", "X-Amz-Checksum-Sha1", "X-Amz-Checksum-Sha256", "X-Amz-Checksum-Crc64nvme", "X-Amz-Sdk-Checksum-Algorithm"} {
			if v := r.Header.Get(h); v != "" {
				got = append(got, h+"="+v)
			}
		}
		s.mu.Lock()
		s.objects[key] = body
		s.mu.Unlock()
		sum := sha256.Sum256(body)
		w.Header().Set("x-got", fmt.Sprintf("%d %s te=%s %s", len(body), hex.EncodeToString(sum[:8]), strings.Join(r.TransferEncoding, ","), strings.Join(got, " ")))
	}
}

func b64u32(v uint32) string {
	return base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, v))
}

// decodeAWSChunked decodes an unsigned aws-chunked body and returns its
// trailer line.
func decodeAWSChunked(b []byte) ([]byte, string, error) {
	var out []byte
	r := bufio.NewReader(bytes.NewReader(b))
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, "", fmt.Errorf("chunk size: %v", err)
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(line, "\r\n"), 16, 64)
		if err != nil {
			return nil, "", err
		}
		if n == 0 {
			trailer, _ := r.ReadString('\n')
			end, _ := r.ReadString('\n')
			if end != "\r\n" {
				return nil, "", fmt.Errorf("no final CRLF: %q", end)
			}
			if _, err := r.ReadByte(); err != io.EOF {
				return nil, "", errors.New("data after the trailer")
			}
			return out, strings.TrimSuffix(trailer, "\r\n"), nil
		}
		chunk := make([]byte, n+2)
		if _, err := io.ReadFull(r, chunk); err != nil || string(chunk[n:]) != "\r\n" {
			return nil, "", fmt.Errorf("chunk of %d: %v", n, err)
		}
		out = append(out, chunk[:n]...)
	}
}

func got(t *testing.T, out []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	return v
}

func sha8(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:8]) }

// plainReader hides Seek and WriterTo: a reader that cannot be rewound.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// whenRequired are the client options of tests whose requests carry no
// checksum unless they ask for one (the AWS SDKs' before 2025).
var whenRequired = []client.Option{client.WithRequestChecksumCalculation(client.ChecksumWhenRequired),
	client.WithResponseChecksumValidation(client.ChecksumWhenRequired)}

func TestStreamingPayloads(t *testing.T) {
	_, c := newObjectServer(t, whenRequired...)
	ctx := context.Background()
	data := make([]byte, 300_000)
	rand.NewChaCha8([32]byte{2}).Read(data)
	for _, tc := range []struct {
		name string
		r    io.Reader
		size int64
		te   string
	}{
		{"known size", plainReader{bytes.NewReader(data)}, int64(len(data)), ""},
		{"unknown size", plainReader{bytes.NewReader(data)}, -1, "chunked"},
		{"seekable, unknown size", bytes.NewReader(data), -1, "chunked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.Call(ctx, "Put", []byte(`{"Key": "k"}`), client.WithBodyReader(tc.r, tc.size))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%d %s te=%s", len(data), sha8(data), tc.te); got(t, out)["Got"] != want {
				t.Errorf("server got %q, want %q", got(t, out)["Got"], want)
			}
			var buf bytes.Buffer
			out, err = c.Call(ctx, "Get", []byte(`{"Key": "k"}`), client.WithBodyWriter(&buf))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != fmt.Sprintf(`{"Size":%d}`, len(data)) || !bytes.Equal(buf.Bytes(), data) {
				t.Errorf("Get: output %s, %d bytes written (equal %v)", out, buf.Len(), bytes.Equal(buf.Bytes(), data))
			}
		})
	}
	// The size from the input's Content-Length member.
	out, err := c.Call(ctx, "Put", []byte(`{"Key": "k", "Length": 300000}`), client.WithBodyReader(plainReader{bytes.NewReader(data)}, -1))
	if err != nil || !strings.HasPrefix(got(t, out)["Got"].(string), "300000 "+sha8(data)+" te=") {
		t.Errorf("Put with Length: %s, %v", out, err)
	}
	// Without a reader or writer, the payload is base64 in the document.
	out, err = c.Call(ctx, "Put", []byte(`{"Key": "m", "Body": "aGVsbG8="}`))
	if err != nil || !strings.HasPrefix(got(t, out)["Got"].(string), "5 "+sha8([]byte("hello"))) {
		t.Errorf("Put from the document: %s, %v", out, err)
	}
	out, err = c.Call(ctx, "Get", []byte(`{"Key": "m"}`))
	if err != nil || string(out) != `{"Size":5,"Body":"aGVsbG8="}` {
		t.Errorf("Get into the document: %s, %v", out, err)
	}
	// An error response is decoded as usual; the writer gets nothing.
	var buf bytes.Buffer
	_, err = c.Call(ctx, "Get", []byte(`{"Key": "missing"}`), client.WithBodyWriter(&buf))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Status != 404 || buf.Len() != 0 {
		t.Errorf("Get of a missing key: %v, writer got %d bytes", err, buf.Len())
	}
}

func TestStreamingUsageErrors(t *testing.T) {
	_, c := newObjectServer(t)
	ctx := context.Background()
	for _, tc := range []struct {
		op, input string
		opt       client.CallOption
		want      string
	}{
		{"Ping", `{}`, client.WithBodyReader(strings.NewReader("x"), 1), "WithBodyReader: operation Ping has no streaming blob input payload"},
		{"Put", `{"Key": "k"}`, client.WithBodyWriter(io.Discard), "WithBodyWriter: operation Put has no streaming blob output payload"},
		{"Put", `{"Key": "k", "Body": "eA=="}`, client.WithBodyReader(strings.NewReader("x"), 1), "member Body is given both in the input and with WithBodyReader"},
		{"Put", `{"Key": "k", "Length": 5}`, client.WithBodyReader(strings.NewReader("x"), 1), "Content-Length 5 from the input differs from the size 1"},
		{"Put", `{"Key": "k"}`, client.WithBodyReader(strings.NewReader("x"), -2), "size -2 is neither a length nor -1"},
		{"Put", `{"Key": "k", "Alg": "MD4"}`, client.WithBodyReader(strings.NewReader("x"), 1), `checksum algorithm "MD4" is not one of`},
		{"PutMD5", `{}`, client.WithBodyReader(plainReader{strings.NewReader("x")}, 1), "requires a Content-MD5 of its body: give a body reader that is an io.Seeker"},
	} {
		_, err := c.Call(ctx, tc.op, []byte(tc.input), tc.opt)
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindUsage || !strings.Contains(e.Error(), tc.want) {
			t.Errorf("%s %s: %v, want a usage error saying %q", tc.op, tc.input, err, tc.want)
		}
	}
}

// StreamingPayloads names the members WithBodyReader and WithBodyWriter
// carry, as the C API asks before taking an output payload as bytes.
func TestStreamingPayloadNames(t *testing.T) {
	_, c := newObjectServer(t)
	for op, want := range map[string][2]string{"Put": {"Body", ""}, "Get": {"", "Body"}, "Ping": {"", ""}} {
		in, out, err := c.StreamingPayloads(op)
		if err != nil || in != want[0] || out != want[1] {
			t.Errorf("StreamingPayloads(%s) = %q, %q, %v; want %q, %q", op, in, out, err, want[0], want[1])
		}
	}
	if _, _, err := c.StreamingPayloads("Nope"); err == nil {
		t.Error("StreamingPayloads of an unknown operation: no error")
	}
	// BlobPayloads: the blob payloads, streaming or not.
	for op, want := range map[string][2]string{"Put": {"Body", ""}, "Get": {"", "Body"}, "Ping": {"", ""}} {
		in, out, err := c.BlobPayloads(op)
		if err != nil || in != want[0] || out != want[1] {
			t.Errorf("BlobPayloads(%s) = %q, %q, %v; want %q, %q", op, in, out, err, want[0], want[1])
		}
	}
	if _, _, err := c.BlobPayloads("Nope"); err == nil {
		t.Error("BlobPayloads of an unknown operation: no error")
	}
}

func TestStreamingRetry(t *testing.T) {
	s, c := newObjectServer(t)
	ctx := context.Background()
	data := bytes.Repeat([]byte("retry me "), 10_000)
	// A reader that can be rewound is sent again from where it started.
	r := bytes.NewReader(append([]byte("skip"), data...))
	r.Seek(4, io.SeekStart)
	out, err := c.Call(ctx, "Put", []byte(`{"Key": "503a"}`), client.WithBodyReader(r, int64(len(data))))
	if n := s.putCount(); err != nil || !strings.HasPrefix(got(t, out)["Got"].(string), fmt.Sprintf("%d %s", len(data), sha8(data))) || n != 2 {
		t.Errorf("seekable reader after a 503: %s, %v, %d sends", out, err, n)
	}
	// One that cannot is not retried, and the error says why.
	_, err = c.Call(ctx, "Put", []byte(`{"Key": "503b"}`), client.WithBodyReader(plainReader{bytes.NewReader(data)}, int64(len(data))))
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 503 || e.Attempts != 1 || !strings.Contains(e.Error(), "not retried: the body reader cannot be rewound") {
		t.Errorf("plain reader after a 503: %v", err)
	}
	if n := s.putCount(); n != 3 {
		t.Errorf("%d sends, want 3", n)
	}
}

func TestRequestChecksums(t *testing.T) {
	_, c := newObjectServer(t, whenRequired...)
	ctx := context.Background()
	data := []byte("123456789")
	sha := sha256.Sum256(data)
	md := md5.Sum(data)
	sha1sum := sha1.Sum(data)
	want := map[string]string{
		// The algorithms' check values over "123456789".
		"CRC32":     "X-Amz-Checksum-Crc32=" + b64u32(0xcbf43926),
		"CRC32C":    "X-Amz-Checksum-Crc32c=" + b64u32(0xe3069283),
		"CRC64NVME": "X-Amz-Checksum-Crc64nvme=" + base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint64(nil, 0xae8b14860a799888)),
		"SHA1":      "X-Amz-Checksum-Sha1=" + base64.StdEncoding.EncodeToString(sha1sum[:]),
		"SHA256":    "X-Amz-Checksum-Sha256=" + base64.StdEncoding.EncodeToString(sha[:]),
	}
	for alg, w := range want {
		input := []byte(`{"Key": "c", "Alg": "` + alg + `", "Body": "` + base64.StdEncoding.EncodeToString(data) + `"}`)
		for name, opt := range map[string]client.CallOption{
			"document": nil,
			"seekable": client.WithBodyReader(bytes.NewReader(data), -1),
		} {
			in := input
			if opt != nil {
				in = []byte(`{"Key": "c", "Alg": "` + alg + `"}`)
			}
			out, err := c.Call(ctx, "Put", in, opt)
			if err != nil {
				t.Fatalf("%s %s: %v", alg, name, err)
			}
			if g := got(t, out)["Got"].(string); !strings.Contains(g, " "+w+" ") || !strings.HasSuffix(g, "X-Amz-Sdk-Checksum-Algorithm="+alg) {
				t.Errorf("%s %s: server got %q, want %q", alg, name, g, w)
			}
		}
		// A reader that cannot be rewound: the checksum in an aws-chunked
		// trailer, of known and unknown length.
		big := bytes.Repeat(data, 20_000) // 180 kB: several chunks
		for _, size := range []int64{int64(len(big)), -1} {
			out, err := c.Call(ctx, "Put", []byte(`{"Key": "c", "Alg": "`+alg+`"}`), client.WithBodyReader(plainReader{bytes.NewReader(big)}, size))
			if err != nil {
				t.Fatalf("%s trailer: %v", alg, err)
			}
			g := got(t, out)["Got"].(string)
			// The trailer holds the checksum of the whole body.
			var whole map[string]string
			{
				out, err := c.Call(ctx, "Put", []byte(`{"Key": "c2", "Alg": "`+alg+`"}`), client.WithBodyReader(bytes.NewReader(big), -1))
				if err != nil {
					t.Fatal(err)
				}
				f := strings.Fields(got(t, out)["Got"].(string))
				k, v, _ := strings.Cut(f[len(f)-2], "=")
				whole = map[string]string{strings.ToLower(k): v}
			}
			var trailer string
			for k, v := range whole {
				trailer = "trailer=" + k + ":" + v
			}
			if !strings.HasPrefix(g, fmt.Sprintf("%d %s ", len(big), sha8(big))) || !strings.Contains(g, trailer) {
				t.Errorf("%s trailer, size %d: server got %q, want %q", alg, size, g, trailer)
			}
		}
	}
	// A checksum the caller gives is kept.
	out, err := c.Call(ctx, "Put", []byte(`{"Key": "c", "Alg": "CRC32", "Crc32": "AAAAAA==", "Body": "eA=="}`))
	if err != nil || !strings.Contains(got(t, out)["Got"].(string), "X-Amz-Checksum-Crc32=AAAAAA==") {
		t.Errorf("caller's checksum: %s %v", out, err)
	}
	// Content-MD5 where a checksum is required: of the document's body and
	// of a streamed one.
	wantMD5 := "Content-Md5=" + base64.StdEncoding.EncodeToString(md[:])
	for _, opt := range []client.CallOption{nil, client.WithBodyReader(bytes.NewReader(data), int64(len(data)))} {
		in := `{"Body": "` + base64.StdEncoding.EncodeToString(data) + `"}`
		if opt != nil {
			in = `{}`
		}
		out, err := c.Call(ctx, "PutMD5", []byte(in), opt)
		if err != nil || !strings.Contains(got(t, out)["Got"].(string), wantMD5) {
			t.Errorf("PutMD5 (streamed %v): %s %v, want %s", opt != nil, out, err, wantMD5)
		}
		// The caller's Content-MD5 is sent as given (botocore and the
		// JavaScript SDK compute one only when it is absent).
		in = strings.Replace(in, "{", `{"MD5": "Y2FsbGVyJ3M=", `, 1)
		in = strings.Replace(in, ", }", "}", 1)
		if opt != nil {
			opt = client.WithBodyReader(bytes.NewReader(data), int64(len(data)))
		}
		out, err = c.Call(ctx, "PutMD5", []byte(in), opt)
		if err != nil || !strings.Contains(got(t, out)["Got"].(string), "Content-Md5=Y2FsbGVyJ3M=") {
			t.Errorf("PutMD5 with the caller's Content-MD5 (streamed %v): %s %v", opt != nil, out, err)
		}
	}
}

func TestResponseChecksums(t *testing.T) {
	_, c := newObjectServer(t, whenRequired...)
	ctx := context.Background()
	data := bytes.Repeat([]byte("check me "), 50_000)
	for _, key := range []string{"good", "bad"} {
		if _, err := c.Call(ctx, "Put", []byte(`{"Key": "`+key+`"}`), client.WithBodyReader(bytes.NewReader(data), int64(len(data)))); err != nil {
			t.Fatal(err)
		}
	}
	for _, streamed := range []bool{false, true} {
		var buf bytes.Buffer
		var opts []client.CallOption
		if streamed {
			opts = append(opts, client.WithBodyWriter(&buf))
		}
		// Checked when asked: the good object passes, the bad one fails.
		if _, err := c.Call(ctx, "Get", []byte(`{"Key": "good", "Mode": "ENABLED"}`), opts...); err != nil {
			t.Errorf("streamed %v: good checksum: %v", streamed, err)
		}
		_, err := c.Call(ctx, "Get", []byte(`{"Key": "bad", "Mode": "ENABLED"}`), opts...)
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindDecode || !strings.Contains(e.Error(), "response checksum mismatch: x-amz-checksum-crc32c is") {
			t.Errorf("streamed %v: bad checksum: %v", streamed, err)
		}
		// Not checked unless asked.
		if _, err := c.Call(ctx, "Get", []byte(`{"Key": "bad"}`), opts...); err != nil {
			t.Errorf("streamed %v: unchecked: %v", streamed, err)
		}
	}
}
