package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
)

// rpcTickers are the ticker's services in the RPC protocols, where the
// initial response is the stream's first message.
var rpcTickers = []string{"TickerJson10", "TickerJson11", "TickerCbor", "TickerRpcJson"}

const rpcNS = "smithycurl.test.events.rpc"

// Response event streams of the four RPC protocols: the initial response
// from the initial-response event, events in JSON or CBOR as they arrive,
// every ending (exception event, error message, cut, corrupt, unknown
// event), an error response, over HTTP/1.1 and h2c.
func TestCallStreamRPC(t *testing.T) {
	for _, svc := range rpcTickers {
		t.Run(svc, func(t *testing.T) {
			for _, v := range []struct {
				name string
				v    transport.HTTPVersion
			}{{"HTTP1.1", transport.HTTPVersion1}, {"h2c", transport.HTTPVersion2PriorKnowledge}} {
				t.Run(v.name, func(t *testing.T) {
					c := eventClient(t, eventserver.RPCModel, rpcNS+"#"+svc, client.WithHTTPVersion(v.v))
					testRPCTicks(t, c)
					testEndings(t, c, rpcNS)
					_, err := c.CallStream(context.Background(), "Tick", []byte(`{"count":1,"fail":"refuse"}`))
					var e *client.Error
					if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != rpcNS+"#BadRequest" || e.Status != 400 ||
						!strings.Contains(e.Error(), "refused as asked") {
						t.Errorf("refused: %v", err)
					}
				})
			}
		})
	}
}

func testRPCTicks(t *testing.T, c *client.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	s, err := c.CallStream(ctx, "Tick", []byte(`{"count":3,"intervalMs":150}`))
	if err != nil {
		t.Fatal(err)
	}
	opened := time.Since(start)
	defer s.Close()
	if string(s.Initial()) != `{"session":"s-1"}` {
		t.Errorf("initial %s", s.Initial())
	}
	got, at, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("events %v", got)
	}
	for i, ev := range got {
		if ev != tickDoc(i) {
			t.Errorf("event %d: %s, want %s", i, ev, tickDoc(i))
		}
	}
	if d := at[2].Sub(at[0]); d < 200*time.Millisecond {
		t.Errorf("the events came together (%v apart), not as they were sent: opened after %v, events at %v, %v, %v after the call", d, opened,
			at[0].Sub(start), at[1].Sub(start), at[2].Sub(start))
	}
}

// SubscribeToShard of the real Kinesis model (awsJson1_1) against a server
// that answers as Kinesis does (kinesalite has no SubscribeToShard): the
// request signed with SigV4, the initial-response event, a
// SubscribeToShardEvent (every member in the JSON payload), then a
// modeled exception event.
func TestSubscribeToShardKinesisModel(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "models", "aws", "kinesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reqErr error
	check := func(r *http.Request, body []byte) error {
		switch {
		case r.Header.Get("X-Amz-Target") != "Kinesis_20131202.SubscribeToShard":
			return fmt.Errorf("X-Amz-Target %q", r.Header.Get("X-Amz-Target"))
		case r.Header.Get("Content-Type") != "application/x-amz-json-1.1":
			return fmt.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		case !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"):
			return fmt.Errorf("Authorization %q", r.Header.Get("Authorization"))
		case !uuidV4Form.MatchString(r.Header.Get("Amz-Sdk-Invocation-Id")) || r.Header.Get("Amz-Sdk-Request") != "attempt=1; max=3" ||
			!strings.Contains(r.Header.Get("Authorization"), "amz-sdk-invocation-id;amz-sdk-request;"):
			return fmt.Errorf("the SDK headers, signed: %q, %q in %q", r.Header.Get("Amz-Sdk-Invocation-Id"), r.Header.Get("Amz-Sdk-Request"), r.Header.Get("Authorization"))
		case string(body) != `{"ConsumerARN":"arn:aws:kinesis:us-east-1:123456789012:stream/s/consumer/c:1","ShardId":"shardId-000000000000","StartingPosition":{"Type":"LATEST"}}`:
			return fmt.Errorf("body %s", body)
		}
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if reqErr = check(r, body); reqErr != nil {
			w.WriteHeader(400)
			return
		}
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Header().Set("X-Amzn-Requestid", "req-1")
		str := func(name, v string) eventstream.Header {
			return eventstream.Header{Name: name, Value: eventstream.StringValue(v)}
		}
		for _, msg := range []eventstream.Message{
			{Headers: []eventstream.Header{str(":message-type", "event"), str(":event-type", "initial-response"), str(":content-type", "application/json")},
				Payload: []byte(`{}`)},
			{Headers: []eventstream.Header{str(":message-type", "event"), str(":event-type", "SubscribeToShardEvent"), str(":content-type", "application/json")},
				Payload: []byte(`{"ChildShards":[],"ContinuationSequenceNumber":"4959","MillisBehindLatest":0,"Records":[{"ApproximateArrivalTimestamp":1.7000000005E9,"Data":"aGVsbG8=","PartitionKey":"pk","SequenceNumber":"4958"}]}`)},
			{Headers: []eventstream.Header{str(":message-type", "exception"), str(":exception-type", "ResourceInUseException"), str(":content-type", "application/json")},
				Payload: []byte(`{"message":"Another active subscription exists for this consumer"}`)},
		} {
			b, _ := eventstream.Append(nil, msg)
			w.Write(b)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	c, err := client.New(m, "com.amazonaws.kinesis#Kinesis_20131202", srv.URL, client.WithRegion("us-east-1"),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.HasEventStream("SubscribeToShard") {
		t.Fatal("SubscribeToShard is not an event stream")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.CallStream(ctx, "SubscribeToShard", []byte(`{"ConsumerARN":"arn:aws:kinesis:us-east-1:123456789012:stream/s/consumer/c:1",
		"ShardId":"shardId-000000000000","StartingPosition":{"Type":"LATEST"}}`))
	if err != nil {
		t.Fatalf("%v (server: %v)", err, reqErr)
	}
	defer s.Close()
	if string(s.Initial()) != `{}` {
		t.Errorf("initial %s", s.Initial())
	}
	got, _, err := collect(t, s)
	want := `{"SubscribeToShardEvent":{"ChildShards":[],"ContinuationSequenceNumber":"4959","MillisBehindLatest":0,` +
		`"Records":[{"ApproximateArrivalTimestamp":"2023-11-14T22:13:20.5Z","Data":"aGVsbG8=","PartitionKey":"pk","SequenceNumber":"4958"}]}}`
	if len(got) != 1 || got[0] != want {
		t.Errorf("events %v\nwant %s", got, want)
	}
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != "com.amazonaws.kinesis#ResourceInUseException" ||
		!strings.Contains(e.Error(), "Another active subscription") {
		t.Errorf("error %v", err)
	}
}
