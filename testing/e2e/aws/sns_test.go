package awse2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/shareddata"
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

// The SNS flow from the command line: awsQuery requests and XML responses
// as a user would run them, a modeled error on stdout with exit code 1.
func TestSNSFromTheCommandLine(t *testing.T) {
	emu := Start(t)
	loadModel(t, "sns.json") // skips or fails like the Go flows when the model is missing
	shared := shareddata.Path(t)
	modelPath := filepath.Join(shared, "models", "aws", "sns.json")
	run := cli(t, modelPath, emu.Fauxqs)
	name := fmt.Sprintf("smithycurl-cli-%d", time.Now().UnixNano())
	out, code := run("CreateTopic", `{"Name": "`+name+`"}`)
	var topic struct{ TopicArn string }
	if code != 0 || json.Unmarshal([]byte(out), &topic) != nil || !strings.HasSuffix(topic.TopicArn, ":"+name) {
		t.Fatalf("CreateTopic: exit %d: %s", code, out)
	}
	if out, code := run("Publish", `{"TopicArn": "`+topic.TopicArn+`", "Message": "hi"}`); code != 0 || !strings.Contains(out, `"MessageId"`) {
		t.Fatalf("Publish: exit %d: %s", code, out)
	}
	out, code = run("GetTopicAttributes", `{"TopicArn": "`+topic.TopicArn+`-missing"}`)
	var svcErr struct {
		Error  string
		Status int
		Data   map[string]string
	}
	if code != 1 || json.Unmarshal([]byte(out), &svcErr) != nil ||
		svcErr.Error != "com.amazonaws.sns#NotFoundException" || svcErr.Status != 404 || svcErr.Data["message"] == "" {
		t.Fatalf("GetTopicAttributes of a missing topic: exit %d: %s", code, out)
	}
	if out, code := run("DeleteTopic", `{"TopicArn": "`+topic.TopicArn+`"}`); code != 0 {
		t.Fatalf("DeleteTopic: exit %d: %s", code, out)
	}
}

// The SNS flow from C: examples/c/sns.c, built by make examples.
func TestSNSFromC(t *testing.T) {
	emu := Start(t)
	loadModel(t, "sns.json")
	shared := shareddata.Path(t)
	bin := artifact(t, filepath.Join("build", "examples", "sns"))
	cmd := exec.Command(bin, emu.Fauxqs, filepath.Join(shared, "models", "aws", "sns.json"))
	cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+Credentials.AccessKeyID,
		"AWS_SECRET_ACCESS_KEY="+Credentials.SecretAccessKey)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("examples/c/sns: %v\n%s", err, out)
	}
	for _, want := range []string{`CreateTopic: {"TopicArn":"arn:aws:sns:us-east-1:000000000000:c-example"}`,
		`Publish: {"MessageId":"`, `:c-example"}`,
		"GetTopicAttributes: service error, HTTP 404, com.amazonaws.sns#NotFoundException (code NotFound)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
