package awse2e

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// TestDynamoDBWaiters: the model's TableExists and TableNotExists waiters
// (DescribeTable: success on TableStatus ACTIVE, retry on
// ResourceNotFoundException; success on ResourceNotFoundException) against
// dynalite, with the table created and deleted while the waiters poll.
func TestDynamoDBWaiters(t *testing.T) {
	em := Start(t)
	c := newClient(t, "dynamodb.json", dynamoDBService, em.DynamoDB)
	table := fmt.Sprintf("waiters-%d", time.Now().UnixNano())
	key := `{"TableName": "` + table + `"}`
	ctx := context.Background()
	delays := client.WithWaitDelays(50*time.Millisecond, 200*time.Millisecond)
	var attempts int
	count := client.WithWaitObserver(func(client.WaitAttempt) { attempts++ })

	time.AfterFunc(300*time.Millisecond, func() {
		c.Call(ctx, "CreateTable", []byte(`{"TableName": "`+table+`", "BillingMode": "PAY_PER_REQUEST",
			"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
			"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}`))
	})
	start := time.Now()
	out, err := c.Wait(ctx, "TableExists", []byte(key), 20*time.Second, delays, count)
	if err != nil {
		t.Fatalf("TableExists: %v", err)
	}
	t.Logf("TableExists: %d attempts, %s", attempts, time.Since(start).Round(time.Millisecond))
	if attempts < 2 {
		t.Errorf("TableExists succeeded at once (%d attempts): the table was created after 300 ms", attempts)
	}
	// The output is the last DescribeTable's, in the document form.
	if !strings.Contains(string(out), `"TableStatus":"ACTIVE"`) || !strings.Contains(string(out), `"CreationDateTime":"20`) {
		t.Errorf("TableExists output: %s", out)
	}
	if _, err := c.Wait(ctx, "TableExists", []byte(key), 20*time.Second, delays); err != nil {
		t.Fatalf("TableExists on an existing table: %v", err)
	}

	attempts = 0
	time.AfterFunc(300*time.Millisecond, func() { c.Call(ctx, "DeleteTable", []byte(key)) })
	start = time.Now()
	if _, err := c.Wait(ctx, "TableNotExists", []byte(key), 20*time.Second, delays, count); err != nil {
		t.Fatalf("TableNotExists: %v", err)
	}
	t.Logf("TableNotExists: %d attempts, %s", attempts, time.Since(start).Round(time.Millisecond))
	if attempts < 2 {
		t.Errorf("TableNotExists succeeded at once (%d attempts)", attempts)
	}

	// A table that never comes: the waiter gives up at maxWait.
	start = time.Now()
	_, err = c.Wait(ctx, "TableExists", []byte(`{"TableName": "never-`+table+`"}`), 400*time.Millisecond, delays)
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindWaiterTimeout {
		t.Fatalf("never: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the timeout took %s for a maxWait of 400ms", took)
	}
}
