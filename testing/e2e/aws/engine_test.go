package awse2e

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// TestDynamoDBViaEngine: 500 PutItems and then 500 GetItems at once
// against dynalite, through one client WithEngine (50 transfers at once);
// every item read back is the one written.
func TestDynamoDBViaEngine(t *testing.T) {
	const n = 500
	emu := Start(t)
	c, err := client.New(loadModel(t, "dynamodb.json"), dynamoDBService, emu.DynamoDB, client.WithAWSCredentials(Credentials),
		client.WithTimeout(60*time.Second), client.WithEngine(), client.WithEngineLimits(50, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	table := fmt.Sprintf("smithycurl-e2e-engine-%d", time.Now().UnixNano())
	call(t, c, "CreateTable", fmt.Sprintf(`{
		"TableName": %q,
		"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
		"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
	}`, table))
	defer call(t, c, "DeleteTable", fmt.Sprintf(`{"TableName": %q}`, table))
	waitFor(t, "table ACTIVE", func() bool {
		d := call(t, c, "DescribeTable", fmt.Sprintf(`{"TableName": %q}`, table))
		return get(d, "Table", "TableStatus") == "ACTIVE"
	})

	fanOut := func(what string, one func(ctx context.Context, i int) error) {
		t.Helper()
		var wg sync.WaitGroup
		var fails atomic.Int64
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				if err := one(ctx, i); err != nil && fails.Add(1) < 5 {
					t.Errorf("%s %d: %v", what, i, err)
				}
			}()
		}
		wg.Wait()
		if f := fails.Load(); f > 0 {
			t.Fatalf("%s: %d of %d failed", what, f, n)
		}
	}
	fanOut("PutItem", func(ctx context.Context, i int) error {
		_, err := c.Call(ctx, "PutItem", fmt.Appendf(nil, `{"TableName": %q, "Item": {"pk": {"S": "k%d"}, "n": {"N": "%d"}}}`, table, i, i*7))
		return err
	})
	fanOut("GetItem", func(ctx context.Context, i int) error {
		out, err := c.Call(ctx, "GetItem", fmt.Appendf(nil, `{"TableName": %q, "Key": {"pk": {"S": "k%d"}}, "ConsistentRead": true}`, table, i))
		if err != nil {
			return err
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			return err
		}
		if get(v, "Item", "pk", "S") != fmt.Sprintf("k%d", i) || get(v, "Item", "n", "N") != fmt.Sprint(i*7) {
			return fmt.Errorf("got %s", out)
		}
		return nil
	})
}
