// Command transfer is one side of make bench-transfer (bench/transfer/run.py):
// a 1 GiB file up to S3 or an object down into a file, through smithycurl's
// client/s3transfer or aws-sdk-go-v2's feature/s3/manager, 8 MiB parts, 10
// at once for both (s3transfer's defaults). It prints the seconds the
// transfer took; the runner reads the process's peak RSS.
//
//	transfer smithycurl|manager up|down ENDPOINT S3MODEL BUCKET KEY FILE
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/s3transfer"
	"github.com/smithycurl/smithycurl/model"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
)

const (
	partSize    = 8 << 20
	concurrency = 10
)

func main() {
	if len(os.Args) != 8 {
		fmt.Fprintln(os.Stderr, "usage: transfer smithycurl|manager up|down ENDPOINT S3MODEL BUCKET KEY FILE")
		os.Exit(2)
	}
	who, dir, endpoint, modelPath, bucket, key, file := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6], os.Args[7]
	ctx := context.Background()
	var run func() error
	switch who {
	case "smithycurl":
		m, err := model.LoadPaths(ctx, modelPath)
		if err != nil {
			fail(err)
		}
		c, err := client.New(m, "com.amazonaws.s3#AmazonS3", endpoint, client.WithAWSCredentials(awse2e.Credentials))
		if err != nil {
			fail(err)
		}
		defer c.Close()
		opts := s3transfer.Options{PartSize: partSize, Threshold: partSize, Concurrency: concurrency}
		run = func() error {
			if dir == "up" {
				_, err := s3transfer.UploadFile(ctx, c, bucket, key, file, opts)
				return err
			}
			_, err := s3transfer.DownloadFile(ctx, c, bucket, key, file, opts)
			return err
		}
	case "manager":
		creds := awse2e.Credentials
		c := s3.NewFromConfig(aws.Config{
			Region: creds.Region,
			Credentials: aws.NewCredentialsCache(aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return aws.Credentials{AccessKeyID: creds.AccessKeyID, SecretAccessKey: creds.SecretAccessKey, Source: "bench"}, nil
			})),
		}, func(o *s3.Options) {
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = true
		})
		run = func() error {
			if dir == "up" {
				f, err := os.Open(file)
				if err != nil {
					return err
				}
				defer f.Close()
				u := manager.NewUploader(c, func(u *manager.Uploader) { u.PartSize, u.Concurrency = partSize, concurrency })
				_, err = u.Upload(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: f})
				return err
			}
			f, err := os.Create(file)
			if err != nil {
				return err
			}
			d := manager.NewDownloader(c, func(d *manager.Downloader) { d.PartSize, d.Concurrency = partSize, concurrency })
			_, err = d.Download(ctx, f, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}
	default:
		fail(fmt.Errorf("unknown side %q", who))
	}
	if path := os.Getenv("BENCH_CPUPROFILE"); path != "" { // where the CPU goes
		f, err := os.Create(path)
		if err != nil {
			fail(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	if err := run(); err != nil {
		fail(err)
	}
	fmt.Printf("%.3f\n", time.Since(t0).Seconds())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "transfer:", err)
	os.Exit(1)
}
