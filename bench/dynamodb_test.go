// Package bench compares smithycurl with aws-sdk-go-v2 on DynamoDB calls
// against dynalite on 127.0.0.1 (started by the e2e helper unless
// SMITHYCURL_DYNALITE_URL is set). It is a module of its own so that the
// AWS SDK stays out of smithycurl's go.mod. Run it with `make bench-aws`.
//
// Each benchmark reports wall time per call (ns/op) and the CPU time of this
// process per call (cpu-ns/op: user+system from getrusage, which excludes
// the emulator, a separate process).
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

const (
	service = "com.amazonaws.dynamodb#DynamoDB_20120810"
	table   = "smithycurl-bench"
)

func TestMain(m *testing.M) {
	code := m.Run()
	awse2e.Stop()
	os.Exit(code)
}

func modelPath(tb testing.TB) string {
	return shareddata.Path(tb, "models", "aws", "dynamodb.json")
}

var (
	setupOnce sync.Once
	setupErr  error
	endpoint  string
	dynModel  *model.Model
)

// setup starts dynalite, loads the model and creates the table with one item.
func setup(b *testing.B) {
	emu := awse2e.Start(b)
	setupOnce.Do(func() {
		endpoint = emu.DynamoDB
		dynModel, setupErr = model.LoadPaths(context.Background(), modelPath(b))
		if setupErr != nil {
			return
		}
		c, err := newSmithycurl()
		if err != nil {
			setupErr = err
			return
		}
		defer c.Close()
		ctx := context.Background()
		_, err = c.Call(ctx, "CreateTable", []byte(`{"TableName": "`+table+`",
			"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
			"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
			"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}`))
		var ce *client.Error
		if err != nil && !(errors.As(err, &ce) && ce.Code == "ResourceInUseException") {
			setupErr = err
			return
		}
		for deadline := time.Now().Add(15 * time.Second); ; {
			out, err := c.Call(ctx, "DescribeTable", []byte(`{"TableName": "`+table+`"}`))
			if err == nil && json.Valid(out) && containsActive(out) {
				break
			}
			if time.Now().After(deadline) {
				setupErr = errors.New("table did not become ACTIVE")
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		_, setupErr = c.Call(ctx, "PutItem", putInput)
	})
	if setupErr != nil {
		b.Fatal(setupErr)
	}
}

func containsActive(out []byte) bool {
	var v struct{ Table struct{ TableStatus string } }
	json.Unmarshal(out, &v)
	return v.Table.TableStatus == "ACTIVE"
}

func newSmithycurl() (*client.Client, error) {
	return client.New(dynModel, service, endpoint, client.WithAWSCredentials(awse2e.Credentials))
}

func newSDK() *dynamodb.Client {
	creds := awse2e.Credentials
	cfg := aws.Config{
		Region: creds.Region,
		Credentials: aws.NewCredentialsCache(aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: creds.AccessKeyID, SecretAccessKey: creds.SecretAccessKey, Source: "bench"}, nil
		})),
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(endpoint) })
}

var (
	getInput = []byte(`{"TableName": "` + table + `", "Key": {"pk": {"S": "item-1"}}}`)
	putInput = []byte(`{"TableName": "` + table + `", "Item": {"pk": {"S": "item-1"}, "name": {"S": "smithycurl"},
		"count": {"N": "42"}, "tags": {"SS": ["a", "b", "c"]}, "data": {"B": "AAECAwQFBgc="}}}`)
	sdkKey  = map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "item-1"}}
	sdkItem = map[string]types.AttributeValue{
		"pk":    &types.AttributeValueMemberS{Value: "item-1"},
		"name":  &types.AttributeValueMemberS{Value: "smithycurl"},
		"count": &types.AttributeValueMemberN{Value: "42"},
		"tags":  &types.AttributeValueMemberSS{Value: []string{"a", "b", "c"}},
		"data":  &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 3, 4, 5, 6, 7}},
	}
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs call b.N times after one warm-up call (connection set-up)
// and reports the CPU time per call, which it returns (in ns).
func measure(b *testing.B, call func() error) float64 {
	if err := call(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	perOp := float64((cpuTime() - start).Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp, "cpu-ns/op")
	return perOp
}

func BenchmarkDynamoDB(b *testing.B) {
	setup(b)
	ctx := context.Background()
	sc, err := newSmithycurl()
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Close()
	sdk := newSDK()

	b.Run("GetItem/smithycurl", func(b *testing.B) {
		measure(b, func() error { _, err := sc.Call(ctx, "GetItem", getInput); return err })
	})
	b.Run("GetItem/smithycurl+json.Unmarshal", func(b *testing.B) {
		measure(b, func() error {
			out, err := sc.Call(ctx, "GetItem", getInput)
			if err != nil {
				return err
			}
			var v map[string]any
			return json.Unmarshal(out, &v)
		})
	})
	b.Run("GetItem/aws-sdk-go-v2", func(b *testing.B) {
		measure(b, func() error {
			_, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: sdkKey})
			return err
		})
	})
	b.Run("PutItem/smithycurl", func(b *testing.B) {
		measure(b, func() error { _, err := sc.Call(ctx, "PutItem", putInput); return err })
	})
	b.Run("PutItem/aws-sdk-go-v2", func(b *testing.B) {
		measure(b, func() error {
			_, err := sdk.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: sdkItem})
			return err
		})
	})
}

// BenchmarkNewClient measures client creation: for smithycurl loading the
// DynamoDB model (JSON AST) and creating the client; for aws-sdk-go-v2
// creating the client (its model is compiled in). The first call of each
// client is included, as a process doing one call would pay for it.
func BenchmarkNewClient(b *testing.B) {
	setup(b)
	ctx := context.Background()
	path := modelPath(b)
	b.Run("smithycurl", func(b *testing.B) {
		measure(b, func() error {
			m, err := model.LoadPaths(ctx, path)
			if err != nil {
				return err
			}
			c, err := client.New(m, service, endpoint, client.WithAWSCredentials(awse2e.Credentials))
			if err != nil {
				return err
			}
			defer c.Close()
			_, err = c.Call(ctx, "GetItem", getInput)
			return err
		})
	})
	b.Run("aws-sdk-go-v2", func(b *testing.B) {
		measure(b, func() error {
			sdk := newSDK()
			_, err := sdk.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: sdkKey})
			return err
		})
	})
}
