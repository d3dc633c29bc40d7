package client_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// The AWS customizations (client/awscustom) on the wire: each test sends
// through a real AWS model to a server on 127.0.0.1 that records what
// arrived and answers what the test says.

// awsServer records requests and answers each with reply.
type awsServer struct {
	mu    sync.Mutex
	reqs  []awsRequest
	reply func(n int, r awsRequest, w http.ResponseWriter) // n counts from 1
}

type awsRequest struct {
	method, path, query string
	header              http.Header
	body                []byte
}

func (s *awsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := awsRequest{method: r.Method, path: r.URL.EscapedPath(), query: r.URL.RawQuery, header: r.Header, body: body}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	n, reply := len(s.reqs), s.reply
	s.mu.Unlock()
	if reply != nil {
		reply(n, req, w)
	}
}

// setReply changes the answer to the requests to come.
func (s *awsServer) setReply(reply func(int, awsRequest, http.ResponseWriter)) {
	s.mu.Lock()
	s.reply = reply
	s.mu.Unlock()
}

// take returns the requests so far and forgets them.
func (s *awsServer) take() []awsRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.reqs
	s.reqs = nil
	return r
}

// newAWSClient returns a client of service (model file in the shared
// aws-models) to a recording server answering with reply.
func newAWSClient(t *testing.T, file string, service model.ShapeID, reply func(int, awsRequest, http.ResponseWriter)) (*client.Client, *awsServer) {
	t.Helper()
	// Not kept for other tests: S3's model alone holds tens of MiB, which
	// are collected when the test ends (the heap-bound tests that follow
	// measure the heap in use).
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "aws-models", file))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(runtime.GC)
	s := &awsServer{reply: reply}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := client.New(m, service, srv.URL,
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"}),
		client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 5 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, s
}

func jsonReply(body string) func(int, awsRequest, http.ResponseWriter) {
	return func(_ int, _ awsRequest, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
}

// testBody is n bytes that differ from one MiB to the next.
func testBody(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

func TestAWSCustomGlacier(t *testing.T) {
	c, s := newAWSClient(t, "glacier.json", "com.amazonaws.glacier#Glacier", func(_ int, _ awsRequest, w http.ResponseWriter) {
		w.Header().Set("Location", "/-/vaults/v/archives/a1")
		w.Header().Set("x-amz-archive-id", "a1")
		w.WriteHeader(201)
	})
	ctx := context.Background()
	// Tree hashes and SHA-256s by botocore's calculate_tree_hash: one
	// chunk, and three (two paired, the odd one passed up).
	for _, tc := range []struct {
		n          int
		tree, body string
	}{
		{5, "08bb5e5d6eaac1049ede0893d30ed022b1a4d9b5b48db414871f51c9cb35283d", "08bb5e5d6eaac1049ede0893d30ed022b1a4d9b5b48db414871f51c9cb35283d"},
		{2<<20 + 7, "c45deaaa0b1a3b9ceafe7121384439769ef39a06097152141b9b40087aa3e878", "5320ee3c6626320e5adcd97873e01fecf5ee83d0771a64fa0598da11d4f7e20c"},
	} {
		data := testBody(tc.n)
		for _, streamed := range []bool{false, true} {
			in, opts := `{"vaultName": "v", "body": "`+base64.StdEncoding.EncodeToString(data)+`"}`, []client.CallOption(nil)
			if streamed {
				in, opts = `{"vaultName": "v"}`, []client.CallOption{client.WithBodyReader(bytes.NewReader(data), int64(len(data)))}
			}
			if _, err := c.Call(ctx, "UploadArchive", []byte(in), opts...); err != nil {
				t.Fatalf("%d bytes (streamed %v): %v", tc.n, streamed, err)
			}
			r := s.take()[0]
			if r.path != "/-/vaults/v/archives" || r.header.Get("X-Amz-Glacier-Version") != "2012-06-01" ||
				r.header.Get("X-Amz-Sha256-Tree-Hash") != tc.tree || r.header.Get("X-Amz-Content-Sha256") != tc.body ||
				!bytes.Equal(r.body, data) || !strings.Contains(r.header.Get("Authorization"), "x-amz-content-sha256") {
				t.Errorf("%d bytes (streamed %v): %s %v", tc.n, streamed, r.path, r.header)
			}
		}
	}
	// The caller's account and tree hash are kept.
	if _, err := c.Call(ctx, "UploadMultipartPart", []byte(`{"accountId": "123456789012", "vaultName": "v", "uploadId": "u", "checksum": "abc", "range": "bytes 0-4/*", "body": "aGVsbG8="}`)); err != nil {
		t.Fatal(err)
	}
	r := s.take()[0]
	sum := sha256.Sum256([]byte("hello"))
	if r.path != "/123456789012/vaults/v/multipart-uploads/u" || r.header.Get("X-Amz-Sha256-Tree-Hash") != "abc" || r.header.Get("X-Amz-Content-Sha256") != hex.EncodeToString(sum[:]) {
		t.Errorf("UploadMultipartPart: %s %v", r.path, r.header)
	}
	// Every operation has the version; a body that cannot be read twice
	// cannot be hashed.
	s.setReply(jsonReply(`{"VaultList": []}`))
	if _, err := c.Call(ctx, "ListVaults", nil); err != nil {
		t.Fatal(err)
	}
	if r := s.take()[0]; r.path != "/-/vaults" || r.header.Get("X-Amz-Glacier-Version") != "2012-06-01" {
		t.Errorf("ListVaults: %s %v", r.path, r.header)
	}
	// An empty account (a typed Go client's unset string) is the default too.
	if _, err := c.Call(ctx, "ListVaults", []byte(`{"accountId": ""}`)); err != nil {
		t.Fatal(err)
	}
	if r := s.take()[0]; r.path != "/-/vaults" {
		t.Errorf("ListVaults with an empty accountId: %s", r.path)
	}
	_, err := c.Call(ctx, "UploadArchive", []byte(`{"vaultName": "v"}`), client.WithBodyReader(io.MultiReader(strings.NewReader("x")), 1))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindUsage || !strings.Contains(err.Error(), "io.Seeker") || len(s.take()) != 0 {
		t.Errorf("a reader that is no io.Seeker: %v", err)
	}
}

func TestAWSCustomRoute53IDs(t *testing.T) {
	c, s := newAWSClient(t, "route-53.json", "com.amazonaws.route53#AWSDnsV20130401", func(_ int, _ awsRequest, w http.ResponseWriter) {
		io.WriteString(w, `<?xml version="1.0"?><GetChangeResponse xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><ChangeInfo><Id>C2</Id><Status>INSYNC</Status><SubmittedAt>2024-01-01T00:00:00Z</SubmittedAt></ChangeInfo></GetChangeResponse>`)
	})
	ctx := context.Background()
	for _, tc := range []struct{ op, in, path, query string }{
		{"GetChange", `{"Id": "/change/C2"}`, "/2013-04-01/change/C2", ""},
		{"GetHostedZone", `{"Id": "/hostedzone/Z1D633PJN98FT9"}`, "/2013-04-01/hostedzone/Z1D633PJN98FT9", ""},
		{"GetReusableDelegationSet", `{"Id": "/delegationset/N1"}`, "/2013-04-01/delegationset/N1", ""},
		{"ListHostedZones", `{"DelegationSetId": "/delegationset/N1"}`, "/2013-04-01/hostedzone", "delegationsetid=N1"},
		{"GetHostedZone", `{"Id": "Z1D633PJN98FT9"}`, "/2013-04-01/hostedzone/Z1D633PJN98FT9", ""},
	} {
		c.Call(ctx, tc.op, []byte(tc.in)) // the answer is GetChange's: only the request matters
		if r := s.take(); len(r) != 1 || r[0].path != tc.path || r[0].query != tc.query {
			t.Errorf("%s %s: sent %+v", tc.op, tc.in, r)
		}
	}
}

func TestAWSCustomDynamoDBCRC32(t *testing.T) {
	const item = `{"Item": {"k": {"S": "v"}}}`
	good := fmt.Sprint(crc32.ChecksumIEEE([]byte(item)))
	c, s := newAWSClient(t, "dynamodb.json", "com.amazonaws.dynamodb#DynamoDB_20120810", func(n int, r awsRequest, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		crc := good
		if strings.Contains(string(r.body), "bad") || (strings.Contains(string(r.body), "once") && n == 1) {
			crc = "12345"
		}
		w.Header().Set("X-Amz-Crc32", crc)
		io.WriteString(w, item)
	})
	ctx := context.Background()
	// A read is sent again after a damaged response, and succeeds.
	out, err := c.Call(ctx, "GetItem", []byte(`{"TableName": "once", "Key": {"k": {"S": "v"}}}`))
	reqs := s.take()
	if err != nil || !strings.Contains(string(out), `"v"`) || len(reqs) != 2 {
		t.Errorf("GetItem, damaged once: %s %v, sent %d times", out, err, len(reqs))
	}
	// An uncompressed response is asked for (the CRC-32 is of the bytes
	// as sent), unless the caller asks otherwise.
	if ae := reqs[0].header.Get("Accept-Encoding"); ae != "identity" {
		t.Errorf("Accept-Encoding %q, want identity", ae)
	}
	if _, err := c.Call(ctx, "GetItem", []byte(`{"TableName": "t", "Key": {"k": {"S": "v"}}}`), client.WithCallHeader("Accept-Encoding", "gzip")); err != nil {
		t.Fatal(err)
	}
	if ae := s.take()[0].header.Get("Accept-Encoding"); ae != "gzip" {
		t.Errorf("the caller's Accept-Encoding: %q", ae)
	}
	// Damaged every time: a decode error after every attempt.
	_, err = c.Call(ctx, "GetItem", []byte(`{"TableName": "bad", "Key": {"k": {"S": "v"}}}`))
	var e *client.Error
	if n := len(s.take()); !errors.As(err, &e) || e.Kind != client.KindDecode || e.Attempts != 3 || !strings.Contains(err.Error(), "x-amz-crc32 is 12345") || n != 3 {
		t.Errorf("GetItem, damaged: %v (%+v), sent %d times", err, e, n)
	}
	// A write (not idempotent) is not sent twice.
	_, err = c.Call(ctx, "UpdateItem", []byte(`{"TableName": "once", "Key": {"k": {"S": "v"}}}`))
	if !errors.As(err, &e) || e.Kind != client.KindDecode || len(s.take()) != 1 {
		t.Errorf("UpdateItem, damaged: %v", err)
	}
	if _, err := c.Call(ctx, "GetItem", []byte(`{"TableName": "t", "Key": {"k": {"S": "v"}}}`)); err != nil {
		t.Errorf("GetItem: %v", err)
	}
}

func TestAWSCustomSQSMD5(t *testing.T) {
	md5hex := func(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }
	// MD5OfMessageAttributes of {"a": String "x"} (the encoding SQS hashes).
	attrs := hex.EncodeToString(func() []byte {
		h := md5.Sum([]byte("\x00\x00\x00\x01a\x00\x00\x00\x06String\x01\x00\x00\x00\x01x"))
		return h[:]
	}())
	c, s := newAWSClient(t, "sqs.json", "com.amazonaws.sqs#AmazonSQS", nil)
	ctx := context.Background()
	send := `{"QueueUrl": "http://q/1/q", "MessageBody": "hello", "MessageAttributes": {"a": {"DataType": "String", "StringValue": "x"}}}`
	for _, tc := range []struct{ op, in, out, err string }{
		{"SendMessage", send, `{"MessageId": "m1", "MD5OfMessageBody": "` + md5hex("hello") + `", "MD5OfMessageAttributes": "` + attrs + `"}`, ""},
		{"SendMessage", send, `{"MessageId": "m1", "MD5OfMessageBody": "` + md5hex("hellO") + `", "MD5OfMessageAttributes": "` + attrs + `"}`, "message m1: MD5OfMessageBody is"},
		{"SendMessage", send, `{"MessageId": "m1", "MD5OfMessageBody": "` + md5hex("hello") + `", "MD5OfMessageAttributes": "` + md5hex("") + `"}`, "message m1: MD5OfMessageAttributes is"},
		{"SendMessageBatch", `{"QueueUrl": "http://q/1/q", "Entries": [{"Id": "1", "MessageBody": "a"}, {"Id": "2", "MessageBody": "b"}]}`,
			`{"Successful": [{"Id": "1", "MessageId": "m1", "MD5OfMessageBody": "` + md5hex("a") + `"}, {"Id": "2", "MessageId": "m2", "MD5OfMessageBody": "` + md5hex("b") + `"}], "Failed": []}`, ""},
		{"SendMessageBatch", `{"QueueUrl": "http://q/1/q", "Entries": [{"Id": "1", "MessageBody": "a"}, {"Id": "2", "MessageBody": "b"}]}`,
			`{"Successful": [{"Id": "1", "MessageId": "m1", "MD5OfMessageBody": "` + md5hex("a") + `"}, {"Id": "2", "MessageId": "m2", "MD5OfMessageBody": "` + md5hex("a") + `"}], "Failed": []}`, "message m2: MD5OfMessageBody is"},
		{"ReceiveMessage", `{"QueueUrl": "http://q/1/q"}`,
			`{"Messages": [{"MessageId": "m1", "Body": "hello", "MD5OfBody": "` + md5hex("hello") + `", "MessageAttributes": {"a": {"DataType": "String", "StringValue": "x"}}, "MD5OfMessageAttributes": "` + attrs + `"}]}`, ""},
		{"ReceiveMessage", `{"QueueUrl": "http://q/1/q"}`,
			`{"Messages": [{"MessageId": "m1", "Body": "hello", "MD5OfBody": "` + md5hex("hello") + `", "MessageAttributes": {"a": {"DataType": "String", "StringValue": "y"}}, "MD5OfMessageAttributes": "` + attrs + `"}]}`, "message m1: MD5OfMessageAttributes is"},
	} {
		s.setReply(jsonReply(tc.out))
		_, err := c.Call(ctx, tc.op, []byte(tc.in))
		var e *client.Error
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s answered %s: %v", tc.op, tc.out, err)
		case tc.err != "" && (!errors.As(err, &e) || e.Kind != client.KindDecode || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s answered %s: %v, want a decode error with %q", tc.op, tc.out, err, tc.err)
		}
		if n := len(s.take()); n != 1 {
			t.Errorf("%s answered %s: sent %d times", tc.op, tc.out, n)
		}
	}
}

func TestAWSCustomS3(t *testing.T) {
	c, s := newAWSClient(t, "s3.json", "com.amazonaws.s3#AmazonS3", func(_ int, _ awsRequest, w http.ResponseWriter) {})
	ctx := context.Background()
	// A caller's ContentMD5 is sent as given where a checksum is required
	// (issue 31, item 10), with no second checksum; absent, a CRC32 is
	// computed and its algorithm named, as the AWS SDKs since 2025 (issue
	// 26, item 5), under either checksum setting.
	tagging := `"Tagging": {"TagSet": [{"Key": "k", "Value": "v"}]}`
	for _, tc := range []struct{ in, md5 string }{
		{`{"Bucket": "b", "Key": "o", "ContentMD5": "Y2FsbGVyJ3M=", ` + tagging + `}`, "Y2FsbGVyJ3M="},
		{`{"Bucket": "b", "Key": "o", ` + tagging + `}`, ""},
	} {
		if _, err := c.Call(ctx, "PutObjectTagging", []byte(tc.in)); err != nil {
			t.Fatal(err)
		}
		r := s.take()[0]
		crc, alg := "", ""
		if tc.md5 == "" {
			crc = base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(r.body)))
			alg = "CRC32"
		}
		if got := [3]string{r.header.Get("Content-Md5"), r.header.Get("X-Amz-Checksum-Crc32"), r.header.Get("X-Amz-Sdk-Checksum-Algorithm")}; got != [3]string{tc.md5, crc, alg} {
			t.Errorf("PutObjectTagging %s: Content-MD5, x-amz-checksum-crc32, x-amz-sdk-checksum-algorithm %q, want %q", tc.in, got, [3]string{tc.md5, crc, alg})
		}
	}
	// SSE-C: a raw key is sent in base64 with its MD5; a key already in
	// base64 (32 bytes) as is; a given MD5 is kept.
	raw := strings.Repeat("k", 32)
	b64 := base64.StdEncoding.EncodeToString([]byte(raw))
	sum := md5.Sum([]byte(raw))
	md5b64 := base64.StdEncoding.EncodeToString(sum[:])
	for _, tc := range []struct{ in, key, md5 string }{
		{`"SSECustomerKey": "` + raw + `"`, b64, md5b64},
		{`"SSECustomerKey": "` + b64 + `"`, b64, md5b64},
		{`"SSECustomerKey": "` + b64 + `", "SSECustomerKeyMD5": "given"`, b64, "given"},
	} {
		for _, prefix := range []string{"", "CopySource"} {
			in := `{"Bucket": "b", "Key": "o", "CopySource": "b/src", ` + strings.ReplaceAll(tc.in, `"SSE`, `"`+prefix+`SSE`) + `}`
			c.Call(ctx, "CopyObject", []byte(in))
			r := s.take()[0]
			h := "X-Amz-Server-Side-Encryption-Customer-"
			if prefix != "" {
				h = "X-Amz-Copy-Source-Server-Side-Encryption-Customer-"
			}
			if r.header.Get(h+"Key") != tc.key || r.header.Get(h+"Key-Md5") != tc.md5 {
				t.Errorf("CopyObject %s: %s %q, %q", in, h, r.header.Get(h+"Key"), r.header.Get(h+"Key-Md5"))
			}
		}
	}
	// GetBucketLocation: us-east-1's empty LocationConstraint is absent.
	for body, want := range map[string]string{
		`<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/"/>`:                       `{}`,
		`<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">EU</LocationConstraint>`: `{"LocationConstraint":"EU"}`,
	} {
		s.setReply(func(_ int, _ awsRequest, w http.ResponseWriter) { io.WriteString(w, body) })
		if out, err := c.Call(ctx, "GetBucketLocation", []byte(`{"Bucket": "b"}`)); err != nil || string(out) != want {
			t.Errorf("GetBucketLocation answered %s: %s %v, want %s", body, out, err, want)
		}
	}
	// An error in a 200 response (CopyObject failing while it copies) is
	// an error; CopyObject is not idempotent: not sent again.
	s.take()
	s.setReply(func(_ int, _ awsRequest, w http.ResponseWriter) {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>`)
	})
	_, err := c.Call(ctx, "CopyObject", []byte(`{"Bucket": "b", "Key": "o", "CopySource": "b/src"}`))
	var e *client.Error
	if n := len(s.take()); !errors.As(err, &e) || e.Kind != client.KindService || e.Code != "InternalError" || n != 1 {
		t.Errorf("CopyObject answered 200 with an error: %v, sent %d times", err, n)
	}
}

func TestAWSCustomMachineLearningPredict(t *testing.T) {
	c, s := newAWSClient(t, "machine-learning.json", "com.amazonaws.machinelearning#AmazonML_20141212", jsonReply(`{"Prediction": {}}`))
	// The real-time endpoint: a second server; the client's gets nothing.
	predict := &awsServer{reply: jsonReply(`{"Prediction": {"predictedLabel": "1"}}`)}
	srv := httptest.NewServer(predict)
	defer srv.Close()
	out, err := c.Call(context.Background(), "Predict", []byte(`{"MLModelId": "m", "Record": {}, "PredictEndpoint": "`+srv.URL+`"}`))
	if err != nil || !strings.Contains(string(out), `"1"`) || len(s.take()) != 0 {
		t.Fatalf("Predict: %s %v", out, err)
	}
	r := predict.take()[0]
	if r.path != "/" || r.header.Get("X-Amz-Target") != "AmazonML_20141212.Predict" || !strings.Contains(r.header.Get("Authorization"), "host") {
		t.Errorf("Predict: %s %v", r.path, r.header)
	}
	_, err = c.Call(context.Background(), "Predict", []byte(`{"MLModelId": "m", "Record": {}, "PredictEndpoint": "realtime"}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindUsage || !strings.Contains(err.Error(), `PredictEndpoint "realtime"`) {
		t.Errorf("a PredictEndpoint that is no URL: %v", err)
	}
}

func TestAWSCustomCloudSearchDomainSearch(t *testing.T) {
	c, s := newAWSClient(t, "cloudsearch-domain.json", "com.amazonaws.cloudsearchdomain#AmazonCloudSearch2013", jsonReply(`{"hits": {"found": 0}}`))
	if _, err := c.Call(context.Background(), "Search", []byte(`{"query": "star wars", "size": 3}`)); err != nil {
		t.Fatal(err)
	}
	r := s.take()[0]
	if r.method != "POST" || r.path != "/2013-01-01/search" || r.query != "" || r.header.Get("Content-Type") != "application/x-www-form-urlencoded" ||
		!strings.Contains(string(r.body), "q=star%20wars") || !strings.Contains(string(r.body), "format=sdk") || !strings.Contains(string(r.body), "size=3") {
		t.Errorf("Search: %s %s?%s %v %q", r.method, r.path, r.query, r.header, r.body)
	}
}

func TestAWSCustomRoute53InvalidChangeBatch(t *testing.T) {
	c, s := newAWSClient(t, "route-53.json", "com.amazonaws.route53#AWSDnsV20130401", func(_ int, _ awsRequest, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(400)
		io.WriteString(w, `<?xml version="1.0"?>
<InvalidChangeBatch xmlns="https://route53.amazonaws.com/doc/2013-04-01/"><Messages><Message>Tried to create resource record set [name='a.example.com.', type='A'] but it already exists</Message><Message>a &lt;second&gt;</Message></Messages><RequestId>r-1</RequestId></InvalidChangeBatch>`)
	})
	_, err := c.Call(context.Background(), "ChangeResourceRecordSets", []byte(`{"HostedZoneId": "/hostedzone/Z1", "ChangeBatch": {"Changes": [
		{"Action": "CREATE", "ResourceRecordSet": {"Name": "a.example.com.", "Type": "A", "TTL": 60, "ResourceRecords": [{"Value": "192.0.2.1"}]}}]}}`))
	var e *client.Error
	if !errors.As(err, &e) || e.Shape != "com.amazonaws.route53#InvalidChangeBatch" || e.Status != 400 ||
		e.Message() != "Tried to create resource record set [name='a.example.com.', type='A'] but it already exists; a <second>" ||
		!strings.Contains(string(e.Members), `"messages":["Tried to create`) || !strings.Contains(string(e.Members), `"a <second>"]`) {
		t.Errorf("InvalidChangeBatch: %v (%s)", err, e.Members)
	}
	if r := s.take(); len(r) != 1 || r[0].path != "/2013-04-01/hostedzone/Z1/rrset" {
		t.Errorf("sent %+v", r)
	}
}

func TestAWSCustomSTSUnsigned(t *testing.T) {
	const answer = `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>AK</AccessKeyId><SecretAccessKey>S</SecretAccessKey><SessionToken>T</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`
	c, s := newAWSClient(t, "sts.json", "com.amazonaws.sts#AWSSecurityTokenServiceV20110615", func(_ int, _ awsRequest, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, answer)
	})
	out, err := c.Call(context.Background(), "AssumeRoleWithWebIdentity", []byte(`{"RoleArn": "arn:aws:iam::123456789012:role/r", "RoleSessionName": "s", "WebIdentityToken": "tok"}`))
	if err != nil || !strings.Contains(string(out), `"AccessKeyId":"AK"`) {
		t.Fatalf("AssumeRoleWithWebIdentity: %s %v", out, err)
	}
	if r := s.take()[0]; r.header.Get("Authorization") != "" || r.header.Get("X-Amz-Date") != "" {
		t.Errorf("AssumeRoleWithWebIdentity was signed: %v", r.header)
	}
	// Other operations are signed.
	c.Call(context.Background(), "GetCallerIdentity", nil)
	if r := s.take()[0]; !strings.HasPrefix(r.header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		t.Errorf("GetCallerIdentity was not signed: %v", r.header)
	}
}
