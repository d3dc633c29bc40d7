package typed_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/model"
)

// scanOutput is ScanOutput as the Go generator writes it.
type scanOutput struct {
	Count        *int32
	ScannedCount *int32
	Ratio        *typed.Float64
}

// An output value its type cannot hold is a decode error naming the member
// path, the value and the type's range, from the dynamic client and the
// typed one. Before, the dynamic client returned {"Count":1.5} as it came
// and typed Go failed in encoding/json ("json: cannot unmarshal number 1.5
// into Go struct field ... of type int32", no member path, not a
// *client.Error).
func TestOutputValuesOutOfType(t *testing.T) {
	var body atomic.Value // the canned body
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Write([]byte(body.Load().(string)))
	}))
	defer srv.Close()
	l := model.NewLoader()
	if err := l.AddPath(filepath.Join("testdata", "numbers.smithy")); err != nil {
		t.Fatal(err)
	}
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.test.numbers#Tables", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for _, tc := range []struct{ body, want string }{
		{`{"Count": 1.5, "ScannedCount": 2}`, "member ScanOutput.Count: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
		{`{"Count": 1, "ScannedCount": 2147483648}`, "member ScanOutput.ScannedCount: 2147483648 is out of range (integer: -2147483648 to 2147483647)"},
		{`{"Ratio": 1e400}`, "member ScanOutput.Ratio: 1e400 is out of range (double: ±1.7976931348623157e308)"},
	} {
		want := "Scan: decode error: response of Scan (HTTP 200): " + tc.want
		body.Store(tc.body)
		out, err := c.Call(ctx, "Scan", nil)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != client.KindDecode || err.Error() != want {
			t.Errorf("dynamic %s: %s, %v; want the decode error %q", tc.body, out, err, want)
		}
		var typedOut scanOutput
		err = typed.Invoke(ctx, c, "Scan", nil, &typedOut, nil)
		if !errors.As(err, &ce) || ce.Kind != client.KindDecode || err.Error() != want || strings.Contains(err.Error(), "\n") {
			t.Errorf("typed %s: %+v, %v; want the decode error %q", tc.body, typedOut, err, want)
		}
	}
	// An output the library accepts but a Go type does not fit (a
	// mismatch between a generated package and its model) says so in one
	// line, not in the JSON library's multi-line excerpt.
	body.Store(`{"Count": 1}`)
	var mismatch struct{ Count *string }
	err = typed.Invoke(ctx, c, "Scan", nil, &mismatch, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "Scan: output does not fit the generated type: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("mismatch: %q", err)
	}
	// The edges still decode.
	body.Store(`{"Count": 2147483647, "ScannedCount": -2147483648, "Ratio": "-Infinity"}`)
	var out scanOutput
	if err := typed.Invoke(ctx, c, "Scan", nil, &out, nil); err != nil || *out.Count != 2147483647 || *out.ScannedCount != -2147483648 {
		t.Errorf("edges: %+v, %v", out, err)
	}
}
