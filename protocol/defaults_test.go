package protocol_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// TestTimestampDefaultsDecoded: an output without its timestamp members
// gets their defaults in the document form, RFC 3339 whatever form the
// model wrote them in (what typed Go, C and Python read); an http-date
// default was once copied as is, which no front end could read.
func TestTimestampDefaultsDecoded(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../codegen/testdata/gen/defaults.smithy")
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service(m.Services()[0])
	op, _ := svc.Operation("PutNote")
	c, err := protocol.New(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"httpDate": "2024-05-23T10:20:30Z", "headerDate": "2024-05-23T10:20:31Z",
		"iso": "2024-05-23T10:20:32.5Z", "epoch": "2024-05-23T10:20:33Z", "epochFraction": "2024-05-23T10:20:34.25Z"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %s (output %s)", k, got[k], want, out)
		}
	}
}
