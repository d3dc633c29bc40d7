package bench

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/model"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// S3 PutObject then GetObject of the same object (1 KiB and 1 MiB) on
// s3rver, path-style to 127.0.0.1, one client each, sequential: smithycurl
// with the body streamed, as bytes beside the document, as base64 in the
// document and through the typed client (BenchmarkS3 says how), and
// aws-sdk-go-v2's S3 client. All compute a CRC32 request checksum (the
// SDK's default; the smithycurl input asks for it) and, but the streamed
// body (UNSIGNED-PAYLOAD, as the SDKs stream), sign the payload's SHA-256
// (plain HTTP). BenchmarkS3 prints the ratios of the CPU per
// PutObject+GetObject.

const (
	s3Service = "com.amazonaws.s3#AmazonS3"
	s3Bucket  = "smithycurl-bench"
)

var (
	s3Once     sync.Once
	s3Err      error
	s3Endpoint string
	s3Model    *model.Model
)

func s3Setup(b testing.TB) {
	emu := awse2e.Start(b)
	s3Once.Do(func() {
		s3Endpoint = emu.S3rver
		s3Model, s3Err = model.LoadPaths(context.Background(), shareddata.Path(b, "models", "aws-large", "s3.json"))
		if s3Err != nil {
			return
		}
		c, err := newS3Smithycurl()
		if err != nil {
			s3Err = err
			return
		}
		defer c.Close()
		_, err = c.Call(context.Background(), "CreateBucket", []byte(`{"Bucket": "`+s3Bucket+`"}`))
		var ce *client.Error
		if err != nil && !(errors.As(err, &ce) && strings.HasPrefix(ce.Code, "BucketAlready")) {
			s3Err = err
		}
	})
	if s3Err != nil {
		b.Fatal(s3Err)
	}
}

func newS3Smithycurl() (*client.Client, error) {
	return client.New(s3Model, s3Service, s3Endpoint, client.WithAWSCredentials(awse2e.Credentials))
}

func newS3SDK() *s3.Client {
	creds := awse2e.Credentials
	cfg := aws.Config{
		Region: creds.Region,
		Credentials: aws.NewCredentialsCache(aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: creds.AccessKeyID, SecretAccessKey: creds.SecretAccessKey, Source: "bench"}, nil
		})),
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(s3Endpoint)
		o.UsePathStyle = true
	})
}

// s3Pair is one client's PutObject+GetObject of data under key, checking
// what came back (check).
type s3Pair struct {
	name string
	pair func() error
}

// typedS3Pair, set by typed_s3_test.go (build tag typedbench: make
// bench-aws generates the typed S3 package first), makes the typed Go
// client's pair.
var typedS3Pair func(ctx context.Context, key string, data []byte, check func([]byte) error) (s3Pair, func(), error)

// BenchmarkS3 runs, per size, b.N rounds of one PutObject+GetObject pair
// from each client in turn, in a random order each round (interleaved, so
// that the load of a shared machine falls on all alike), and reports each one's CPU time per pair
// (this process's user+system time around the pair, GC and runtime
// included) and the ratios to aws-sdk-go-v2; ns/op is a round's wall time.
// smithycurl's ways to move the body: streamed (WithBodyReader and
// WithBodyWriter), as bytes beside the document (WithPayload and
// WithPayloadOutput into one slice for every object, as the SDK's pair
// reads into one buffer; also through the client's engine, ViaEngine, whose
// callers wait on a channel, not in a blocking libcurl call), as base64 in the document (the output decoded with
// typed.JSON, the sonic configuration generated code uses: encoding/json
// alone takes ~10 ms to decode 1.4 MB of base64), and the typed client's
// []byte (with -tags typedbench).
func BenchmarkS3(b *testing.B) {
	s3Setup(b)
	ctx := context.Background()
	sc, err := newS3Smithycurl()
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Close()
	sdk := newS3SDK()
	for _, size := range []struct {
		name string
		n    int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		data := make([]byte, size.n)
		rand.NewChaCha8([32]byte{1}).Read(data)
		// Each client its own object.
		keyOf := func(client string) string { return "bench/" + size.name + "/" + client }
		check := func(got []byte) error {
			if len(got) == 0 {
				return errEmptyBody
			}
			if !bytes.Equal(got, data) {
				return fmt.Errorf("GetObject: %d bytes, not the %d put", len(got), len(data))
			}
			return nil
		}
		var buf bytes.Buffer
		payload := make([]byte, 0, size.n) // the bytes pairs' output slice
		inputs := func(client string) (put, get, doc []byte) {
			key := keyOf(client)
			put = []byte(`{"Bucket": "` + s3Bucket + `", "Key": "` + key + `", "ChecksumAlgorithm": "CRC32", "Metadata": {"colour": "blue"}}`)
			get = []byte(`{"Bucket": "` + s3Bucket + `", "Key": "` + key + `", "ChecksumMode": "ENABLED"}`)
			doc = []byte(`{"Bucket": "` + s3Bucket + `", "Key": "` + key + `", "ChecksumAlgorithm": "CRC32", "Metadata": {"colour": "blue"}, "Body": "` +
				base64.StdEncoding.EncodeToString(data) + `"}`)
			return put, get, doc
		}
		putIn, getIn, _ := inputs("smithycurl")
		putBytes, getBytes, _ := inputs("smithycurl-bytes")
		putEngine, getEngine, _ := inputs("smithycurl-bytes-engine")
		_, getDoc, docIn := inputs("smithycurl-document")
		clients := []s3Pair{
			{"smithycurl", func() error {
				if _, err := sc.Call(ctx, "PutObject", putIn, client.WithBodyReader(bytes.NewReader(data), int64(len(data)))); err != nil {
					return err
				}
				buf.Reset()
				if _, err := sc.Call(ctx, "GetObject", getIn, client.WithBodyWriter(&buf)); err != nil {
					return err
				}
				return check(buf.Bytes())
			}},
			{"smithycurl-bytes", func() error {
				if _, err := sc.Call(ctx, "PutObject", putBytes, client.WithPayload(data)); err != nil {
					return err
				}
				body := payload[:0] // one slice for every object, as the SDK's buffer
				if _, err := sc.Call(ctx, "GetObject", getBytes, client.WithPayloadOutput(&body)); err != nil {
					return err
				}
				return check(body)
			}},
			{"smithycurl-bytes-engine", func() error {
				if _, err := sc.Call(ctx, "PutObject", putEngine, client.WithPayload(data), client.ViaEngine()); err != nil {
					return err
				}
				body := payload[:0]
				if _, err := sc.Call(ctx, "GetObject", getEngine, client.WithPayloadOutput(&body), client.ViaEngine()); err != nil {
					return err
				}
				return check(body)
			}},
			{"smithycurl-document", func() error {
				if _, err := sc.Call(ctx, "PutObject", docIn); err != nil {
					return err
				}
				out, err := sc.Call(ctx, "GetObject", getDoc)
				if err != nil {
					return err
				}
				var got struct{ Body []byte }
				if err := typed.JSON.Unmarshal(out, &got); err != nil {
					return err
				}
				return check(got.Body)
			}},
		}
		if typedS3Pair != nil {
			p, closeTyped, err := typedS3Pair(ctx, keyOf("smithycurl-typed"), data, check)
			if err != nil {
				b.Fatal(err)
			}
			defer closeTyped()
			clients = append(clients, p)
		}
		sdkKey := keyOf("aws-sdk-go-v2")
		clients = append(clients, s3Pair{"aws-sdk-go-v2", func() error {
			_, err := sdk.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s3Bucket), Key: aws.String(sdkKey),
				Body: bytes.NewReader(data), Metadata: map[string]string{"colour": "blue"}})
			if err != nil {
				return err
			}
			out, err := sdk.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s3Bucket), Key: aws.String(sdkKey)})
			if err != nil {
				return err
			}
			buf.Reset()
			_, err = buf.ReadFrom(out.Body)
			out.Body.Close()
			if err != nil {
				return err
			}
			return check(buf.Bytes())
		}})
		b.Run(size.name, func(b *testing.B) {
			for _, c := range clients { // warm-up: connections, caches
				if err := c.pair(); err != nil {
					b.Fatalf("%s: %v", c.name, err)
				}
			}
			cpu := make([]time.Duration, len(clients))
			empty := 0 // pairs done again: s3rver answered an empty body
			order := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// A new order each round: the garbage one client leaves is
				// collected during whichever comes next.
				for _, j := range order.Perm(len(clients)) {
					c := clients[j]
					for try := 1; ; try++ {
						start := cpuTime()
						err := c.pair()
						if err == nil {
							cpu[j] += cpuTime() - start
							break
						}
						if !errors.Is(err, errEmptyBody) || try == 3 {
							b.Fatalf("%s: %v", c.name, err)
						}
						empty++
					}
				}
			}
			b.StopTimer()
			sdkCPU := cpu[len(cpu)-1]
			line := fmt.Sprintf("S3 PutObject+GetObject %s, CPU per pair over %d interleaved rounds (aws-sdk-go-v2 %.0f µs):", size.name, b.N, perPair(sdkCPU, b.N))
			for j, c := range clients {
				b.ReportMetric(float64(cpu[j].Microseconds())/float64(b.N), c.name+"-cpu-µs/pair")
				if j < len(cpu)-1 {
					b.ReportMetric(float64(cpu[j])/float64(sdkCPU), c.name+"/sdk")
					line += fmt.Sprintf(" %s %.0f µs %.2fx,", c.name, perPair(cpu[j], b.N), float64(cpu[j])/float64(sdkCPU))
				}
			}
			if b.N > 1 {
				fmt.Printf("%s (%d pairs done again: s3rver's empty answers)\n", strings.TrimSuffix(line, ","), empty)
			}
		})
	}
}

// errEmptyBody is a GetObject that answered no bytes: s3rver, loaded,
// does so now and then for an object just written (the AWS SDK's pairs
// too); such a pair is done again, its CPU not counted.
var errEmptyBody = errors.New("GetObject: an empty body")

func perPair(d time.Duration, n int) float64 { return float64(d.Microseconds()) / float64(n) }
