//go:build typedbench

package bench

import (
	"context"

	"github.com/smithycurl/smithycurl/bench/build/_typeds3"
	"github.com/smithycurl/smithycurl/client"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
)

// The typed Go client's S3 pair (smithycurl gen go of the S3 model into
// build/, as make bench-aws does): Body is a []byte both ways.
func init() {
	typedS3Pair = func(ctx context.Context, key string, data []byte, check func([]byte) error) (s3Pair, func(), error) {
		tc, err := typeds3.New(s3Endpoint, client.WithAWSCredentials(awse2e.Credentials))
		if err != nil {
			return s3Pair{}, nil, err
		}
		bucket, crc, enabled := s3Bucket, typeds3.ChecksumAlgorithmCrc32, typeds3.ChecksumModeEnabled
		return s3Pair{"smithycurl-typed", func() error {
			_, err := tc.PutObject(ctx, &typeds3.PutObjectRequest{Bucket: bucket, Key: key, Body: data,
				ChecksumAlgorithm: &crc, Metadata: map[string]string{"colour": "blue"}})
			if err != nil {
				return err
			}
			out, err := tc.GetObject(ctx, &typeds3.GetObjectRequest{Bucket: bucket, Key: key, ChecksumMode: &enabled})
			if err != nil {
				return err
			}
			return check(out.Body)
		}}, func() { tc.Close() }, nil
	}
}
