package s3transfer

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// DownloadOutput is what a Download read.
type DownloadOutput struct {
	Size int64
	ETag string
	// Checked names the full-object checksum the bytes were checked
	// against ("CRC32", "CRC32C"), "" when the object has none of those
	// (a multipart object's checksum of its parts cannot be checked
	// without its part boundaries).
	Checked string
}

type headResult struct {
	ContentLength  int64  `json:"ContentLength"`
	ETag           string `json:"ETag"`
	ChecksumCRC32  string `json:"ChecksumCRC32"`
	ChecksumCRC32C string `json:"ChecksumCRC32C"`
}

// crcPolys are the full-object checksums Download checks, by the
// reflected polynomial that combines the ranges' CRCs.
var crcPolys = map[string]uint32{"CRC32": crc32.IEEE, "CRC32C": crc32.Castagnoli}

// partAttempts bounds the sends of one range. The client retries an
// UploadPart (a PUT) itself, but never a GetObject once response bytes were
// written; a range can be written again at its offsets, so the download
// does it itself, as s3transfer and manager do.
const partAttempts = 3

// resend reports whether a range that failed with err after
// attempt sends should be sent again, after a backoff (100 ms doubled per attempt).
func resend(ctx context.Context, err error, attempt int) bool {
	var e *client.Error
	if !errors.As(err, &e) {
		return false
	}
	if e.Kind != client.KindTransport {
		return false
	}
	t := time.NewTimer(100 * time.Millisecond << (attempt - 1))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Download reads s3://bucket/key with c, a client of the S3 model, into w
// at the object's offsets: HeadObject for its size, ETag and checksum,
// then GetObject of ranges of opts.PartSize bytes, opts.Concurrency at
// once, each with If-Match on the ETag so that an object replaced
// meanwhile fails the download (412) instead of mixing two versions. When
// the object has a full-object CRC32 or CRC32C, the bytes are checked
// against it. A range cut off after some of its bytes came (which the
// client does not retry) is fetched again (3 attempts). On an error w may hold part of the object.
func Download(ctx context.Context, c *client.Client, bucket, key string, w io.WriterAt, opts Options) (*DownloadOutput, error) {
	return download(ctx, c, bucket, key, atSink{w}, opts)
}

// DownloadStream is Download into w in order (a pipe, a socket, stdout):
// each range is read into a buffer of the part size and written once the
// ranges before it were, so that memory stays at about Concurrency ×
// PartSize. On an error w may have received the object's first bytes.
func DownloadStream(ctx context.Context, c *client.Client, bucket, key string, w io.Writer, opts Options) (*DownloadOutput, error) {
	return download(ctx, c, bucket, key, &orderSink{w: w}, opts)
}

// A rangeSink takes the ranges of a download.
type rangeSink interface {
	// start sizes the sink for ranges ranges of up to part bytes.
	start(ranges int, part int64)
	// writer is where an attempt at range i (at offset off) writes; a new
	// attempt gets a new one, which starts the range over.
	writer(i int, off int64) io.Writer
	// done takes range i once it came whole; it runs on the range's
	// goroutine, which holds its place among the ranges in flight.
	done(ctx context.Context, i int) error
}

// atSink writes at the ranges' offsets.
type atSink struct{ w io.WriterAt }

func (atSink) start(int, int64)                    {}
func (s atSink) writer(_ int, off int64) io.Writer { return io.NewOffsetWriter(s.w, off) }
func (atSink) done(context.Context, int) error     { return nil }

// orderSink holds each range in a buffer until the ranges before it were
// written to w. A range waits only for ranges started before it, all in
// flight or done, so the wait ends.
type orderSink struct {
	w    io.Writer
	bufs []*bytes.Buffer // by range, while held
	turn []chan struct{} // turn[i] is closed when range i may write
	pool sync.Pool
	mu   sync.Mutex
}

func (s *orderSink) start(ranges int, part int64) {
	s.bufs = make([]*bytes.Buffer, ranges)
	s.turn = make([]chan struct{}, ranges+1)
	for i := range s.turn {
		s.turn[i] = make(chan struct{})
	}
	close(s.turn[0])
	s.pool.New = func() any { return bytes.NewBuffer(make([]byte, 0, part)) }
}

func (s *orderSink) writer(i int, _ int64) io.Writer {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bufs[i]
	if b == nil {
		b = s.pool.Get().(*bytes.Buffer)
		s.bufs[i] = b
	}
	b.Reset()
	return b
}

func (s *orderSink) done(ctx context.Context, i int) error {
	select {
	case <-s.turn[i]:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	s.mu.Lock()
	b := s.bufs[i]
	s.bufs[i] = nil
	s.mu.Unlock()
	_, err := s.w.Write(b.Bytes())
	s.pool.Put(b)
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	close(s.turn[i+1])
	return nil
}

func download(ctx context.Context, c *client.Client, bucket, key string, sink rangeSink, opts Options) (*DownloadOutput, error) {
	o := opts.withDefaults()
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("s3transfer: download s3://%s/%s: "+format, append([]any{bucket, key}, args...)...)
	}
	in, err := input(o.Input, "Bucket", bucket, "Key", key, "ChecksumMode", "ENABLED")
	if err != nil {
		return nil, err
	}
	out, err := c.Call(ctx, "HeadObject", in)
	if err != nil {
		return nil, errorf("%w", err)
	}
	var head headResult
	if err := json.Unmarshal(out, &head); err != nil {
		return nil, errorf("HeadObject output: %w", err)
	}
	res := &DownloadOutput{Size: head.ContentLength, ETag: head.ETag}
	alg, want := "", ""
	for a, v := range map[string]string{"CRC32": head.ChecksumCRC32, "CRC32C": head.ChecksumCRC32C} {
		if v != "" && !strings.Contains(v, "-") {
			alg, want = a, v
		}
	}
	ranges := int((head.ContentLength + o.PartSize - 1) / o.PartSize)
	sink.start(ranges, o.PartSize)
	crcs := make([]uint32, ranges)
	prog := &progress{f: o.Progress, total: head.ContentLength}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	sem := make(chan struct{}, o.Concurrency)
	for i := range ranges {
		select {
		case sem <- struct{}{}:
		case <-rctx.Done():
		}
		if rctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			first := int64(i) * o.PartSize
			last := min(first+o.PartSize, head.ContentLength) - 1
			in, err := input(o.Input, "Bucket", bucket, "Key", key, "Range", fmt.Sprintf("bytes=%d-%d", first, last), "IfMatch", head.ETag)
			if err != nil {
				cancel(err)
				return
			}
			var cw *crcWriter
			for attempt := 1; ; attempt++ {
				cw = &crcWriter{w: sink.writer(i, first)}
				if alg != "" {
					cw.h = crc32.New(crc32.MakeTable(crcPolys[alg]))
				}
				_, err := c.Call(rctx, "GetObject", in, client.WithBodyWriter(cw))
				if err == nil {
					break
				}
				// The client retries a GET until response bytes were
				// written, never after; the range can be: it is written
				// again from its start.
				if attempt == partAttempts || cw.n == 0 || !resend(rctx, err, attempt) {
					cancel(fmt.Errorf("bytes %d-%d (attempt %d): %w", first, last, attempt, err))
					return
				}
			}
			if cw.n != last-first+1 {
				cancel(fmt.Errorf("bytes %d-%d: %d bytes came", first, last, cw.n))
				return
			}
			if cw.h != nil {
				crcs[i] = cw.h.Sum32()
			}
			if err := sink.done(rctx, i); err != nil {
				cancel(fmt.Errorf("bytes %d-%d: %w", first, last, err))
				return
			}
			prog.add(cw.n)
		}()
	}
	wg.Wait()
	if err := context.Cause(rctx); err != nil {
		return nil, errorf("%w", err)
	}
	if alg != "" {
		var sum uint32
		for i, crc := range crcs {
			sum = crc32Combine(crcPolys[alg], sum, crc, min(o.PartSize, head.ContentLength-int64(i)*o.PartSize))
		}
		got := base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, sum))
		if got != want {
			return nil, errorf("the object's %s is %s, the bytes read give %s", alg, want, got)
		}
		res.Checked = alg
	}
	return res, nil
}

// crcWriter counts and checksums what it writes to w.
type crcWriter struct {
	w io.Writer
	h hash.Hash32 // nil when no checksum is checked
	n int64
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if c.h != nil {
		c.h.Write(p[:n])
	}
	c.n += int64(n)
	return n, err
}

// crc32Combine is the CRC of A then B from crc1 of A, crc2 of B and B's
// length, for the reflected polynomial poly (zlib's crc32_combine: crc1
// is multiplied by x^(8·len2) in GF(2) through a squared operator).
func crc32Combine(poly, crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	var even, odd [32]uint32
	odd[0] = poly // the operator for one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four
	for {
		gf2Square(&even, &odd)
		if len2&1 != 0 {
			crc1 = gf2Times(&even, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
		gf2Square(&odd, &even)
		if len2&1 != 0 {
			crc1 = gf2Times(&odd, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat *[32]uint32) {
	for n := range 32 {
		square[n] = gf2Times(mat, mat[n])
	}
}
