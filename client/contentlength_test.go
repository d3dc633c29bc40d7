package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// A member bound to Content-Length (S3's ContentLength) announces the
// body's size; with no body in the input the request carries none, and its
// Content-Length says so instead of the member's value (which would leave
// the server waiting for bytes that never come, or reading the next
// request as this one's body). Found by the differential test against
// botocore (testing/botocore/diff_botocore.py).
func TestContentLengthMemberWithoutBody(t *testing.T) {
	type seen struct {
		header string
		length int64
		body   string
	}
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, seen{r.Header.Get("Content-Length"), r.ContentLength, string(b)})
		mu.Unlock()
		w.WriteHeader(200)
	}))
	defer srv.Close()
	cl := newS3Client(t, srv.URL)
	for _, c := range []struct {
		in   string
		want seen
	}{
		{`{"Bucket": "b", "Key": "k", "PartNumber": 1, "UploadId": "u", "ContentLength": 5}`, seen{"0", 0, ""}},
		{`{"Bucket": "b", "Key": "k", "PartNumber": 1, "UploadId": "u", "ContentLength": 9223372036854775807}`, seen{"0", 0, ""}},
		{`{"Bucket": "b", "Key": "k", "PartNumber": 1, "UploadId": "u", "ContentLength": 3, "Body": "aGk="}`, seen{"2", 2, "hi"}},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		if _, err := cl.Call(context.Background(), "UploadPart", []byte(c.in)); err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		mu.Lock()
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: the server saw %+v, want %+v", c.in, got, c.want)
		}
		mu.Unlock()
	}
}

// newS3Client is a client of the shared S3 model calling url (path style,
// no retries, test credentials), closed when the test ends.
func newS3Client(t *testing.T, url string) *client.Client {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "models", "aws-large", "s3.json"))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.New(m, "com.amazonaws.s3#AmazonS3", url, client.WithRegion("us-east-1"),
		client.WithAWSCredentials(testCreds), client.WithoutRetries(), client.WithTimeout(5*time.Second),
		client.WithEndpointParams(map[string]any{"ForcePathStyle": true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}
