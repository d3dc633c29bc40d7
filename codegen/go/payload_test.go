package gogen_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"github.com/smithycurl/smithycurl/codegen/go/internal/slot"
	"github.com/smithycurl/smithycurl/testing/servers/slotserver"
)

func slotClient(t *testing.T, size int) *slot.Client {
	t.Helper()
	srv := httptest.NewServer(slotserver.New(size).Handler())
	t.Cleanup(srv.Close)
	c, err := slot.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestTypedBlobPayloadBytes: a typed []byte body of 1 MiB of arbitrary
// bytes, a blob payload and a streaming one, goes up and comes back byte
// for byte, and an empty one comes back empty.
func TestTypedBlobPayloadBytes(t *testing.T) {
	const size = 1 << 20
	c := slotClient(t, size)
	ctx := context.Background()
	data := make([]byte, size)
	rand.NewChaCha8([32]byte{3}).Read(data)
	for i := 0; i < 256; i++ {
		data[i] = byte(i)
	}
	put, err := c.PutData(ctx, &slot.PutDataInput{Key: "k", Data: data})
	if err != nil || *put.Size != size || *put.Type != "application/octet-stream" {
		t.Fatalf("PutData: %+v, %v", put, err)
	}
	got, err := c.GetData(ctx, &slot.GetDataInput{Key: "k"})
	if err != nil || *got.Size != size || !bytes.Equal(got.Data, data) {
		t.Fatalf("GetData: %v, %d bytes (equal: %v)", err, len(got.Data), err == nil && bytes.Equal(got.Data, data))
	}
	if _, err := c.PutStream(ctx, &slot.PutStreamInput{Key: "k", Body: data[1:]}); err != nil {
		t.Fatal(err)
	}
	gs, err := c.GetStream(ctx, &slot.GetStreamInput{Key: "k"})
	if err != nil || !bytes.Equal(gs.Body, data[1:]) {
		t.Fatalf("GetStream: %v, %d bytes", err, len(gs.Body))
	}
	if _, err := c.PutData(ctx, &slot.PutDataInput{Key: "k", Data: []byte{}}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetData(ctx, &slot.GetDataInput{Key: "k"}); err != nil || got.Data == nil || len(got.Data) != 0 {
		t.Fatalf("GetData of an empty body: %+v, %v", got, err)
	}
}

// TestTypedBlobPayloadAllocations bounds the bytes a typed 1 MiB call
// allocates (the whole process: the server keeps its body in one buffer):
// the input's []byte is the request body, and the output's is the
// response body copied once out of libcurl. Base64 text on the way (the
// document form) would allocate the megabyte several times over.
func TestTypedBlobPayloadAllocations(t *testing.T) {
	const size = 1 << 20
	c := slotClient(t, size)
	ctx := context.Background()
	data := make([]byte, size)
	slack := 96 << 10 // headers, the document, net/http's per-request buffers
	if raceEnabled {
		slack = 384 << 10 // the race detector's own allocations; a copy more of the MiB still fails
	}
	slotserver.CheckAllocs(t,
		slotserver.AllocCase{Name: "PutData", Max: slack, Call: func() error {
			_, err := c.PutData(ctx, &slot.PutDataInput{Key: "k", Data: data})
			return err
		}},
		slotserver.AllocCase{Name: "GetData", Max: size + slack, Call: func() error {
			_, err := c.GetData(ctx, &slot.GetDataInput{Key: "k"})
			return err
		}},
	)
}
