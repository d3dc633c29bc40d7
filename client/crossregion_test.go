package client_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// captureTransport keeps the requests and answers each with a 400.
type captureTransport struct{ reqs []*transport.Request }

func (t *captureTransport) Do(_ context.Context, req *transport.Request) (*wire.Response, error) {
	t.reqs = append(t.reqs, req)
	return &wire.Response{Status: 400, Header: wire.Header{"Content-Type": {"text/xml"}},
		Body: []byte("<ErrorResponse><Error><Code>Captured</Code></Error></ErrorResponse>")}, nil
}

// RDS's SourceRegion (botocore's inject_presigned_url_rds): not sent; a
// PreSignedUrl of the same operation to the source region's endpoint,
// signed for it, with DestinationRegion, is sent instead; one the input
// gives is kept. (testing/botocore/diff_presign.py compares the URL with
// botocore's.)
func TestCrossRegionPreSignedURL(t *testing.T) {
	tr := &captureTransport{}
	c := presignClient(t, shareddata.Path(t, "aws-models", "rds.json"), "com.amazonaws.rds#AmazonRDSv19",
		client.WithTransport(tr), client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 1}))
	ctx := context.Background()
	c.Call(ctx, "CopyDBSnapshot", []byte(`{"SourceDBSnapshotIdentifier":"arn:aws:rds:us-west-2:1:snapshot:s","TargetDBSnapshotIdentifier":"t","SourceRegion":"us-west-2"}`))
	c.Call(ctx, "CopyDBSnapshot", []byte(`{"SourceDBSnapshotIdentifier":"s","TargetDBSnapshotIdentifier":"t","SourceRegion":"us-west-2","PreSignedUrl":"https://given"}`))
	c.Call(ctx, "CopyDBSnapshot", []byte(`{"SourceDBSnapshotIdentifier":"s","TargetDBSnapshotIdentifier":"t"}`))
	if len(tr.reqs) != 3 {
		t.Fatalf("%d requests", len(tr.reqs))
	}
	form := make([]url.Values, 3)
	for i, r := range tr.reqs {
		if form[i], _ = url.ParseQuery(string(r.Body)); form[i].Has("SourceRegion") || !strings.HasPrefix(r.URL, "https://rds.eu-west-1.amazonaws.com") {
			t.Errorf("request %d: %s %s", i, r.URL, r.Body)
		}
	}
	u, err := url.Parse(form[0].Get("PreSignedUrl"))
	if err != nil || u.Host != "rds.us-west-2.amazonaws.com" {
		t.Fatalf("PreSignedUrl %q", form[0].Get("PreSignedUrl"))
	}
	q := u.Query()
	if q.Get("Action") != "CopyDBSnapshot" || q.Get("DestinationRegion") != "eu-west-1" || q.Has("SourceRegion") ||
		!strings.Contains(q.Get("X-Amz-Credential"), "/us-west-2/rds/aws4_request") || q.Get("X-Amz-Expires") != "3600" ||
		q.Get("X-Amz-Security-Token") != "tok" || q.Get("X-Amz-SignedHeaders") != "host" {
		t.Errorf("PreSignedUrl %s", u)
	}
	if got := form[1].Get("PreSignedUrl"); got != "https://given" {
		t.Errorf("a given PreSignedUrl became %q", got)
	}
	if form[2].Has("PreSignedUrl") {
		t.Errorf("without SourceRegion: %v", form[2])
	}
}

// The codec's scan is the only check of an input's text: what the AWS
// customizations edit or drop before it (RDS's SourceRegion, botocore's
// and not the model's) is read as strictly, so text that is not Unicode
// is refused there too, never repaired or dropped unread.
func TestCrossRegionTextFaults(t *testing.T) {
	tr := &captureTransport{}
	c := presignClient(t, shareddata.Path(t, "aws-models", "rds.json"), "com.amazonaws.rds#AmazonRDSv19",
		client.WithTransport(tr), client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 1}))
	for _, tc := range []struct{ in, want string }{
		{"{\"SourceDBSnapshotIdentifier\":\"s\",\"TargetDBSnapshotIdentifier\":\"t\",\"SourceRegion\":\"us-\xff\"}", "the input is not valid UTF-8 (at /SourceRegion, byte"},
		{`{"SourceDBSnapshotIdentifier":"s","TargetDBSnapshotIdentifier":"t","SourceRegion":"\ud800"}`, `the input is not Unicode text: \ud800 is a lone surrogate (at /SourceRegion`},
		{"{\"SourceDBSnapshotIdentifier\":\"s\",\"TargetDBSnapshotIdentifier\":\"t\",\"SourceRegion\":[\"\xff\"]}", "the input is not valid UTF-8 (at /SourceRegion/0, byte"},
	} {
		_, err := c.Call(context.Background(), "CopyDBSnapshot", []byte(tc.in))
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.in, err, tc.want)
		}
	}
	if len(tr.reqs) != 0 {
		t.Errorf("%d requests sent", len(tr.reqs))
	}
}
