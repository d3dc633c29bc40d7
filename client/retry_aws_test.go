package client_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/servers/faultserver"
)

// The AWS SDKs retry the throttling codes of their standard retry mode even
// when the error is modeled without @retryable: DynamoDB's
// ProvisionedThroughputExceededException on a PutItem (not idempotent) is
// retried; a modeled error that is not throttling is not; the transient
// RequestTimeoutException is retried only for idempotent operations.
func TestAWSThrottlingCodesAreRetried(t *testing.T) {
	srv := faultserver.Start()
	defer srv.Close()
	c, err := client.New(loadAWSModel(t, "dynamodb.json"), "com.amazonaws.dynamodb#DynamoDB_20120810", srv.URL, quickRetries,
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dynamo := func(code string) faultserver.Fault {
		return faultserver.Respond(400, faultserver.Header{"Content-Type: application/x-amz-json-1.0"},
			`{"__type":"com.amazonaws.dynamodb.v20120810#`+code+`","message":"m"}`)
	}
	ok := faultserver.Respond(200, faultserver.Header{"Content-Type: application/x-amz-json-1.0"}, `{}`)
	put := `{"TableName": "t", "Item": {"k": {"S": "v"}}}`
	for _, tc := range []struct {
		name, op, code string
		hits           int
		wantOK         bool
	}{
		{"modeled throttling", "PutItem", "ProvisionedThroughputExceededException", 2, true},
		{"unmodeled throttling", "PutItem", "ThrottlingException", 2, true},
		{"modeled, not throttling", "PutItem", "ConditionalCheckFailedException", 1, false},
		{"transient, not idempotent", "PutItem", "RequestTimeoutException", 1, false},
	} {
		srv.Handle("/", dynamo(tc.code), ok)
		before := srv.Hits("/")
		_, err := c.Call(context.Background(), tc.op, []byte(put))
		if got := srv.Hits("/") - before; got != tc.hits || (err == nil) != tc.wantOK {
			t.Errorf("%s (%s): %d requests, err %v; want %d requests, success %v", tc.name, tc.code, got, err, tc.hits, tc.wantOK)
		}
		if err != nil && !strings.Contains(err.Error(), tc.code) {
			t.Errorf("%s: error %v does not name %s", tc.name, err, tc.code)
		}
	}
}

// The retry quota: retries take 5 tokens each, successes give back 1 (or
// what their last retry took); a retry the quota cannot pay is not made,
// and the error says so.
func TestRetryQuota(t *testing.T) {
	r := newFaultRig(t, client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: time.Second, Quota: 10}))
	r.srv.Handle("/read/down", faultserver.Status(503))
	r.srv.Handle("/read/up", faultserver.JSON(200, okBody))
	attempts := func(path string) int {
		t.Helper()
		before := r.srv.Hits(path)
		r.call("Read", `{"name": "`+strings.TrimPrefix(path, "/read/")+`"}`)
		return r.srv.Hits(path) - before
	}
	if n := attempts("/read/down"); n != 3 {
		t.Fatalf("first failing call: %d attempts, want 3 (two retries, 10 tokens)", n)
	}
	_, err := r.call("Read", `{"name": "down"}`)
	if e := wantErr(t, err, client.KindService, 1, -1); !strings.Contains(e.Error(), "retry quota is spent") {
		t.Errorf("error does not say why it was not retried: %v", e)
	}
	for i := 0; i < 5; i++ { // 5 successes: 5 tokens back, one retry's worth
		if n := attempts("/read/up"); n != 1 {
			t.Fatalf("success took %d attempts", n)
		}
	}
	if n := attempts("/read/down"); n != 2 {
		t.Errorf("failing call after 5 successes: %d attempts, want 2 (one retry paid)", n)
	}

	// Quota -1: no quota, every call gets its retries.
	r2 := newFaultRig(t, client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: time.Second, Quota: -1}))
	r2.srv.Handle("/read/down", faultserver.Status(503))
	for i := 0; i < 3; i++ {
		before := r2.srv.Hits("/read/down")
		r2.call("Read", `{"name": "down"}`)
		if n := r2.srv.Hits("/read/down") - before; n != 3 {
			t.Errorf("no quota, call %d: %d attempts, want 3", i, n)
		}
	}
}
