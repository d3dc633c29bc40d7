package s3transfer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smithycurl/smithycurl/client"
)

// UploadFile uploads the file at path as Upload does (boto3's upload_file).
func UploadFile(ctx context.Context, c *client.Client, bucket, key, path string, opts Options) (*UploadOutput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("s3transfer: %w", err)
	}
	defer f.Close()
	return Upload(ctx, c, bucket, key, f, opts)
}

// DownloadFile downloads into a temporary file beside path, renamed to path
// once the download is complete and checked and removed on failure, so
// path never holds a partial object (boto3's download_file).
func DownloadFile(ctx context.Context, c *client.Client, bucket, key, path string, opts Options) (*DownloadOutput, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-")
	if err != nil {
		return nil, fmt.Errorf("s3transfer: %w", err)
	}
	res, err := Download(ctx, c, bucket, key, tmp, opts)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("s3transfer: %w", cerr)
	}
	if err == nil {
		if err = os.Rename(tmp.Name(), path); err != nil {
			err = fmt.Errorf("s3transfer: %w", err)
		}
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return res, nil
}
