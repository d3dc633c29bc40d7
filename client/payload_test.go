package client_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/servers/slotserver"
)

// Blob payloads given and taken as bytes beside the document
// (WithPayload, WithPayloadOutput), streaming members or not, against the
// document form's base64.

func newPayloadClient(t *testing.T, size int) (*slotserver.Server, *client.Client) {
	t.Helper()
	s := slotserver.New(size)
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	c, err := client.New(loadIDL(t, slotserver.Model), slotserver.Service, srv.URL,
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
	if got, puts := s.Body(); puts != 2 || !bytes.Equal(got, data) {
		t.Fatalf("%d attempts, %d bytes stored (equal: %v)", puts, len(got), bytes.Equal(got, data))
	}
}

// TestPayloadBytesUsage: bytes for an operation without a blob payload, or
// given twice, are usage errors, nothing sent; an error response leaves
// the caller's slice alone, and so does a body writer.
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
	} {
		_, err := c.Call(ctx, tc.op, []byte(tc.input), tc.opts...)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want a usage error saying %q", tc.op, tc.input, err, tc.want)
		}
	}
	body := append(make([]byte, 0, 1024), "kept"...) // room for the error's body: not used
	if _, err := c.Call(ctx, "GetData", []byte(`{"Key": "missing"}`), client.WithPayloadOutput(&body)); err == nil || string(body) != "kept" {
		t.Fatalf("GetData of a missing key: %v, body %q", err, body)
	}
	// A writer takes the body from WithPayloadOutput (typed methods add
	// the option; the caller's writer wins).
	var w bytes.Buffer
	if _, err := c.Call(ctx, "PutStream", []byte(`{"Key": "k"}`), client.WithPayload([]byte("streamed"))); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(ctx, "GetStream", []byte(`{"Key": "k"}`), client.WithPayloadOutput(&body), client.WithBodyWriter(&w)); err != nil || w.String() != "streamed" || string(body) != "kept" {
		t.Fatalf("GetStream with a writer: %v, writer %q, payload %q", err, w.String(), body)
	}
}

// TestPayloadAllocations bounds the bytes a 1 MiB call allocates (the
// whole process: the server keeps its body in one buffer): bytes beside
// the document are sent without a copy and the response body is the one
// copy out of libcurl's buffer, into the caller's slice when it has the
// room; base64 in the document is decoded straight
// into the body, and the output document is the response's one encoding.
// Each copy more of the megabyte fails it.
func TestPayloadAllocations(t *testing.T) {
	const size = 1 << 20
	_, c := newPayloadClient(t, size)
	ctx := context.Background()
	data := arbitrary(size)
	doc := []byte(`{"Key": "k", "Data": "` + base64.StdEncoding.EncodeToString(data) + `"}`)
	key := []byte(`{"Key": "k"}`)
	var body []byte
	slack := 96 << 10 // headers, the document, net/http's per-request buffers
	if raceEnabled {
		slack = 384 << 10 // the race detector's own allocations; a copy more of the MiB still fails
	}
	slotserver.CheckAllocs(t,
		slotserver.AllocCase{Name: "PutData bytes", Max: slack, Call: func() error {
			_, err := c.Call(ctx, "PutData", key, client.WithPayload(data))
			return err
		}},
		slotserver.AllocCase{Name: "GetData bytes", Max: size + slack, Call: func() error {
			var fresh []byte
			_, err := c.Call(ctx, "GetData", key, client.WithPayloadOutput(&fresh))
			body = fresh
			return err
		}},
		slotserver.AllocCase{Name: "GetData bytes into a slice with room", Max: slack, Call: func() error {
			kept := body
			_, err := c.Call(ctx, "GetData", key, client.WithPayloadOutput(&body))
			if err == nil && (len(body) != size || &body[0] != &kept[:1][0]) {
				err = fmt.Errorf("%d bytes, in a new array: %v", len(body), &body[0] != &kept[:1][0])
			}
			return err
		}},
		slotserver.AllocCase{Name: "PutData document", Max: size + slack, Call: func() error {
			_, err := c.Call(ctx, "PutData", doc)
			return err
		}},
		slotserver.AllocCase{Name: "GetData document", Max: size + base64.StdEncoding.EncodedLen(size) + slack, Call: func() error {
			_, err := c.Call(ctx, "GetData", key)
			return err
		}},
	)
}
