package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/transport"
)

const secretsModel = `$version: "2"
namespace t
@alloy#simpleRestJson
@httpBearerAuth
@httpBasicAuth
@httpApiKeyAuth(name: "X-Api-Key", in: "header")
@aws.auth#sigv4(name: "svc")
service S { operations: [Bearer, Basic, Key, Sig] }

@auth([httpBearerAuth]) @http(method: "POST", uri: "/bearer") operation Bearer { input := { v: String } errors: [Oops] }
@auth([httpBasicAuth]) @http(method: "POST", uri: "/basic") operation Basic { input := { v: String } errors: [Oops] }
@auth([httpApiKeyAuth]) @http(method: "POST", uri: "/key") operation Key { input := { v: String } errors: [Oops] }
@auth(["aws.auth#sigv4"]) @http(method: "POST", uri: "/sig") operation Sig { input := { v: String } errors: [Oops] }

@error("client") @httpError(400) structure Oops { message: String }
`

// The credentials of the secrets test; none may appear in any error or
// trace text. The basic user is not a secret.
var secrets = []string{"BEARER-SECRET-1", "PW-SECRET-2", "KEY-SECRET-3", "AWS-SECRET-4", "SESSION-SECRET-5"}

func secretOptions(suffix string) []client.Option {
	return []client.Option{
		client.WithBearerToken(secrets[0] + suffix), client.WithBasicAuth("user", secrets[1]+suffix),
		client.WithAPIKey(secrets[2] + suffix),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: secrets[3] + suffix,
			SessionToken: secrets[4] + suffix, Region: "eu-west-1"}),
		client.WithoutRetries(), client.WithTimeout(5 * time.Second),
	}
}

// TestCredentialsTrimmed: a credential read from a file ends with a
// newline; one is removed, and the request carries the bare value.
func TestCredentialsTrimmed(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	m := loadIDL(t, secretsModel)
	for _, nl := range []string{"\n", "\r\n"} {
		c, err := client.New(m, "t#S", srv.URL, secretOptions(nl)...)
		if err != nil {
			t.Fatalf("credentials ending in %q: %v", nl, err)
		}
		defer c.Close()
		for op, want := range map[string][2]string{
			"Bearer": {"Authorization", "Bearer " + secrets[0]},
			"Key":    {"X-Api-Key", secrets[2]},
			"Sig":    {"X-Amz-Security-Token", secrets[4]},
		} {
			if _, err := c.Call(context.Background(), op, []byte(`{}`)); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
			if got := rec.last().Header.Get(want[0]); got != want[1] {
				t.Errorf("%s with credentials ending in %q: %s = %q, want %q", op, nl, want[0], got, want[1])
			}
		}
		if _, err := c.Call(context.Background(), "Basic", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if user, pw, _ := rec.last().BasicAuth(); user != "user" || pw != secrets[1] {
			t.Errorf("basic auth %q:%q", user, pw)
		}
	}
}

// TestSecretsNeverShown makes calls that succeed, fail with a service
// error, fail in the transport, with the trace and the observer on, and
// clients with bad credentials or endpoints, and looks for the credentials
// in every error and trace text they produce.
func TestSecretsNeverShown(t *testing.T) {
	m := loadIDL(t, secretsModel)
	var mu sync.Mutex
	var texts []string
	keep := func(s string) { mu.Lock(); texts = append(texts, s); mu.Unlock() }
	watch := []client.Option{
		client.WithTrace(func(ev transport.TraceEvent) { keep(fmt.Sprintf("%+v", ev)) }),
		client.WithObserver(func(a client.Attempt) {
			if a.Err != nil {
				keep(a.Err.Error())
			}
		}),
	}
	ops := []string{"Bearer", "Basic", "Key", "Sig"}
	callAll := func(endpoint string, opts ...client.Option) {
		c, err := client.New(m, "t#S", endpoint, append(append(secretOptions("\r\n"), watch...), opts...)...)
		if err != nil {
			keep(err.Error())
			return
		}
		defer c.Close()
		for _, op := range ops {
			if _, err := c.Call(context.Background(), op, []byte(`{"v": "x"}`)); err != nil {
				keep(err.Error())
				keep(fmt.Sprintf("%+v", err))
			}
		}
	}

	ok := httptest.NewServer(&recorder{})
	defer ok.Close()
	callAll(ok.URL) // success
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Amzn-Errortype", "Oops")
		w.WriteHeader(400)
		w.Write([]byte(`{"message": "no"}`))
	}))
	defer failing.Close()
	callAll(failing.URL) // service errors
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	callAll(closed.URL) // transport errors
	// A header the caller adds that breaks the request must not show.
	callAll(ok.URL, client.WithHeader("X-Extra", secrets[0]+"\r\nX-Injected: 1"))
	errorsSeen := len(texts)

	// Bad credentials and endpoints are refused at New, without the value.
	for _, bad := range []string{"\x00", "\n\n", "\r", "\x1b[0m", "\x7f", " \n x"} {
		for i, opt := range []client.Option{
			client.WithBearerToken(secrets[0] + bad), client.WithBasicAuth("user", secrets[1]+bad),
			client.WithAPIKey(secrets[2] + bad),
			client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: secrets[3] + bad, Region: "r"}),
			client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "s", SessionToken: secrets[4] + bad, Region: "r"}),
		} {
			_, err := client.New(m, "t#S", ok.URL, opt)
			var e *client.Error
			if !errors.As(err, &e) || e.Kind != client.KindUsage || !strings.Contains(err.Error(), "control character") {
				t.Errorf("credential %d ending in %q: %v", i, bad, err)
				continue
			}
			keep(err.Error())
		}
	}
	for _, ep := range []string{"http://user:" + secrets[1] + "@127.0.0.1:80", "http://:" + secrets[1] + "@h:99999/",
		"http://user:" + secrets[1] + "@h/?q", "ftp://user:" + secrets[1] + "@h/"} {
		_, err := client.New(m, "t#S", ep)
		if err == nil {
			t.Errorf("endpoint %s accepted", ep)
			continue
		}
		keep(err.Error())
	}
	if _, err := client.New(m, "t#S", "http://127.0.0.1:65536"); err == nil || !strings.Contains(err.Error(), "port 65536") {
		t.Errorf("port 65536: %v", err)
	}

	if errorsSeen < 3*len(ops) {
		t.Fatalf("only %d texts from the calls: the test does not exercise what it should", errorsSeen)
	}
	for _, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("secret %s shown in: %s", s, text)
			}
		}
	}
}
