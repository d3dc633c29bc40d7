package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/faultserver"
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
