package client_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"hash/crc32"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
)

// TestChecksumDefaults: request checksums and response validation as the
// AWS SDKs since 2025 (issue 26, item 5), by default and under
// when_required, on the wire of the in-memory object server.
func TestChecksumDefaults(t *testing.T) {
	ctx := context.Background()
	data := []byte("123456789")
	doc := `{"Key": "d", "Body": "` + base64.StdEncoding.EncodeToString(data) + `"}`
	crc := "X-Amz-Checksum-Crc32=" + b64u32(0xcbf43926) // CRC32's check value of "123456789"
	const alg = "X-Amz-Sdk-Checksum-Algorithm=CRC32"
	put := func(t *testing.T, c *client.Client, in string, opts ...client.CallOption) string {
		t.Helper()
		out, err := c.Call(ctx, "Put", []byte(in), opts...)
		if err != nil {
			t.Fatalf("Put %s: %v", in, err)
		}
		return got(t, out)["Got"].(string)
	}

	t.Run("when_supported", func(t *testing.T) {
		_, c := newObjectServer(t)
		for name, g := range map[string]string{
			"document": put(t, c, doc),
			"seekable": put(t, c, `{"Key": "s"}`, client.WithBodyReader(bytes.NewReader(data), -1)),
		} {
			if !strings.HasSuffix(g, " "+crc+" "+alg) {
				t.Errorf("%s: server got %q, want %s and %s", name, g, crc, alg)
			}
		}
		// A body that cannot be rewound, over http: no default checksum
		// (its trailer would make the payload unsigned; botocore uses it
		// over TLS only).
		if g := put(t, c, `{"Key": "p"}`, client.WithBodyReader(plainReader{bytes.NewReader(data)}, int64(len(data)))); strings.Contains(g, "Checksum") || strings.Contains(g, "trailer") {
			t.Errorf("plain reader over http: server got %q", g)
		}
		// Unless the operation requires a checksum: then in the trailer.
		out, err := c.Call(ctx, "PutRequired", []byte(`{"Key": "r"}`), client.WithBodyReader(plainReader{bytes.NewReader(data)}, int64(len(data))))
		if err != nil || !strings.Contains(got(t, out)["Got"].(string), " trailer=x-amz-checksum-crc32:"+b64u32(0xcbf43926)+" ") {
			t.Errorf("plain reader over http, checksum required: %s %v", out, err)
		}
		// The caller's checksum is sent as given, with no second one and
		// no algorithm added.
		if g := put(t, c, `{"Key": "c", "Crc32": "AAAAAA==", "Body": "eA=="}`); !strings.HasSuffix(g, " X-Amz-Checksum-Crc32=AAAAAA==") {
			t.Errorf("caller's checksum: server got %q", g)
		}
		// The caller's algorithm wins.
		if g := put(t, c, `{"Key": "c", "Alg": "CRC32C", "Body": "eA=="}`); !strings.Contains(g, "X-Amz-Checksum-Crc32c=") || strings.Contains(g, "Crc32=") {
			t.Errorf("caller's algorithm: server got %q", g)
		}
		// Content-MD5 where a checksum is required and no algorithm can be
		// chosen; the caller's as given.
		md := md5.Sum(data)
		out, err = c.Call(ctx, "PutMD5", []byte(`{"Body": "`+base64.StdEncoding.EncodeToString(data)+`"}`))
		if err != nil || !strings.HasSuffix(got(t, out)["Got"].(string), " Content-Md5="+base64.StdEncoding.EncodeToString(md[:])) {
			t.Errorf("PutMD5: %s %v", out, err)
		}
		// Responses are checked without the input asking.
		if _, err := c.Call(ctx, "Get", []byte(`{"Key": "d"}`)); err != nil {
			t.Errorf("Get of a good object: %v", err)
		}
		put(t, c, `{"Key": "bad", "Body": "eA=="}`)
		for _, streamed := range []bool{false, true} {
			var opts []client.CallOption
			var buf bytes.Buffer
			if streamed {
				opts = append(opts, client.WithBodyWriter(&buf))
			}
			_, err := c.Call(ctx, "Get", []byte(`{"Key": "bad"}`), opts...)
			var e *client.Error
			if !errors.As(err, &e) || e.Kind != client.KindDecode || !strings.Contains(err.Error(), "response checksum mismatch: x-amz-checksum-crc32c is") {
				t.Errorf("Get of a bad object (streamed %v): %v", streamed, err)
			}
		}
	})

	t.Run("when_required", func(t *testing.T) {
		_, c := newObjectServer(t, whenRequired...)
		if g := put(t, c, doc); strings.Contains(g, "Checksum") {
			t.Errorf("document: server got %q, want no checksum", g)
		}
		put(t, c, `{"Key": "bad", "Body": "eA=="}`)
		if _, err := c.Call(ctx, "Get", []byte(`{"Key": "bad"}`)); err != nil {
			t.Errorf("Get of a bad object, unchecked: %v", err)
		}
		if _, err := c.Call(ctx, "Get", []byte(`{"Key": "bad", "Mode": "ENABLED"}`)); err == nil {
			t.Error("Get of a bad object with Mode ENABLED: no error")
		}
	})

	t.Run("https trailer", func(t *testing.T) {
		// Over TLS a body that cannot be rewound carries the default CRC32
		// in an aws-chunked trailer.
		s := &objectServer{objects: map[string][]byte{}, failed: map[string]bool{}}
		srv := httptest.NewTLSServer(s)
		t.Cleanup(srv.Close)
		c, err := client.New(loadIDL(t, streamModel), "t#S", srv.URL, client.WithTLS(client.TLSConfig{InsecureSkipVerify: true}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		big := bytes.Repeat(data, 20_000)
		g := put(t, c, `{"Key": "t"}`, client.WithBodyReader(plainReader{bytes.NewReader(big)}, int64(len(big))))
		want := "trailer=x-amz-checksum-crc32:" + b64u32(crc32.ChecksumIEEE(big))
		if !strings.HasPrefix(g, "180000 "+sha8(big)+" te= "+want+" ") || !strings.HasSuffix(g, alg) {
			t.Errorf("server got %q, want %s and %s", g, want, alg)
		}
	})
}

// TestChecksumSettings: the two settings from the environment and the
// config file, and the options over them.
func TestChecksumSettings(t *testing.T) {
	m := loadIDL(t, strings.Replace(streamModel, "@restJson1\n", "@restJson1\n@aws.api#service(sdkId: \"Obj Test\")\n", 1))
	s := &objectServer{objects: map[string][]byte{}, failed: map[string]bool{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name     string
		vars     map[string]string
		config   string
		opts     []client.Option
		checksum bool
	}{
		{"default", nil, "", nil, true},
		{"environment", map[string]string{"AWS_REQUEST_CHECKSUM_CALCULATION": "WHEN_REQUIRED"}, "", nil, false},
		{"config file", nil, "[default]\nrequest_checksum_calculation = when_required\n", nil, false},
		{"environment over config file", map[string]string{"AWS_REQUEST_CHECKSUM_CALCULATION": "when_supported"},
			"[default]\nrequest_checksum_calculation = when_required\n", nil, true},
		{"option over environment", map[string]string{"AWS_REQUEST_CHECKSUM_CALCULATION": "when_required"}, "",
			[]client.Option{client.WithRequestChecksumCalculation(client.ChecksumWhenSupported)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := client.New(m, "t#S", srv.URL, append([]client.Option{client.WithAWSConfig(awsConfig(t, tc.vars, tc.config))}, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			out, err := c.Call(context.Background(), "Put", []byte(`{"Key": "k", "Body": "eA=="}`))
			if err != nil {
				t.Fatal(err)
			}
			if g := got(t, out)["Got"].(string); strings.Contains(g, "X-Amz-Checksum-Crc32=") != tc.checksum {
				t.Errorf("server got %q, want a checksum: %v", g, tc.checksum)
			}
		})
	}
	// Response validation: the bad object passes unchecked under
	// when_required from the config file.
	c, err := client.New(m, "t#S", srv.URL, client.WithAWSConfig(awsConfig(t, nil, "[default]\nresponse_checksum_validation = when_required\n")))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Call(ctx, "Put", []byte(`{"Key": "bad", "Body": "eA=="}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(ctx, "Get", []byte(`{"Key": "bad"}`)); err != nil {
		t.Errorf("Get under response_checksum_validation = when_required: %v", err)
	}
	// Bad values: the setting's place, or the option.
	for _, tc := range []struct {
		vars map[string]string
		opt  client.Option
		want string
	}{
		{map[string]string{"AWS_RESPONSE_CHECKSUM_VALIDATION": "never"}, nil, "environment variable AWS_RESPONSE_CHECKSUM_VALIDATION must be when_supported or when_required"},
		{nil, client.WithResponseChecksumValidation("always"), `WithResponseChecksumValidation("always"): want "when_supported" or "when_required"`},
	} {
		opts := []client.Option{client.WithAWSConfig(awsConfig(t, tc.vars, ""))}
		if tc.opt != nil {
			opts = append(opts, tc.opt)
		}
		_, err := client.New(m, "t#S", srv.URL, opts...)
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a usage error saying %q", tc.vars, err, tc.want)
		}
	}
}
