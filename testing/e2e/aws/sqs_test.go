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

// SQS (awsJson1_0 with awsQueryCompatible) against fauxqs: a queue, a
// message with attributes sent, received with them and deleted, and the
// QueueDoesNotExist error with its query-compatible code.
func TestSQS(t *testing.T) {
	emu := Start(t)
	sqs := newClient(t, "sqs.json", sqsService, emu.Fauxqs)
	name := fmt.Sprintf("smithycurl-sqs-%d", time.Now().UnixNano())
	queueURL, _ := call(t, sqs, "CreateQueue", `{"QueueName": "`+name+`", "Attributes": {"VisibilityTimeout": "30"}}`)["QueueUrl"].(string)
	if !strings.HasSuffix(queueURL, "/"+name) {
		t.Fatalf("CreateQueue: QueueUrl %q", queueURL)
	}
	sent := call(t, sqs, "SendMessage", `{"QueueUrl": "`+queueURL+`", "MessageBody": "héllo <world> & \"all\"",
		"MessageAttributes": {"color": {"DataType": "String", "StringValue": "red"},
			"bin": {"DataType": "Binary", "BinaryValue": "AAEC/w=="},
			"n": {"DataType": "Number", "StringValue": "42"}}}`)
	id, _ := sent["MessageId"].(string)
	if id == "" || sent["MD5OfMessageBody"] == nil || sent["MD5OfMessageAttributes"] == nil {
		t.Errorf("SendMessage: %v", sent)
	}
	var msg any
	waitFor(t, "the message", func() bool {
		out := call(t, sqs, "ReceiveMessage", `{"QueueUrl": "`+queueURL+`", "MessageAttributeNames": ["All"], "MaxNumberOfMessages": 10, "WaitTimeSeconds": 0}`)
		msg = get(out, "Messages", 0)
		return msg != nil
	})
	if get(msg, "MessageId") != id || get(msg, "Body") != `héllo <world> & "all"` ||
		get(msg, "MessageAttributes", "color", "StringValue") != "red" ||
		get(msg, "MessageAttributes", "bin", "BinaryValue") != "AAEC/w==" ||
		get(msg, "MessageAttributes", "n", "StringValue") != "42" {
		t.Errorf("ReceiveMessage: %v", msg)
	}
	handle, _ := get(msg, "ReceiptHandle").(string)
	call(t, sqs, "DeleteMessage", `{"QueueUrl": "`+queueURL+`", "ReceiptHandle": "`+handle+`"}`)
	if out := call(t, sqs, "ReceiveMessage", `{"QueueUrl": "`+queueURL+`", "WaitTimeSeconds": 0}`); get(out, "Messages", 0) != nil {
		t.Errorf("the deleted message came back: %v", out)
	}
	call(t, sqs, "DeleteQueue", `{"QueueUrl": "`+queueURL+`"}`)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := sqs.Call(ctx, "GetQueueUrl", []byte(`{"QueueName": "`+name+`-missing"}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != "com.amazonaws.sqs#QueueDoesNotExist" ||
		e.Code != "AWS.SimpleQueueService.NonExistentQueue" || e.Status != 400 {
		t.Errorf("GetQueueUrl of a missing queue: %#v", err)
	}
}

// The SQS flow from the command line: the error on stdout with exit code 1.
func TestSQSFromTheCommandLine(t *testing.T) {
	emu := Start(t)
	run := cli(t, shareddata.Path(t, "models", "aws", "sqs.json"), emu.Fauxqs)
	name := fmt.Sprintf("smithycurl-sqs-cli-%d", time.Now().UnixNano())
	out, code := run("CreateQueue", `{"QueueName": "`+name+`"}`)
	var q struct{ QueueUrl string }
	if code != 0 || json.Unmarshal([]byte(out), &q) != nil || !strings.HasSuffix(q.QueueUrl, "/"+name) {
		t.Fatalf("CreateQueue: exit %d: %s", code, out)
	}
	if out, code := run("SendMessage", `{"QueueUrl": "`+q.QueueUrl+`", "MessageBody": "from the CLI",
		"MessageAttributes": {"k": {"DataType": "String", "StringValue": "v"}}}`); code != 0 || !strings.Contains(out, `"MessageId"`) {
		t.Errorf("SendMessage: exit %d: %s", code, out)
	}
	out, code = run("ReceiveMessage", `{"QueueUrl": "`+q.QueueUrl+`", "MessageAttributeNames": ["All"]}`)
	var r struct {
		Messages []struct {
			Body, ReceiptHandle string
			MessageAttributes   map[string]struct{ StringValue string }
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || len(r.Messages) != 1 || r.Messages[0].Body != "from the CLI" ||
		r.Messages[0].MessageAttributes["k"].StringValue != "v" {
		t.Fatalf("ReceiveMessage: exit %d: %s", code, out)
	}
	if out, code := run("DeleteMessage", `{"QueueUrl": "`+q.QueueUrl+`", "ReceiptHandle": "`+r.Messages[0].ReceiptHandle+`"}`); code != 0 {
		t.Errorf("DeleteMessage: exit %d: %s", code, out)
	}
	if out, code := run("DeleteQueue", `{"QueueUrl": "`+q.QueueUrl+`"}`); code != 0 {
		t.Errorf("DeleteQueue: exit %d: %s", code, out)
	}
	out, code = run("GetQueueUrl", `{"QueueName": "`+name+`"}`)
	var e struct {
		Error  string
		Status int
	}
	if code != 1 || json.Unmarshal([]byte(out), &e) != nil || e.Error != "com.amazonaws.sqs#QueueDoesNotExist" || e.Status != 400 {
		t.Errorf("GetQueueUrl of the deleted queue: exit %d: %s", code, out)
	}
}

// The SQS flow from C: examples/c/sqs.c, built by make examples.
func TestSQSFromC(t *testing.T) {
	emu := Start(t)
	bin := artifact(t, filepath.Join("build", "examples", "sqs"))
	cmd := exec.Command(bin, emu.Fauxqs, shareddata.Path(t, "models", "aws", "sqs.json"))
	cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+Credentials.AccessKeyID,
		"AWS_SECRET_ACCESS_KEY="+Credentials.SecretAccessKey)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("examples/c/sqs: %v\n%s", err, out)
	}
	for _, want := range []string{`CreateQueue: {"QueueUrl":"`, `SendMessage: {"MessageId":"`,
		`"Body":"from C & <friends>"`, `"StringValue":"red"`, "DeleteMessage: {}",
		"GetQueueUrl: service error, HTTP 400, com.amazonaws.sqs#QueueDoesNotExist (code AWS.SimpleQueueService.NonExistentQueue)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
