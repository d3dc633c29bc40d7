package s3transfer

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// UploadOutput is what an Upload made.
type UploadOutput struct {
	Size     int64
	ETag     string
	UploadID string // "" when the object went up in one PutObject
	Parts    int    // 0 when the object went up in one PutObject
	// ChecksumCRC32 is the object's checksum as S3 answered it: of the
	// whole object after a PutObject, of the parts' checksums ("…-N")
	// after a multipart upload.
	ChecksumCRC32 string
}

// abortTimeout bounds the AbortMultipartUpload sent after a failure or a
// cancel (its context outlives the caller's, which may be the cause).
const abortTimeout = 30 * time.Second

// Upload writes r to s3://bucket/key with c, a client of the S3 model.
// Below opts.Threshold bytes it is one PutObject; else a multipart upload
// of opts.PartSize parts, opts.Concurrency at once, each with its CRC32
// (ChecksumAlgorithm CRC32 on CreateMultipartUpload, each part's checksum
// in UploadPart and CompleteMultipartUpload). When a part, the completion
// or ctx fails, the upload is aborted (AbortMultipartUpload) so that no
// parts are left behind, and the error says why.
//
// When r is an io.ReaderAt of known size (an *os.File, *bytes.Reader,
// *strings.Reader, *io.SectionReader) its bytes 0 to its size are read at
// their offsets in parallel; else r is read in order from its current
// position to EOF, and a Size() int64 method, when it has one, gives the
// progress its total and the part size room for the object (MaxParts).
// Each part in flight holds a buffer of the part size.
func Upload(ctx context.Context, c *client.Client, bucket, key string, r io.Reader, opts Options) (*UploadOutput, error) {
	o := opts.withDefaults()
	u := &uploader{c: c, bucket: bucket, key: key, o: o, prog: &progress{f: o.Progress, total: -1}}
	ra, size, known, err := sizeOf(r)
	if err != nil {
		return nil, u.errorf("%w", err)
	}
	if known {
		u.prog.total = size
		u.o.PartSize = fitParts(size, o.PartSize)
	}
	if ra != nil {
		if size < o.Threshold {
			buf := make([]byte, size)
			if _, err := ra.ReadAt(buf, 0); err != nil && size > 0 && !errors.Is(err, io.EOF) {
				return nil, u.errorf("read: %w", err)
			}
			return u.put(ctx, buf)
		}
		// Each part is sent from its section of r, never held in memory:
		// read once for its CRC32, then by the client (its SHA-256, the
		// send, a retry: a section rewinds).
		total := int((size + u.o.PartSize - 1) / u.o.PartSize)
		return u.multipart(ctx, func(n int, _ []byte) (part, error) {
			off := int64(n-1) * u.o.PartSize
			sec := io.NewSectionReader(ra, off, min(u.o.PartSize, size-off))
			h := crc32.NewIEEE()
			if _, err := io.Copy(h, sec); err != nil {
				return part{}, err
			}
			if _, err := sec.Seek(0, io.SeekStart); err != nil {
				return part{}, err
			}
			return part{body: sec, size: sec.Size(), crc: base64.StdEncoding.EncodeToString(h.Sum(nil))}, nil
		}, total)
	}
	first := make([]byte, o.Threshold)
	n, err := io.ReadFull(r, first)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return u.put(ctx, first[:n])
	case err != nil:
		return nil, u.errorf("read: %w", err)
	}
	src := io.MultiReader(bytes.NewReader(first), r)
	return u.multipart(ctx, func(_ int, buf []byte) (part, error) {
		n, err := io.ReadFull(src, buf[:u.o.PartSize])
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = nil
		}
		return part{body: bytes.NewReader(buf[:n]), size: int64(n), crc: crc32b64(buf[:n])}, err
	}, 0)
}

// fitParts grows partSize so that size bytes fit in MaxParts parts.
func fitParts(size, partSize int64) int64 {
	if (size+partSize-1)/partSize > MaxParts {
		return (size + MaxParts - 1) / MaxParts
	}
	return partSize
}

// sizeOf finds r's size when it knows it (a Size method, a regular
// file), and r as an io.ReaderAt when its parts can be read at their
// offsets (nil: r is read in order).
func sizeOf(r io.Reader) (io.ReaderAt, int64, bool, error) {
	ra, _ := r.(io.ReaderAt)
	switch v := r.(type) {
	case interface{ Size() int64 }:
		return ra, v.Size(), true, nil
	case *os.File:
		fi, err := v.Stat()
		if err != nil {
			return nil, 0, false, fmt.Errorf("stat %s: %w", v.Name(), err)
		}
		if fi.Mode().IsRegular() {
			return ra, fi.Size(), true, nil
		}
		return nil, 0, false, nil
	}
	return nil, 0, false, nil
}

type uploader struct {
	c           *client.Client
	bucket, key string
	o           Options
	prog        *progress
}

func (u *uploader) errorf(format string, args ...any) error {
	return fmt.Errorf("s3transfer: upload s3://%s/%s: "+format, append([]any{u.bucket, u.key}, args...)...)
}

// crc32b64 is the checksum S3 takes: CRC32 big-endian, in base64.
func crc32b64(b []byte) string {
	return base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b)))
}

type uploadResult struct {
	ETag          string `json:"ETag"`
	UploadID      string `json:"UploadId"`
	ChecksumCRC32 string `json:"ChecksumCRC32"`
}

// call sends op and decodes the members an upload reads.
func (u *uploader) call(ctx context.Context, op string, in []byte, opts ...client.CallOption) (uploadResult, error) {
	var res uploadResult
	out, err := u.c.Call(ctx, op, in, opts...)
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return res, fmt.Errorf("%s output: %w", op, err)
	}
	return res, nil
}

func (u *uploader) put(ctx context.Context, body []byte) (*UploadOutput, error) {
	in, err := input(u.o.Input, "Bucket", u.bucket, "Key", u.key, "ChecksumAlgorithm", "CRC32", "ChecksumCRC32", crc32b64(body))
	if err != nil {
		return nil, err
	}
	res, err := u.call(ctx, "PutObject", in, client.WithBodyReader(bytes.NewReader(body), int64(len(body))))
	if err != nil {
		return nil, u.errorf("%w", err)
	}
	u.prog.add(int64(len(body)))
	return &UploadOutput{Size: int64(len(body)), ETag: res.ETag, ChecksumCRC32: res.ChecksumCRC32}, nil
}

type completedPart struct {
	PartNumber    int
	ETag          string
	ChecksumCRC32 string
}

// part is one part to send: its body, size and CRC32.
type part struct {
	body io.ReadSeeker
	size int64
	crc  string
}

// multipart uploads the parts next gives. With total > 0 (an io.ReaderAt)
// there are that many, each made on its own goroutine from its section of
// the source (no buffer); with 0 they are read in order on this one into
// buf (of the part size, at most Concurrency of them) until next answers
// io.EOF with no bytes.
func (u *uploader) multipart(ctx context.Context, next func(n int, buf []byte) (part, error), total int) (*UploadOutput, error) {
	in, err := input(u.o.Input, "Bucket", u.bucket, "Key", u.key, "ChecksumAlgorithm", "CRC32")
	if err != nil {
		return nil, err
	}
	created, err := u.call(ctx, "CreateMultipartUpload", in)
	if err != nil {
		return nil, u.errorf("%w", err)
	}
	id := created.UploadID
	if id == "" {
		return nil, u.errorf("CreateMultipartUpload answered no UploadId")
	}
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		mu    sync.Mutex
		parts []completedPart
		size  int64
		wg    sync.WaitGroup
	)
	// The places of the parts in flight: Concurrency of them, each with
	// its buffer when parts are read in order (made on first use).
	pool := make(chan []byte, u.o.Concurrency)
	for range u.o.Concurrency {
		pool <- nil
	}
	send := func(n int, p part) error {
		in, err := input(nil, "Bucket", u.bucket, "Key", u.key, "UploadId", id, "PartNumber", n,
			"ChecksumAlgorithm", "CRC32", "ChecksumCRC32", p.crc)
		if err != nil {
			return err
		}
		res, err := u.call(pctx, "UploadPart", in, client.WithBodyReader(p.body, p.size))
		if err != nil {
			return fmt.Errorf("part %d: %w", n, err)
		}
		mu.Lock()
		parts = append(parts, completedPart{PartNumber: n, ETag: res.ETag, ChecksumCRC32: p.crc})
		size += p.size
		mu.Unlock()
		u.prog.add(p.size)
		return nil
	}
	for n := 1; total == 0 || n <= total; n++ {
		var buf []byte
		select {
		case buf = <-pool:
		case <-pctx.Done():
		}
		if pctx.Err() != nil {
			break
		}
		if n > MaxParts {
			cancel(fmt.Errorf("more than %d parts of %d bytes: choose a larger PartSize", MaxParts, u.o.PartSize))
			break
		}
		var p part
		if total == 0 {
			if buf == nil {
				buf = make([]byte, u.o.PartSize)
			}
			var err error
			p, err = next(n, buf)
			if err != nil && !(errors.Is(err, io.EOF) && p.size > 0) {
				pool <- buf
				if !errors.Is(err, io.EOF) {
					cancel(fmt.Errorf("read part %d: %w", n, err))
				}
				break
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { pool <- buf }()
			if total > 0 {
				var err error
				if p, err = next(n, nil); err != nil {
					cancel(fmt.Errorf("read part %d: %w", n, err))
					return
				}
			}
			if err := send(n, p); err != nil {
				cancel(err)
			}
		}()
	}
	wg.Wait()
	if err := context.Cause(pctx); err != nil {
		return nil, u.abort(ctx, id, err)
	}
	slices.SortFunc(parts, func(a, b completedPart) int { return a.PartNumber - b.PartNumber })
	in, err = input(nil, "Bucket", u.bucket, "Key", u.key, "UploadId", id, "MultipartUpload", map[string]any{"Parts": parts})
	if err != nil {
		return nil, u.abort(ctx, id, err)
	}
	done, err := u.call(ctx, "CompleteMultipartUpload", in)
	if err != nil {
		return nil, u.abort(ctx, id, err)
	}
	return &UploadOutput{Size: size, ETag: done.ETag, UploadID: id, Parts: len(parts), ChecksumCRC32: done.ChecksumCRC32}, nil
}

// abort sends AbortMultipartUpload after cause, on a context that
// survives the caller's cancel, and returns cause with the abort's own
// error when it fails too.
func (u *uploader) abort(ctx context.Context, id string, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortTimeout)
	defer cancel()
	in, err := input(nil, "Bucket", u.bucket, "Key", u.key, "UploadId", id)
	if err == nil {
		_, err = u.c.Call(ctx, "AbortMultipartUpload", in)
	}
	if err != nil {
		return u.errorf("%w (and AbortMultipartUpload of %s failed: %v)", cause, id, err)
	}
	return u.errorf("%w (upload %s aborted)", cause, id)
}
