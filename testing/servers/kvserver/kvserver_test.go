package kvserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/kvserver"
)

// Both RPC v2 services end to end through the real client and libcurl:
// every operation, exact values of every kind back, each modeled error, a
// retryable error retried, an input error not sent, a transport error.
func TestKVEndToEnd(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("kv.smithy", kvserver.Model)
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, svc := range []string{"KVCbor", "KVJson"} {
		t.Run(svc, func(t *testing.T) {
			srv := httptest.NewServer(kvserver.New().Handler())
			defer srv.Close()
			attempts := 0
			c, err := client.New(m, model.ShapeID(kvserver.Namespace+"#"+svc), srv.URL,
				client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: 2 * time.Millisecond}),
				client.WithObserver(func(client.Attempt) { attempts++ }))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			call := func(op, in string) map[string]any {
				t.Helper()
				out, err := c.Call(ctx, op, []byte(in))
				if err != nil {
					t.Fatalf("%s: %v", op, err)
				}
				var v map[string]any
				if err := json.Unmarshal(out, &v); err != nil {
					t.Fatalf("%s output %s: %v", op, out, err)
				}
				return v
			}
			fail := func(op, in string, kind client.Kind) *client.Error {
				t.Helper()
				_, err := c.Call(ctx, op, []byte(in))
				var e *client.Error
				if !errors.As(err, &e) || e.Kind != kind {
					t.Fatalf("%s %s: error %v, want kind %s", op, in, err, kind)
				}
				return e
			}

			if out, err := c.Call(ctx, "Ping", nil); err != nil || string(out) != "{}" {
				t.Fatalf("Ping = %s, %v", out, err)
			}
			item := `"key": "a/1", "value": "AAEC/w==", "tags": {"k": "v", "ü": ""}, "score": 0.25,
				"size": 123456789012345678901234567890, "ratio": -1234.5678, "expires": "2026-12-01T10:20:30.125Z"`
			put := call("Put", `{`+item+`, "secret": "s3cret"}`)
			if put["version"] != 1.0 {
				t.Errorf("Put = %v", put)
			}
			call("Put", `{"key": "b", "size": 7, "ratio": 5}`)
			got := call("Get", `{"key": "a/1"}`)["item"].(map[string]any)
			var want map[string]any
			json.Unmarshal([]byte(`{`+item+`, "version": 1}`), &want)
			delete(got, "stored")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Get item = %v\nwant %v", got, want)
			}
			// Every digit of the big numbers, exactly as sent.
			out, _ := c.Call(ctx, "Get", []byte(`{"key": "a/1"}`))
			for _, lit := range []string{`"size":123456789012345678901234567890`, `"ratio":-1234.5678`} {
				if !json.Valid(out) || !strings.Contains(string(out), lit) {
					t.Errorf("Get output %s lacks %s", out, lit)
				}
			}
			if items := call("List", `{"prefix": "a/"}`)["items"].([]any); len(items) != 1 {
				t.Errorf("List a/ = %v", items)
			}
			if items := call("List", `{}`)["items"].([]any); len(items) != 2 {
				t.Errorf("List = %v", items)
			}
			e := fail("Put", `{"key": "a/1", "ifVersion": 5}`, client.KindService)
			if string(e.Shape) != kvserver.Namespace+"#Conflict" || e.Status != 400 || !sameJSON(e.Members, `{"message":"version mismatch","current":1}`) {
				t.Errorf("Conflict = %+v %s", e, e.Members)
			}
			call("Delete", `{"key": "a/1"}`)
			e = fail("Get", `{"key": "a/1"}`, client.KindService)
			if string(e.Shape) != kvserver.Namespace+"#NotFound" || !sameJSON(e.Members, `{"message":"no item a/1","key":"a/1"}`) {
				t.Errorf("NotFound = %+v %s", e, e.Members)
			}
			attempts = 0
			e = fail("Get", `{"key": "unavailable"}`, client.KindService)
			if string(e.Shape) != kvserver.Namespace+"#Unavailable" || e.Status != 503 || attempts != 3 || e.Attempts != 3 {
				t.Errorf("Unavailable = %+v after %d attempts", e, attempts)
			}
			attempts = 0
			fail("Put", `{"key": "k", "ifVersion": 1.5}`, client.KindUsage)
			fail("Put", `{"value": "AA=="}`, client.KindValidation)
			if attempts != 0 {
				t.Errorf("an input error was sent (%d attempts)", attempts)
			}
			srv.Close()
			fail("Ping", ``, client.KindTransport)
		})
	}
}

func sameJSON(got []byte, want string) bool {
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && reflect.DeepEqual(a, b)
}
