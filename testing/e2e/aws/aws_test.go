package awse2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Stop()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

const (
	dynamoDBService = "com.amazonaws.dynamodb#DynamoDB_20120810"
	kinesisService  = "com.amazonaws.kinesis#Kinesis_20131202"
)

var models sync.Map // file name -> *model.Model

// loadModel loads an AWS model from the shared folder (once per file).
func loadModel(tb testing.TB, file string) *model.Model {
	tb.Helper()
	if m, ok := models.Load(file); ok {
		return m.(*model.Model)
	}
	path := shareddata.Path(tb, "models", "aws", file)
	m, err := model.LoadPaths(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	models.Store(file, m)
	return m
}

// newClient returns a client for service at endpoint, signing with the fake
// credentials.
func newClient(tb testing.TB, file string, service model.ShapeID, endpoint string) *client.Client {
	tb.Helper()
	c, err := client.New(loadModel(tb, file), service, endpoint, client.WithAWSCredentials(Credentials), client.WithTimeout(20*time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// call sends op and decodes its output into a generic value.
func call(t *testing.T, c *client.Client, op, input string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := c.Call(ctx, op, []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: output %s: %v", op, out, err)
	}
	return v
}

// get follows a path of object keys and list indexes through v.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// waitFor polls until cond holds (the emulators may be run with creation
// delays), for at most 15 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: timed out", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestDynamoDB(t *testing.T) {
	emu := Start(t)
	c := newClient(t, "dynamodb.json", dynamoDBService, emu.DynamoDB)
	table := fmt.Sprintf("smithycurl-e2e-%d", time.Now().UnixNano())

	created := call(t, c, "CreateTable", fmt.Sprintf(`{
		"TableName": %q,
		"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
		"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
	}`, table))
	if got := get(created, "TableDescription", "TableName"); got != table {
		t.Fatalf("CreateTable: table name %v", got)
	}
	if _, ok := get(created, "TableDescription", "CreationDateTime").(string); !ok {
		t.Errorf("CreateTable: CreationDateTime not decoded as a timestamp: %v", get(created, "TableDescription"))
	}
	defer func() {
		deleted := call(t, c, "DeleteTable", fmt.Sprintf(`{"TableName": %q}`, table))
		if got := get(deleted, "TableDescription", "TableName"); got != table {
			t.Errorf("DeleteTable: %v", deleted)
		}
	}()
	waitFor(t, "table ACTIVE", func() bool {
		d := call(t, c, "DescribeTable", fmt.Sprintf(`{"TableName": %q}`, table))
		return get(d, "Table", "TableStatus") == "ACTIVE"
	})

	for i, sk := range []string{"a#1", "a#2", "b#1"} {
		call(t, c, "PutItem", fmt.Sprintf(`{"TableName": %q, "Item": {
			"pk": {"S": "user-1"}, "sk": {"S": %q}, "n": {"N": "%d"}, "bin": {"B": "AAEC/w=="},
			"tags": {"SS": ["x", "y"]}, "ok": {"BOOL": true}, "nested": {"M": {"l": {"L": [{"NULL": true}, {"S": "é"}]}}}
		}}`, table, sk, i+1))
	}

	got := call(t, c, "GetItem", fmt.Sprintf(`{"TableName": %q, "Key": {"pk": {"S": "user-1"}, "sk": {"S": "a#2"}}, "ConsistentRead": true}`, table))
	item, _ := get(got, "Item").(map[string]any)
	if get(item, "n", "N") != "2" || get(item, "bin", "B") != "AAEC/w==" || get(item, "ok", "BOOL") != true ||
		get(item, "nested", "M", "l", "L", 1, "S") != "é" || get(item, "nested", "M", "l", "L", 0, "NULL") != true {
		t.Errorf("GetItem: %v", got)
	}

	q := call(t, c, "Query", fmt.Sprintf(`{"TableName": %q,
		"KeyConditionExpression": "pk = :p AND begins_with(sk, :prefix)",
		"ExpressionAttributeValues": {":p": {"S": "user-1"}, ":prefix": {"S": "a#"}}}`, table))
	if get(q, "Count") != float64(2) || get(q, "Items", 0, "sk", "S") != "a#1" || get(q, "Items", 1, "sk", "S") != "a#2" {
		t.Errorf("Query: %v", q)
	}

	u := call(t, c, "UpdateItem", fmt.Sprintf(`{"TableName": %q, "Key": {"pk": {"S": "user-1"}, "sk": {"S": "a#1"}},
		"UpdateExpression": "SET #n = #n + :inc, note = :note",
		"ExpressionAttributeNames": {"#n": "n"},
		"ExpressionAttributeValues": {":inc": {"N": "41"}, ":note": {"S": "updated"}},
		"ReturnValues": "UPDATED_NEW"}`, table))
	if get(u, "Attributes", "n", "N") != "42" || get(u, "Attributes", "note", "S") != "updated" {
		t.Errorf("UpdateItem: %v", u)
	}

	// A conditional put on an existing key fails with the modeled error.
	_, err := c.Call(context.Background(), "PutItem", []byte(fmt.Sprintf(`{"TableName": %q,
		"Item": {"pk": {"S": "user-1"}, "sk": {"S": "a#1"}},
		"ConditionExpression": "attribute_not_exists(pk)"}`, table)))
	var ce *client.Error
	if !errors.As(err, &ce) {
		t.Fatalf("conditional PutItem: %v, want an error", err)
	}
	if ce.Kind != client.KindService || ce.Shape != "com.amazonaws.dynamodb#ConditionalCheckFailedException" ||
		ce.Status != 400 || ce.Code != "ConditionalCheckFailedException" || !bytes.Contains(ce.Members, []byte(`"message"`)) {
		t.Errorf("conditional PutItem: kind %v shape %q status %d code %q members %s (%v)", ce.Kind, ce.Shape, ce.Status, ce.Code, ce.Members, ce)
	}

	// An unknown table is the modeled ResourceNotFoundException.
	_, err = c.Call(context.Background(), "GetItem", []byte(`{"TableName": "no-such-table", "Key": {"pk": {"S": "x"}}}`))
	if !errors.As(err, &ce) || ce.Shape != "com.amazonaws.dynamodb#ResourceNotFoundException" {
		t.Errorf("GetItem on a missing table: %v", err)
	}
}

func TestKinesis(t *testing.T) {
	emu := Start(t)
	c := newClient(t, "kinesis.json", kinesisService, emu.Kinesis)
	stream := fmt.Sprintf("smithycurl-e2e-%d", time.Now().UnixNano())

	call(t, c, "CreateStream", fmt.Sprintf(`{"StreamName": %q, "ShardCount": 1}`, stream))
	defer call(t, c, "DeleteStream", fmt.Sprintf(`{"StreamName": %q}`, stream))
	var shard string
	waitFor(t, "stream ACTIVE", func() bool {
		d := call(t, c, "DescribeStream", fmt.Sprintf(`{"StreamName": %q}`, stream))
		shard, _ = get(d, "StreamDescription", "Shards", 0, "ShardId").(string)
		return get(d, "StreamDescription", "StreamStatus") == "ACTIVE"
	})

	// Binary data, including bytes that are not UTF-8, must come back unchanged.
	payloads := [][]byte{{0, 1, 2, 0xff, 0xfe, '\n', '"'}, []byte("hello, kinesis"), bytes.Repeat([]byte{0x80, 0x7f}, 600)}
	one := call(t, c, "PutRecord", fmt.Sprintf(`{"StreamName": %q, "Data": %q, "PartitionKey": "p1"}`,
		stream, base64.StdEncoding.EncodeToString(payloads[0])))
	if get(one, "ShardId") != shard || get(one, "SequenceNumber") == nil {
		t.Errorf("PutRecord: %v", one)
	}
	recs := call(t, c, "PutRecords", fmt.Sprintf(`{"StreamName": %q, "Records": [
		{"Data": %q, "PartitionKey": "p2"}, {"Data": %q, "PartitionKey": "p3"}]}`, stream,
		base64.StdEncoding.EncodeToString(payloads[1]), base64.StdEncoding.EncodeToString(payloads[2])))
	if get(recs, "FailedRecordCount") != float64(0) || len(get(recs, "Records").([]any)) != 2 {
		t.Errorf("PutRecords: %v", recs)
	}

	it := call(t, c, "GetShardIterator", fmt.Sprintf(`{"StreamName": %q, "ShardId": %q, "ShardIteratorType": "TRIM_HORIZON"}`, stream, shard))
	iter, _ := get(it, "ShardIterator").(string)
	if iter == "" {
		t.Fatalf("GetShardIterator: %v", it)
	}
	out := call(t, c, "GetRecords", fmt.Sprintf(`{"ShardIterator": %q, "Limit": 10}`, iter))
	records, _ := get(out, "Records").([]any)
	if len(records) != len(payloads) {
		t.Fatalf("GetRecords: %d records, want %d: %v", len(records), len(payloads), out)
	}
	for i, r := range records {
		data, err := base64.StdEncoding.DecodeString(get(r, "Data").(string))
		if err != nil || !bytes.Equal(data, payloads[i]) {
			t.Errorf("record %d: data %x, want %x (%v)", i, data, payloads[i], err)
		}
		if _, ok := get(r, "ApproximateArrivalTimestamp").(string); !ok {
			t.Errorf("record %d: ApproximateArrivalTimestamp %v", i, get(r, "ApproximateArrivalTimestamp"))
		}
	}

	// A missing stream is the modeled ResourceNotFoundException.
	_, err := c.Call(context.Background(), "DescribeStream", []byte(`{"StreamName": "no-such-stream"}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Shape != "com.amazonaws.kinesis#ResourceNotFoundException" {
		t.Errorf("DescribeStream on a missing stream: %v", err)
	}
}

// TestDynamoDBCRC32 checks that dynalite's responses carry x-amz-crc32
// uncompressed, so the client's check of it (client/awscustom) runs on
// every call of these tests, and passes.
func TestDynamoDBCRC32(t *testing.T) {
	emu := Start(t)
	var mu sync.Mutex
	var crcs, encodings []string
	c, err := client.New(loadModel(t, "dynamodb.json"), dynamoDBService, emu.DynamoDB, client.WithAWSCredentials(Credentials),
		client.WithTimeout(20*time.Second), client.WithObserver(func(a client.Attempt) {
			if a.Response != nil {
				mu.Lock()
				crcs = append(crcs, a.Response.Header.Get("X-Amz-Crc32"))
				encodings = append(encodings, a.Response.Header.Get("Content-Encoding"))
				mu.Unlock()
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	call(t, c, "ListTables", `{}`)
	mu.Lock()
	defer mu.Unlock()
	if len(crcs) != 1 || crcs[0] == "" || encodings[0] != "" {
		t.Errorf("x-amz-crc32 %q, Content-Encoding %q: the check did not run", crcs, encodings)
	}
}
