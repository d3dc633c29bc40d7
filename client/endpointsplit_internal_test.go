package client

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/wire"
)

// TestEndpointParamsFromTheSplit: a call's endpoint parameters are read
// from the input's members as the codec split them (wire.Request.Input),
// not from the input's text again: given a split, the text is not read.
func TestEndpointParamsFromTheSplit(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	m, err := model.LoadPaths(context.Background(), filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, "com.amazonaws.dynamodb#DynamoDB_20120810", "", WithRegion("us-east-1"),
		WithBuiltIn("AWS::Auth::AccountIdEndpointMode", "preferred"), WithAWSCredentials(AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "s"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	op, err := c.svc.Operation("DescribeTable")
	if err != nil {
		t.Fatal(err)
	}
	split := &wire.Members{Names: []string{"TableName"}, Values: [][]byte{[]byte(`"arn:aws:dynamodb:us-east-1:222222222222:table/t"`)}}
	ep, err := c.resolveEndpointOf(op, []byte(`{"TableName": "not this one: the text is not read"}`), split, "")
	if err != nil {
		t.Fatal(err)
	}
	if ep.base.Host != "222222222222.ddb.us-east-1.amazonaws.com" {
		t.Errorf("endpoint %s, want the account endpoint of the split's table ARN", ep.base)
	}
}
