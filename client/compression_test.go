package client_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
)

const compressModel = `$version: "2"
namespace t
use aws.protocols#restJson1
@restJson1
@aws.api#service(sdkId: "Compress Test")
service S { operations: [Put] }
@http(method: "POST", uri: "/put")
@requestCompression(encodings: ["gzip"])
operation Put { input := { Text: String }, output := { Got: String } }
`

// compressServer answers each Put with the Content-Encoding and body
// length it received.
func compressServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"Got": "%s %d"}`, r.Header.Get("Content-Encoding"), len(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// @requestCompression's threshold and switch, as the AWS SDKs: a body of
// at least 10,240 bytes is gzipped, a smaller one not; the minimum and
// the switch come from the options, the environment or the profile, in
// that order; a minimum out of 0..10,485,760 fails New naming where it
// is set.
func TestRequestCompressionSettings(t *testing.T) {
	m := loadIDL(t, compressModel)
	url := compressServer(t)
	small := `{"Text": "hello"}`
	large := `{"Text": "` + strings.Repeat("x", 10240) + `"}`
	for _, tc := range []struct {
		name        string
		vars        map[string]string
		config      string
		opts        []client.Option
		input, want string // want: the Content-Encoding received
	}{
		{"small, default", nil, "", nil, small, ""},
		{"large, default", nil, "", nil, large, "gzip"},
		{"environment minimum 0", map[string]string{"AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES": "0"}, "", nil, small, "gzip"},
		{"profile minimum", nil, "[default]\nrequest_min_compression_size_bytes = 10\n", nil, small, "gzip"},
		{"environment over profile", map[string]string{"AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES": "10240"},
			"[default]\nrequest_min_compression_size_bytes = 10\n", nil, small, ""},
		{"option over environment", map[string]string{"AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES": "10240"}, "",
			[]client.Option{client.WithRequestMinCompressionSize(1)}, small, "gzip"},
		{"environment off", map[string]string{"AWS_DISABLE_REQUEST_COMPRESSION": "true"}, "", nil, large, ""},
		{"profile off", nil, "[default]\ndisable_request_compression = true\n", nil, large, ""},
		{"option off", nil, "", []client.Option{client.WithoutRequestCompression()}, large, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := client.New(m, "t#S", url, append([]client.Option{client.WithAWSConfig(awsConfig(t, tc.vars, tc.config))}, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			out, err := c.Call(context.Background(), "Put", []byte(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if enc, _, _ := strings.Cut(got(t, out)["Got"].(string), " "); enc != tc.want {
				t.Errorf("Content-Encoding %q, want %q", enc, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name   string
		vars   map[string]string
		config string
		opts   []client.Option
		want   string
	}{
		{"option negative", nil, "", []client.Option{client.WithRequestMinCompressionSize(-1)}, "WithRequestMinCompressionSize(-1): request_min_compression_size_bytes must be from 0 to 10485760"},
		{"option too large", nil, "", []client.Option{client.WithRequestMinCompressionSize(10485761)}, "request_min_compression_size_bytes must be from 0 to 10485760"},
		{"environment too large", map[string]string{"AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES": "10485761"}, "", nil, "environment variable AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES must be a whole number from 0 to 10485760"},
		{"profile not a number", nil, "[default]\nrequest_min_compression_size_bytes = ten\n", nil, "config:2: request_min_compression_size_bytes must be a whole number"},
		{"profile switch not a bool", nil, "[default]\ndisable_request_compression = yes\n", nil, "disable_request_compression must be true or false"},
	} {
		_, err := client.New(m, "t#S", url, append([]client.Option{client.WithAWSConfig(awsConfig(t, tc.vars, tc.config))}, tc.opts...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}
