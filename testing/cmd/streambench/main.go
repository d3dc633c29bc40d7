// Command streambench is the Go front end of make bench-stream: SIZE bytes up from a reader
// (neither sized by the file system nor seekable) and down to a writer,
// through client.Call with WithBodyReader and WithBodyWriter. Prints the
// seconds each took; bench/stream/run.py reads the process's peak RSS.
//
//	streambench ENDPOINT MODEL SIZE
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/blobserver"
)

const period = blobserver.Period

// patternReader produces n bytes of the blob service's pattern, copied
// from two periods' worth of 64 KiB.
type patternReader struct{ off, n int64 }

var pattern = blobserver.Pattern(0, period*512)

func (r *patternReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n-r.off, period*256)]
	at := r.off % period
	copy(p, pattern[at:])
	r.off += int64(len(p))
	return len(p), nil
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

func main() {
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "streambench:", err)
		os.Exit(1)
	}
}

func run(endpoint, path, sizeArg string) error {
	size, err := strconv.ParseInt(sizeArg, 10, 64)
	if err != nil {
		return err
	}
	ctx := context.Background()
	m, err := model.LoadPaths(ctx, path)
	if err != nil {
		return err
	}
	c, err := client.New(m, "smithycurl.test.blobs#Blobs", endpoint, client.WithTimeout(10*time.Minute))
	if err != nil {
		return err
	}
	defer c.Close()
	t0 := time.Now()
	out, err := c.Call(ctx, "PutBlob", []byte(`{"key":"bench-go"}`), client.WithBodyReader(&patternReader{n: size}, size))
	if err != nil {
		return err
	}
	var got struct {
		Size   int64 `json:"size"`
		Intact bool  `json:"intact"`
	}
	if err := json.Unmarshal(out, &got); err != nil || got.Size != size || !got.Intact {
		return fmt.Errorf("PutBlob: %s (%v)", out, err)
	}
	up := time.Since(t0)
	t1 := time.Now()
	w := &countWriter{}
	if _, err := c.Call(ctx, "GetBlob", fmt.Appendf(nil, `{"size":%d}`, size), client.WithBodyWriter(w)); err != nil {
		return err
	}
	if w.n != size {
		return fmt.Errorf("GetBlob: %d bytes", w.n)
	}
	fmt.Printf("%.3f %.3f\n", up.Seconds(), time.Since(t1).Seconds())
	return nil
}
