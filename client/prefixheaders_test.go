package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/smithycurl/smithycurl/client"
)

// The keys of an @httpPrefixHeaders map are the header names after the
// prefix as the service spelled them ("x-amz-meta-color" gives "color", as
// boto3 and the protocol tests have it). Over libcurl they came back in
// Header's canonical form ("Color").
func TestPrefixHeaderKeysKeepTheirSpelling(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Raw map writes keep the names as given (Set would canonicalize).
		w.Header()["x-meta-color"] = []string{"red"}
		w.Header()["X-Meta-Size"] = []string{"XL"}
		w.Header()["x-meta-camelCase"] = []string{"c"}
		w.WriteHeader(200)
	}))
	defer srv.Close()
	m := loadIDL(t, `$version: "2"
namespace t
@alloy#simpleRestJson
service S { operations: [Get] }
@readonly @http(method: "GET", uri: "/get")
operation Get { output := { @httpPrefixHeaders("x-meta-") meta: Meta } }
map Meta { key: String, value: String }
`)
	c, err := client.New(m, "t#S", srv.URL, client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out, err := c.Call(context.Background(), "Get", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"meta":{"camelCase":"c","color":"red","Size":"XL"}}`; string(out) != want {
		t.Errorf("output %s, want %s", out, want)
	}
}
