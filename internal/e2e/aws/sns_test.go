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

const (
	snsService = "com.amazonaws.sns#AmazonSimpleNotificationService"
	sqsService = "com.amazonaws.sqs#AmazonSQS"
)

// SNS (awsQuery: form-encoded requests, XML responses) against fauxqs, with
// an SQS queue (awsJson1_0 with awsQueryCompatible) subscribed to the topic.
func TestSNS(t *testing.T) {
	emu := Start(t)
	sns := newClient(t, "sns.json", snsService, emu.Fauxqs)
	sqs := newClient(t, "sqs.json", sqsService, emu.Fauxqs)
	name := fmt.Sprintf("smithycurl-e2e-%d", time.Now().UnixNano())

	topic := call(t, sns, "CreateTopic", `{"Name": "`+name+`", "Tags": [{"Key": "team", "Value": "a&b"}]}`)
	arn, _ := topic["TopicArn"].(string)
	if !strings.HasSuffix(arn, ":"+name) {
		t.Fatalf("CreateTopic: %v", topic)
	}
	q := call(t, sqs, "CreateQueue", `{"QueueName": "`+name+`"}`)
	queueURL, _ := q["QueueUrl"].(string)
	qa := call(t, sqs, "GetQueueAttributes", `{"QueueUrl": "`+queueURL+`", "AttributeNames": ["QueueArn"]}`)
	queueArn, _ := get(qa, "Attributes", "QueueArn").(string)
	sub := call(t, sns, "Subscribe", `{"TopicArn": "`+arn+`", "Protocol": "sqs", "Endpoint": "`+queueArn+`",
		"Attributes": {"RawMessageDelivery": "true"}, "ReturnSubscriptionArn": true}`)
	if s, _ := sub["SubscriptionArn"].(string); !strings.HasPrefix(s, arn) {
		t.Errorf("Subscribe: %v", sub)
	}

	pub := call(t, sns, "Publish", `{"TopicArn": "`+arn+`", "Message": "héllo <world> & all",
		"MessageAttributes": {"color": {"DataType": "String", "StringValue": "red"}}}`)
	if id, _ := pub["MessageId"].(string); id == "" {
		t.Errorf("Publish: %v", pub)
	}
	var got any
	waitFor(t, "the published message in the queue", func() bool {
		out := call(t, sqs, "ReceiveMessage", `{"QueueUrl": "`+queueURL+`", "MessageAttributeNames": ["All"], "WaitTimeSeconds": 0}`)
		got = get(out, "Messages", 0)
		return got != nil
	})
	if body := get(got, "Body"); body != "héllo <world> & all" {
		t.Errorf("received %v", got)
	}

	found := false
	for next := ""; ; {
		in := `{}`
		if next != "" {
			in = `{"NextToken": "` + next + `"}`
		}
		out := call(t, sns, "ListTopics", in)
		for i := 0; get(out, "Topics", i) != nil; i++ {
			if get(out, "Topics", i, "TopicArn") == arn {
				found = true
			}
		}
		next, _ = out["NextToken"].(string)
		if next == "" || found {
			break
		}
	}
	if !found {
		t.Errorf("ListTopics does not list %s", arn)
	}

	// A modeled error from the XML error envelope, with its awsQuery code.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := sns.Call(ctx, "GetTopicAttributes", []byte(`{"TopicArn": "`+arn+`-missing"}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != "com.amazonaws.sns#NotFoundException" ||
		e.Code != "NotFound" || e.Status != 404 || !strings.Contains(string(e.Members), `"message":`) {
		t.Errorf("GetTopicAttributes of a missing topic: %#v", err)
	}
	call(t, sns, "DeleteTopic", `{"TopicArn": "`+arn+`"}`)
	call(t, sqs, "DeleteQueue", `{"QueueUrl": "`+queueURL+`"}`)
}
