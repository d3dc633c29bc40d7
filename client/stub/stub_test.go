package stub_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/stub"
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
)

// TestMain keeps the default credential chain off the network and the
// caller's files: stubbed calls need no credentials.
func TestMain(m *testing.M) {
	os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	os.Setenv("AWS_CONFIG_FILE", os.DevNull)
	os.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"} {
		os.Unsetenv(k)
	}
	os.Exit(m.Run())
}

const thingsModel = `$version: "2"
namespace ex
use aws.protocols#awsJson1_0
use aws.auth#sigv4

@awsJson1_0
@sigv4(name: "things")
service Things { version: "1", operations: [GetThing, PutThing] }

operation GetThing {
    input := { @required id: String }
    output := {
        @required
        id: String
        size: Long
        tags: Tags
        when: Timestamp
        @timestampFormat("date-time")
        at: Timestamp
    }
    errors: [NotFound]
}

operation PutThing { input := { @required id: String, data: Blob, parts: Tags } }

list Tags { member: String }

@error("client")
structure NotFound { message: String, @required id: String }
`

// stubbed returns a Stubber of service id of m and a client it answers.
func stubbed(t *testing.T, m *model.Model, id model.ShapeID, opts ...client.Option) (*stub.Stubber, *client.Client) {
	t.Helper()
	s, err := stub.New(m, id)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, id, "https://stub.invalid", append(opts, s.Option())...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, c
}

// loadSource loads a model from Smithy IDL text.
func loadSource(t *testing.T, src string) *model.Model {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("test.smithy", []byte(src))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func things(t *testing.T) (*model.Model, *stub.Stubber, *client.Client) {
	t.Helper()
	m := loadSource(t, thingsModel)
	s, c := stubbed(t, m, "ex#Things", client.WithRegion("us-east-1"))
	return m, s, c
}

// TestStubOutput: a stubbed output goes through the awsJson1_0 codec, so
// it reads as a real response does (timestamps in the document form's
// RFC 3339), with no credentials and no network.
func TestStubOutput(t *testing.T) {
	_, s, c := things(t)
	if err := s.Add("GetThing", []byte(`{"id":"a","size":3,"tags":["x","y"],"when":1700000000.5,"at":"2024-01-02T03:04:05Z"}`),
		stub.ExpectInput([]byte(`{ "id": "a" }`))); err != nil {
		t.Fatal(err)
	}
	if err := s.Add("PutThing", nil); err != nil {
		t.Fatal(err)
	}
	out, err := c.Call(context.Background(), "GetThing", []byte(`{"id":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"at":"2024-01-02T03:04:05Z","id":"a","size":3,"tags":["x","y"],"when":"2023-11-14T22:13:20.5Z"}`
	if string(out) != want {
		t.Errorf("output\n got %s\nwant %s", out, want)
	}
	if out, err := c.Call(context.Background(), "PutThing", []byte(`{"id":"b","data":"AAE="}`)); err != nil || string(out) != "{}" {
		t.Errorf("PutThing = %s, %v", out, err)
	}
	s.AssertDone(t)
}

// TestStubRefusesWrongShapes: a stub that does not fit the model is
// refused when added, naming the member path.
func TestStubRefusesWrongShapes(t *testing.T) {
	_, s, _ := things(t)
	for _, c := range []struct {
		add  func() error
		want string
	}{
		{func() error { return s.Add("GetThing", []byte(`{"id":"a","tags":["x",2]}`)) }, "output of GetThing: member tags[1]: expected a string"},
		{func() error { return s.AddError("GetThing", "NotFound", []byte(`{"id":"a","more":{"x":1}}`)) }, `error NotFound: ex#NotFound has no member "more"`},
		{func() error { return s.Add("GetThing", []byte(`{"id":"a","colour":"red"}`)) }, `output of GetThing: ex#GetThingOutput has no member "colour"`},
		{func() error { return s.Add("GetThing", []byte(`{"size":1}`)) }, "output of GetThing: member id: is required"},
		{func() error { return s.Add("GetThing", []byte(`{"id":"a","when":"yesterday"}`)) }, "member when:"},
		{func() error { return s.Add("PutThing", []byte(`{"x":1}`)) }, "the operation has none (smithy.api#Unit), found 1 members"},
		{func() error { return s.Add("GetThings", []byte(`{}`)) }, `no operation "GetThings"`},
		{func() error { return s.AddError("GetThing", "Gone", []byte(`{}`)) }, `"Gone" is not an error of operation GetThing (its errors: NotFound)`},
		{func() error { return s.AddError("GetThing", "NotFound", []byte(`{"message":"m"}`)) }, "error NotFound: member id: is required"},
		{func() error {
			return s.Add("GetThing", []byte(`{"id":"a"}`), stub.ExpectInput([]byte(`{"id":"a","parts":[1]}`)))
		}, `expected input of GetThing: ex#GetThingInput has no member "parts"`},
	} {
		err := c.add()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	if n := s.Pending(); n != 0 {
		t.Errorf("%d stubs queued, want 0", n)
	}
}

// TestStubError: a stubbed modeled error reaches the caller as the
// service's would: KindService, its shape, status and members.
func TestStubError(t *testing.T) {
	_, s, c := things(t)
	if err := s.AddError("GetThing", "NotFound", []byte(`{"message":"no such thing","id":"z"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.AddError("GetThing", "ex#NotFound", []byte(`{"id":"z"}`), stub.Status(410)); err != nil {
		t.Fatal(err)
	}
	for _, status := range []int{400, 410} {
		_, err := c.Call(context.Background(), "GetThing", []byte(`{"id":"z"}`))
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindService || ce.Shape != "ex#NotFound" || ce.Status != status || ce.Attempts != 1 {
			t.Fatalf("error %#v, want NotFound with status %d", err, status)
		}
		if status == 400 && (string(ce.Members) != `{"id":"z","message":"no such thing"}` || !strings.Contains(ce.Error(), "no such thing")) {
			t.Errorf("members %s, error %v", ce.Members, ce)
		}
	}
	s.AssertDone(t)
}

// TestStubMismatch: a call that does not match the next stub fails with
// KindUsage (an unexpected input as botocore words it), and Done reports
// it and the stubs left.
func TestStubMismatch(t *testing.T) {
	_, s, c := things(t)
	ctx := context.Background()
	s.Add("GetThing", []byte(`{"id":"a"}`), stub.ExpectInput([]byte(`{"id":"a"}`)))
	s.Add("PutThing", nil)
	_, err := c.Call(ctx, "PutThing", []byte(`{"id":"a"}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), "operation mismatch: the call is to PutThing, the next stub answers GetThing") {
		t.Errorf("wrong operation: %v", err)
	}
	_, err = c.Call(ctx, "GetThing", []byte(`{"id":"b"}`))
	if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), "Expected parameters:\n{\"id\":\"a\"},\nbut received:\n{\"id\":\"b\"}") {
		t.Errorf("wrong input: %v", err)
	}
	if _, err := c.Call(ctx, "GetThing", []byte(`{"id":"a"}`)); err != nil {
		t.Fatal(err)
	}
	err = s.Done()
	if err == nil || !strings.Contains(err.Error(), "1 stubs not used: PutThing") || !strings.Contains(err.Error(), "operation mismatch") {
		t.Errorf("Done = %v", err)
	}
	var rec recorder
	s.AssertDone(&rec)
	if len(rec.errs) != 1 {
		t.Errorf("AssertDone reported %d errors, want 1", len(rec.errs))
	}
	if _, err := c.Call(ctx, "PutThing", []byte(`{"id":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(ctx, "PutThing", []byte(`{"id":"a"}`)); err == nil || !strings.Contains(err.Error(), "no stub is left") {
		t.Errorf("a call with no stub left: %v", err)
	}
}

type recorder struct {
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, format)
}

// TestStubActivate: a Stubber activated on a client made already answers
// its calls until deactivated; then the client calls its endpoint again.
func TestStubActivate(t *testing.T) {
	m, _, _ := things(t)
	c, err := client.New(m, "ex#Things", "http://127.0.0.1:1", client.WithRegion("us-east-1"), client.WithoutRetries(),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "SECRET"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := stub.For(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Activate(); err != nil {
		t.Fatal(err)
	}
	s.Add("GetThing", []byte(`{"id":"a"}`))
	if out, err := c.Call(context.Background(), "GetThing", []byte(`{"id":"a"}`)); err != nil || string(out) != `{"id":"a"}` {
		t.Fatalf("stubbed call = %s, %v", out, err)
	}
	s.Deactivate()
	_, err = c.Call(context.Background(), "GetThing", []byte(`{"id":"a"}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindTransport {
		t.Errorf("after Deactivate: %v, want a transport error from 127.0.0.1:1", err)
	}
}

// TestStubRPCv2: the kv service in rpcv2Json and rpcv2Cbor: blobs, big
// numbers kept digit for digit, epoch timestamps, NaN, and service errors,
// through each protocol's codec.
func TestStubRPCv2(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../../testing/servers/kvserver/kv.smithy")
	if err != nil {
		t.Fatal(err)
	}
	for _, svc := range []model.ShapeID{"smithycurl.kv#KVJson", "smithycurl.kv#KVCbor"} {
		t.Run(svc.Name(), func(t *testing.T) { stubKV(t, m, svc) })
	}
}

func stubKV(t *testing.T, m *model.Model, svc model.ShapeID) {
	s, c := stubbed(t, m, svc)
	item := `{"item":{"key":"k","value":"AAEC","tags":{"a":"b"},"score":"NaN","size":123456789012345678901234567890,` +
		`"ratio":1.000000000000000000001,"expires":"2030-01-02T03:04:05.5Z","version":7,"stored":"2024-01-02T03:04:05Z"}}`
	if err := s.Add("Get", []byte(item)); err != nil {
		t.Fatal(err)
	}
	if err := s.AddError("Get", "NotFound", []byte(`{"key":"k","message":"no k"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.AddError("Ping", "Unavailable", nil); err != nil {
		t.Fatal(err)
	}
	out, err := c.Call(context.Background(), "Get", []byte(`{"key":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	if canon(t, out) != canon(t, []byte(item)) { // the same values, in the wire's order
		t.Errorf("output\n got %s\nwant %s", out, item)
	}
	_, err = c.Call(context.Background(), "Get", []byte(`{"key":"k"}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Shape != "smithycurl.kv#NotFound" || canon(t, ce.Members) != `{"key":"k","message":"no k"}` {
		t.Errorf("error %v", err)
	}
	_, err = c.Call(context.Background(), "Ping", nil)
	if !errors.As(err, &ce) || ce.Shape != "smithycurl.kv#Unavailable" || ce.Status != 500 || ce.Attempts != 1 {
		t.Errorf("a retryable error, stubbed: %v (attempts %d), want it once", err, ce.Attempts)
	}
	s.AssertDone(t)
}

// canon is JSON doc with sorted keys, numbers as written.
func canon(t *testing.T, doc []byte) string {
	t.Helper()
	v, err := respond.Decode(doc)
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	return string(respond.Encode(v))
}

const ec2Model = `$version: "2"
namespace ex.ec2
use aws.protocols#ec2Query
use aws.protocols#ec2QueryName

@ec2Query
@xmlNamespace(uri: "http://ec2.amazonaws.com/doc/2016-11-15/")
service Fleet { version: "2016-11-15", operations: [DescribeThings] }

operation DescribeThings {
    input := { @ec2QueryName("Filter") filter: String }
    output := {
        @xmlName("thingSet")
        things: Things
        @xmlName("nextToken")
        nextToken: String
    }
    errors: [ThingNotFound]
}

list Things {
    @xmlName("item")
    member: Thing
}

structure Thing {
    @xmlName("thingId")
    id: String
    @xmlName("launchTime")
    launched: Timestamp
    @xmlName("count")
    count: Integer
}

@error("client")
structure ThingNotFound { @xmlName("Message") message: String }
`

// TestStubEC2Query: an ec2Query output (item lists, xmlName members, a
// timestamp) and error read back through the ec2Query codec.
func TestStubEC2Query(t *testing.T) {
	s, c := stubbed(t, loadSource(t, ec2Model), "ex.ec2#Fleet")
	output := `{"things":[{"id":"i-1","launched":"2024-01-02T03:04:05Z","count":2},{"id":"i-2"}],"nextToken":"t"}`
	if err := s.Add("DescribeThings", []byte(output)); err != nil {
		t.Fatal(err)
	}
	if err := s.AddError("DescribeThings", "ThingNotFound", []byte(`{"message":"none"}`)); err != nil {
		t.Fatal(err)
	}
	out, err := c.Call(context.Background(), "DescribeThings", nil)
	if err != nil {
		t.Fatal(err)
	}
	if canon(t, out) != canon(t, []byte(output)) {
		t.Errorf("output\n got %s\nwant %s", out, output)
	}
	_, err = c.Call(context.Background(), "DescribeThings", nil)
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Shape != "ex.ec2#ThingNotFound" || !strings.Contains(err.Error(), "none") {
		t.Errorf("error %v", err)
	}
	s.AssertDone(t)
}
