package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strings"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/s3transfer"
)

// s3Cmd is `s3 cp SRC DST`: a file to s3://BUCKET/KEY or back, through
// the transfer manager (client/s3transfer): multipart above --threshold,
// parallel ranged GETs down. It prints the transfer's result as JSON.
func s3Cmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "cp" {
		fmt.Fprintln(stderr, "smithycurl: usage: smithycurl s3 cp --model S3MODEL (--endpoint URL | --region REGION) SRC DST")
		return exitUsage
	}
	fs := newFlags("s3 cp", "s3 cp --model S3MODEL (--endpoint URL | --region REGION) SRC DST\n"+
		"(one of SRC and DST is s3://BUCKET/KEY, the other a file; SRC may be - for stdin, DST - for stdout. Up:\n"+
		"one PutObject below --threshold, else a multipart upload of --part-size parts with their CRC32s, aborted on\n"+
		"failure. Down: ranged GETs in parallel into DST, checked against the object's ETag and full-object CRC32;\n"+
		"DST is written beside itself and renamed when complete (to stdout: in order, ranges held until written).\n"+
		"Prints the result as JSON (not when DST is -).)", stderr)
	var f callFlags
	f.register(fs)
	partSize := fs.Int64("part-size", s3transfer.DefaultPartSize, "`BYTES` per part or range (S3 refuses parts under 5 MiB but the last)")
	threshold := fs.Int64("threshold", s3transfer.DefaultThreshold, "upload in parts from this many `BYTES` on")
	concurrency := fs.Int("concurrency", s3transfer.DefaultConcurrency, "parts or ranges in flight at once")
	progress := fs.Bool("progress", false, "print the bytes done to stderr after each part")
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return exitUsage
	}
	if len(pos) != 2 {
		fmt.Fprintln(stderr, "smithycurl: s3 cp: give SRC and DST")
		return exitUsage
	}
	if f.input != "" || f.bodyIn != "" || f.bodyOut != "" {
		fmt.Fprintln(stderr, "smithycurl: s3 cp: --input, --body-in and --body-out are call's; give SRC and DST")
		return exitUsage
	}
	opts := s3transfer.Options{PartSize: *partSize, Threshold: *threshold, Concurrency: *concurrency}
	if *progress {
		opts.Progress = func(done, _ int64) { fmt.Fprintf(stderr, "%d bytes\n", done) }
	}
	upBucket, upKey, up := s3URL(pos[1])
	downBucket, downKey, down := s3URL(pos[0])
	if up == down {
		fmt.Fprintln(stderr, "smithycurl: s3 cp: exactly one of SRC and DST must be s3://BUCKET/KEY")
		return exitUsage
	}
	c, _, _, ok := f.newClient(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer c.Close()
	var res any
	if up {
		res, err = s3Upload(ctx, c, upBucket, upKey, pos[0], opts)
	} else {
		res, err = s3Download(ctx, c, downBucket, downKey, pos[1], stdout, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		var ce *client.Error
		var pe *iofs.PathError
		if !errors.As(err, &ce) && errors.As(err, &pe) {
			return exitUsage // a local file
		}
		return callFailed(err, f.raw, stdout, io.Discard) // said above, with where
	}
	if pos[1] == "-" {
		return 0 // stdout holds the object
	}
	out, _ := json.Marshal(res)
	writeJSON(stdout, out)
	return 0
}

// s3URL splits s3://BUCKET/KEY.
func s3URL(s string) (bucket, key string, ok bool) {
	rest, ok := strings.CutPrefix(s, "s3://")
	if !ok {
		return "", "", false
	}
	bucket, key, _ = strings.Cut(rest, "/")
	return bucket, key, true
}

func s3Upload(ctx context.Context, c *client.Client, bucket, key, src string, opts s3transfer.Options) (*s3transfer.UploadOutput, error) {
	if key == "" || bucket == "" {
		return nil, fmt.Errorf("s3 cp: s3://%s/%s: give a bucket and a key", bucket, key)
	}
	if src != "-" {
		return s3transfer.UploadFile(ctx, c, bucket, key, src, opts)
	}
	return s3transfer.Upload(ctx, c, bucket, key, os.Stdin, opts)
}

// s3Download downloads into the file dst, or to stdout in order for "-".
func s3Download(ctx context.Context, c *client.Client, bucket, key, dst string, stdout io.Writer, opts s3transfer.Options) (*s3transfer.DownloadOutput, error) {
	if key == "" || bucket == "" {
		return nil, fmt.Errorf("s3 cp: s3://%s/%s: give a bucket and a key", bucket, key)
	}
	if dst == "-" {
		return s3transfer.DownloadStream(ctx, c, bucket, key, stdout, opts)
	}
	return s3transfer.DownloadFile(ctx, c, bucket, key, dst, opts)
}
