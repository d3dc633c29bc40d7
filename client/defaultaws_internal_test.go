package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	awscredentials "github.com/smithycurl/smithycurl/credentials"
	"github.com/smithycurl/smithycurl/identity"
	"github.com/smithycurl/smithycurl/model"
)

// TestDefaultAWSFoundNone: default AWS credentials that are nowhere are as
// none: an operation takes its next scheme or goes unsigned when its auth
// is optional, one that needs SigV4 fails saying what was searched, and
// the search is made once.
func TestDefaultAWSFoundNone(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	l := model.NewLoader()
	l.AddSource("test.smithy", []byte(`$version: "2"
namespace t
use aws.auth#sigv4
@alloy#simpleRestJson
@httpBearerAuth
@sigv4(name: "svc")
service S { operations: [Signed, Optional, Either] }
@auth([sigv4]) @http(method: "POST", uri: "/signed") operation Signed {}
@auth([sigv4]) @optionalAuth @http(method: "POST", uri: "/optional") operation Optional {}
@auth([sigv4, httpBearerAuth]) @http(method: "POST", uri: "/either") operation Either {}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, "t#S", srv.URL, WithRegion("us-east-1"), WithBearerToken("tok"), WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var searches atomic.Int32
	c.creds.aws = identity.ProviderFunc[identity.AWS](func(context.Context) (identity.AWS, error) {
		searches.Add(1)
		return identity.AWS{}, fmt.Errorf("no AWS credentials found; tried environment, profile default: %w", awscredentials.ErrNotFound)
	})
	c.creds.awsDefault = true
	c.creds.cache()
	for range 3 {
		for _, op := range []string{"Optional", "Either"} {
			if _, err := c.Call(context.Background(), op, nil); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
		}
		_, err := c.Call(context.Background(), "Signed", nil)
		if ce, ok := err.(*Error); !ok || ce.Kind != KindUsage ||
			!strings.Contains(err.Error(), "no credentials were given for them (") || !strings.Contains(err.Error(), "tried environment, profile default") {
			t.Fatalf("Signed: got %v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(auths[:2], ", "); got != "/optional , /either Bearer tok" {
		t.Errorf("requests: %s", got)
	}
	if n := searches.Load(); n != 1 {
		t.Errorf("%d searches, want 1", n)
	}
}
